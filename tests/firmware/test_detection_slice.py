"""A short seeded slice of make bench's 10,000 cubes (bench/bench_firmware.py): the faithful
simulated outlet played as on an ESP32 under its interrupt model (simtime.play), for the
tower's build (a C handler reads the beams' counters) and stock MicroPython (soft handlers,
some edges late): every cube counted, none given another colour, few unknown."""

from __future__ import annotations

import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parents[2] / "bench"))

import bench_firmware  # noqa: E402

CUBES = 1500


@pytest.mark.parametrize("build", ["tower", "stock"])
def test_every_cube_counted_none_misclassified(build: str) -> None:
    result = bench_firmware.virtual_run(CUBES, 3, (3.0, 20.0), build)
    total = bench_firmware.totals(bench_firmware.score(result))
    assert total["cubes"] >= CUBES
    assert total["missed"] == total["extra"] == total["wrong"] == 0, total
    # Unknown, per colour, under the optical model (docs/firmware.md): black reads about 70
    # counts at best against 6 of read noise, and is mostly unknown (55 % in the 10,000-cube
    # bench); every other colour is told but for a few percent (tilts up to 45 degrees: at
    # seed 3, yellow 18 of 260 unknown, the most).
    for colour, got in bench_firmware.score(result).items():
        share = got["unknown"] / max(1, got["cubes"])
        assert share <= (0.70 if colour == "black" else 0.10), (colour, got)
    assert result["mismatches"] == 0 and not result["errors"], result["errors"]
    if build == "tower":
        assert result["late_edges"] == 0
    else:
        assert 0 < result["late_edges"] < result["edges"] // 20  # (late, and rare)
