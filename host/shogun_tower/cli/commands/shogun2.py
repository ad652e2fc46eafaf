"""`shogun-tower shogun2`: Ravensburger's two-player Shogun (rulebook 003) at the table.

`shogun2 moves POSITION` lists every legal move in a position (the FEN-like text or its JSON,
docs/shogun2.md); `shogun2 start` prints the start of a seed's board. Playing is
`shogun-tower play --game shogun2`."""

from __future__ import annotations

import argparse
import json
import sys

from shogun_tower.games.shogun2.board import SIDE_NAMES, name
from shogun_tower.games.shogun2.dials import TURNS
from shogun_tower.games.shogun2.game import Game, State
from shogun_tower.games.shogun2.notation import (
    KIND_NAMES,
    format_position,
    parse_position,
    piece_word,
    position_to_json,
    side_word,
)
from shogun_tower.games.shogun2.view import result_line
from shogun_tower.i18n import _, ngettext


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "shogun2", help=_("Ravensburger's two-player Shogun: legal moves, the start"),
        description=_("Referee tools for Ravensburger's two-player Shogun. Play it with "
                      "`shogun-tower play --game shogun2`."))
    sub = p.add_subparsers(dest="what", metavar="WHAT")
    sub.required = True
    moves = sub.add_parser(
        "moves", help=_("list the legal moves in a position"),
        description=_("Lists every legal move of the side to move. POSITION is the rows from "
                      "row 8 down to row 1 joined by '/', each piece a letter (P/S white "
                      "piece/Shogun, p/s red) followed by the number its dial shows, a digit "
                      "alone for empty squares, then w or r, the side to move; or the same as "
                      "JSON; or - to read it from standard input. Example: {example}").format(
            example="shogun-tower shogun2 moves '7s1/2p35/8/3p14/2p2S14/8/8/P16P1 w'"))
    moves.add_argument("position", metavar="POSITION", help=_("the position, or - for stdin"))
    moves.add_argument("--json", action="store_true",
                       help=_("print the moves as JSON (default: one line per move)"))
    moves.set_defaults(handler=run_moves)
    start = sub.add_parser(
        "start", help=_("the start position of a board (its seed and turn)"),
        description=_("Prints the start position of the board drawn by SEED, turned by "
                      "--turned degrees: the number each piece shows on its first square."))
    start.add_argument("--seed", type=int, default=0, help=_("the board's seed (default: 0)"))
    start.add_argument("--turned", type=int, default=0, choices=TURNS,
                       help=_("the board turned clockwise by this many degrees (default: 0)"))
    start.add_argument("--json", action="store_true",
                       help=_("print it as JSON (default: text)"))
    start.set_defaults(handler=run_start)


def run_moves(args: argparse.Namespace) -> int:
    text = sys.stdin.read() if args.position == "-" else args.position
    state = State.from_position(Game(), parse_position(text))
    pos = state.position
    side = pos.to_move
    threat = pos.threatened(side)
    moves = state.legal_moves()  # none once the position is over
    if args.json:
        print(json.dumps({
            "position": format_position(pos), "to_move": SIDE_NAMES[side],
            "shogun": None if threat is None else name(threat),
            "result": state.result,
            "moves": [{"move": str(m), "from": name(m.start), "to": name(m.end),
                       "path": [name(s) for s in m.path],
                       "captures": KIND_NAMES[abs(m.captured)] if m.captured else None}
                      for m in moves]}, indent=2))
        return 0
    if state.result:
        print(_("{result}; no move is left to play").format(result=result_line(state.result)))
        return 0
    mover = side_word(SIDE_NAMES[side])
    print(ngettext("{side} to move: {n} legal move", "{side} to move: {n} legal moves",
                   len(moves)).format(side=mover, n=len(moves)))
    if threat is not None:
        print(_("Shogun! {side}'s Shogun is threatened by {piece} on {square}: only the moves "
                "that save it are legal").format(side=mover, piece=piece_word(pos.board[threat]),
                                                 square=name(threat)))
    for m in moves:
        values = {"piece": piece_word(pos.board[m.start]), "n": pos.dials[m.start],
                  "path": " ".join(name(s) for s in m.path)}
        line = (_("{piece} showing {n}, by {path}, takes {taken}").format(
                    taken=piece_word(m.captured), **values) if m.captured else
                _("{piece} showing {n}, by {path}").format(**values))
        print(f"  {m}  {line}")
    return 0


def run_start(args: argparse.Namespace) -> int:
    state = State.new(Game(seed=args.seed, turned=args.turned))
    if args.json:
        print(json.dumps(position_to_json(state.position), indent=2))
    else:
        print(format_position(state.position))
    return 0
