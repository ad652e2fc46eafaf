"""Bringing a table game to the question a terminal test is about: bots play every seat and the
tower model gives the trays, one command at a time, into a journal that `play --resume` opens."""

from __future__ import annotations

from collections.abc import Mapping

from shogun_tower.games.shogun.bots import Bot
from shogun_tower.games.shogun.rules import State
from shogun_tower.games.shogun.runner import TowerDriver


def bot_command(s: State, bots: Mapping[str, Bot], tower: TowerDriver) -> dict:
    """The next command: a simulated tray for a throw, else the deciding seat's bot's move."""
    st = s.step
    assert st is not None, "the game is over"
    if st["kind"] == "throw":
        return {"type": "tray", "counts": tower.throw(st["into_tower"])}
    p = next(p for p in s.game.players if p not in s.plans) if st["kind"] == "plan" \
        else st["player"]
    return bots[p].decide(s, p)
