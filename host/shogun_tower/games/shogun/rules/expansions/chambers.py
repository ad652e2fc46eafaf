"""X4 The Chambers (rulebook 002, "CHAMBRES"): offices on a chamber board, won by region majorities.

Rules (cited as X4.n):
- X4.1 Material: a chamber board whose spaces are 6 rows by 6 columns, 36 chamber tiles in a bag
  (one for each space), 15 markers a player (``data/chambers.json``), and 5 region tiles, one
  for each region of the map.
- X4.2 Set-up: the 5 region tiles are shuffled and laid face up in a row.
- X4.3 At the start of each season but winter, 6 tiles are drawn from the bag and laid face up
  on their own spaces of the chamber board.
- X4.4 At the end of each season but winter, region tile by region tile in row order, the
  player holding most provinces in that region (ties: the first in turn order) may swap one of
  his markers for one face-up tile: the marker takes the tile's space, the tile goes back to the
  box. A region where no player holds a province is skipped.
- X4.5 Then the tiles still face up turn face down; a face-down tile counts as a marker of a
  neutral player.
- X4.6 Then the first region tile goes to the end of the row.
- X4.7 At the end of the game each row and each column of the board scores the VP printed for it
  to the player with most markers there (the neutral player included); players tied for most
  score that value minus 1 (``tie_penalty``).
- X4.8 The board's size and values: ``data/chambers.json``, each value seed or decision.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from shogun_tower.games.shogun.rules.core import choices
from shogun_tower.games.shogun.rules.core.data import fail, need_int, need_source, open_doc
from shogun_tower.games.shogun.rules.core.phrases import colour, english, phrase, say, stored
from shogun_tower.games.shogun.rules.core.phrases import region as region_phrase
from shogun_tower.games.shogun.rules.core.ruleset import ChanceKind, Expansion, Phase, Question
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.i18n import N_, _, join
from shogun_tower.words import colour_word, region_word, sentence

NAME = "chambers"
DATA_FILE = "chambers.json"
NEUTRAL = "neutral"  # the face-down tiles' owner (rule X4.5)
NO_TILE = "none"  # the answer of a majority holder who keeps his marker (X4.4 "may")
COLUMN_LETTERS = "ABCDEFGHIJ"
_COUNTS = ("tiles", "tiles_per_season", "markers_per_player", "tie_penalty")


# ---- the chamber board (rules X4.1, X4.8) ----------------------------------------------------
def load_data(which: Any) -> dict:
    """Validate a chamber-board document (one-line DataError naming the entry and field)."""
    doc, origin = open_doc(which, DATA_FILE, "shogun-tower-chambers/1", "chamber board")
    for key in _COUNTS:
        entry = doc.get(key)
        if not isinstance(entry, dict):
            raise fail(origin, _("field '{key}' must be {{\"value\": n, \"source\": ...}}").format(
                key=key))
        need_int(origin, key, entry, "value", 0 if key == "tie_penalty" else 1, 100)
        need_source(origin, key, entry)
    board = doc.get("board")
    if not isinstance(board, dict):
        raise fail(origin, _("field 'board' must be {\"rows\": n, \"columns\": m, \"source\": "
                             "...}"))
    rows = need_int(origin, "board", board, "rows", 1, 10)
    cols = need_int(origin, "board", board, "columns", 1, len(COLUMN_LETTERS))
    need_source(origin, "board", board)
    if rows * cols != doc["tiles"]["value"]:
        raise fail(origin, _("board: {rows} x {cols} spaces but {value} tiles; each tile"
                             " has its own space (rule X4.1)").format(
            rows=rows, cols=cols, value=doc['tiles']['value']))
    for kind, n, name in (("rows", rows, "row"), ("columns", cols, "column")):
        lines = doc.get(kind)
        if not isinstance(lines, list) or len(lines) != n:
            raise fail(origin, _("field '{kind}' must list the board's {n} {kind}, each "
                                 "with its VP").format(
                kind=kind, n=n))
        for i, line in enumerate(lines):
            label = i + 1 if name == "row" else COLUMN_LETTERS[i]
            where = f"{name} {label}"
            if not isinstance(line, dict) or line.get(name) != label:
                raise fail(origin, _("{where}: {kind} must be listed in order with "
                                     "\"{name}\": {value}").format(
                    where=where, kind=kind, name=name, value=json.dumps(label)))
            need_int(origin, where, line, "vp", 0, 20)
            need_source(origin, where, line)
    return doc


@dataclass(frozen=True)
class Board:
    rows: tuple[int, ...]  # VP of row 1, 2, ...
    columns: tuple[int, ...]  # VP of column A, B, ...
    per_season: int
    markers: int
    tie_penalty: int

    def space(self, tile: str) -> tuple[int, int]:
        """Tile ``C4`` lies on column C (index 2), row 4 (index 3)."""
        return COLUMN_LETTERS.index(tile[0]), int(tile[1:]) - 1

    @property
    def tiles(self) -> list[str]:
        return list(self._tiles)

    @cached_property
    def _tiles(self) -> tuple[str, ...]:
        return tuple(f"{COLUMN_LETTERS[c]}{r + 1}" for r in range(len(self.rows))
                     for c in range(len(self.columns)))

    @cached_property
    def order(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self._tiles)}

    @cached_property
    def lines(self) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
        """(name, VP, tiles) of every row, then every column (rule X4.7)."""
        out = [(f"row {r + 1}", vp, tuple(t for t in self._tiles if self.space(t)[1] == r))
               for r, vp in enumerate(self.rows)]
        out += [(f"column {COLUMN_LETTERS[c]}", vp,
                 tuple(t for t in self._tiles if self.space(t)[0] == c))
                for c, vp in enumerate(self.columns)]
        return tuple(out)


@lru_cache(maxsize=8)
def _parsed(text: str) -> Board:
    doc = json.loads(text)
    return Board(tuple(r["vp"] for r in doc["rows"]), tuple(c["vp"] for c in doc["columns"]),
                 doc["tiles_per_season"]["value"], doc["markers_per_player"]["value"],
                 doc["tie_penalty"]["value"])


_BOARDS: dict[int, tuple[dict, Board]] = {}  # id of a game's document -> (it, its board)


def board(s: State) -> Board:
    doc = s.game.expansion_data[NAME]
    known = _BOARDS.get(id(doc))
    if known is None or known[0] is not doc:  # an id is reused only once its document is gone
        known = _BOARDS[id(doc)] = (doc, _parsed(json.dumps(doc, sort_keys=True)))
        if len(_BOARDS) > 64:
            _BOARDS.pop(next(iter(_BOARDS)))
    return known[1]


def tile_text(b: Board, tile: str) -> str:
    return say(tile_words(b, tile))


def tile_words(b: Board, tile: str) -> dict:
    """A chamber tile as an option says it, with what its row and column score (a phrase)."""
    c, r = b.space(tile)
    return phrase(N_("{tile} (row {row} VP, column {column} VP)"), tile=tile, row=b.rows[r],
                  column=b.columns[c])


# ---- state -----------------------------------------------------------------------------------
def new_state(s: State) -> dict:
    b = board(s)
    return {"bag": b.tiles, "up": [], "down": [], "box": [],
            "markers": {},  # space (the tile's name) -> the player whose marker lies there
            "supply": dict.fromkeys(s.game.players, b.markers),
            "row": [],  # the region tiles in row order, laid at the first season (X4.2)
            "drawn": False, "next": 0}


def owners(s: State) -> dict[str, str]:
    """Who each filled space counts for: a player's marker, or the neutral player's face-down
    tile (rule X4.5). Face-up tiles and empty spaces count for nobody yet."""
    me = s.expansions[NAME]
    out = dict.fromkeys(me["down"], NEUTRAL)
    out.update(me["markers"])
    return out


# ---- start of the season: the region row and the draw (rules X4.2, X4.3) ---------------------
def draw_phase(s: State, ev: list[dict]) -> dict | None:
    me = s.expansions[NAME]
    if not me["row"]:
        return {"kind": "chance", "what": "chamber_regions", "rule": "X4.2",
                "count": len(s.map.regions), "items": "tiles"}
    if me["drawn"] or not me["bag"]:
        me["drawn"] = True
        return None
    return {"kind": "chance", "what": "chamber_tiles", "rule": "X4.3",
            "count": min(board(s).per_season, len(me["bag"])), "items": "tiles"}


def _regions(s: State, st: dict) -> list[str]:
    return sorted(s.map.regions)


def _row_laid(s: State, st: dict, order: list[str], ev: list[dict]) -> None:
    s.expansions[NAME]["row"] = list(order)
    ev.append({"event": "chamber_regions", "row": list(order), "rule": "X4.2"})


def _bag(s: State, st: dict) -> list[str]:
    bag = set(s.expansions[NAME]["bag"])
    return [t for t in board(s).tiles if t in bag]  # in board order, row by row


def _tiles_drawn(s: State, st: dict, drawn: list[str], ev: list[dict]) -> None:
    me = s.expansions[NAME]
    me["bag"] = [t for t in me["bag"] if t not in drawn]
    me["up"] = sorted(drawn, key=board(s).order.__getitem__)
    me["drawn"] = True
    ev.append({"event": "chamber_tiles", "tiles": list(me["up"]), "bag": len(me["bag"]),
               "rule": "X4.3"})


# ---- end of the season: the region majorities claim tiles (rules X4.4-X4.6) -----------------
def majority(s: State, region: str) -> tuple[str | None, dict[str, int]]:
    """Rule X4.4: who holds most provinces of the region (ties: turn order); None if nobody
    holds any."""
    held = dict.fromkeys(s.game.players, 0)
    for prov in s.map.regions[region]:
        p = s.owner.get(prov)
        if p in held:
            held[p] += 1
    best = max(held.values())
    if best == 0:
        return None, held
    return next(p for p in s.turn_order if held[p] == best), held


def claim_phase(s: State, ev: list[dict]) -> dict | None:
    me = s.expansions[NAME]
    b = board(s)
    while me["next"] < len(me["row"]):
        region = me["row"][me["next"]]
        me["next"] += 1
        holder, held = majority(s, region)
        if holder is None:
            reason = phrase(N_("no player holds a province there"))
        elif not me["up"]:
            reason = phrase(N_("no chamber tile is face up"))
        elif me["supply"][holder] == 0:
            reason = phrase(N_("{player} has no marker left"), player=colour(holder))
        else:
            ev.append({"event": "chamber_majority", "region": region, "player": holder,
                       "provinces": held[holder], "rule": "X4.4"})
            return choices.ask(
                holder, "chamber_tile", "X4.4",
                phrase(N_("{player} holds most provinces of the {region} region ({n}): swap a "
                          "marker for which face-up chamber tile?"), player=colour(holder),
                       region=region_phrase(region), n=held[holder]),
                [(t, tile_words(b, t)) for t in me["up"]]
                + [(NO_TILE, N_("none (keep the marker)"))], region=region, show=NAME)
        ev.append({"event": "chamber_region_skipped", "region": region, "player": holder,
                   "reason": english(reason), "reason_words": reason, "rule": "X4.4"})
    if me["up"]:  # rule X4.5
        ev.append({"event": "chamber_face_down", "tiles": list(me["up"]), "rule": "X4.5"})
        me["down"] += me["up"]
        me["up"] = []
    if me["row"]:  # rule X4.6
        me["row"] = me["row"][1:] + me["row"][:1]
        ev.append({"event": "chamber_row", "row": list(me["row"]), "rule": "X4.6"})
    me["next"], me["drawn"] = 0, False
    return None


def _take_tile(s: State, st: dict, tile: str, ev: list[dict]) -> None:
    """Rule X4.4: the marker takes the tile's space; the tile goes back to the box."""
    me = s.expansions[NAME]
    p = st["player"]
    if tile == NO_TILE:
        ev.append({"event": "chamber_declined", "player": p, "region": st["region"],
                   "rule": "X4.4"})
        return
    me["up"].remove(tile)
    me["box"].append(tile)
    me["supply"][p] -= 1
    me["markers"][tile] = p
    ev.append({"event": "chamber_taken", "player": p, "tile": tile, "region": st["region"],
               "markers_left": me["supply"][p], "rule": "X4.4"})


