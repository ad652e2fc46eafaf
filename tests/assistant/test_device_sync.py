"""During a game the device is kept in step with it: a pulled cable in the middle of a throw and
a board reset between throws change nothing in the game, and the LED track comes back by
itself."""

from __future__ import annotations

import io
import threading
import time

from shogun_tower.assistant.conductor import TableGame
from shogun_tower.assistant.console import Console
from shogun_tower.assistant.seats import BotSeat
from shogun_tower.link import DeviceLink
from shogun_tower.rules import Game
from shogun_tower.rules.journal import Journal
from shogun_tower.sim_device import SimulatedTower
from shogun_tower.tower import DeviceTower

TICK = 10  # every tenth space has a dim mark of its own


def _player_leds(frame: bytes) -> set[int]:
    lit = set()
    for i in range(len(frame) // 3):
        r, g, b = frame[3 * i: 3 * i + 3]
        if (r or g or b) and not (r == g == b and r < 16):
            lit.add(i)
    return lit


def test_cable_pull_mid_throw_and_board_reset_mid_game_lose_nothing() -> None:
    with SimulatedTower(seed=21) as sim:
        link = DeviceLink(sim.port)
        link.hello()
        tower = DeviceTower(link)
        game = Game.create(3, seed=21)
        seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
        table = TableGame(Journal.new(game), seats, tower, Console(out=io.StringIO()),
                          link=link)
        events = {"pulls": 0, "resets": 0}
        real_throw = tower.throw

        def throw_with_a_pulled_cable(cubes_in: dict[str, int]) -> dict[str, int]:
            if len(table.record.throws) in (2, 7):
                def pull() -> None:
                    time.sleep(0.15)  # cubes are falling
                    link.port.close()
                    events["pulls"] += 1
                threading.Thread(target=pull).start()
            return real_throw(cubes_in)

        def reset_between_throws(t: TableGame) -> None:
            if len(t.record.throws) == 12 and not events["resets"]:
                events["resets"] += 1
                sim.reset()  # power cycle: the board forgets the scores and its count

        tower.throw = throw_with_a_pulled_cable
        table.on_progress = reset_between_throws
        state = table.run()

        assert state.result is not None
        assert events == {"pulls": 2, "resets": 1}
        assert link.reconnects >= 2
        # Every cube the throws let out was received once and applied by the rules: the
        # engine's tower is the simulated tower's, cube for cube.
        assert table.tower_agrees() is True
        assert tower.cubes_counted == table.record.cubes_applied
        assert sum(sum(t["out"].values()) for t in table.record.throws) == \
            table.record.cubes_applied

        # The final scores are on the strip; a reset now brings them back by itself.
        before = _player_leds(link.read_led_frame())
        assert before
        boot = link.boot_id
        sim.reset()
        deadline = time.monotonic() + 10
        after: set[int] = set()
        while time.monotonic() < deadline:
            if link.boot_id != boot:
                after = _player_leds(link.read_led_frame())
                if after == before:
                    break
            time.sleep(0.1)
        assert after == before, "the score track did not come back after the reset"
        link.close()
