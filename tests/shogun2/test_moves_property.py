"""Property test: in any position, no legal move jumps, reverses or turns twice, every move goes
exactly its dial, and the moves are all the walks the seed allows (found here another way)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from shogun_tower.games.shogun2.board import PIECE, RED, SHOGUN, SIZE, WHITE, Position

STEPS = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}


@st.composite
def positions(draw: st.DrawFn) -> Position:
    squares = draw(st.lists(st.integers(0, 63), min_size=4, max_size=16, unique=True))
    half = draw(st.integers(2, len(squares) - 2))
    board, dials = [0] * 64, [0] * 64
    for i, sq in enumerate(squares):
        side = WHITE if i < half else RED
        kind = SHOGUN if i in (0, half) else PIECE
        board[sq] = side * kind
        dials[sq] = draw(st.integers(1, 2 if kind == SHOGUN else 4))
    return Position(board, dials, draw(st.sampled_from((WHITE, RED))))


def walks(n: int) -> set[str]:
    """Every direction word of n steps that turns at most once, at a right angle (by
    construction here: one letter repeated, then a perpendicular one)."""
    out = set()
    for a in "NSEW":
        for k in range(1, n + 1):
            for b in "NSEW":
                if k < n and (b == a or STEPS[b] == tuple(-x for x in STEPS[a])):
                    continue
                out.add(a * k + b * (n - k))
    return out


def seed_moves(pos: Position) -> set[tuple[int, int]]:
    found = set()
    for sq in range(64):
        if pos.board[sq] * pos.to_move <= 0:
            continue
        for word in walks(pos.dials[sq]):
            f, r, ok = sq % SIZE, sq // SIZE, True
            for i, step in enumerate(word):
                f, r = f + STEPS[step][0], r + STEPS[step][1]
                if not (0 <= f < SIZE and 0 <= r < SIZE):
                    ok = False
                    break
                if i < len(word) - 1 and pos.board[r * SIZE + f]:
                    ok = False  # no jumping
                    break
            end = r * SIZE + f
            if ok and pos.board[end] * pos.to_move <= 0:
                found.add((sq, end))
    return found


@settings(max_examples=300, deadline=None)
@given(positions())
def test_no_legal_move_jumps_reverses_or_turns_twice(pos: Position) -> None:
    for m in pos.pseudo_moves():
        squares = [m.start, *m.path]
        assert len(m.path) == pos.dials[m.start], "exactly the number on the dial"
        directions = []
        for a, b in zip(squares, squares[1:], strict=False):
            df, dr = b % SIZE - a % SIZE, b // SIZE - a // SIZE
            assert abs(df) + abs(dr) == 1, "one orthogonal square at a time"
            directions.append((df, dr))
        changes = [(x, y) for x, y in zip(directions, directions[1:], strict=False) if x != y]
        assert len(changes) <= 1, "at most one turn"
        for x, y in changes:
            assert x[0] * y[0] + x[1] * y[1] == 0, "a right angle, never back"
        assert all(pos.board[s] == 0 for s in m.path[:-1]), "never over a piece"
        assert pos.board[m.end] * pos.to_move <= 0, "never onto its own piece"
    assert {(m.start, m.end) for m in pos.pseudo_moves()} == seed_moves(pos)
    assert set(pos.legal_moves()) <= set(pos.pseudo_moves())


@settings(max_examples=150, deadline=None)
@given(positions())
def test_a_legal_move_never_leaves_the_own_shogun_capturable(pos: Position) -> None:
    side = pos.to_move
    legal = pos.legal_moves()
    for m in pos.pseudo_moves():
        undo = pos.play(m, 1)
        mover_shogun = pos.shogun(side)
        pos.to_move = -side
        takes_shogun = any(o.end == mover_shogun for o in pos.pseudo_moves())
        pos.to_move = side
        pos.unplay(m, undo)
        assert (m in legal) == (not takes_shogun)
