"""A tower profile reaches the simulated board as its options (sim_main.py --pass-p, --knock-p:
the host reads the profile file, the board's 64K heap never holds that code), and tower_model.py
on MicroPython builds that tower from them."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest

from shogun_tower.games.shogun.odds.model import TowerParams, sim_options

ROOT = pathlib.Path(__file__).resolve().parents[2]
MICROPYTHON = shutil.which("micropython", path=str(pathlib.Path(sys.executable).parent))


@pytest.mark.skipif(MICROPYTHON is None, reason="the MicroPython unix port is in .venv")
def test_micropython_builds_the_tower_a_profile_gives_the_simulated_board() -> None:
    opts = sim_options(TowerParams((0.7, 0.7), 0.05))  # what play, demo and sim pass it
    assert opts == ["--pass-p", "0.7", "--knock-p", "0.05"]
    pass_p, knock_p = float(opts[1]), float(opts[3])
    # as firmware/shogun_fw/boards/sim.py makes its tower from those options
    code = (f"from shogun_common.tower_model import TowerModel\n"
            f"from shogun_common.rng import Rng\n"
            f"t = TowerModel(pass_p={pass_p!r}, knock_p={knock_p!r})\n"
            f"out = t.throw([1] * 30, Rng(2))\n"
            f"print(t.pass_p, t.knock_p, len(out) + len(t.inside()))\n")
    done = subprocess.run([MICROPYTHON, "-c", code], cwd=ROOT / "common", capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[0.7,", "0.7]", "0.05", "30"]
