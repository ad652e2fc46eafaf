"""Ravensburger's two-player Shogun's help: pieces, dials, the way a piece goes, "Shogun!", the
end and how a move is typed, with the numbers of the board's own constants. The console's
`help` and the board page's help page both read this book (``helpbook.py``)."""

from __future__ import annotations

from shogun_tower.games.shogun2.board import PIECE_DIAL, SHOGUN_DIAL, SIZE
from shogun_tower.games.shogun2.dials import TURNS
from shogun_tower.games.shogun2.game import DRAW_PLIES, State
from shogun_tower.games.shogun2.notation import side_word
from shogun_tower.helpbook import HelpBook, Topic, table_topic
from shogun_tower.i18n import N_, _, or_list
from shogun_tower.words import capital

MOVE_HELP = N_("A move is the square of a piece and the square it goes to: e2-e5 (or e2e5, "
               "e2xe5).")


def move_help(state: State) -> str:
    """How a move is typed, with a legal move of this position as the example (and a move that
    takes, when there is one)."""
    takes = next((str(m) for m in state.legal_moves() if m.captured), None)
    if takes:
        return _("A move is the square of a piece and the square it goes to, e.g. {example} "
                 "(the dash may be left out; an x between the squares says the move takes the "
                 "piece there, as in {takes}).").format(example=state.example(), takes=takes)
    return _("A move is the square of a piece and the square it goes to, e.g. {example} (the "
             "dash may be left out; an x between the squares says the move takes the piece "
             "there).").format(example=state.example())


def question_help(state: State) -> str:
    if state.result:
        return _("The game is over: undo takes back the last move, Enter ends.")
    return _("{how} {side} moves now.").format(how=move_help(state),
                                               side=capital(side_word(state.to_move)))


def _span(dial: tuple[int, ...]) -> str:
    return _("{low} to {high}").format(low=min(dial), high=max(dial))


def book() -> HelpBook:
    turns = or_list([str(t) for t in TURNS[1:]])
    return HelpBook("shogun2", _("Shogun (Ravensburger)"), _(
        "Two players, white and red, on an {size}×{size} board; the magnets under the squares "
        "turn each piece's dial when it lands.").format(size=SIZE), (
        Topic("pieces", _("Pieces and dials"), "", (
            (_("Pieces"), _("Each side has {size} pieces on its first row, one of them its "
                            "Shogun, on the fourth square from its right.").format(size=SIZE)),
            (_("Dials"), _("A piece shows {piece} on its dial, the Shogun {shogun}. The number "
                           "is how far it goes; after every move the magnet under its new "
                           "square sets a new number, which the console tells.").format(
                piece=_span(PIECE_DIAL), shogun=_span(SHOGUN_DIAL))),
        )),
        Topic("moves", _("Moves"), "", (
            (_("The way"), _("A piece goes exactly the number its dial shows, straight or with "
                             "one right-angle turn, never forward and back, never over another "
                             "piece.")),
            (_("Capture"), _("It takes an opposing piece by landing on it.")),
            ("Shogun!", _("A Shogun that could be taken next move must be saved at once: move "
                          "it, take the threatening piece or put a piece in between. A move "
                          "that leaves your own Shogun open is refused.")),
        )),
        Topic("end", _("The end"), "", (
            (_("Win"), _("You win when the other side has only its Shogun and one piece left, "
                         "or when its Shogun cannot be saved, or when it cannot move without "
                         "leaving its Shogun open.")),
            (_("Draw"), _("{n} moves of each side without a capture: a draw.").format(
                n=DRAW_PLIES // 2)),
            (_("Another board"), _("After several games the board may be turned by a quarter: "
                                   "--turned {turns} (degrees) carries every magnet with "
                                   "it.").format(turns=turns)),
        )),
        Topic("typing", _("Typing a move"), _("{how} Type moves for the list of legal "
                                              "moves.").format(how=_(MOVE_HELP))),
        table_topic(((("moves", _("the legal moves of the side to move"))),)),
    ))
