"""The display vocabulary every game and table shares, one word per thing: the cube colours in
their order (``shogun_common.colours``, the wire's), how players say them (green is only the
farmers' cube colour, never their name), one letter per colour (the score track, the boards)
and the terminal's colour for each. The board page's own palette is in ``web/app.js``."""

from __future__ import annotations

from collections.abc import Mapping

from shogun_common.colours import CUBE_COLOURS, PLAYER_COLOURS

FARMERS = "green"  # the farmers' cube colour (rule C1)
LETTERS = {"black": "K", "red": "R", "yellow": "Y", "purple": "P", "blue": "B", "green": "G"}
RGB = {  # the terminal's colours (the black player's cubes show grey on a dark terminal)
    "black": (160, 160, 160),
    "red": (230, 40, 40),
    "yellow": (240, 200, 0),
    "purple": (170, 60, 230),
    "blue": (50, 110, 255),
    "green": (40, 200, 60),
    "unknown": (200, 200, 200),
}
assert tuple(LETTERS) == CUBE_COLOURS and set(PLAYER_COLOURS) < set(RGB)


def cube_word(colour: str) -> str:
    """A cube colour as players name it: the green cubes are the farmers."""
    return "farmers" if colour == FARMERS else colour


def cubes_text(counts: Mapping[str, int] | None) -> str:
    """``{"red": 3, "green": 1}`` → ``red 3, farmers 1`` (in the colours' order); nothing →
    ``nothing``."""
    order = list(CUBE_COLOURS)
    parts = [f"{cube_word(c)} {counts[c]}"
             for c in sorted(counts or {}, key=lambda c: (order + [c]).index(c))
             if (counts or {})[c]]
    return ", ".join(parts) if parts else "nothing"
