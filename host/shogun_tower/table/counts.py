"""Reading cube counts that a person types: ``red 3, blue 2, farmers 1`` (or ``r3 b2 f1``;
``green`` and ``g`` are taken for the farmers' cube colour too)."""

from __future__ import annotations

import re

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.errors import ShogunError

_ALIASES = {"k": "black", "bk": "black", "r": "red", "y": "yellow", "p": "purple", "b": "blue",
            "bl": "blue", "g": "green", "f": "green", "farmer": "green", "farmers": "green"}
_TOKEN = re.compile(r"([a-z]+)\s*[:=]?\s*(\d+)|(\d+)\s*([a-z]+)")


def parse_counts(text: str, allowed: tuple[str, ...] = CUBE_COLOURS) -> dict[str, int]:
    """Counts per colour from a typed line; an empty line or ``none`` means no cube."""
    text = text.strip().lower()
    counts = dict.fromkeys(allowed, 0)
    if text in ("", "none", "nothing", "0", "-"):
        return counts
    rest = _TOKEN.sub(" ", text).replace(",", " ").strip()
    if rest:
        raise ShogunError(f"cannot read {rest!r}: type counts like 'red 3, blue 2, farmers 1' "
                          f"(or r3 b2 g1; k is black)")
    for m in _TOKEN.finditer(text):
        word, number = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        colour = _ALIASES.get(word, word)
        if colour not in allowed:
            raise ShogunError(f"{word!r} is not a cube colour here: use "
                              f"{', '.join(allowed)}")
        counts[colour] += int(number)
    return counts
