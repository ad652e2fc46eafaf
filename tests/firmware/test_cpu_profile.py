"""The CPU bench (bench/bench_cpu.py) times only the firmware, and all of it: whatever the
simulated board does inside a step is taken out, a step that ran simulation code the profiler
missed shows, and firmware code that ran outside every timed step or timer callback shows too.

The leak test runs the worst case with a fake clock that jumps 10^9 ns whenever any function of
the simulated board's class runs (private ones too): every step's firmware figure must stay far
below one jump. A board method the firmware reached without the profiler would show at once.

The escape test counts every call of every function of the firmware's modules: the calls made
inside timed task steps and timed timer callbacks must be all of them. A callback the firmware
hands to the board (a timer's, an interrupt's) or a task resumed by an exception (a timeout)
that the profiler did not time would show as calls outside.

A split run (bench/emitters.py, bench/mpy/native_split.py) times the firmware's native and viper
code apart, for the native R: the leak test shows no simulation time in that part either, and the
escape test shows no firmware bytecode ran while native time was counted."""

from __future__ import annotations

import pathlib
import sys

import pytest

BENCH = pathlib.Path(__file__).parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import bench_cpu  # noqa: E402

SIM_NS = 10 ** 9


def test_no_simulation_time_reaches_the_firmware_figures() -> None:
    # (with the firmware's native code timed apart: neither figure may hold simulation time)
    out = bench_cpu.run_worst(throws=1, cubes=12, replays=1, seed=3, leak_test=True,
                              split=True)
    rep = out["replays"][0]
    assert rep["sim_ns"] >= SIM_NS * 100, "the simulated board ran: its time was taken out"
    assert rep["cubes_seen"] == rep["cubes_thrown"] == 12
    names = rep["names"]
    assert {"link", "detector", "colour sampling", "score track"} <= set(names)
    worst = max(rep["rows"], key=lambda row: row[5])
    # A step's figure on the fake clock is its number of clock readings: a few, never a jump.
    assert worst[5] < 1000, f"{names[worst[0]]} step at {worst[4]} us includes simulation time"
    worst = max(rep["rows"], key=lambda row: row[17])
    assert worst[17] < 1000, (
        f"{names[worst[0]]} step at {worst[4]} us: its native code's time includes simulation "
        "time")
    # and the firmware's own work is there: every task ran steps
    assert {row[0] for row in rep["rows"]} == set(range(len(names)))


def test_no_firmware_call_escapes_the_profiler() -> None:
    out = bench_cpu.run_worst(throws=1, cubes=12, replays=1, seed=3, escape_test=True)
    rep = out["replays"][0]
    assert rep["cubes_seen"] == rep["cubes_thrown"] == 12
    assert rep["fw_calls"] > 500
    assert rep["fw_calls_timed"] == rep["fw_calls"], (
        f"{rep['fw_calls'] - rep['fw_calls_timed']} calls of firmware code ran outside every "
        "timed step and timer callback")
    # bench/emitters.py: a bytecode function that native code calls is timed as bytecode. One
    # reached by no wrapper would run while native time is counted (the larger R, the smaller
    # ratio, would then scale it).
    assert rep["emit_misses"] == 0, (
        f"{rep['emit_misses']} calls of bytecode ran while the profiler counted native code")
    # the colour samples come from the board's timer, whose callback writes them into the
    # detector's ring itself (boards/esp32.py _on_sample): no firmware code runs in it (its
    # own cost is esp32_costs' sample_callback, which bench_cpu.py adds to each of these rows)
    names = rep["names"]
    assert "colour callback" in names
    callbacks = [row for row in rep["rows"] if row[0] == names.index("colour callback")]
    assert len(callbacks) > 50 and sum(row[5] for row in callbacks) == 0


def test_the_firmware_native_code_is_timed_apart() -> None:
    # A split run (native and viper functions timed apart) has the plain run's steps, and
    # gives each a share of native code: the detector's pairing and the link's framing are
    # viper and native, their tasks' loops bytecode.
    plain = bench_cpu.run_worst(throws=1, cubes=12, replays=1, seed=3)
    split = bench_cpu.run_worst(throws=1, cubes=12, replays=1, seed=3, split=True)
    base, rows = bench_cpu.firmware_steps(plain, None, split)
    assert base["split_aligned"]
    names = base["names"]
    for task in ("detector", "link"):
        mine = [r for r in rows if names[r[0]] == task]
        total = sum(r[4] for r in mine)
        native = sum(r[9] for r in mine)
        assert 0 < native < total, (task, native, total)
        assert all(0 <= r[9] <= r[4] for r in mine)
    # without a split run, no time is counted as native (all of it at the bytecode R)
    _base, rows = bench_cpu.firmware_steps(plain)
    assert all(r[9] == 0 for r in rows)


