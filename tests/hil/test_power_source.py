"""The strip's budget follows the 5 V supply, on a real tower:
`pytest tests/hil/test_power_source.py --port /dev/ttyUSB0 -s`, with the strip and the barrel
jack wired (hardware/README.md, Power source). The test asks the builder to plug the supply in
and to pull it out, and settles what only a board can: GPIO34 reads the supply through its
divider, the budget rises after the hand-over, and pulling the supply out while the strip draws
the supply's budget neither resets the board (a brown-out of the USB port) nor leaves a frame
above USB's budget. Without --port the simulated tower plays the builder's part (SIM_SUPPLY)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from shogun_common import protocol as P
from shogun_tower.device.link import DeviceLink

from .conftest import drain

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hardware"))
import power  # noqa: E402

USB_MA = power.STRIP_BUDGET_MA
SUPPLY_MA = power.PSU_STRIP_BUDGET_MA
WAIT_S = 60.0  # for the builder's hand at the barrel jack


def _supply(device: DeviceLink, real_port: str | None, capsys: pytest.CaptureFixture[str],
            plugged: bool) -> float:
    """The supply plugged in or pulled out (by the builder on a real tower); the seconds until
    STATUS said so."""
    if real_port:
        with capsys.disabled():
            print(f"\n>>> {'PLUG the 5 V supply into' if plugged else 'PULL the 5 V supply out of'}"
                  f" the tower's barrel jack now (waiting {WAIT_S:.0f} s)", flush=True)
        # (the moment of the hand's move is unknown on a real tower: the wait from the prompt)
    else:
        device.sim_supply(plugged)
    t0 = time.monotonic()
    while time.monotonic() - t0 < WAIT_S:
        if device.status()["supply"] == int(plugged):
            return time.monotonic() - t0
        time.sleep(0.02)
    pytest.fail(f"the tower did not see the supply {'plugged in' if plugged else 'pulled out'} "
                f"within {WAIT_S:.0f} s: check R_SNS_HI/R_SNS_LO to GPIO34")


def test_the_budget_follows_the_supply_and_unplugging_resets_nothing(
        device: DeviceLink, real_port: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    drain(device)
    boot_id = device.boot_id
    device.configure_track(rice_len=19, brightness=255)  # the host allows the supply's budget
    try:
        # every VP LED white: the limiter holds the strip at the budget of its source
        device.request(P.SEGMENTS, P.pack_segments([(0, 81, P.SEG_WHITE)]))
        status = device.status()
        if status.get("supply"):
            _supply(device, real_port, capsys, False)
        status = device.status()
        assert status["budget_ma"] == USB_MA and status["frame_ma"] <= USB_MA, status

        _supply(device, real_port, capsys, True)
        time.sleep(0.3)
        status = device.status()
        assert status["budget_ma"] == SUPPLY_MA and status["supply"] == 1, status
        assert 0.9 * SUPPLY_MA < status["frame_ma"] <= SUPPLY_MA, status  # 2.4 A now

        _supply(device, real_port, capsys, False)  # the strip at the supply's budget
        status = device.status()
        assert status["budget_ma"] == USB_MA and status["frame_ma"] <= USB_MA, status
        frame = device.read_led_frame()
        assert power.strip_ma(frame, len(frame) // 3) <= USB_MA
        # no brown-out: the same boot, no boot event, the link never lost the board
        assert device.hello()["boot_id"] == boot_id
        events = [device.events.get_nowait() for _ in range(device.events.qsize())]
        assert not [e for e in events if e.kind in ("boot", "fatal")], events
    finally:
        device.configure_track()
