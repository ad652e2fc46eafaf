"""A tower profile drives the simulated tower: `sim_options` for
play/demo/sim, checked by throwing into the simulated board (MicroPython unix port)."""

from __future__ import annotations

import pytest

from shogun_tower.device.link import DeviceLink
from shogun_tower.device.tower import DeviceTower
from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams, sim_options
from shogun_tower.sim_device import SimulatedTower


def _cubes_out(options: list[str]) -> int:
    with SimulatedTower(seed=3, options=options) as sim, DeviceLink(sim.port) as link:
        link.hello()
        tower = DeviceTower(link)
        # every cube out counts, "unknown" too: the profile sets how many leave; the colour
        # sensor may miss a colour when the machine is loaded (16 of ~29 in one full-suite run)
        return sum(tower.throw({"red": 20, "blue": 20}).values())


def test_a_sticky_tower_profile_keeps_more_cubes_inside_the_simulated_board() -> None:
    sticky = TowerParams((0.4, 0.4), 0.01)
    assert sim_options(DEFAULT) == []
    assert _cubes_out(sim_options(sticky)) < 20 < _cubes_out([])  # 0.16 v 0.72 of 40 cubes


def test_a_per_ledge_profile_is_refused_for_the_simulated_board() -> None:
    with pytest.raises(ShogunError, match="one pass probability"):
        sim_options(TowerParams((0.6, 0.9), 0.05))
