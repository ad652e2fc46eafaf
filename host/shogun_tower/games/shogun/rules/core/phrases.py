"""A sentence the engine keeps as data: its English message and its values, so that the state
and the events keep it in English (a game saved in one language replays in another, and the
state's digests never depend on the language) while the table shows it in the players' own.

A phrase is JSON: ``{"msgid": ..., "values": {...}}`` (``"plural"`` and ``"n"`` where a number
decides its form). A value is a number, a name shown as it is, or a phrase itself; a province
(``province``) and a player's colour (``colour``) are named as players name them. ``english``
gives the sentence as stored (``step["question"]``, an option's ``"text"``, an event's
``"reason"``); ``say`` gives it in the language in use, where it is shown.

The English messages are marked where the phrase is made (``N_``, ``N_plural``), so that `make
catalogues` extracts them.
"""

from __future__ import annotations

from typing import Any

from shogun_tower.i18n import _, join, ngettext
from shogun_tower.words import colour_word, province_word, region_word


def phrase(msgid: str, **values: Any) -> dict:
    """A sentence ``msgid`` (marked with ``N_``) with its named values."""
    return {"msgid": msgid, "values": values}


def phrase_n(forms: tuple[str, str], n: int, **values: Any) -> dict:
    """A sentence whose words follow ``n``: ``forms`` is ``N_plural(one, other)``; ``{n}`` is
    among its values."""
    return {"msgid": forms[0], "plural": forms[1], "n": n, "values": values}


def province(name: str) -> dict:
    """A province, named in Japanese by its kanji (``words.province_word``)."""
    return {"province": name}


def colour(name: str) -> dict:
    """A player by colour (or the farmers' colour), named in the players' language."""
    return {"colour": name}


def region(name: str) -> dict:
    """A region of the map by its colour, in the form that goes with "region"."""
    return {"region": name}


def items(values: list, sep: str = ", ") -> dict:
    """A list of phrases or names, joined as the language lists them (``i18n.join``); kept in
    English joined by ``sep``."""
    return {"items": list(values), "sep": sep}


def is_phrase(value: object) -> bool:
    return isinstance(value, dict) and ("msgid" in value or "province" in value
                                        or "colour" in value or "region" in value
                                        or "items" in value)


def _render(value: Any, translate: bool) -> str:
    if not isinstance(value, dict):
        return str(value)
    if "province" in value:
        return province_word(value["province"]) if translate else value["province"]
    if "colour" in value:
        return colour_word(value["colour"]) if translate else value["colour"]
    if "region" in value:
        return region_word(value["region"]) if translate else value["region"]
    if "items" in value:
        texts = [_render(v, translate) for v in value["items"]]
        return join(texts) if translate else value["sep"].join(texts)
    values = {k: _render(v, translate) if isinstance(v, dict) else v
              for k, v in value.get("values", {}).items()}
    if "plural" in value:
        n = value["n"]
        one, other = value["msgid"], value["plural"]
        text = ngettext(one, other, n) if translate else one if n == 1 else other
        return text.format(n=n, **values)
    msgid = value["msgid"]
    return (_(msgid) if translate else msgid).format(**values)


def english(value: Any) -> str:
    """The phrase in English, as the state and the events keep it."""
    return _render(value, translate=False)


def say(value: Any) -> str:
    """The phrase in the language in use (a plain string: translated as a marked word)."""
    if isinstance(value, str):
        return _(value) if value else value
    return _render(value, translate=True)


def stored(event: dict, key: str) -> str:
    """An event's sentence ``key`` in the players' language: from the phrase kept beside it
    (``KEY_words``) where there is one, else its English (a marked sentence) translated."""
    words = event.get(f"{key}_words")
    if words is not None:
        return say(words)
    return say(str(event.get(key) or ""))
