"""The one catalogue of Samurai's box: figure types, tiles and what each influences, figures per
player count, the players' colours, the end rule's number. Read from ``samurai.json`` and checked
once; the engine, the referee commands, the terminal and the page all read it from here."""

from __future__ import annotations

import json
import pathlib
import re
from dataclasses import dataclass
from functools import lru_cache

from shogun_tower.errors import DataError
from shogun_tower.i18n import _, ngettext
from shogun_tower.words import colour_word

DATA = pathlib.Path(__file__).with_name("samurai.json")
SOURCES = ("seed", "decision")


@dataclass(frozen=True)
class FigureType:
    name: str    # what is typed and journaled: helmet, buddha, rice
    title: str   # one figure, as players say it: helmet, Buddha, rice field
    plural: str  # helmets, Buddhas, rice fields

    def count(self, n: int) -> str:
        """``1 helmet``, ``3 helmets`` in the players' language (the catalogues hold these
        words, read from samurai.json by shogun_tower.i18n_extract)."""
        return ngettext(f"{{n}} {self.title}", f"{{n}} {self.plural}", n).format(n=n)

    @property
    def said(self) -> str:
        """One figure's name in the players' language."""
        return _(self.title)

    @property
    def said_plural(self) -> str:
        return _(self.plural)


@dataclass(frozen=True)
class TileKind:
    kind: str
    influences: tuple[str, ...]  # the figure types it counts for
    values: tuple[int, ...]      # the numbers a tile of this kind can show

    @property
    def said(self) -> str:
        """The kind's name in the players' language (typed as well: ``console.parse_entry``)."""
        return _(self.kind)


@dataclass(frozen=True)
class Catalogue:
    figures: tuple[FigureType, ...]
    figures_per_type: dict[int, int]  # players -> figures of each type in the game
    fewest: int
    most: int
    colours: tuple[str, ...]
    tiles: dict[str, TileKind]
    off_board: dict[str, str]  # tile kinds that are never next to a figure -> why
    ties_that_end: int

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.figures)

    def typed_text(self, text: str) -> str:
        """``text`` as typed in the players' language, its colours, figures and tile kinds put
        back into the words the engine keeps (``rouge heaume`` -> ``red helmet``); English
        words are kept as they are, so both are understood."""
        said: dict[str, str] = {}
        for colour in self.colours:
            said[colour_word(colour).lower()] = colour
        for f in self.figures:
            said[f.said.lower()] = said[f.said_plural.lower()] = f.name
        for kind in self.tiles.values():
            said.setdefault(kind.said.lower(), kind.kind)
        said = {k: v for k, v in said.items() if k and k != v}
        for word in sorted(said, key=len, reverse=True):  # "champs de riz" before "riz"
            text = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", said[word], text,
                          flags=re.IGNORECASE)
        return text

    def figure(self, name: str) -> FigureType:
        for f in self.figures:
            if f.name == name:
                return f
        raise KeyError(name)


def _need(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise DataError(f"{DATA.name}: {where}: {what}; fix the file (see docs/knizia-samurai.md)")


def _sourced(entry: dict, where: str, key: str = "source") -> None:
    _need(entry.get(key) in SOURCES, where, f"'{key}' must be one of {', '.join(SOURCES)}")


def parse(doc: dict) -> Catalogue:
    """The catalogue from its JSON document; DataError names the entry and field at fault."""
    figures = []
    for i, f in enumerate(doc.get("figures", [])):
        where = f"figures[{i}]"
        _need(isinstance(f.get("name"), str) and f["name"], where, "'name' must be a word")
        _sourced(f, where)
        figures.append(FigureType(f["name"], f.get("title", f["name"]), f["plural"]))
    _need(len(figures) == 3 and len({f.name for f in figures}) == 3, "figures",
          "three distinct figure types")
    types = {f.name for f in figures}
    per = doc.get("figures_per_type", {})
    _sourced(per, "figures_per_type")
    players = doc.get("players", {})
    _sourced(players, "players")
    fewest, most = players.get("fewest"), players.get("most")
    _need(isinstance(fewest, int) and isinstance(most, int) and 2 <= fewest <= most, "players",
          "'fewest' and 'most' must be numbers, 2 <= fewest <= most")
    counts = {}
    for n in range(fewest, most + 1):
        v = per.get(str(n))
        _need(isinstance(v, int) and v > 0, "figures_per_type", f"'{n}' must be a number > 0")
        counts[n] = v
    colours = doc.get("colours", {})
    _sourced(colours, "colours")
    names = tuple(colours.get("names", ()))
    _need(len(names) >= most and len(set(names)) == len(names), "colours",
          f"at least {most} distinct colour names")
    tiles = {}
    for i, t in enumerate(doc.get("tiles", [])):
        where = f"tiles[{i}]"
        _sourced(t, where)
        _need(isinstance(t.get("kind"), str) and t["kind"] not in tiles, where,
              "'kind' must be a new word")
        bad = set(t.get("influences", ())) - types
        _need(not bad, where, f"influences unknown figure types {sorted(bad)}")
        values = t.get("values")
        _need(isinstance(values, list) and values and all(isinstance(v, int) and v >= 0
                                                         for v in values),
              where, "'values' must be a list of numbers >= 0")
        if t.get("values_source") is not None:
            _sourced(t, where, "values_source")
        tiles[t["kind"]] = TileKind(t["kind"], tuple(t["influences"]), tuple(values))
    _need(tiles, "tiles", "at least one tile kind")
    off_board = {}
    for i, t in enumerate(doc.get("off_board_tiles", [])):
        _sourced(t, f"off_board_tiles[{i}]")
        off_board[t["kind"]] = t["why"]
    end = doc.get("end", {})
    _sourced(end, "end")
    _need(isinstance(end.get("ties_that_end"), int) and end["ties_that_end"] > 0, "end",
          "'ties_that_end' must be a number > 0")
    return Catalogue(tuple(figures), counts, fewest, most, names, tiles, off_board,
                     end["ties_that_end"])


@lru_cache(maxsize=1)
def catalogue() -> Catalogue:
    return parse(json.loads(DATA.read_text(encoding="utf-8")))
