"""The two-player Shogun's coach: its help book and the alpha-beta bot's hint on what the
players have seen, for `help` and `hint` at every move (``table/coach.py``)."""

from __future__ import annotations

from typing import Any

from shogun_tower.games.shogun2 import help as shogun2_help
from shogun_tower.games.shogun2 import hints
from shogun_tower.table.coach import Coach


def coach(table: Any) -> Coach:
    """The coach of a ``table.Table``: ``moves`` works until the game is over."""
    return Coach(shogun2_help.book(), lambda: shogun2_help.question_help(table.state),
                 lambda: hints.hint(table.state, table.journal.commands),
                 lambda: () if table.state.result else ("moves",))
