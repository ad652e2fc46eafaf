"""The one reader of cube counts: what a person types at the console (``red 3, blue 2,
farmers 1``, or ``r3 b2 f1``; ``green`` and ``g`` are taken for the farmers' cube colour too),
and the ``colour=count,...`` of a command-line option (``blue=3,farmers=1``)."""

from __future__ import annotations

import re

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.errors import ShogunError
from shogun_tower.words import FARMERS

_OPTION_NAMES = (*(c for c in CUBE_COLOURS if c != FARMERS), "farmers")

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


def parse_count_option(text: str, what: str) -> dict[str, int]:
    """``colour=count,…`` (an option's value) to counts by cube colour; farmers by name or by
    cube colour."""

    out: dict[str, int] = {}
    for part in filter(None, (x.strip() for x in text.split(","))):
        name, _, n = part.partition("=")
        colour = FARMERS if name == "farmers" else name
        if colour not in CUBE_COLOURS or not n.isdigit():
            raise ShogunError(f"{what}: {part!r} must be name=count with a name among "
                              f"{', '.join(_OPTION_NAMES)}, e.g. blue=3,farmers=1")
        if colour in out:
            raise ShogunError(f"{what}: {name} is given twice; give each name once, e.g. "
                              f"blue=3,farmers=1")
        out[colour] = int(n)
    return out
