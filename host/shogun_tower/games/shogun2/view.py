"""What the players see of a game of Ravensburger's Shogun: the board as terminal text, the
lines that tell each move (with every piece's new number), and the board page's view."""

from __future__ import annotations

from shogun_tower.games.shogun2.board import SHOGUN, SIDE_NAMES, SIZE, name
from shogun_tower.games.shogun2.game import NAME, State
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.notation import KIND_NAMES, piece_word, side_word
from shogun_tower.i18n import N_, _, ngettext
from shogun_tower.table.terminal import ANSI_RGB, paint

TITLE = N_("Shogun (Ravensburger)")
LEGEND = N_("P/S: a white piece/Shogun, p/s: red's; the digit is the number its dial shows; "
            "* the last move")


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
    lines.append(f"  {_(LEGEND)}")
    return lines


def event_lines(events: list[dict], bot: bool = False) -> list[str]:
    """Each move told in words: who went where, how far, and the number it now shows."""
    out = []
    for e in events:
        kind = e["event"]
        if kind == "moved":
            who = (_("{side} (bot)") if bot else "{side}").format(side=side_word(e["side"]))
            text = (_("{side}: {move} — the Shogun went {n} (by {path}) and now shows {dial}")
                    if e["kind"] == "shogun" else
                    _("{side}: {move} — the piece went {n} (by {path}) and now shows {dial}"))
            out.append(text.format(side=who, move=f"{e['from']}-{e['to']}", n=e["dial"],
                                   path=" ".join(e["path"]), dial=e["new_dial"]))
        elif kind == "captured":
            out.append("  " + _("takes {piece} on {square}").format(
                piece=piece_word(_piece(e["side"], e["kind"])), square=e["square"]))
        elif kind == "shogun":
            out.append("  " + _("Shogun! {side}'s Shogun is threatened from {square}: {side} "
                                "must save it").format(side=side_word(e["side"]),
                                                      square=e["by"]))
        elif kind == "ended":
            out.append(result_line(e))
    return out


def _piece(side: str, kind: str) -> int:
    """The board's number of a piece named by its side and kind (for ``piece_word``)."""
    return (1 if side == "white" else -1) * (SHOGUN if kind == "shogun" else 1)


def result_line(result: dict) -> str:
    winner = result.get("winner")
    if winner:
        return _("the game is over: {reason} — {side} wins").format(
            reason=result["reason"], side=side_word(winner))
    return _("the game is over: {reason}").format(reason=result["reason"])


def move_text(move: dict) -> str:
    """One move played, on one line: who went where, the number it now shows, what it took and
    the Shogun it threatens (a capture is part of its move, not a move of its own)."""
    took = move.get("took")
    sep = "x" if took else "-"
    text = (_("{side} {move}: the Shogun went {n} and now shows {dial}")
            if move["kind"] == "shogun" else
            _("{side} {move}: the piece went {n} and now shows {dial}")).format(
        side=side_word(move["side"]), move=f"{move['from']}{sep}{move['to']}",
        n=move["dial"], dial=move["new_dial"])
    if took:
        other = "red" if move["side"] == "white" else "white"
        text = _("{move}; takes {piece}").format(move=text, piece=piece_word(_piece(other, took)))
    if move.get("shogun"):
        text = _("{move}; Shogun! {side} must save its Shogun").format(
            move=text, side=side_word(move["shogun"]))
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
    return {"game": NAME, "title": _(TITLE), "seed": state.game.seed,
            # the sides in the players' language, as the page shows them
            "sides": {side: side_word(side) for side in ("white", "red")},
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
    lines = [ngettext("{path}: {title}, {board}, {n} move played",
                      "{path}: {title}, {board}, {n} moves played", s.plies).format(
        path=path, title=_(TITLE), board=board_words(s.game.seed, s.game.turned), n=s.plies)]
    lines += board_text(s)
    lines.append("  " + pieces_left(s))
    if s.result:
        lines.append("  " + result_line(s.result))
    else:
        lines.append("  " + _("waiting for: {side} to move").format(side=side_word(s.to_move)))
    return lines


def board_words(seed: int, turned: int) -> str:
    """``board 7`` or ``board 7 turned 90°``: which board, as the players can set it again."""
    if turned:
        return _("board {seed} turned {turned}°").format(seed=seed, turned=turned)
    return _("board {seed}").format(seed=seed)


def pieces_left(state: State) -> str:
    left = {SIDE_NAMES[x]: len(state.position.pieces(x)) for x in (1, -1)}
    return _("pieces left: white {white}, red {red}").format(**left)
