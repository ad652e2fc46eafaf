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


def test_after_a_board_reboot_the_game_configures_the_strip_again() -> None:
    # The rebooted firmware is back at its 81-LED boot layout; the game's resync (on_session)
    # sends track_config again before the scores, so the rice LEDs and their idle current
    # count again without anyone asking.
    import io
    import time

    from shogun_tower.device.link import DeviceLink
    from shogun_tower.device.tower import DeviceTower
    from shogun_tower.games.shogun.journal import Journal
    from shogun_tower.games.shogun.rules import Game
    from shogun_tower.sim_device import SimulatedTower
    from shogun_tower.table.conductor import TableGame
    from shogun_tower.table.console import Console
    from shogun_tower.table.seats import BotSeat

    with SimulatedTower(seed=3) as sim:
        link = DeviceLink(sim.port)
        try:
            link.handshake()
            game = Game.create(3, seed=3)
            seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
            table = TableGame(Journal.new(game), seats, DeviceTower(link),
                              Console(out=io.StringIO()), link=link)
            table.sync()
            assert len(link.read_led_frame()) == 3 * 100
            boot = link.boot_id
            sim.reset()
            deadline = time.monotonic() + 10
            leds = 0
            while time.monotonic() < deadline:
                if link.boot_id != boot:
                    leds = len(link.read_led_frame()) // 3
                    if leds == 100:
                        break
                time.sleep(0.1)
            assert leds == 100
        finally:
            link.close()