# ---- end of the game (rule X4.7) ---------------------------------------------------------------
def line_scores(s: State, held: dict[str, str] | None = None) -> list[dict]:
    """Each row and column: its VP, markers by owner, who holds most and what each scores."""
    b = board(s)
    held = owners(s) if held is None else held
    out = []
    for name, vp, tiles in b.lines:
        counts: dict[str, int] = {}
        for t in tiles:
            if t in held:
                counts[held[t]] = counts.get(held[t], 0) + 1
        best = max(counts.values(), default=0)
        leaders = sorted(o for o, n in counts.items() if n == best) if best else []
        value = vp - (b.tie_penalty if len(leaders) > 1 else 0)
        scores = {o: max(0, value) for o in leaders if o != NEUTRAL}
        out.append({"line": name, "vp": vp, "counts": counts, "leaders": leaders,
                    "scores": scores})
    return out


def points(s: State, held: dict[str, str] | None = None) -> dict[str, int]:
    pts = dict.fromkeys(s.game.players, 0)
    for line in line_scores(s, held):
        for p, n in line["scores"].items():
            pts[p] += n
    return pts


def final_scoring(s: State, ev: list[dict]) -> dict[str, dict[str, int]]:
    """Hook ``final_scoring``: the rows' and columns' VP at the end of the game (rule X4.7)."""
    lines = line_scores(s)
    vp = dict.fromkeys(s.game.players, 0)
    for line in lines:
        for p, n in line["scores"].items():
            vp[p] += n
    ev.append({"event": "chambers_scored", "vp": dict(vp),
               "lines": [{k: line[k] for k in ("line", "vp", "leaders", "scores")}
                         for line in lines], "rule": "X4.7"})
    return {p: {NAME: n} for p, n in vp.items()}


