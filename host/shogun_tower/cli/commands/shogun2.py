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
)
from shogun_tower.games.shogun2.view import result_line


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "shogun2", help="Ravensburger's two-player Shogun: legal moves, the start",
        description="Referee tools for Ravensburger's two-player Shogun. Play it "
                    "with `shogun-tower play --game shogun2`.")
    sub = p.add_subparsers(dest="what", metavar="WHAT")
    sub.required = True
    moves = sub.add_parser(
        "moves", help="list the legal moves in a position",
        description="Lists every legal move of the side to move. POSITION is the rows from "
                    "row 8 down to row 1 joined by '/', each piece a letter (P/S white "
                    "piece/Shogun, p/s red) followed by the number its dial shows, a digit "
                    "alone for empty squares, then w or r, the side to move; or the same as "
                    "JSON; or - to read it from standard input. Example: shogun-tower shogun2 "
                    "moves '7s1/2p35/8/3p14/2p2S14/8/8/P16P1 w'")
    moves.add_argument("position", metavar="POSITION", help="the position, or - for stdin")
    moves.add_argument("--json", action="store_true",
                       help="print the moves as JSON (default: one line per move)")
    moves.set_defaults(handler=run_moves)
    start = sub.add_parser(
        "start", help="the start position of a board (its seed and turn)",
        description="Prints the start position of the board drawn by SEED, turned by "
                    "--turned degrees: the number each piece shows on its first square.")
    start.add_argument("--seed", type=int, default=0, help="the board's seed (default: 0)")
    start.add_argument("--turned", type=int, default=0, choices=TURNS,
                       help="the board turned clockwise by this many degrees (default: 0)")
    start.add_argument("--json", action="store_true", help="print it as JSON (default: text)")
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
        print(result_line(state.result) + "; no move is left to play")
        return 0
    print(f"{SIDE_NAMES[side]} to move: {len(moves)} legal move{'s' * (len(moves) != 1)}")
    if threat is not None:
        print(f"Shogun! {SIDE_NAMES[side]}'s Shogun is threatened by "
              f"{piece_word(pos.board[threat])} on {name(threat)}: only the moves that save it "
              f"are legal")
    for m in moves:
        what = f"{piece_word(pos.board[m.start])} showing {pos.dials[m.start]}"
        took = f", takes {piece_word(m.captured)}" if m.captured else ""
        print(f"  {m}  {what}, by {' '.join(name(s) for s in m.path)}{took}")
    return 0


def run_start(args: argparse.Namespace) -> int:
    state = State.new(Game(seed=args.seed, turned=args.turned))
    if args.json:
        print(json.dumps(position_to_json(state.position), indent=2))
    else:
        print(format_position(state.position))
    return 0
