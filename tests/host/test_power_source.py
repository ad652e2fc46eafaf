"""The strip's budget follows the power source the tower senses (GPIO34 on the real board, the
simulated tower's --supply-5v), seen from the host through the link's STATUS."""

from __future__ import annotations

import time

import pytest

from shogun_tower.device.link import DeviceLink
from shogun_tower.sim_device import SimulatedTower


@pytest.mark.parametrize(("options", "budget"), [([], 370), (["--supply-5v"], 2400)])
def test_the_tower_s_budget_is_its_power_source_s(options: list[str], budget: int) -> None:
    with SimulatedTower(seed=3, options=options) as sim, DeviceLink(sim.port) as link:
        link.handshake(wait_s=5)
        link.configure_track(rice_len=19)  # the host allows 2400 mA
        deadline = time.monotonic() + 5
        while link.status()["budget_ma"] != budget and time.monotonic() < deadline:
            time.sleep(0.1)  # (the supply's after its 0.5 s hand-over)
        assert link.status()["budget_ma"] == budget
        link.configure_track(rice_len=19, budget_ma=300)
        assert link.status()["budget_ma"] == 300  # never above what the host allows
