"""The CPU bench (bench/bench_cpu.py) times only the firmware: whatever the simulated board does
inside a step is taken out, and a step that ran simulation code the profiler missed shows.

The leak test runs the worst case with a fake clock that jumps 10^9 ns whenever any function of
the simulated board's class runs (private ones too): every step's firmware figure must stay far
below one jump. A board method the firmware reached without the profiler would show at once."""

from __future__ import annotations

import pathlib
import sys

BENCH = pathlib.Path(__file__).parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import bench_cpu  # noqa: E402

SIM_NS = 10 ** 9


def test_no_simulation_time_reaches_the_firmware_figures() -> None:
    out = bench_cpu.run_worst(throws=1, cubes=12, replays=1, seed=3, leak_test=True)
    rep = out["replays"][0]
    assert rep["sim_ns"] >= SIM_NS * 1000, "the simulated board ran: its time was taken out"
    assert rep["cubes_seen"] == rep["cubes_thrown"] == 12
    names = rep["names"]
    assert {"link", "detector", "colour sampling", "score track"} <= set(names)
    worst = max(rep["rows"], key=lambda row: row[5])
    # A step's figure on the fake clock is its number of clock readings: a few, never a jump.
    assert worst[5] < 1000, f"{names[worst[0]]} step at {worst[4]} us includes simulation time"
    # and the firmware's own work is there: every task ran steps
    assert {row[0] for row in rep["rows"]} == set(range(len(names)))


def test_the_steps_of_identical_replays_line_up() -> None:
    # The least of several replays is taken step by step: the replays must be the same run.
    out = bench_cpu.run_worst(throws=1, cubes=8, replays=2, seed=5)
    base, rows = bench_cpu.firmware_steps(out)
    assert base["aligned"]
    assert len(rows) == base["steps"] > 1000
