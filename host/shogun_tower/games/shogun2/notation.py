"""Positions and moves as text: what `shogun-tower shogun2 moves` reads and the console prints.

A position is FEN-like: the rows from row 8 (red's first row) down to row 1 (white's), joined
by "/", then the side to move, ``w`` or ``r``. In a row, ``S`` is the white Shogun, ``P`` a
white piece, ``s`` and ``p`` red's; each is followed by the number its dial shows; a digit
alone counts empty squares. The start on a board whose dials all showed 1 would be
``p1p1p1s1p1p1p1p1/8/8/8/8/8/8/P1P1P1P1S1P1P1P1 w``. The same position as JSON:
``{"to_move": "white", "pieces": [{"square": "e1", "side": "white", "kind": "shogun",
"dial": 1}, ...]}``. Every refusal is one line saying what is wrong and what to write instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun2.board import (
    PIECE,
    PIECE_DIAL,
    RED,
    SHOGUN,
    SHOGUN_DIAL,
    SIDE_NAMES,
    SIDES,
    SIZE,
    WHITE,
    Position,
    name,
    parse_square,
)
from shogun_tower.i18n import N_, _, ngettext

LETTERS = {"P": WHITE * PIECE, "S": WHITE * SHOGUN, "p": RED * PIECE, "s": RED * SHOGUN}
KIND_NAMES = {PIECE: "piece", SHOGUN: "shogun"}
_MOVE = re.compile(r"([a-h][1-8])\s*(-|x|\s)?\s*([a-h][1-8])")


class PositionError(ShogunError):
    """A position that cannot be read or played from."""


SIDE_WORDS = {"white": N_("white"), "red": N_("red")}


def side_word(side: str) -> str:
    """A side as players name it, in their language (``white``, ``blanc``, ``白``)."""
    return _(SIDE_WORDS[side]) if side in SIDE_WORDS else side


def piece_word(piece: int) -> str:
    """``"the white Shogun"``, ``"the red piece"``: how a message names a piece."""
    words = {(1, True): N_("the white Shogun"), (-1, True): N_("the red Shogun"),
             (1, False): N_("the white piece"), (-1, False): N_("the red piece")}
    return _(words[(1 if piece > 0 else -1, abs(piece) == SHOGUN)])


def format_position(pos: Position) -> str:
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        row, empty = "", 0
        for f in range(SIZE):
            sq = rank * SIZE + f
            v = pos.board[sq]
            if v == 0:
                empty += 1
                continue
            if empty:
                row, empty = row + str(empty), 0
            letter = next(k for k, code in LETTERS.items() if code == v)
            row += f"{letter}{pos.dials[sq]}"
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + (" w" if pos.to_move == WHITE else " r")


def parse_position(text: str) -> Position:
    """A position from its text or its JSON (a text starting with "{")."""
    t = text.strip()
    if not t:
        raise PositionError(_("the position is empty; give rows like {example}").format(
            example="p1p1p1s1p1p1p1p1/8/8/8/8/8/8/P1P1P1P1S1P1P1P1 w"))
    if t.startswith("{"):
        try:
            data = json.loads(t)
        except json.JSONDecodeError as err:
            raise PositionError(_("the position is not valid JSON ({error} at character "
                                  "{n}); fix it or give the FEN-like text").format(
                error=err.msg, n=err.pos)) from None
        return position_from_json(data)
    parts = t.split()
    if len(parts) != 2 or parts[1] not in ("w", "r"):
        raise PositionError(ngettext(
            "a position is the rows then the side to move, w or r (e.g. "
            "'.../P1P1P1P1S1P1P1P1 w'); got {n} part ending in {end!r}",
            "a position is the rows then the side to move, w or r (e.g. "
            "'.../P1P1P1P1S1P1P1P1 w'); got {n} parts ending in {end!r}",
            len(parts)).format(n=len(parts), end=parts[-1][:12]))
    rows = parts[0].split("/")
    if len(rows) != SIZE:
        raise PositionError(_("a position has {size} rows separated by '/', from row 8 down "
                              "to row 1; this one has {n}").format(size=SIZE, n=len(rows)))
    board, dials = [0] * SIZE * SIZE, [0] * SIZE * SIZE
    for i, row in enumerate(rows):
        rank, f, k = SIZE - 1 - i, 0, 0
        while k < len(row):
            c = row[k]
            if c.isdigit():
                f += int(c)
                k += 1
                continue
            if c not in LETTERS:
                raise PositionError(_("row {row}: {letter!r} is not a piece; use P/S (white "
                                      "piece/Shogun), p/s (red) or a digit for empty "
                                      "squares").format(row=rank + 1, letter=c))
            if k + 1 >= len(row) or not row[k + 1].isdigit():
                raise PositionError(_("row {row}: {letter} needs the number its dial shows "
                                      "right after it, e.g. {letter}3").format(row=rank + 1,
                                                                               letter=c))
            if f >= SIZE:
                raise PositionError(_("row {row} has more than {size} squares").format(
                    row=rank + 1, size=SIZE))
            sq = rank * SIZE + f
            board[sq], dials[sq] = LETTERS[c], int(row[k + 1])
            f, k = f + 1, k + 2
        if f != SIZE:
            raise PositionError(_("row {row} has {n} squares, not {size}; count the pieces "
                                  "and the digits for empty squares").format(
                row=rank + 1, n=f, size=SIZE))
    return checked(Position(board, dials, WHITE if parts[1] == "w" else RED))


def position_from_json(data: Any) -> Position:
    if not isinstance(data, dict) or not isinstance(data.get("pieces"), list):
        raise PositionError(_('the JSON position needs "to_move" and a list "pieces" of '
                              '{{"square", "side", "kind", "dial"}}').format())
    side = SIDES.get(data.get("to_move"))
    if side is None:
        raise PositionError(_('"to_move" must be "white" or "red", not {side!r}').format(
            side=data.get("to_move")))
    board, dials = [0] * SIZE * SIZE, [0] * SIZE * SIZE
    for i, p in enumerate(data["pieces"]):
        where = f"pieces[{i}]"
        if not isinstance(p, dict):
            raise PositionError(_("{where} is not an object with square, side, kind and "
                                  "dial").format(where=where))
        sq = parse_square(str(p.get("square", "")))
        if sq is None:
            raise PositionError(_("{where}: square {square!r} is not a square a1..h8").format(
                where=where, square=p.get("square")))
        owner = SIDES.get(p.get("side"))
        kind = {"piece": PIECE, "shogun": SHOGUN}.get(p.get("kind", "piece"))
        if owner is None or kind is None:
            raise PositionError(_('{where}: side must be "white" or "red" and kind "piece" or '
                                  '"shogun"').format(where=where))
        if board[sq]:
            raise PositionError(_("{where}: {square} already holds a piece").format(
                where=where, square=name(sq)))
        dial = p.get("dial")
        if not isinstance(dial, int) or isinstance(dial, bool):
            raise PositionError(_("{where}: dial must be the number the piece shows, 1 to 4 "
                                  "(the Shogun 1 or 2)").format(where=where))
        board[sq], dials[sq] = owner * kind, dial
    return checked(Position(board, dials, side))


def position_to_json(pos: Position) -> dict:
    return {"to_move": SIDE_NAMES[pos.to_move], "pieces": [
        {"square": name(sq), "side": SIDE_NAMES[1 if v > 0 else -1],
         "kind": KIND_NAMES[abs(v)], "dial": pos.dials[sq]}
        for sq, v in enumerate(pos.board) if v]}


def checked(pos: Position) -> Position:
    """A position the rules can play from: one Shogun and at most 8 pieces a side, dials that
    exist on the pieces."""
    for side in (WHITE, RED):
        word = SIDE_NAMES[side]
        count = sum(1 for v in pos.board if v * side > 0)
        shoguns = sum(1 for v in pos.board if v == SHOGUN * side)
        if shoguns != 1:
            raise PositionError(_("{side} has {n} Shoguns; each side has exactly one "
                                  "({letter})").format(side=side_word(word), n=shoguns,
                                                       letter="S" if side == WHITE else "s"))
        if count > SIZE:
            raise PositionError(_("{side} has {n} pieces; a side has at most {size}").format(
                side=side_word(word), n=count, size=SIZE))
    # the dials first: a number no dial has cannot be moved, nor threaten anything
    for sq, v in enumerate(pos.board):
        allowed = SHOGUN_DIAL if abs(v) == SHOGUN else PIECE_DIAL
        if v and pos.dials[sq] not in allowed:
            raise PositionError(_("{square}: {piece} cannot show {dial}; its dial has "
                                  "{dials}").format(square=name(sq), piece=piece_word(v),
                                                    dial=pos.dials[sq],
                                                    dials=", ".join(map(str, allowed))))
    waiting = -pos.to_move
    by = pos.threatened(waiting)
    if by is not None:
        w = SIDE_NAMES[waiting]
        raise PositionError(_("{side}'s Shogun can be taken by {piece} on {square} although "
                              "it is {mover}'s turn: {side}'s last move would have been "
                              "refused; check the pieces, their numbers and the side to "
                              "move").format(side=side_word(w), piece=piece_word(pos.board[by]),
                                             square=name(by),
                                             mover=side_word(SIDE_NAMES[pos.to_move])))
    return pos


def parse_move(text: str, example: str = "e1-e3") -> tuple[int, int, bool]:
    """``"e2-e5"``, ``"e2e5"``, ``"e2 e5"`` or ``"e2xe5"`` → (start, end, whether it says it
    takes a piece: the ``x``). ``example``: a move to show in the refusal."""
    m = _MOVE.fullmatch(text.strip().lower())
    if m is None:
        raise PositionError(_("{text!r} is not a move: type the square of a piece and the "
                              "square it goes to, e.g. {example}").format(
            text=text.strip()[:20], example=example))
    start, end = parse_square(m.group(1)), parse_square(m.group(3))
    assert start is not None and end is not None  # the pattern allows squares only
    return start, end, m.group(2) == "x"
