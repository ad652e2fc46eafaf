"""The dial model: what the magnets under each square make a piece's dial show.

On the real board a magnet under every square turns the dial of the piece put on it, so the
number a piece shows after a move depends only on the square it lands on and on whether it is
the Shogun (its dial has 1 and 2 only). The console plays that board: it keeps a hidden table,
one piece number (1–4) and one Shogun number (1–2) per square, drawn from the game's seeded
generator, so the same seed is the same board. Turning the board a quarter turn (rulebook 003:
"Après plusieurs parties, on peut tourner le plateau de 90°") carries every square's magnet to
the square it then lies under. With the table any 8×8 board serves, a chessboard included: the
console says each piece's new number after every move. See docs/shogun2.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from shogun_common.rng import Rng
from shogun_tower.games.shogun2.board import PIECE_DIAL, SHOGUN, SHOGUN_DIAL, SIZE, SQUARES

TURNS = (0, 90, 180, 270)  # how far the board is turned, clockwise seen from above


def quarter_turn(square: int) -> int:
    """Where the magnet under ``square`` lies after the board turns 90° clockwise (seen from
    above, white's first row at the bottom): a1 goes to a8, a8 to h8."""
    f, r = square % SIZE, square // SIZE
    return (SIZE - 1 - f) * SIZE + r


@dataclass(frozen=True)
class DialTable:
    """``piece[sq]`` and ``shogun[sq]``: the number a piece or the Shogun shows on ``sq``."""

    piece: tuple[int, ...]
    shogun: tuple[int, ...]

    @staticmethod
    def draw(rng: Rng) -> DialTable:
        """The magnets of one board: every square's two numbers, from the seeded generator."""
        piece, shogun = [], []
        for _sq in SQUARES:
            piece.append(PIECE_DIAL[rng.randbelow(len(PIECE_DIAL))])
            shogun.append(SHOGUN_DIAL[rng.randbelow(len(SHOGUN_DIAL))])
        return DialTable(tuple(piece), tuple(shogun))

    def turned(self, degrees: int) -> DialTable:
        """The same magnets with the board turned ``degrees`` (0, 90, 180, 270) clockwise."""
        if degrees not in TURNS:
            raise ValueError(degrees)
        piece, shogun = list(self.piece), list(self.shogun)
        for _ in range(degrees // 90):
            new_piece, new_shogun = [0] * len(piece), [0] * len(shogun)
            for sq in SQUARES:
                new_piece[quarter_turn(sq)] = piece[sq]
                new_shogun[quarter_turn(sq)] = shogun[sq]
            piece, shogun = new_piece, new_shogun
        return DialTable(tuple(piece), tuple(shogun))

    def shows(self, piece: int, square: int) -> int:
        """The number ``piece`` (±1 a piece, ±2 the Shogun) shows once on ``square``."""
        return self.shogun[square] if abs(piece) == SHOGUN else self.piece[square]
