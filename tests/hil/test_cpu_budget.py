"""The CPU budget on a real board (issue 13): `pytest tests/hil/test_cpu_budget.py --port PORT`.

bench/bench_cpu.py estimates the ESP32's load, loop stalls and colour-sample gaps from the unix
port and a published ratio R. This test measures the two that matter most on the part itself:
tests/hil/cpu_probe.py runs the firmware's detector, colour sampling and animating score track on
the board while the inject pin (jumpered to the upper beam, docs/hil.md) sends throws of 40
cube-sized pulses at 3 ms gaps, and reports the longest loop stall and the longest gap between two
colour samples. Budget (docs/firmware.md): no stall over 2 ms in a throw, no two samples more than
4.8 ms apart. Without --port it is skipped: only a board has the real timing.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from .conftest import connect

PROBE = pathlib.Path(__file__).with_name("cpu_probe.py")
STALL_BUDGET_US = 2000
GAP_BUDGET_US = 4800
# A collection between throws may hold the loop up longer than a step may: bench_cpu plays it at
# its worst moment (a throw's first edge) and finds no cube lost up to 12 ms, one in 24 of the
# first cubes at 14 ms (docs/firmware.md, Harm, measured)
HARMLESS_STALL_US = 12000


def run_probe(port: str) -> dict:
    """Hand the board to its REPL, run the probe on it, reset it back into the app."""
    link = connect(port)
    try:
        link.enter_repl()
    finally:
        link.close()
    mpremote = [sys.executable, "-m", "mpremote", "connect", port]
    proc = subprocess.run(mpremote + ["run", str(PROBE)], capture_output=True, text=True,
                          timeout=120)
    subprocess.run(mpremote + ["reset"], capture_output=True, timeout=30)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("CPU_PROBE ")]
    assert lines, f"the probe printed no result:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return json.loads(lines[-1][len("CPU_PROBE "):])


@pytest.fixture(scope="module")
def probe(real_port: str | None) -> dict:
    if not real_port:
        pytest.skip("needs a real board: the loop's real timing (run with --port PORT)")
    return run_probe(real_port)


def test_every_injected_pulse_is_a_cube(probe: dict) -> None:
    expected = probe["throws"] * probe["cubes_per_throw"]
    assert probe["hw_count"] == expected
    assert probe["cubes"] == expected


def test_no_loop_stall_over_2_ms_in_a_throw(probe: dict) -> None:
    assert probe["stall_throw_us"] <= STALL_BUDGET_US, probe


def test_at_240_mhz_a_collection_is_short_enough_to_cost_no_cube(probe: dict) -> None:
    # The budget is for 240 MHz (Esp32Board sets it); the collection's time replaces the
    # bench's estimate (docs/firmware.md: what a builder should measure).
    assert probe["cpu_hz"] == 240_000_000, probe
    print(f"gc.collect() on this board: {probe['gc_us']} us (a step's budget "
          f"{STALL_BUDGET_US} us, no cube lost up to {HARMLESS_STALL_US} us)")
    assert 0 < probe["gc_us"] <= HARMLESS_STALL_US, probe


def test_a_strip_write_returns_long_before_its_frame_is_out(probe: dict) -> None:
    # The UART's interrupt sends the frame (drivers/ws2812_uart.py): the loop pays the encoding
    # and a copy, under the stall budget, while the wire takes 28.8 us an LED and the reset.
    assert probe["strip_wrote"] is True, probe
    wire_us = probe["strip_leds"] * 28.8
    assert probe["strip_write_us"] <= STALL_BUDGET_US / 4, probe
    assert wire_us <= probe["strip_busy_us"] <= wire_us + 1000, probe


def test_no_two_colour_samples_more_than_4_8_ms_apart(probe: dict) -> None:
    assert probe["samples"] > 0, "no colour sample: is the TCS34725 connected?"
    assert probe["sample_gap_us"] <= GAP_BUDGET_US, probe
