"""`shogun-tower demo` runs the whole path on the simulated tower, reproducibly."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

from shogun_common.colours import CUBE_COLOURS


def _demo(tmp_path: pathlib.Path, name: str, seed: int) -> tuple[dict, str]:
    summary = tmp_path / name
    proc = subprocess.run(
        [sys.executable, "-m", "shogun_tower.cli", "demo", "--seed", str(seed), "--battles", "3",
         "--players", "3", "--summary", str(summary)],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return json.loads(summary.read_text()), proc.stdout


def test_demo_summary_is_reproducible_and_loses_nothing(tmp_path: pathlib.Path) -> None:
    first, out = _demo(tmp_path, "a.json", 5)
    second, _ = _demo(tmp_path, "b.json", 5)
    assert first == second
    assert first["lost_events"] == 0
    assert len(first["throws"]) == 4
    setup = first["throws"][0]["in"]
    assert setup == {"black": 7, "red": 7, "yellow": 7, "green": 10}
    inside = {c: 0 for c in CUBE_COLOURS}
    for throw in first["throws"]:
        for c in CUBE_COLOURS:
            inside[c] += throw["in"].get(c, 0) - throw["out"].get(c, 0)
    assert inside == first["in_tower"]
    assert first["frames"] == 4
    assert "score track:" in out and "the tower model agrees" in out


def test_bad_arguments_get_one_line_errors(tmp_path: pathlib.Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "shogun_tower.cli", "demo", "--battles", "-1"],
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "--battles" in lines[0]
    proc = subprocess.run([sys.executable, "-m", "shogun_tower.cli", "demo", "--summary",
                           str(tmp_path / "no" / "such" / "dir" / "s.json"), "--battles", "0"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "no folder" in proc.stderr
