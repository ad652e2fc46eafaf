"""The LED score track with the military leaders (rule X3.9): at the end of a bot game on the
simulated tower running the real firmware, the strip shows every player's VP with the statues
and trophies included, not the VP before them."""

from __future__ import annotations

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
from shogun_tower.table.terminal import track_letters


def test_the_strip_shows_the_vp_with_statues_and_trophies_at_the_end() -> None:
    with SimulatedTower(seed=31) as sim:
        link = DeviceLink(sim.port)
        link.hello()
        game = Game.create(3, seed=31, expansions=["leaders"])
        seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
        table = TableGame(Journal.new(game), seats, DeviceTower(link),
                          Console(out=io.StringIO()), link=link)
        state = table.run()
        assert state.result is not None
        final = state.scores[-1]["final"]
        extra = {p: sum(row.values()) for p, row in final.items()}
        assert any(extra.values()), final  # some statue or trophy scored
        scores = [(p, state.vp[p], state.rice[p]) for p in state.game.players]
        before = [(p, state.vp[p] - extra[p], state.rice[p]) for p in state.game.players]
        # the last battle's flashes may still run: wait for the settled picture of the scores
        deadline = time.monotonic() + 10
        frame = link.read_led_frame()
        while track_letters(frame, scores, False) is None and time.monotonic() < deadline:
            time.sleep(0.1)
            frame = link.read_led_frame()
        assert track_letters(frame, scores, False) is not None
        assert track_letters(frame, before, False) is None
        link.close()
