"""Hardware-in-loop tests for a real tower (`pytest tests/hil --port /dev/ttyUSB0`).

Wiring (docs/hil.md): the inject pin (PINS["inject"], GPIO 33, open drain) jumpered to the upper
beam's input (GPIO 25), as MicroPython's own hardware tests jumper pins; the colour sensor and
the LED strip connected. Without --port they run on the simulated tower where that is faithful,
and are skipped with the reason where only a board can answer.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from shogun_common import protocol as P
from shogun_tower.device.link import DeviceLink

from .conftest import connect, drain
from .hil_helpers import collect_until_throw_end


def test_injected_pulses_are_counted_by_the_hardware_counter(device: DeviceLink) -> None:
    drain(device)
    before = device.status()
    device.inject(40, block_us=6000, gap_us=3000)  # gaps down to 3 ms
    cubes, ends = collect_until_throw_end(device)
    after = device.status()
    assert len(cubes) == 40
    assert after["hw_count"] - before["hw_count"] == 40, "the PCNT counts every pulse"
    assert after["mismatches"] == before["mismatches"]
    assert ends[-1]["cubes"] == 40


def test_a_long_pulse_is_two_cubes(device: DeviceLink) -> None:
    drain(device)
    # An injected pulse has no lower-beam block: the nominal speed stands in, and 18.6 mm at
    # it (one cube's tallest 17.8 mm, two cubes' shortest 19.4 mm) is 15.7 ms (geometry.json).
    device.inject(1, block_us=20000, gap_us=3000)
    cubes, _ends = collect_until_throw_end(device)
    assert len(cubes) == 2 and cubes[1]["flags"] & P.FLAG_DOUBLE


def test_led_frame_reads_back_with_current_limit(device: DeviceLink) -> None:
    device.configure_track(budget_ma=150, brightness=255)
    try:
        device.push_scores([("red", 5, 0), ("blue", 5, 0), ("yellow", 30, 0)])
        frame = device.read_led_frame()
        assert frame[30 * 3] > 0 and frame[30 * 3 + 1] > 0, "LED 30 shows yellow"
        device.animate_battle("red")
        time.sleep(0.2)
        status = device.status()
        assert status["frame_ma"] <= 150 + 5
    finally:
        device.configure_track()


def test_colour_sensor_answers(device: DeviceLink, real_port: str | None) -> None:
    if not real_port:
        pytest.skip("needs a real board: the TCS34725 on its I2C bus (run with --port PORT)")
    info = device.hello()
    assert info["caps"] & P.CAP_COLOUR, "no TCS34725 at 0x29 on I2C 0 (SDA 21, SCL 22)"
    assert device.status()["sensor_errors"] == 0


def test_watchdog_and_reset_cause(device: DeviceLink, real_port: str | None) -> None:
    if not real_port:
        pytest.skip("needs a real board: machine.WDT and machine.reset_cause (run with --port)")
    # A board that booted from a crash or the watchdog says so in its BOOT event.
    drain(device)
    info = device.hello()
    assert info["board"] == "esp32"


# Last: on a real board it resets the board and reconnects.
def test_calibration_survives_a_reset(device: DeviceLink, real_port: str | None) -> None:
    original = device.get_calibration()
    changed = [(c, x, y, z, max(1, t - 7)) for c, x, y, z, t in original]
    device.store_calibration(changed)
    try:
        if real_port:
            # The board's own reset: hand it to the REPL, then `mpremote reset` (main.py runs).
            device.enter_repl()
            device.close()
            subprocess.run([sys.executable, "-m", "mpremote", "connect", real_port, "reset"],
                           check=True, timeout=20)
            link = connect(real_port, wait_s=15)
        else:
            sim = device.simulated_tower  # type: ignore[attr-defined]
            sim.reset()  # power cycle: only the flash folder survives
            link = device
            deadline = time.monotonic() + 5
            while True:
                try:
                    link.hello()
                    break
                except Exception:
                    assert time.monotonic() < deadline
        assert sorted(link.get_calibration()) == sorted(changed)
    finally:
        (link if "link" in dir() else device).store_calibration(original)
