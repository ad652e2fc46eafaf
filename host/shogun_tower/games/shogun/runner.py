"""Drives a game between bots, feeding tower throws from the tower model (the engine itself
never throws: the tower is an input)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from shogun_common.colours import CUBE_COLOURS as CODE_COLOURS
from shogun_common.rng import Rng
from shogun_common.tower_model import TowerModel
from shogun_tower.games.shogun.bots import Bot
from shogun_tower.games.shogun.rules import Game, State

_CODE = {c: i for i, c in enumerate(CODE_COLOURS)}


class TowerDriver:
    """The simulated tower: turns a pending throw into tray counts."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self.model = TowerModel()

    def throw(self, into_tower: Mapping[str, int]) -> dict[str, int]:
        cubes = [_CODE[c] for c, n in into_tower.items() for _ in range(n)]
        self.rng.shuffle(cubes)
        out = self.model.throw(cubes, self.rng)
        counts: dict[str, int] = {}
        for code in out:
            name = CODE_COLOURS[code]
            counts[name] = counts.get(name, 0) + 1
        return counts


def play_game(game: Game, bots: Mapping[str, Bot], tower_seed: int = 0,
              on_command: Callable[[State, dict], None] | None = None,
              record: list[dict] | None = None) -> State:
    """Play to the end; ``record`` collects every command (a journal can replay them)."""
    s = State.new(game)
    tower = TowerDriver(tower_seed)

    def do(cmd: dict) -> None:
        if record is not None:
            record.append(cmd)
        s.apply(cmd)
        if on_command is not None:
            on_command(s, cmd)

    while s.step is not None:
        st = s.step
        kind = st["kind"]
        if kind == "throw":
            do({"type": "tray", "counts": tower.throw(st["into_tower"])})
        elif kind == "plan":
            for p in game.players:
                if p not in s.plans:
                    do(bots[p].decide(s, p))
        else:
            do(bots[st["player"]].decide(s, st["player"]))
    return s
