"""Real games for the board-page tests: the engine's own states, driven by its bots and the
tower model, with what the table saw (narrated log, last throw) kept beside them."""

from __future__ import annotations

from collections.abc import Callable

from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.runner import TowerDriver
from shogun_tower.games.shogun.view import Chronicle


class BotGame:
    """A game played one command at a time (the loop of ``rules.runner.play_game``), so tests
    can stop anywhere and look at the events of every command."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.state = State.new(game)
        self.tower = TowerDriver(seed)
        self.bots = {p: HeuristicBot(seed + i) for i, p in enumerate(game.players)}
        self.chronicle = Chronicle()
        self.commands: list[dict] = []
        self.events: list[dict] = []

    def next_command(self) -> dict:
        s = self.state
        st = s.step
        assert st is not None, "the game is over"
        if st["kind"] == "throw":
            return {"type": "tray", "counts": self.tower.throw(st["into_tower"])}
        if st["kind"] == "plan":
            p = next(p for p in self.game.players if p not in s.plans)
            return self.bots[p].decide(s, p)
        return self.bots[st["player"]].decide(s, st["player"])

    def step(self) -> list[dict]:
        command = self.next_command()
        before = self.state.step
        events = self.state.apply(command)
        self.commands.append(command)
        self.events.extend(events)
        self.chronicle.record(before, events)
        return events

    def play_until(self, done: Callable[[BotGame], bool], limit: int = 5000) -> BotGame:
        for _ in range(limit):
            if self.state.step is None or done(self):
                return self
            self.step()
        raise AssertionError("the game never reached the wanted point")

    def count(self, kind: str) -> int:
        return sum(1 for e in self.events if e["event"] == kind)

    def view(self, waiting: str = "") -> dict:
        return self.chronicle.view(self.state, waiting)


def after_battles(n: int) -> Callable[[BotGame], bool]:
    """Stop once ``n`` battles were decided, at a moment when nobody is mid-throw."""
    return lambda g: g.count("verdict") >= n and g.state.step["kind"] != "throw"


def four_player_game(battles: int = 4) -> BotGame:
    return BotGame(Game.create(players=4, seed=3), seed=3).play_until(after_battles(battles))
