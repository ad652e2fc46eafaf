"""Ravensburger's Shogun's `hint`: the alpha-beta bot's move for the side to move, and why.

The bot plays the console's board and knows its hidden table: the number every piece will show
on every square. A player knows only what he has seen: the numbers the pieces show now, and
the number each square gave a piece (or the Shogun) that landed there earlier in the game. The
hint's bot searches a table of just that (``seen_table``); a square never seen is taken to give
``GUESS`` (docs/shogun2.md, "The hint"), so a hint never tells what the magnets hide.
"""

from __future__ import annotations

import copy

from shogun_tower.games.shogun2.board import SHOGUN, SQUARES
from shogun_tower.games.shogun2.bots import AlphaBetaBot
from shogun_tower.games.shogun2.dials import DialTable
from shogun_tower.games.shogun2.game import State
from shogun_tower.games.shogun2.notation import parse_square
from shogun_tower.i18n import _

# Decision: what a square nobody has seen is taken to show: the middle of each dial, rounded
# down (a piece's 1-4: 2; the Shogun's 1-2: 1).
GUESS = {"piece": 2, "shogun": 1}


def seen_table(state: State, moves: list[dict]) -> tuple[DialTable, set[tuple[str, int]]]:
    """The table a player knows after ``moves`` (the journal's commands), and the
    (kind, square) pairs it knows; every other entry is the guess."""
    known: dict[tuple[str, int], int] = {}
    replay = State.new(state.game)
    for sq in SQUARES:  # the start: every piece's number is in view
        if replay.position.board[sq]:
            known[(_kind(replay.position.board[sq]), sq)] = replay.position.dials[sq]
    for command in moves:
        for e in replay.apply(command):
            if e["event"] == "moved":
                known[(e["kind"], parse_square(e["to"]))] = e["new_dial"]
    for sq in SQUARES:  # what the board shows now (a position typed in, too)
        if state.position.board[sq]:
            known[(_kind(state.position.board[sq]), sq)] = state.position.dials[sq]
    table = DialTable(tuple(known.get(("piece", sq), GUESS["piece"]) for sq in SQUARES),
                      tuple(known.get(("shogun", sq), GUESS["shogun"]) for sq in SQUARES))
    return table, set(known)


def _kind(piece: int) -> str:
    return "shogun" if abs(piece) == SHOGUN else "piece"


def hint(state: State, moves: list[dict]) -> list[str]:
    """The bot's move at ``state`` (reached by ``moves``) and why, from what is seen."""
    if state.result:
        return [_("The game is over: nothing is left to decide.")]
    table, known = seen_table(state, moves)
    view = copy.copy(state)
    view.table = table
    view.position = state.position.copy()
    bot = AlphaBetaBot(seed=state.plies)
    move = bot.choose(view)
    piece = state.position.board[move.start]
    lines = [_("The alpha-beta bot would play {move}.").format(move=move)] + bot.why(view, move)
    if (_kind(piece), move.end) in known:
        lines.append(_("The piece will show {n} there: that square has shown it "
                       "before.").format(n=table.shows(piece, move.end)))
    else:
        lines.append(_("Its new number cannot be known before it lands; the hint took "
                       "{n}.").format(n=table.shows(piece, move.end)))
    return lines
