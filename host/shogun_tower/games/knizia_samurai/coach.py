"""Knizia's Samurai's coach at the scoring console: its help book and its hint (the
standing), for `help` and `hint` at every entry (``table/coach.py``)."""

from __future__ import annotations

from typing import Any

from shogun_tower.games.knizia_samurai import help as samurai_help
from shogun_tower.games.knizia_samurai import hints
from shogun_tower.table.coach import Coach


def coach(scoring: Any) -> Coach:
    """The coach of a ``console.ScoringTable``."""
    return Coach(samurai_help.book(scoring.state.game.players),
                 lambda: samurai_help.question_help(scoring.state),
                 lambda: hints.hint(scoring.state))
