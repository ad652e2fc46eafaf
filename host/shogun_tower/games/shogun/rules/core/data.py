"""The expansions' data files (``host/shogun_tower/data/``), validated when loaded, as the maps.

Every value a player may need to correct (a favour card's effect, a bonus amount) is an entry
with ``source: "seed"`` (read in rulebook 002) or ``source: "decision"`` plus a ``reason``. A game
embeds the documents it plays with (``Game.expansion_data``), so a replay needs no file, and a
corrected file can be given instead of the packaged one.
"""

from __future__ import annotations

import pathlib
from typing import Any

from shogun_tower.errors import DataError
from shogun_tower.games.shogun.rules.core.files import json_file, packaged
from shogun_tower.i18n import _

SOURCES = ("seed", "decision")


def read(which: Any, default: str) -> dict:
    """``which``: None (the packaged file ``default``), a path, or a parsed document."""
    if which is None:
        return packaged(default)
    if isinstance(which, dict):
        return which
    path = pathlib.Path(str(which))
    if not path.is_file():
        raise DataError(_("{path}: no such file; give the path of a {default}-like JSON "
                          "file").format(
            path=path, default=default))
    doc = json_file(path, DataError, str(path))
    if not isinstance(doc, dict):
        raise DataError(_("{path}: the file must hold a JSON object").format(
            path=path))
    return doc


def open_doc(which: Any, default: str, fmt: str, label: str) -> tuple[dict, str]:
    """The document and the name errors give it; its ``format`` checked."""
    doc = read(which, default)
    origin = label if which is None or isinstance(which, dict) else str(which)
    if doc.get("format") != fmt:
        raise fail(origin, _("field 'format' must be \"{fmt}\"").format(
            fmt=fmt))
    return doc, origin


def fail(origin: str, msg: str) -> DataError:
    return DataError(" ".join(f"{origin}: {msg}".split()))


def need_int(origin: str, where: str, d: dict, key: str, lo: int, hi: int) -> int:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise fail(origin, _("{where}: field '{key}' must be a whole number {lo}-{hi}, "
                             "got {v!r}").format(
            where=where, key=key, lo=lo, hi=hi, v=v))
    return v


def need_source(origin: str, where: str, d: dict) -> None:
    """Each value says where it comes from; a decision says why."""
    if d.get("source") not in SOURCES:
        raise fail(origin, _("{where}: field 'source' must be \"seed\" or \"decision\", got "
                             "{source!r}").format(
            where=where, source=d.get('source')))
    if d["source"] == "decision" and not (isinstance(d.get("reason"), str) and d["reason"]):
        raise fail(origin, _("{where}: a decision needs a 'reason' saying why").format(
            where=where))
