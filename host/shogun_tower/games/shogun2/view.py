"""What the players see of a game of Ravensburger's Shogun: the board as terminal text, the
lines that tell each move (with every piece's new number), and the board page's view."""

from __future__ import annotations

from shogun_tower.games.shogun2.board import SHOGUN, SIDE_NAMES, SIZE, name
from shogun_tower.games.shogun2.game import NAME, State
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.notation import KIND_NAMES
from shogun_tower.table.terminal import ANSI_RGB, paint

TITLE = "Shogun (Ravensburger)"
LEGEND = "P/S: a white piece/Shogun, p/s: red's; the digit is the number its dial shows"


def board_text(state: State, colour: bool = False) -> list[str]:
    """The board from white's chair (row 1 at the bottom), each piece with its number; red's
    pieces in red where the terminal shows colour."""
    pos = state.position
    last = state.last or {}
    lines = ["     " + "   ".join("abcdefgh")]
    for rank in range(SIZE - 1, -1, -1):
        cells = []
        for f in range(SIZE):
            sq = rank * SIZE + f
            v = pos.board[sq]
            if not v:
                cells.append(" . ")
                continue
            letter = ("S" if abs(v) == SHOGUN else "P")
            letter = letter if v > 0 else letter.lower()
            mark = "*" if last.get("to") == name(sq) else " "
            piece = f"{letter}{pos.dials[sq]}"
            cells.append((paint(piece, ANSI_RGB["red"], colour) if v < 0 else piece) + mark)
        lines.append(f" {rank + 1}  " + " ".join(cells) + f"  {rank + 1}")
    lines.append(lines[0])
    lines.append(f"  {LEGEND}; * the last move")
    return lines


def event_lines(events: list[dict], bot: bool = False) -> list[str]:
    """Each move told in words: who went where, how far, and the number it now shows."""
    out = []
    for e in events:
        kind = e["event"]
        if kind == "moved":
            piece = "Shogun" if e["kind"] == "shogun" else "piece"
            out.append(f"{e['side']}{' (bot)' if bot else ''}: {e['from']}-{e['to']} — the "
                       f"{piece} went {e['dial']} (by {' '.join(e['path'])}) and now shows "
                       f"{e['new_dial']}")
        elif kind == "captured":
            out.append(f"  takes the {e['side']} {'Shogun' if e['kind'] == 'shogun' else 'piece'}"
                       f" on {e['square']}")
        elif kind == "shogun":
            out.append(f"  Shogun! {e['side']}'s Shogun is threatened from {e['by']}: "
                       f"{e['side']} must save it")
        elif kind == "ended":
            out.append(result_line(e))
    return out


def result_line(result: dict) -> str:
    winner = result.get("winner")
    return (f"the game is over: {result['reason']} — {winner} wins" if winner
            else f"the game is over: {result['reason']}")


def move_text(move: dict) -> str:
    """One move played, on one line: who went where, the number it now shows, what it took and
    the Shogun it threatens (a capture is part of its move, not a move of its own)."""
    piece = "Shogun" if move["kind"] == "shogun" else "piece"
    took = move.get("took")
    sep = "x" if took else "-"
    text = (f"{move['side']} {move['from']}{sep}{move['to']}: the {piece} went {move['dial']} "
            f"and now shows {move['new_dial']}")
    if took:
        other = "red" if move["side"] == "white" else "white"
        text += f"; takes the {other} {'Shogun' if took == 'shogun' else 'piece'}"
    if move.get("shogun"):
        text += f"; Shogun! {move['shogun']} must save its Shogun"
    return text


def page_view(state: State, bots: list[str]) -> dict:
    """The board page's view (JSON-ready): the 64 squares, the last move's way, "Shogun!",
    the result and every move played, numbered as the console counts them."""
    pos = state.position
    threatened = None
    for side in (1, -1):
        by = pos.threatened(side)
        if by is not None:
            threatened = {"side": SIDE_NAMES[side], "by": name(by),
                          "shogun": name(pos.shogun(side))}
    pieces = {name(sq): {"side": SIDE_NAMES[1 if v > 0 else -1], "kind": KIND_NAMES[abs(v)],
                         "dial": pos.dials[sq]}
              for sq, v in enumerate(pos.board) if v}
    left = {SIDE_NAMES[s]: len(pos.pieces(s)) for s in (1, -1)}
    first = state.plies - len(state.moves)  # moves before a typed position: not listed
    return {"game": NAME, "title": TITLE, "seed": state.game.seed,
            "turned": state.game.turned, "to_move": None if state.result else state.to_move,
            "pieces": pieces, "left": left, "moves": state.plies,
            "last": state.last, "shogun": threatened, "result": state.result,
            "result_line": result_line(state.result) if state.result else "",
            "bots": list(bots),
            "played": [{"n": first + i + 1, "text": move_text(m)}
                       for i, m in enumerate(state.moves)]}


def journal_view(journal: Shogun2Journal) -> dict:
    """The page's view of a saved game (`serve --journal`): the board and every move."""
    table = journal.table or {}
    return page_view(journal.state, sorted(table.get("bots", [])))


def replay_lines(journal: Shogun2Journal, path: str) -> list[str]:
    """What `replay` prints of a saved game: the moves, the board and where the game stands."""
    s = journal.state
    lines = [f"{path}: {TITLE}, board {s.game.seed}"
             + (f" turned {s.game.turned}°" if s.game.turned else "")
             + f", {s.plies} move{'s' * (s.plies != 1)} played"]
    lines += board_text(s)
    left = {SIDE_NAMES[x]: len(s.position.pieces(x)) for x in (1, -1)}
    lines.append(f"  pieces left: white {left['white']}, red {left['red']}")
    if s.result:
        lines.append("  " + result_line(s.result))
    else:
        lines.append(f"  waiting for: {s.to_move} to move")
    return lines
