"""Bots for Ravensburger's Shogun: a random one, and an alpha-beta searcher over the dial model.

The searcher plays the console's own board: it knows the hidden table, so it sees the number
each piece will show after each move (a person at a magnetic board sees it only after moving).
Each bot draws its choices from its own seeded generator, never from the game's.
"""

from __future__ import annotations

from shogun_common.rng import Rng
from shogun_tower.games.shogun2.board import SHOGUN, SIDE_NAMES, Move, Position, name
from shogun_tower.games.shogun2.dials import DialTable
from shogun_tower.games.shogun2.game import State
from shogun_tower.games.shogun2.notation import piece_word, side_word
from shogun_tower.i18n import _
from shogun_tower.words import capital

WIN = 1_000_000
PIECE_VALUE = 100


class RandomBot:
    """Any legal move, uniformly."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed=seed)

    def choose(self, state: State) -> Move:
        return self.rng.choice(state.legal_moves())


class AlphaBetaBot:
    """Negamax with alpha-beta pruning, ``depth`` half-moves ahead, captures searched first.
    The value of a position: pieces (the Shogun aside) against the other side's, and how many
    opposing pieces the side to move could take against how many of its own lie open, so a
    piece is not left where it can be taken. Equal best moves are drawn by the bot's Rng."""

    name = "alphabeta"

    def __init__(self, seed: int = 0, depth: int = 2) -> None:
        self.rng = Rng(seed=seed)
        self.depth = depth
        self.nodes = 0

    def choose(self, state: State) -> Move:
        pos = state.position.copy()
        moves = _ordered(pos.legal_moves())
        best, best_moves = -WIN * 2, []
        for m in moves:
            # a window just below the best so far: an equal move keeps its exact value
            score = self._after(pos, state.table, m, self.depth - 1, best - 1, WIN * 2)
            if score > best:
                best, best_moves = score, [m]
            elif score == best:
                best_moves.append(m)
        return self.rng.choice(best_moves)

    def _after(self, pos: Position, table: DialTable, m: Move, depth: int, alpha: int,
               beta: int) -> int:
        """The value of move ``m`` for the side making it."""
        mover = pos.to_move
        undo = pos.play(m, table.shows(pos.board[m.start], m.end))
        try:
            if m.captured and _count(pos, -mover) <= 2:
                return WIN  # the other side has only its Shogun and one piece left
            return -self._negamax(pos, table, depth, -beta, -alpha)
        finally:
            pos.unplay(m, undo)

    def _negamax(self, pos: Position, table: DialTable, depth: int, alpha: int,
                 beta: int) -> int:
        self.nodes += 1
        if depth <= 0:
            return _value(pos)
        moves = pos.legal_moves()
        if not moves:
            return -WIN + 1  # the Shogun cannot be saved (or nothing can move)
        best = -WIN * 2
        for m in _ordered(moves):
            score = self._after(pos, table, m, depth - 1, alpha, beta)
            if score >= WIN:
                score -= 1  # a nearer win is better
            if score > best:
                best = score
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best


    def why(self, state: State, move: Move) -> list[str]:
        """Why this bot plays ``move``, from what its search weighs: the piece taken, the
        Shogun threatened, the piece that can be taken back, the pieces left open (its
        ``_value``). Reads ``state``'s table as the search does; decides nothing."""
        pos = state.position.copy()
        side = pos.to_move
        me, other = side_word(SIDE_NAMES[side]), side_word(SIDE_NAMES[-side])
        out = []
        if move.captured:
            out.append(_("{move} takes {piece} on {square}.").format(
                move=move, piece=piece_word(move.captured), square=name(move.end)))
        undo = pos.play(move, state.table.shows(pos.board[move.start], move.end))
        try:
            if move.captured and _count(pos, -side) <= 2:
                return out + [_("It wins: {side} keeps only its Shogun and one piece.").format(
                    side=other)]
            if pos.threatened(-side) is not None:
                out.append(_("{move} says Shogun! to {side}.").format(move=move, side=other))
            by = pos.attacks(-side, move.end)
            line = (_("{side} could take it back with the piece on {square}.").format(
                        side=other, square=name(by)) if by is not None else
                    _("{side} cannot take it on {square} next move.").format(
                        side=other, square=name(move.end)))
            out.append(capital(line))
            open_ = sorted({m.end for m in pos.pseudo_moves() if m.captured})
            out.append(_("It leaves open to {side}: {squares}.").format(
                side=other, squares=", ".join(map(name, open_))) if open_
                else _("It leaves no piece of {me}'s open to {side}.").format(me=me, side=other))
        finally:
            pos.unplay(move, undo)
        return out


def _count(pos: Position, side: int) -> int:
    return sum(1 for v in pos.board if v * side > 0)


def _ordered(moves: list[Move]) -> list[Move]:
    return sorted(moves, key=lambda m: -abs(m.captured))


def _value(pos: Position) -> int:
    """The position for the side to move: material, then what it can take against what it
    leaves open."""
    side = pos.to_move
    mine = theirs = 0
    for v in pos.board:
        if v * side > 0 and abs(v) != SHOGUN:
            mine += 1
        elif v * side < 0 and abs(v) != SHOGUN:
            theirs += 1
    takes = sum(1 for m in pos.pseudo_moves() if m.captured)
    pos.to_move = -side
    open_ = sum(1 for m in pos.pseudo_moves() if m.captured)
    pos.to_move = side
    return PIECE_VALUE * (mine - theirs) + 10 * (takes - open_)


BOTS = {"random": RandomBot, "alphabeta": AlphaBetaBot}


def play_match(seed: int, white: str, red: str) -> State:
    """One whole game on board ``seed`` between two bot kinds, each move's bot seeded from the
    board and the move number (as at the table). Returns the finished state."""
    from shogun_tower.games.shogun2.game import Game

    state = State.new(Game(seed=seed))
    while not state.result:
        side = state.to_move
        kind = white if side == "white" else red
        bot_seed = (seed * 1_000_003 + state.plies * 7919 + (1 if side == "white" else 2)) \
            & 0xFFFFFFFF
        state.apply({"move": str(BOTS[kind](bot_seed).choose(state))})
    return state
