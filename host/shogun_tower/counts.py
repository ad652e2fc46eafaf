"""The one reader of cube counts: what a person types at the console (``red 3, blue 2,
farmers 1``, or ``r3 b2 f1``; ``green`` and ``g`` are taken for the farmers' cube colour too;
the colours' names in the players' language too: ``rouge 3``, ``赤3``), and the
``colour=count,...`` of a command-line option (``blue=3,farmers=1``)."""

from __future__ import annotations

import re

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _
from shogun_tower.words import FARMERS, colour_word, cube_word

_OPTION_NAMES = (*(c for c in CUBE_COLOURS if c != FARMERS), "farmers")

_ALIASES = {"k": "black", "bk": "black", "r": "red", "y": "yellow", "p": "purple", "b": "blue",
            "bl": "blue", "g": "green", "f": "green", "farmer": "green", "farmers": "green"}
# a colour's name: letters of any script (no digits), so 赤3 reads as 赤 and 3
_TOKEN = re.compile(r"([^\W\d_]+)\s*[:=]?\s*(\d+)|(\d+)\s*([^\W\d_]+)")


def _colour(word: str) -> str:
    """The cube colour a typed word names: an English alias, or a colour's name (or
    "farmers") in the players' language."""
    if word in _ALIASES:
        return _ALIASES[word]
    spoken = {cube_word(c).lower(): c for c in CUBE_COLOURS}
    spoken[colour_word(FARMERS).lower()] = FARMERS  # the farmers' cube colour by its name
    return spoken.get(word, word)


def parse_counts(text: str, allowed: tuple[str, ...] = CUBE_COLOURS) -> dict[str, int]:
    """Counts per colour from a typed line; an empty line or ``none`` means no cube."""
    text = text.strip().lower()
    counts = dict.fromkeys(allowed, 0)
    if text in ("", "none", "nothing", "0", "-"):
        return counts
    rest = _TOKEN.sub(" ", text).replace(",", " ").replace("、", " ").strip()
    if rest:
        raise ShogunError(_("cannot read {text!r}: type counts like 'red 3, blue 2, farmers 1' "
                            "(or r3 b2 g1; k is black)").format(text=rest))
    for m in _TOKEN.finditer(text):
        word, number = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        colour = _colour(word)
        if colour not in allowed:
            raise ShogunError(_("{word!r} is not a cube colour here: use {colours}").format(
                word=word, colours=", ".join(cube_word(c) for c in allowed)))
        counts[colour] += int(number)
    return counts


def parse_count_option(text: str, what: str) -> dict[str, int]:
    """``colour=count,…`` (an option's value) to counts by cube colour; farmers by name or by
    cube colour."""

    out: dict[str, int] = {}
    for part in filter(None, (x.strip() for x in text.split(","))):
        name, _sign, n = part.partition("=")
        colour = FARMERS if name == "farmers" else name
        if colour not in CUBE_COLOURS or not n.isdigit():
            raise ShogunError(_("{option}: {part!r} must be name=count with a name among "
                                "{names}, e.g. blue=3,farmers=1").format(
                option=what, part=part, names=", ".join(_OPTION_NAMES)))
        if colour in out:
            raise ShogunError(_("{option}: {name} is given twice; give each name once, e.g. "
                                "blue=3,farmers=1").format(option=what, name=name))
        out[colour] = int(n)
    return out
