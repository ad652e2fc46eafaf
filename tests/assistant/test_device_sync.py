"""During a game the device is kept in step with it: a pulled cable in the middle of a throw and
a board reset between throws change nothing in the game, and the LED track comes back by
itself. A reset in the middle of a throw is never applied as a short count."""

from __future__ import annotations

import io
import threading
import time

from shogun_tower.device.link import DeviceLink
from shogun_tower.device.tower import DeviceTower, TowerRestarted
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.sim_device import SimulatedTower
from shogun_tower.table.conductor import TableGame
from shogun_tower.table.console import Console
from shogun_tower.table.seats import BotSeat
from shogun_tower.table.terminal import track_letters

TICK = 10  # every tenth space has a dim mark of its own


def _player_leds(frame: bytes) -> set[int]:
    lit = set()
    for i in range(len(frame) // 3):
        r, g, b = frame[3 * i: 3 * i + 3]
        if (r or g or b) and not (r == g == b and r < 16):
            lit.add(i)
    return lit


def _bot_game(port: str, seed: int, out: io.StringIO) -> tuple[DeviceLink, DeviceTower, TableGame]:
    """A 3-player game of heuristic bots on the tower at ``port``."""
    link = DeviceLink(port)
    link.hello()
    tower = DeviceTower(link)
    game = Game.create(3, seed=seed)
    seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
    return link, tower, TableGame(Journal.new(game), seats, tower, Console(out=out), link=link)


def test_cable_pull_mid_throw_and_board_reset_mid_game_lose_nothing() -> None:
    with SimulatedTower(seed=21) as sim:
        link, tower, table = _bot_game(sim.port, 21, io.StringIO())
        events = {"pulls": 0, "resets": 0}
        real_throw = tower.throw

        pulled: set[int] = set()

        def throw_with_a_pulled_cable(cubes_in: dict[str, int]) -> dict[str, int]:
            # once per throw: a throw made again (the simulated tower restarted under a
            # loaded machine) is not pulled a second time
            if len(table.record.throws) in (2, 7) and len(table.record.throws) not in pulled:
                pulled.add(len(table.record.throws))
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
        # the last battle's flashes may still run: wait for the settled picture of the scores
        scores = [(p, state.vp[p], state.rice[p]) for p in state.game.players]
        deadline = time.monotonic() + 10
        frame = link.read_led_frame()
        while track_letters(frame, scores, False) is None and time.monotonic() < deadline:
            time.sleep(0.1)
            frame = link.read_led_frame()
        before = _player_leds(frame)
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


def test_a_board_reset_in_the_middle_of_a_throw_is_never_applied_as_a_short_count() -> None:
    # The board forgets the cubes it counted and not yet sent, and sees none while it boots:
    # the throw is not applied from that count. On the simulated tower it is thrown again.
    out = io.StringIO()
    with SimulatedTower(seed=23) as sim:
        link, tower, table = _bot_game(sim.port, 23, out)
        resets = []
        real_throw = tower.throw

        def throw_with_a_reset(cubes_in: dict[str, int]) -> dict[str, int]:
            at = len(table.record.throws)
            if at in (3, 9) and at not in resets:
                resets.append(at)  # once: the same throw is thrown again after the reset

                def reset() -> None:
                    time.sleep(0.12)  # cubes are falling
                    sim.reset()
                threading.Thread(target=reset).start()
            return real_throw(cubes_in)

        tower.throw = throw_with_a_reset
        state = table.run()
        agrees = table.tower_agrees()
        # After the last battle's animation (about a second of the winner's colour) the track
        # shows the players again.
        deadline = time.monotonic() + 5
        while True:
            frame = link.read_led_frame()
            if _player_leds(frame) or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        link.close()

    assert state.result is not None
    assert resets == [3, 9]
    text = out.getvalue()
    assert text.count("the tower restarted during the throw") == 2, text
    assert "the simulated tower throws them again" in text
    # Nothing counted twice, nothing short: the rules' tower is the simulated tower's.
    assert agrees is True
    assert tower.cubes_counted == table.record.cubes_applied
    assert _player_leds(frame), "the score track came back after the resets"


def test_a_reset_mid_throw_is_reported_by_the_device_tower() -> None:
    # At a real tower the conductor then asks the players to type the tray (as for any count
    # that cannot be used).
    with SimulatedTower(seed=24) as sim:
        link = DeviceLink(sim.port)
        link.hello()
        tower = DeviceTower(link)
        boot = link.boot_id
        threading.Timer(0.12, sim.reset).start()
        try:
            tower.throw({"red": 10, "blue": 10, "green": 10})
            raise AssertionError("a throw cut by a reset was counted")
        except TowerRestarted as err:
            assert "restarted during the throw" in str(err)
        assert link.boot_id != boot
        assert tower.cubes_counted == 0
        link.close()
