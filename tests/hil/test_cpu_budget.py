"""What only a real board can say about the firmware's timing: `pytest tests/hil/test_cpu_budget.py
--port PORT` (the inject pin jumpered to the upper beam, docs/hil.md).

tests/hil/cpu_probe.py runs the firmware's detector, colour sampling and animating score track on
the board while the inject pin sends throws of 40 cube-sized pulses at 3 ms gaps. The capture
(docs/firmware.md, Capture) rests on what the port and ESP-IDF are read to do; this is where
they are checked: the 1 MHz clock counted on its own pad, the 16-bit counter's wrap, every
pulse a cube, late edges rare on stock MicroPython and none on the tower's build. It also
reports what the simulated tower's interrupt model assumes (the longest stall, a collection):
the figures to replace its assumptions with. Without --port it is skipped.
"""

from __future__ import annotations

import pathlib

import pytest

from .conftest import run_probe

PROBE = pathlib.Path(__file__).with_name("cpu_probe.py")
GAP_BUDGET_US = 4800  # two 2.4 ms integrations: one colour sample lost at most


@pytest.fixture(scope="module")
def probe(real_port: str | None) -> dict:
    if not real_port:
        pytest.skip("needs a real board: the loop's real timing (run with --port PORT)")
    return run_probe(real_port, PROBE, "CPU_PROBE")


def test_the_clock_reaches_the_counters_through_its_jumper_while_the_beam_is_blocked(
        probe: dict) -> None:
    # (the PWM on CAPTURE_CLOCK, the counters on CAPTURE_CLOCK_IN, one wire between: a board
    # that counts nothing here lacks the jumper, docs/firmware.md)
    counted, placed = probe["clock"][0]
    assert 4900 <= counted <= 5100, probe["clock"]
    assert 4900 <= placed <= 5100, probe["clock"]


def test_a_block_past_the_counters_limit_is_placed_right(probe: dict) -> None:
    # each counter goes back to 0 at max=COUNT_LIMIT (the port's machine.py: "the ESP32 PCNT
    # resets to zero on under/overflow"): a 70 ms block reads 70000 mod the limit, and the
    # capture, which takes a block's time mod the limit with the ticks', places it at 70 ms
    counted, placed = probe["clock"][1]
    assert abs(counted - probe["long_us"] % probe["limit"]) <= 700, probe["clock"]
    assert abs(placed - probe["long_us"]) <= 1000, probe["clock"]


def test_every_injected_pulse_is_a_cube(probe: dict) -> None:
    expected = probe["throws"] * probe["cubes_per_throw"]
    assert probe["hw_count"] == expected
    assert probe["cubes"] == expected


def test_late_edges_are_rare_and_none_on_the_towers_build(probe: dict) -> None:
    print(f"edges {probe['edges']}, late {probe['late_edges']}; longest loop stall "
          f"{probe['stall_throw_us']} us in a throw, {probe['stall_us']} us anywhere; a "
          f"collection {probe['gc_us']} us (compare boards/simtime.py's interrupt model)")
    if probe["tower_build"]:
        assert probe["late_edges"] == 0, probe
    else:
        assert probe["late_edges"] * 20 <= probe["edges"], probe


def test_at_240_mhz(probe: dict) -> None:
    assert probe["cpu_hz"] == 240_000_000, probe


def test_a_strip_write_returns_long_before_its_frame_is_out(probe: dict) -> None:
    # The UART's interrupt sends the frame (drivers/ws2812_uart.py): the loop pays the encoding
    # and a copy, while the wire takes 28.8 us an LED and the reset.
    assert probe["strip_wrote"] is True, probe
    wire_us = probe["strip_leds"] * 28.8
    assert probe["strip_write_us"] <= 500, probe
    assert wire_us <= probe["strip_busy_us"] <= wire_us + 1000, probe


def test_no_two_colour_samples_more_than_4_8_ms_apart(probe: dict) -> None:
    assert probe["samples"] > 0, "no colour sample: is the TCS34725 connected?"
    assert probe["sample_gap_us"] <= GAP_BUDGET_US, probe
