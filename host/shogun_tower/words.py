"""The display vocabulary every game and table shares, one word per thing: the cube colours in
their order (``shogun_common.colours``, the wire's), how players say them (green is only the
farmers' cube colour, never their name), one letter per colour (the score track, the boards)
and the terminal's colour for each. The board page's own palette is in ``web/app.js``."""

from __future__ import annotations

import functools
import json
import pathlib
from collections.abc import Mapping

from shogun_common.colours import CUBE_COLOURS, PLAYER_COLOURS
from shogun_tower.i18n import N_, N_plural, _, join, language, ngettext

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
# The colours' names, translated where they are shown (the rulebooks' words: glossary.md).
# Knizia's Samurai's players take green too: a player's colour is named by colour_word.
COLOUR_NAMES = {"black": N_("black"), "red": N_("red"), "yellow": N_("yellow"),
                "purple": N_("purple"), "blue": N_("blue"), "green": N_("green")}
assert tuple(LETTERS) == CUBE_COLOURS == tuple(COLOUR_NAMES)
assert set(PLAYER_COLOURS) < set(RGB)
PROVINCE_NAMES = pathlib.Path(__file__).parent / "games/shogun/data/province_names.json"


# The map's regions, named by their colour on the board (``Map.regions``). A region's colour
# word agrees with "region" (French: la région verte, not vert), so it is a message of its
# own, marked with the "region|" context of GLib's Q_() (the catalogues keep no msgctxt):
# untranslated, the word after the bar is shown.
REGION_NAMES = {"brown": N_("region|brown"), "green": N_("region|green"),
                "purple": N_("region|purple"), "red": N_("region|red"),
                "yellow": N_("region|yellow")}
BOARD_ONLY_COLOURS = {"brown": N_("brown")}  # a region's colour that no cube has


def region_word(region: str) -> str:
    """A region of the map as players name it: by its colour ("yellow"; "jaune"; "黄"), in
    the form that goes with "region" ("verte")."""
    if region not in REGION_NAMES:
        return colour_word(region)
    text = _(REGION_NAMES[region])
    return text.partition("|")[2] if text == REGION_NAMES[region] else text


def capital(text: str) -> str:
    """``text`` as a sentence or an entry starts it: its first letter a capital, no other
    changed (``str.capitalize`` would lower a province's or a player's name inside it)."""
    return text[:1].upper() + text[1:]


def colour_word(colour: str) -> str:
    """A colour's name in the players' language (a name we do not know is shown as it is)."""
    names = COLOUR_NAMES if colour in COLOUR_NAMES else BOARD_ONLY_COLOURS
    return _(names[colour]) if colour in names else colour


@functools.cache
def _province_names() -> dict[str, dict[str, str]]:
    data = json.loads(PROVINCE_NAMES.read_text(encoding="utf-8"))
    return {lang: names for lang, names in data.items() if isinstance(names, dict)}


def province_word(name: str) -> str:
    """A province as players name it: its own name in every language, written in its
    historical kanji in Japanese (尾張 for Owari); a name the data does not list, as it is."""
    return _province_names().get(language(), {}).get(name, name)


def cube_word(colour: str) -> str:
    """A cube colour as players name it: the green cubes are the farmers."""
    return _("farmers") if colour == FARMERS else colour_word(colour)


# A number of cubes of one colour ("3 red", "1 farmer"): the count decides the form of the
# word in French (3 rouges, 1 fermier), so each colour is a pair of forms of its own.
CUBES_COUNTED = {"black": N_plural("{n} black", "{n} black"),
                 "red": N_plural("{n} red", "{n} red"),
                 "yellow": N_plural("{n} yellow", "{n} yellow"),
                 "purple": N_plural("{n} purple", "{n} purple"),
                 "blue": N_plural("{n} blue", "{n} blue"),
                 "green": N_plural("{n} farmer", "{n} farmers")}
assert tuple(CUBES_COUNTED) == CUBE_COLOURS


def cube_count(n: float, colour: str) -> str:
    """``n`` cubes of ``colour`` as players say it: "3 red", "1 farmer", "0.3 farmers" (a
    mean: its form is the one CLDR gives a decimal, "0.3 fermier" in French)."""
    if colour not in CUBES_COUNTED:
        # Translators: a number of cubes of a colour no player has, e.g. "3 brown"
        return _("{n} {colour}").format(n=n, colour=cube_word(colour))
    return ngettext(*CUBES_COUNTED[colour], n).format(n=n)


def cubes_text(counts: Mapping[str, int] | None) -> str:
    """``{"red": 3, "green": 1}`` → ``red 3, farmers 1`` (in the colours' order); nothing →
    ``nothing``."""
    order = list(CUBE_COLOURS)
    # Translators: one colour's count in a list of cubes, e.g. "red 3"
    parts = [_("{colour} {count}").format(colour=cube_word(c), count=counts[c])
             for c in sorted(counts or {}, key=lambda c: (order + [c]).index(c))
             if (counts or {})[c]]
    return join(parts) if parts else _("nothing")


def sentence(n: int, one: str, other: str, **values: object) -> str:
    """A whole sentence whose words follow the count ``n``, in the players' language: gettext's
    ngettext chooses the form by the catalogue's plural rule (``one``/``other`` are the
    English forms; `make catalogues` extracts them from every call), its named placeholders
    filled (``{n}`` among them)."""
    return ngettext(one, other, n).format(n=n, **values)
