"""The 8×8 board of Ravensburger's Shogun (rulebook 003): squares, pieces and every legal move.

A square is a number 0..63, ``rank * 8 + file``: file 0 is column a, rank 0 is white's first
row (row 1). A piece is a signed number on its square: +1 a white piece, +2 the white Shogun,
-1 a red piece, -2 the red Shogun, 0 an empty square; a side is +1 (white) or -1 (red). Each
piece shows its dial (Shogun 1–2, the others 1–4): ``dials[square]``.

The way a piece goes (rulebook 003, "Déplacement des pièces"): exactly the number on its dial,
orthogonally, changing direction at most once and at a right angle, never forward and back,
never over a piece; it captures by landing on an opposing piece. Such a way is monotone in both
axes, so it reaches only squares at that Manhattan distance, by at most two ways (the turn
taken early or late): ``WAYS`` holds them, precomputed once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

SIZE = 8
SQUARES = range(SIZE * SIZE)
WHITE, RED = 1, -1
PIECE, SHOGUN = 1, 2
SIDE_NAMES = {WHITE: "white", RED: "red"}
SIDES = {"white": WHITE, "red": RED}
PIECE_DIAL = (1, 2, 3, 4)  # the numbers on a piece's dial
SHOGUN_DIAL = (1, 2)  # the numbers on the Shogun's dial
# the Shogun stands on the 4th square from the right of its side's first row (rulebook 003,
# "Préparation du jeu"): from white's chair h1 is the right, from red's a8 is
SHOGUN_START = {WHITE: 4, RED: 7 * SIZE + 3}  # e1 and d8


def name(square: int) -> str:
    return "abcdefgh"[square % SIZE] + str(square // SIZE + 1)


def parse_square(text: str) -> int | None:
    """``"e4"`` → its square, or None when it names none."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in "abcdefgh" or t[1] not in "12345678":
        return None
    return (int(t[1]) - 1) * SIZE + "abcdefgh".index(t[0])


def _ways_from(square: int, steps: int) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Every way of exactly ``steps`` squares from ``square``: {destination: (path, ...)}; a
    path lists the squares passed over and the destination, in order."""
    f0, r0 = square % SIZE, square // SIZE
    found: dict[int, list[tuple[int, ...]]] = {}
    for df, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
        for first in range(1, steps + 1):  # squares before the turn; all of them: no turn
            turns = [(0, 0)] if first == steps else [(dr, df), (-dr, -df)]  # right angles
            for tf, tr in turns:
                path, f, r = [], f0, r0
                for i in range(steps):
                    if i < first:
                        f, r = f + df, r + dr
                    else:
                        f, r = f + tf, r + tr
                    if not (0 <= f < SIZE and 0 <= r < SIZE):
                        break
                    path.append(r * SIZE + f)
                else:
                    found.setdefault(path[-1], []).append(tuple(path))
    return {d: tuple(ps) for d, ps in found.items()}


# WAYS[square][steps] = {destination: (path, ...)}; steps 1..4
WAYS: tuple[tuple[dict[int, tuple[tuple[int, ...], ...]], ...], ...] = tuple(
    tuple({} if n == 0 else _ways_from(sq, n) for n in range(5)) for sq in SQUARES)
# the squares passed over on each way (the path without its destination), for the move loop
_OVER: tuple[tuple[tuple[tuple[int, tuple[tuple[int, ...], ...]], ...], ...], ...] = tuple(
    tuple(tuple((d, tuple(p[:-1] for p in ps)) for d, ps in WAYS[sq][n].items())
          for n in range(5)) for sq in SQUARES)


@dataclass(frozen=True)
class Move:
    """A move from square to square; ``path`` is one free way it takes (for the page and the
    property test), ``captured`` the piece taken (0: none)."""

    start: int
    end: int
    path: tuple[int, ...]
    captured: int = 0

    def __str__(self) -> str:
        return f"{name(self.start)}{'x' if self.captured else '-'}{name(self.end)}"


class Position:
    """Pieces, their dials and the side to move. Mutable for the search (``play``/``unplay``);
    the engine's State copies it."""

    __slots__ = ("board", "dials", "to_move")

    def __init__(self, board: list[int], dials: list[int], to_move: int) -> None:
        self.board = board
        self.dials = dials
        self.to_move = to_move

    def copy(self) -> Position:
        return Position(list(self.board), list(self.dials), self.to_move)

    def pieces(self, side: int) -> list[int]:
        return [sq for sq in SQUARES if self.board[sq] * side > 0]

    def shogun(self, side: int) -> int | None:
        target = SHOGUN * side
        for sq in SQUARES:
            if self.board[sq] == target:
                return sq
        return None

    def free_way(self, start: int, end: int) -> tuple[int, ...] | None:
        """A way from start to end of exactly the dial's length over empty squares, or None
        (the landing square is not checked here)."""
        for path in WAYS[start][self.dials[start]].get(end, ()):
            if not any(self.board[s] for s in path[:-1]):
                return path
        return None

    def attacks(self, side: int, target: int) -> int | None:
        """A square of ``side`` from which a piece could land on ``target`` now, or None."""
        board, dials = self.board, self.dials
        tr, tf = divmod(target, SIZE)
        for sq in SQUARES:
            if board[sq] * side <= 0:
                continue
            r, f = divmod(sq, SIZE)
            if abs(r - tr) + abs(f - tf) != dials[sq]:
                continue
            for over in WAYS[sq][dials[sq]][target]:
                if not any(board[s] for s in over[:-1]):
                    return sq
        return None

    def pseudo_moves(self) -> Iterator[Move]:
        """Every move the dials and the ways allow, before the Shogun's safety is checked."""
        board, dials, side = self.board, self.dials, self.to_move
        for sq in SQUARES:
            if board[sq] * side <= 0:
                continue
            for end, overs in _OVER[sq][dials[sq]]:
                if board[end] * side > 0:
                    continue
                for i, over in enumerate(overs):
                    if not any(board[s] for s in over):
                        yield Move(sq, end, WAYS[sq][dials[sq]][end][i], board[end])
                        break

    def play(self, move: Move, dial_after: int) -> tuple[int, int, int]:
        """Make ``move``; the piece then shows ``dial_after``. Returns what ``unplay`` needs."""
        b, d = self.board, self.dials
        undo = b[move.end], d[move.end], d[move.start]
        b[move.end], d[move.end] = b[move.start], dial_after
        b[move.start], d[move.start] = 0, 0
        self.to_move = -self.to_move
        return undo

    def unplay(self, move: Move, undo: tuple[int, int, int]) -> None:
        b, d = self.board, self.dials
        b[move.start], d[move.start] = b[move.end], undo[2]
        b[move.end], d[move.end] = undo[0], undo[1]
        self.to_move = -self.to_move

    def leaves_shogun_capturable(self, move: Move) -> int | None:
        """The opposing square that could take the mover's Shogun after ``move``, or None.
        The mover's new dial cannot change this: only the other side's dials attack."""
        side = self.to_move
        undo = self.play(move, 1)
        try:
            shogun = self.shogun(side)
            return None if shogun is None else self.attacks(-side, shogun)
        finally:
            self.unplay(move, undo)

    def legal_moves(self) -> list[Move]:
        """The moves that leave the mover's own Shogun safe (rulebook 003: "Shogun")."""
        return [m for m in self.pseudo_moves() if self.leaves_shogun_capturable(m) is None]

    def threatened(self, side: int) -> int | None:
        """The opposing square that threatens ``side``'s Shogun ("Shogun!"), or None."""
        shogun = self.shogun(side)
        return None if shogun is None else self.attacks(-side, shogun)