# ---- what must hold, and what the page shows ----------------------------------------------------
def problems(s: State) -> list[str]:
    """Tiles and markers conserved (rule X4.1); one thing on each space."""
    me = s.expansions[NAME]
    b = board(s)
    out = []
    places = me["bag"] + me["up"] + me["down"] + me["box"]
    if sorted(places) != sorted(b.tiles):
        out.append(f"chamber tiles {sorted(places)} are not the {len(b.tiles)} tiles once each")
    if sorted(me["markers"]) != sorted(me["box"]):
        out.append(f"chamber markers lie on {sorted(me['markers'])} but the tiles of "
                   f"{sorted(me['box'])} went to the box")
    for p in s.game.players:
        laid = sum(1 for o in me["markers"].values() if o == p)
        if me["supply"][p] < 0 or laid + me["supply"][p] != b.markers:
            out.append(f"{p} chamber markers: {laid} on the board + {me['supply'][p]} in "
                       f"supply is not {b.markers}")
    if any(o not in s.game.players for o in me["markers"].values()):
        out.append(f"chamber markers of unknown players: {me['markers']}")
    return out


def view(s: State) -> dict:
    """The chamber board for the page and the terminal: every space, each line's majority."""
    me = s.expansions[NAME]
    b = board(s)
    held = owners(s)
    # a space is empty while its tile is in the bag
    state_of = {**dict.fromkeys(me["up"], "up"), **dict.fromkeys(me["down"], "down"),
                **dict.fromkeys(me["markers"], "marker")}
    tiles, width = b.tiles, len(b.columns)
    spaces = [[{"tile": t, "state": state_of.get(t, "empty"), "owner": held.get(t)}
               for t in tiles[r * width:(r + 1) * width]] for r in range(len(b.rows))]
    st = s.step or {}
    asking = st.get("region") if st.get("what") == "chamber_tile" else None
    return {"title": "Chambers", "rule": "X4", "row_vp": list(b.rows),
            "column_vp": list(b.columns), "columns": list(COLUMN_LETTERS[:len(b.columns)]),
            "spaces": spaces, "lines": line_scores(s, held), "points": points(s, held),
            "regions": list(me["row"]), "asking": asking,
            "markers": dict(me["supply"]), "bag": len(me["bag"]), "neutral": NEUTRAL}


