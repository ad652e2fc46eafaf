"""Ravensburger's two-player Shogun's help: pieces, dials, the way a piece goes, "Shogun!", the
end and how a move is typed, with the numbers of the board's own constants. The console's
`help` and the board page's help page both read this book (``helpbook.py``)."""

from __future__ import annotations

from shogun_tower.games.shogun2.board import PIECE_DIAL, SHOGUN_DIAL, SIZE
from shogun_tower.games.shogun2.dials import TURNS
from shogun_tower.games.shogun2.game import DRAW_PLIES, State
from shogun_tower.helpbook import HelpBook, Topic, table_topic

MOVE_HELP = ("A move is the square of a piece and the square it goes to: e2-e5 (or e2e5, "
             "e2xe5).")


def move_help(state: State) -> str:
    """How a move is typed, with a legal move of this position as the example (and a move that
    takes, when there is one)."""
    takes = next((str(m) for m in state.legal_moves() if m.captured), None)
    return (f"A move is the square of a piece and the square it goes to, e.g. {state.example()} "
            f"(the dash may be left out; an x between the squares says the move takes the "
            f"piece there{f', as in {takes}' if takes else ''}).")


def question_help(state: State) -> str:
    if state.result:
        return "The game is over: undo takes back the last move, Enter ends."
    return f"{move_help(state)} {state.to_move.capitalize()} moves now."


def _span(dial: tuple[int, ...]) -> str:
    return f"{min(dial)} to {max(dial)}"


def book() -> HelpBook:
    turns = ", ".join(map(str, TURNS[1:-1])) + f" or {TURNS[-1]}"
    return HelpBook("shogun2", "Shogun (Ravensburger)", "Two players, white and red, on an "
                    f"{SIZE}×{SIZE} board; the magnets under the squares turn each piece's "
                    "dial when it lands.", (
        Topic("pieces", "Pieces and dials", "", (
            ("Pieces", f"Each side has {SIZE} pieces on its first row, one of them its "
                       f"Shogun, on the fourth square from its right."),
            ("Dials", f"A piece shows {_span(PIECE_DIAL)} on its dial, the Shogun "
                      f"{_span(SHOGUN_DIAL)}. The number is how far it goes; after every move "
                      f"the magnet under its new square sets a new number, which the console "
                      f"tells."),
        )),
        Topic("moves", "Moves", "", (
            ("The way", "A piece goes exactly the number its dial shows, straight or with one "
                        "right-angle turn, never forward and back, never over another piece."),
            ("Capture", "It takes an opposing piece by landing on it."),
            ("Shogun!", "A Shogun that could be taken next move must be saved at once: move "
                        "it, take the threatening piece or put a piece in between. A move "
                        "that leaves your own Shogun open is refused."),
        )),
        Topic("end", "The end", "", (
            ("Win", "You win when the other side has only its Shogun and one piece left, or "
                    "when its Shogun cannot be saved, or when it cannot move without leaving "
                    "its Shogun open."),
            ("Draw", f"{DRAW_PLIES // 2} moves of each side without a capture: a draw."),
            ("Another board", f"After several games the board may be turned by a quarter: "
                              f"--turned {turns} (degrees) carries every magnet with it."),
        )),
        Topic("typing", "Typing a move", MOVE_HELP + " Type moves for the list of legal "
              "moves."),
        table_topic((("moves", "the legal moves of the side to move"),)),
    ))
