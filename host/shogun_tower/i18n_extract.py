"""Babel's extractor for the pages' HTML (``babel.cfg``): the text of every element marked
``data-i18n``, and its ``title``, ``aria-label``, ``placeholder`` and ``alt``, which
``web/i18n.js`` translates when the page opens. The scripts' own strings are marked
``_("...")`` and ``ngettext(...)`` and read by Babel's JavaScript extractor."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import IO

_MARKED = re.compile(r"<(\w+)([^>]*\sdata-i18n(?:\s|=)[^>]*|[^>]*\sdata-i18n)>([^<]*)<",
                     re.S)
_ATTRIBUTE = re.compile(r'\s(title|aria-label|placeholder|alt)="([^"]*)"')


def extract_html(fileobj: IO[bytes], keywords: object, comment_tags: object,
                 options: dict) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """(line number, function name, message, comments) per marked text, as Babel wants."""
    text = fileobj.read().decode(options.get("encoding", "utf-8"))
    for match in _MARKED.finditer(text):
        line = text.count("\n", 0, match.start()) + 1
        for attribute in _ATTRIBUTE.finditer(match.group(2)):
            yield line, None, html.unescape(attribute.group(2)), []
        words = " ".join(match.group(3).split())
        if words:
            yield line, None, html.unescape(words), []


def extract_figure_words(fileobj: IO[bytes], keywords: object, comment_tags: object,
                         options: dict) -> Iterator[tuple[int, str | None, object, list[str]]]:
    """Knizia's Samurai's words, kept once in its ``samurai.json``: each figure's ``title`` and
    ``plural``, and the count of it ("{n} helmet", "{n} helmets") as one plural message, so
    that the language's own plural rule chooses; each tile's kind and each off-board tile's
    reason."""
    import json
    text = fileobj.read().decode("utf-8")
    for figure in json.loads(text).get("figures", []):
        line = text[:text.find(f'"{figure["name"]}"')].count("\n") + 1
        title, plural = figure.get("title", figure["name"]), figure["plural"]
        yield line, None, title, []
        yield line, None, plural, []
        yield line, "ngettext", (f"{{n}} {title}", f"{{n}} {plural}"), []
    # the tiles' kinds as players name them, and why an off-board tile is never next to one
    for tile in json.loads(text).get("tiles", []):
        line = text[:text.find(f'"kind": "{tile["kind"]}"')].count("\n") + 1
        yield line, None, tile["kind"], ["Translators: a kind of tile, typed and shown"]
    for tile in json.loads(text).get("off_board_tiles", []):
        line = text[:text.find(f'"kind": "{tile["kind"]}"')].count("\n") + 1
        yield line, None, tile["kind"], ["Translators: a kind of tile, shown"]
        yield line, None, tile["why"], []
