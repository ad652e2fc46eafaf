"""The tower profile is read by the simulated board too: tower_model.py on MicroPython."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from shogun_tower.odds.model import TowerParams

ROOT = pathlib.Path(__file__).resolve().parents[2]
MICROPYTHON = shutil.which("micropython", path=str(pathlib.Path(sys.executable).parent))


@pytest.mark.skipif(MICROPYTHON is None, reason="the MicroPython unix port is in .venv")
def test_micropython_builds_a_tower_from_a_profile(tmp_path: pathlib.Path) -> None:
    profile = tmp_path / "p.json"
    profile.write_text(json.dumps(TowerParams((0.7, 0.8), 0.05).to_profile(throws=3)))
    code = (f"from shogun_common.tower_model import TowerModel, load_profile\n"
            f"from shogun_common.rng import Rng\n"
            f"t = TowerModel.from_profile(load_profile({str(profile)!r}))\n"
            f"out = t.throw([1] * 30, Rng(2))\n"
            f"print(t.pass_p, t.knock_p, len(out) + len(t.inside()))\n")
    done = subprocess.run([MICROPYTHON, "-c", code], cwd=ROOT / "common", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[0.7,", "0.8]", "0.05", "30"]
