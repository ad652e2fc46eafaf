"""The power budget measured on the simulated board: the host's game loop sends track_config, the
rice LEDs light, and the heaviest frame read back with led_read, summed with the firmware's own
current model over the 100 LEDs that exist, stays within the budget; the figures are the
README's."""

from __future__ import annotations

import pytest
from hardware_helpers import HARDWARE, load

power = load("power")


@pytest.fixture(scope="module")
def measured():
    return power.measure_on_sim(seed=1)


def test_the_game_configures_the_whole_strip(measured) -> None:
    assert measured.leds_in_frame == power.VP_LEDS + power.RICE_LEDS
    assert measured.untold_leds_in_frame == power.VP_LEDS  # the firmware's boot layout
    assert measured.rice_lit >= 1


def test_the_limiter_holds_the_budget_over_the_leds_that_exist(measured) -> None:
    assert measured.battle_ma <= power.STRIP_BUDGET_MA
    assert measured.battle_ma > power.STRIP_BUDGET_MA - 5  # the limiter was at work
    # without track_config the 19 rice LEDs' idle current comes on top of the budget
    assert measured.untold_battle_ma > power.STRIP_BUDGET_MA + 15
    assert sum(power.LOADS_MA.values()) + measured.battle_ma <= power.USB2_MA


def test_readme_shows_the_measured_figures(measured) -> None:
    assert power.measured_table(measured) in (HARDWARE / "README.md").read_text()
