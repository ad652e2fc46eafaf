"""The expansions' boards as text for the terminal, drawn from each expansion's own view
(``rules.expansions.views``), the same data the board page draws: one module per expansion
that has a board to show, named as the expansion, with ``lines(view, colour) -> list[str]``.
Adding an expansion's terminal board is adding its module here.

A ``choose`` step may name a board to show with its question (``"show": "chambers"``): the
person answering at the laptop sees what the question is about.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

from shogun_tower.games.shogun.rules import State
from shogun_tower.games.shogun.rules.expansions import views

BOARDS: dict[str, Callable[[dict, bool], list[str]]] = {
    info.name: importlib.import_module(f"{__name__}.{info.name}").lines
    for info in pkgutil.iter_modules(__path__)}


def board_lines(state: State, name: str, colour: bool = False) -> list[str]:
    """The text of expansion ``name``'s board, or [] when it has none to show."""
    view = views(state).get(name)
    draw = BOARDS.get(name)
    return draw(view, colour) if view is not None and draw is not None else []
