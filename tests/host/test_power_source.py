"""The strip's budget follows the power source the tower senses (GPIO34 on a real tower, the
simulated tower's SIM_SUPPLY and --supply-5v), seen from the host: STATUS, the LED frames read
back and summed with hardware/power.py's LED model, and `shogun-tower tower status`."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from shogun_common import protocol as P
from shogun_tower.device.link import DeviceLink, LinkError
from shogun_tower.sim_device import SimulatedTower

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hardware"))
import power  # noqa: E402

USB_MA = power.STRIP_BUDGET_MA
SUPPLY_MA = power.PSU_STRIP_BUDGET_MA


def _white(link: DeviceLink) -> None:
    # every VP LED white at full brightness: 81 x 60 mA, far above either budget
    link.configure_track(rice_len=19, brightness=255)  # the host allows the supply's 2400 mA
    link.request(P.SEGMENTS, P.pack_segments([(0, 81, P.SEG_WHITE)]))


def _frame_ma(link: DeviceLink) -> float:
    frame = link.read_led_frame()
    return power.strip_ma(frame, len(frame) // 3)


def _watch(link: DeviceLink, seconds: float, until=None) -> list[tuple[float, int, float, int]]:  # noqa: ANN001
    """(time, the higher of the budgets STATUS gave just before and just after, the frame's
    current by the LED model, supply) as often as the link allows, for ``seconds`` or until
    ``until(status)``."""
    seen = []
    t0 = time.monotonic()
    before = link.status()
    while time.monotonic() - t0 < seconds:
        ma = _frame_ma(link)
        after = link.status()
        seen.append((time.monotonic() - t0, max(before["budget_ma"], after["budget_ma"]), ma,
                     after["supply"]))
        before = after
        if until is not None and until(after):
            break
    return seen


@pytest.mark.parametrize(("options", "budget", "supply"),
                         [([], USB_MA, 0), (["--supply-5v"], SUPPLY_MA, 1)])
def test_the_tower_s_budget_is_its_power_source_s(options: list[str], budget: int,
                                                  supply: int) -> None:
    with SimulatedTower(seed=3, options=options) as sim, DeviceLink(sim.port) as link:
        link.handshake(wait_s=5)
        link.configure_track(rice_len=19)  # the host allows 2400 mA
        seen = _watch(link, 3.0, lambda s: s["budget_ma"] == budget)
        assert seen[-1][1] == budget and seen[-1][3] == supply, seen[-1]
        link.configure_track(rice_len=19, budget_ma=300)
        assert link.status()["budget_ma"] == 300  # never above what the host allows


def test_plugged_and_unplugged_the_strip_stays_within_its_source_s_budget() -> None:
    with SimulatedTower(seed=3) as sim, DeviceLink(sim.port) as link:
        link.handshake(wait_s=5)
        _white(link)
        on_usb = _watch(link, 0.5)
        assert all(ma <= budget == USB_MA for _, budget, ma, _ in on_usb), on_usb
        assert max(ma for _, _, ma, _ in on_usb) > 0.9 * USB_MA  # the limiter at work

        link.sim_supply(True)
        plugged = _watch(link, 2.0, lambda s: s["supply"] == 1)
        assert all(ma <= budget for _, budget, ma, _ in plugged), plugged
        # the supply's budget after the hand-over (0.52 s), the brighter frame within a second
        took = plugged[-1][0]
        assert plugged[-1][3] == 1 and 0.4 < took < 1.0, plugged
        bright = _watch(link, 0.5)
        assert all(ma <= budget == SUPPLY_MA for _, budget, ma, _ in bright), bright
        assert max(ma for _, _, ma, _ in bright) > 0.9 * SUPPLY_MA

        link.sim_supply(False)
        # lowered before the command's reply: not one frame read after it above USB's budget
        unplugged = _watch(link, 1.0)
        assert all(ma <= USB_MA and budget == USB_MA and not supply
                   for _, budget, ma, supply in unplugged), unplugged

        # plugged in and out again during a throw: the same
        link.sim_supply(True)
        _watch(link, 2.0, lambda s: s["supply"] == 1)
        link.sim_throw({"red": 10, "green": 5})
        link.sim_supply(False)
        during = _watch(link, 0.5)
        assert all(ma <= USB_MA for _, _, ma, _ in during), during


def test_a_real_tower_refuses_sim_supply_and_bad_payloads_are_refused() -> None:
    with SimulatedTower(seed=3) as sim, DeviceLink(sim.port) as link:
        link.handshake(wait_s=5)
        for bad in (b"", b"\x02", b"\x01\x00"):
            with pytest.raises(LinkError, match="sim_supply: 1 byte"):
                link.request(P.SIM_SUPPLY, bad)
        assert link.status()["budget_ma"] == USB_MA


def test_status_from_an_older_firmware_has_no_supply() -> None:
    new = P.pack_status(1, 2, 3, 4, 5, 370, 0, 128, 0, supply=1)
    assert P.unpack_status(new)["supply"] == 1
    assert "supply" not in P.unpack_status(new[:-1])  # (an older firmware's 39 bytes)
    assert "heap_live" in P.unpack_status(new[:-1])


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "shogun-tower"), *args],
                          capture_output=True,
                          text=True, timeout=60, cwd=ROOT)


def test_tower_status_says_which_source_feeds_the_strip() -> None:
    usb = _cli("tower", "status", "--sim")
    assert usb.returncode == 0, usb.stderr
    assert f"strip power: USB (budget {USB_MA} mA; no 5 V supply plugged in)" in usb.stdout
    supply = _cli("tower", "status", "--sim", "--supply-5v")
    assert supply.returncode == 0, supply.stderr
    assert f"strip power: the 5 V supply (budget {SUPPLY_MA} mA)" in supply.stdout
    bad = _cli("tower", "status")
    assert bad.returncode != 0 and "give --port PORT" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) <= 2  # (usage and one line)


def test_tower_supply_plugs_the_simulated_tower_s_supply() -> None:
    with SimulatedTower(seed=3) as sim:
        plugged = _cli("tower", "supply", "in", "--port", sim.port)
        assert plugged.returncode == 0, plugged.stderr
        assert f"strip power: the 5 V supply (budget {SUPPLY_MA} mA)" in plugged.stdout
        status = _cli("tower", "status", "--port", sim.port)
        assert "strip power: the 5 V supply" in status.stdout, status.stdout + status.stderr
        pulled = _cli("tower", "supply", "out", "--port", sim.port)
        assert f"strip power: USB (budget {USB_MA} mA" in pulled.stdout, pulled.stderr
