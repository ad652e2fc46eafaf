"""The stall's second estimate (bench/step_counts.py) counts the firmware's steps in x86
instructions under callgrind: one count a step, in the steps' order; none of the simulated
board's work in it, however deep the board calls back into the firmware; the same count for the
same code in every run."""

from __future__ import annotations

import pathlib
import sys

import pytest

from shogun_tower.sim_device import firmware_dir, micropython_executable

BENCH = pathlib.Path(__file__).parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import bench_cpu  # noqa: E402
import instructions  # noqa: E402
import step_counts  # noqa: E402

pytestmark = pytest.mark.skipif(instructions.valgrind() is None,
                                reason="valgrind is not installed (make test installs it)")

# cpu_worst.py's leak test: every function of the board's class burns 10000 rounds of a loop,
# several hundred thousand instructions a call
BURNED = 200_000


def _count(leak_test: bool) -> tuple[dict, list]:
    root = firmware_dir()
    env = step_counts.env_for([str(BENCH / "mpy"), str(root), str(root.parent / "common")])
    counted = step_counts.count_steps(micropython_executable(), env, bench_cpu.HEAP, throws=1,
                                      cubes=8, seed=3, pacing=bench_cpu.PACING,
                                      leak_test=leak_test)
    fw, _own = step_counts.firmware_instructions(counted)
    return counted, fw


def test_each_step_is_counted_without_the_simulated_board() -> None:
    plain, fw = _count(leak_test=False)
    burned, fw_burned = _count(leak_test=True)
    rep = burned["replay"]
    assert rep["cubes_seen"] == rep["cubes_thrown"] == 8
    names = rep["names"]
    assert {"link", "detector", "colour sampling", "score track"} <= set(names)
    # the board burned: a call of it would show (its own rows, one call a step, counted nothing)
    assert len(fw_burned) == len(burned["rows"]) == len(fw) == len(plain["rows"])
    # (the collections apart: the firmware's own, at its start and between throws)
    worst = max((f[0], i) for i, f in enumerate(fw_burned)
                if f is not None and not f[2] and not burned["rows"][i][14])
    row = burned["rows"][worst[1]]
    assert worst[0] < BURNED, (
        f"{names[row[0]]} step at {row[4]} us counts {worst[0]} instructions: simulation code")
    # the steps line up with the run without the burn, and count about the same: no burn got in
    # (a step's count moves a little with the heap's state: an allocation searches its table,
    # and the burn's wrappers took heap too)
    moved = [abs(a[0] - b[0]) for a, b, r in zip(fw, fw_burned, burned["rows"], strict=True)
             if a is not None and not (a[2] or b[2] or r[14])]
    assert max(moved) < BURNED // 2, max(moved)
    assert [r[0] for r in plain["rows"]] == [r[0] for r in burned["rows"]]
    # and the firmware's work is there: every task's steps count instructions
    for task in ("link", "detector", "score track"):
        counts = [f[0] for r, f in zip(burned["rows"], fw_burned, strict=True)
                  if f is not None and names[r[0]] == task]
        assert counts and max(counts) > 1_000, task
    # The count's own part of a board call is the same every time: it takes from the heap only
    # map_iternext's array of one argument, as every step does (an allocation's search of the
    # heap's table follows the bench's heap into the firmware's steps: its bytecode wrapper's
    # frame took 0.4-1.9k instructions a call, 30k in a detector step; its clock readings and
    # tracebacks 1.4k between rows). (the first and the last of its rows apart: a task's start
    # and end)
    calls = [c[0] for r, c in zip(plain["rows"], plain["counts"], strict=True)
             if names[r[0]] == step_counts.CALL][1:-1]
    assert len(calls) >= 3 and max(calls) - min(calls) < 1_000, calls


def test_the_real_boards_driver_code_is_counted_without_the_fakes() -> None:
    # boards/esp32.py on the test fakes, as esp32_costs.py times it: every measurement counted,
    # in ESP32 us (the fakes left out as the simulated board's calls are: the test above); a
    # byte more to drain costs more, and so do four edges taken
    root = firmware_dir()
    env = step_counts.env_for([str(root), str(root.parent / "common"), ".frozen"])
    fake = str(pathlib.Path(__file__).parent / "fake_machine")
    costs = step_counts.board_costs(micropython_executable(), env, fake, kb=3.0, kn=2.0)
    assert costs["errors"] == []
    timed = bench_cpu.esp32_costs()
    for key, value in timed.items():
        if isinstance(value, float) and key not in ("call", "wrap_leak_ns"):
            assert costs[key] > 0, key
    assert costs["serial_receive_12"] > costs["serial_receive_1"] + 11 * 5
    assert costs["take_edges_4"] > costs["take_edges_none"]