def test_the_steps_of_identical_replays_line_up() -> None:
    # The least of several replays is taken step by step: the replays must be the same run.
    out = bench_cpu.run_worst(throws=1, cubes=8, replays=2, seed=5)
    base, rows = bench_cpu.firmware_steps(out)
    assert base["aligned"]
    assert len(rows) == base["steps"] > 100


def test_the_board_probe_runs_on_the_fakes(tmp_path: pathlib.Path) -> None:
    # tests/hil/cpu_probe.py measures stalls and sample gaps on a real board (--port); here it
    # runs on the unix port with the fakes of machine and the sensor, the inject pin jumpered to
    # the beam, so a change of the firmware's interfaces breaks it here first. (The fakes'
    # timing is not a board's: only the fields are checked.)
    import json
    import os
    import subprocess

    from shogun_tower.sim_device import firmware_dir, micropython_executable

    root = pathlib.Path(__file__).parents[2]
    probe = (root / "tests" / "hil" / "cpu_probe.py").read_text()
    probe = probe.replace("THROWS = 3", "THROWS = 1").replace("CUBES = 40", "CUBES = 4")
    probe = probe.replace("IDLE_MS = 2000", "IDLE_MS = 300")
    script = tmp_path / "probe_on_fakes.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(root / 'tests' / 'firmware' / 'fake_machine')!r})\n"
        "import machine\n"
        "from tcs34725_chip import TCS34725Chip\n"
        "from shogun_fw.boards.esp32_config import PINS\n"
        "machine.reset_state()\n"
        "machine.i2c_devices[0x29] = TCS34725Chip(ident=0x44)\n"
        "machine.wire(PINS['inject'], PINS['beam_upper'])\n"
        # the fakes' hardware timers fire only when told: a task stands for them (every 2 ms)
        "import asyncio\n"
        "_run = asyncio.run\n"
        "async def _timers():\n"
        "    while True:\n"
        "        await asyncio.sleep_ms(2)\n"
        "        for t in list(machine.Timer.live):\n"
        "            if t.callback:\n"
        "                t.fire()\n"
        "def _run_with_timers(coro):\n"
        "    async def both():\n"
        "        t = asyncio.create_task(_timers())\n"
        "        try:\n"
        "            return await coro\n"
        "        finally:\n"
        "            t.cancel()\n"
        "    return _run(both())\n"
        "asyncio.run = _run_with_timers\n" + probe)
    fw = firmware_dir()
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(fw), str(fw.parent / "common"),
                                                         ".frozen"]))
    proc = subprocess.run([micropython_executable(), "-X", "heapsize=1M", str(script)],
                          capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    lines = [x for x in proc.stdout.splitlines() if x.startswith("CPU_PROBE ")]
    assert lines, proc.stdout[-1500:] + proc.stderr[-1500:]
    out = json.loads(lines[-1][len("CPU_PROBE "):])
    assert out["hw_count"] == 4 and out["samples"] > 0
    assert {"stall_us", "stall_throw_us", "sample_gap_us", "cubes", "gc_us", "cpu_hz"} <= set(out)


def test_a_task_step_is_charged_one_real_resumption_and_a_flag_wake_the_poller() -> None:
    # The bench charges every task step a whole resumption of the real asyncio (asyncio_rate),
    # so the stand-in's own await is taken out of the step; a step woken by a ThreadSafeFlag
    # (the detector's edge flag) is charged asyncio's poller, as a read from the port is.
    out = bench_cpu.run_worst(throws=1, cubes=12, replays=1, seed=3)
    ov = out["overheads"]
    assert 0 < ov["await_ns"] < 20000
    rep = out["replays"][0]
    names = rep["names"]
    detector = names.index("detector")
    woken = [r for r in rep["rows"] if r[0] == detector and r[1] & bench_cpu.F_FLAG_WAKE]
    assert woken, "the detector waits on its edge flag between throws"
    row = woken[0]
    costs = {"asyncio_io": 5.0}
    plain = (row[0], row[1] & ~bench_cpu.F_FLAG_WAKE) + row[2:]
    assert bench_cpu.board_us(row, costs)[0] == bench_cpu.board_us(plain, costs)[0] + 5.0
    # a read woken by the port's poller is charged once, not twice
    link = names.index("link")
    reads = [r for r in rep["rows"] if r[0] == link and r[16]]
    assert reads and all(bench_cpu.board_us(r, costs)[0] == 5.0 * r[16] for r in reads)
    callback = next(r for r in rep["rows"] if r[1] & bench_cpu.F_CALLBACK)
    task_step = next(r for r in rep["rows"] if not r[1] & bench_cpu.F_CALLBACK)
    base = ov["wrap_leak_ns"], ov["clock_pair_ns"]
    assert bench_cpu._step_ns(task_step, ov) == pytest.approx(
        task_step[5] - task_step[3] * base[0] - base[1] / 2 - ov["await_ns"])
    assert bench_cpu._step_ns(callback, ov) == pytest.approx(
        callback[5] - callback[3] * base[0] - base[1] / 2)
