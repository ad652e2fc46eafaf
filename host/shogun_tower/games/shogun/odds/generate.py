"""Games played on a tower of known parameters, to test the fitting (and to show it in docs)."""

from __future__ import annotations

from shogun_common.colours import CUBE_COLOURS as CODE_COLOURS
from shogun_common.rng import Rng
from shogun_common.tower_model import TowerModel
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.odds.model import TowerParams
from shogun_tower.games.shogun.rules import Game

_CODE = {c: i for i, c in enumerate(CODE_COLOURS)}


def play_journal(params: TowerParams, seed: int, path: str | None = None,
                 players: int = 5) -> Journal:
    """A whole heuristic-bot game thrown into a model tower with ``params``, as a journal."""
    game = Game.create(players, seed=seed)
    journal = Journal.new(game, path)
    s = journal.state
    bots = {p: HeuristicBot(seed * 10 + i) for i, p in enumerate(game.players)}
    rng = Rng(seed + 7919)
    tower = TowerModel(params.ledges, list(params.pass_p), params.knock_p)
    while s.step is not None:
        st = s.step
        if st["kind"] == "throw":
            cubes = [_CODE[c] for c, n in st["into_tower"].items() for _ in range(n)]
            rng.shuffle(cubes)
            counts: dict[str, int] = {}
            for code in tower.throw(cubes, rng):
                counts[CODE_COLOURS[code]] = counts.get(CODE_COLOURS[code], 0) + 1
            journal.apply({"type": "tray", "counts": counts})
        elif st["kind"] == "plan":
            for p in game.players:
                if p not in s.plans:
                    journal.apply(bots[p].decide(s, p))
        else:
            journal.apply(bots[st["player"]].decide(s, st["player"]))
        s = journal.state
    return journal