def bot_tile(s: State, p: str, st: dict, values: list, rng: Any) -> Any:
    """X4.4: the tile that adds most to the player's rows and columns if the game ended now
    (the face-up tiles not taken count as neutral), then the richest lines; always one."""
    me = s.expansions[NAME]
    held = dict(owners(s), **dict.fromkeys(me["up"], NEUTRAL))
    now = points(s, held)[p]
    b = board(s)

    def worth(t: str) -> tuple:
        c, r = b.space(t)
        return points(s, dict(held, **{t: p}))[p] - now, b.rows[r] + b.columns[c], rng.random()

    tiles = [v for v in values if v != NO_TILE]
    return max(tiles, key=worth) if tiles else NO_TILE


def why_tile(s: State, p: str, st: dict, tile: str) -> str:
    """Why ``bot_tile`` takes this tile: what it adds if the game ended now."""
    if tile == NO_TILE:
        return _("Keep the marker: no tile is face up.")
    me = s.expansions[NAME]
    held = dict(owners(s), **dict.fromkeys(me["up"], NEUTRAL))
    gain = points(s, dict(held, **{tile: p}))[p] - points(s, held)[p]
    b = board(s)
    c, r = b.space(tile)
    return sentence(gain, "Tile {tile}: {n} VP more from your rows and columns if the game "
                          "ended now (its row is worth {row}, its column {column}).",
                    "Tile {tile}: {n} VP more from your rows and columns if the game ended "
                    "now (its row is worth {row}, its column {column}).", tile=tile,
                    row=b.rows[r], column=b.columns[c])


