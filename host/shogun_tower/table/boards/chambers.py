"""The chamber board (expansion X4) as text for the terminal, from its view (the page draws
the same)."""

from __future__ import annotations

from shogun_tower.i18n import _, join
from shogun_tower.lines import cells
from shogun_tower.table.terminal import colour_word
from shogun_tower.words import LETTERS


def _owner_mark(owner: str | None, neutral: str, colour: bool) -> str:
    if owner == neutral:
        return "#"
    return colour_word(LETTERS.get(owner or "", "?"), colour) if owner else "?"


def _leaders(line: dict, neutral: str) -> str:
    """Who holds most markers in a line: one letter, a tie as ``R=Y``, ``-`` nobody."""
    return "=".join("#" if o == neutral else LETTERS.get(o, "?") for o in line["leaders"]) \
        or "-"


def _mark(line: dict, neutral: str) -> str:
    """The same in one character, for the columns' row: a letter, ``=`` a tie, ``-`` nobody."""
    most = _leaders(line, neutral)
    return "=" if "=" in most else most


def lines(view: dict, colour: bool = False) -> list[str]:
    """The chamber board: ``+`` a face-up tile (take it by its name, e.g. C3), ``#`` a face-down
    tile of the neutral player, a player's letter his marker, ``.`` a tile still in the bag;
    each row and column with its VP and who holds most there now (rule X4.7): a tie is ``=``
    under a column and spelled out below the board."""
    neutral = view["neutral"]
    marks = {"up": "+", "empty": "."}
    lines_of = {line["line"]: line for line in view["lines"]}
    players = list(view["markers"])  # the colours in play, in seat order
    # Translators: VP and "most" head the chamber board's last two columns (4 columns each)
    vp_word, most_word = _("VP"), _("most")
    out = [_("Chamber board ({players}; # neutral, + face up, . in the bag; {most}: who holds "
             "most markers in the line, = a tie)").format(
        players=join([f"{LETTERS[p]} {colour_word(p, False)}" for p in players]),
        most=most_word),
           "     " + "".join(f"{c:>4s}" for c in view["columns"]) + "  " + _right(vp_word, 4)
           + "  " + most_word]
    for r, row in enumerate(view["spaces"]):
        cells = [marks.get(sp["state"]) or _owner_mark(sp["owner"], neutral, colour)
                 for sp in row]  # one visible character each (colour codes are invisible)
        line = lines_of[f"row {r + 1}"]
        out.append(f"  {r + 1:>2d} " + "".join("   " + c for c in cells)
                   + f"    {view['row_vp'][r]:>2d}  {_leaders(line, neutral)}")
    out.append(_head(vp_word, "".join(f"{v:>4d}" for v in view["column_vp"])))
    out.append(_head(most_word, "".join(f"{_mark(lines_of[f'column {c}'], neutral):>4s}"
                                        for c in view["columns"])))
    ties = [_("column {column} {players}").format(
        column=c, players=_leaders(lines_of[f"column {c}"], neutral)) for c in view["columns"]
            if "=" in _leaders(lines_of[f"column {c}"], neutral)]
    if ties:
        out.append("  " + _("ties: {ties}").format(ties=join(ties)))
    out.append("  " + _("markers left: {markers}; region row: {regions}; tiles in the bag: "
                        "{bag}; points if the game ended now: {points}").format(
        markers=join([f"{colour_word(p, False)} {n}" for p, n in view["markers"].items()]),
        regions=join([_(r) for r in view["regions"]]) or "—", bag=view["bag"],
        points=join([f"{colour_word(p, False)} {n}" for p, n in view["points"].items()])))
    return out


def _head(label: str, row: str) -> str:
    """A row of the board under its label, its first cell in the fifth column (a longer label
    takes from the first cell's spaces)."""
    return "  " + label + " " * max(0, 3 - cells(label)) + row[max(0, cells(label) - 3):]


def _right(text: str, size: int) -> str:
    return " " * max(0, size - cells(text)) + text