def help_entries(doc: dict) -> list[tuple[str, str]]:
    """What the chamber board and its pieces do, with the numbers of the data file."""
    rows = doc["board"]["rows"]
    cols = doc["board"]["columns"]
    return [
        (_("Chamber board"), _("{rows} rows by {columns} columns of spaces, {tiles} chamber "
                               "tiles in a bag (one for each space), {markers} markers for "
                               "each player and a region tile for each region, laid in a row.")
         .format(rows=rows, columns=cols, tiles=doc["tiles"]["value"],
                 markers=doc["markers_per_player"]["value"])),
        (_("Each season"), _("At the start of each season but winter, {tiles} tiles are drawn "
                             "face up onto their spaces. At its end, region by region in the "
                             "row's order, the player holding most provinces there (ties: the "
                             "first in turn order) may swap one of his markers for a face-up "
                             "tile.").format(tiles=doc["tiles_per_season"]["value"])),
        (_("Face-down tiles"), _("The tiles still face up then turn face down: each counts as a "
                                 "marker of a neutral player. The first region tile goes to "
                                 "the end of the row.")),
        (_("End points"), _("Each row and each column scores its VP to the player with most "
                            "markers there, the neutral player included; players tied for most "
                            "score {penalty} less.").format(penalty=doc["tie_penalty"]["value"])),
        (_("Rows"), join([_("row {row}: {vp} VP").format(row=r["row"], vp=r["vp"])
                          for r in doc["rows"]])),
        (_("Columns"), join([_("column {column}: {vp} VP").format(column=c["column"], vp=c["vp"])
                             for c in doc["columns"]])),
    ]


def _who(e: dict) -> str:
    return colour_word(str(e["player"]))


def _region_names(names: list) -> str:
    return join([colour_word(str(r)) for r in names])


# What the table reads of the chambers' events (one line each).
NARRATION = {
    "chamber_regions": lambda e: _("the region tiles lie in this row: {regions}").format(
        regions=_region_names(e["row"])),
    "chamber_tiles": lambda e: sentence(e["bag"], "chamber tiles face up: {tiles} ({n} left in "
                                        "the bag)", "chamber tiles face up: {tiles} ({n} left "
                                        "in the bag)", tiles=join(list(e["tiles"]))),
    "chamber_majority": lambda e: _("{player} holds most provinces of the {region} region "
                                    "({n})").format(player=_who(e),
                                                    region=region_word(e["region"]),
                                                    n=e["provinces"]),
    "chamber_taken": lambda e: sentence(e["markers_left"], "{player} swaps a marker for "
                                        "chamber tile {tile} ({n} marker left)", "{player} "
                                        "swaps a marker for chamber tile {tile} ({n} markers "
                                        "left)", player=_who(e), tile=e["tile"]),
    "chamber_declined": lambda e: _("{player} keeps the marker ({region} region)").format(
        player=_who(e), region=region_word(e["region"])),
    "chamber_region_skipped": lambda e: _("the {region} region claims no chamber tile: "
                                          "{reason}").format(region=region_word(e["region"]),
                                                             reason=stored(e, "reason")),
    "chamber_face_down": lambda e: _("chamber tiles turned face down for the neutral player: "
                                     "{tiles}").format(tiles=join(list(e["tiles"]))),
    "chamber_row": lambda e: _("the first region tile goes to the end of the row: {regions}")
    .format(regions=_region_names(e["row"])),
    "chambers_scored": lambda e: _("the chambers' rows and columns score: {scores}").format(
        scores=join([_("{player} {vp}").format(player=colour_word(p), vp=n)
                     for p, n in e["vp"].items()])),
}


EXPANSION = Expansion(
    name=NAME, rule="X4", title=N_("Chambers"),
    phases=(Phase("chambers_draw", draw_phase, after="season_start"),  # rules X4.2, X4.3
            Phase("chambers_claim", claim_phase, before="season_end")),  # rules X4.4-X4.6
    questions={"chamber_tile": Question(
        _take_tile, bot=bot_tile, why=why_tile,
        help=N_("The player with most provinces of the region may swap one of his markers "
                "for one face-up chamber tile; rows and columns score their majorities at the "
                "end."))},
    chance={"chamber_regions": ChanceKind(
                _regions, _row_laid, name=N_("the region tiles, in the order laid in a row")),
            "chamber_tiles": ChanceKind(_bag, _tiles_drawn,
                                        name=N_("chamber tiles from the bag"))},
    new_state=new_state,
    hooks={"final_scoring": final_scoring},
    load_data=load_data,
    view=view,
    invariants=problems,
    narration=NARRATION,
    help=lambda doc: help_entries(load_data(doc)),
)
