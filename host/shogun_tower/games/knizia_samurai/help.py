"""Knizia's Samurai's help: the figures, the tiles, the end and the winner, and how an entry is
typed, with the numbers of the box's one catalogue (``samurai.json``). The console's `help` and
the board page's help page both read this book (``helpbook.py``)."""

from __future__ import annotations

from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.state import SamuraiState, ordinal
from shogun_tower.helpbook import HelpBook, Topic, table_topic
from shogun_tower.i18n import _, and_list, join, or_list
from shogun_tower.words import capital, colour_word


def typed_words() -> dict[str, str]:
    """The words an entry is typed with, in the players' language (English is understood
    too): the examples of the help and of the refusals."""
    cat = catalogue()
    # a figure is typed as the tile kind of its own name: helmet, buddha, rice
    return {**{k: cat.tiles[k].said for k in ("helmet", "buddha", "rice", "samurai", "ship")},
            "tie": tie_word()}


def tie_word() -> str:
    # Translators: the word typed before a figure that leaves the board on a tie
    return _("tie")


def entry_help(players: tuple[str, ...]) -> str:
    """How an entry is typed, with this table's players in the examples."""
    kinds = join([t.said for t in catalogue().tiles.values()])
    w = typed_words()
    return _("Type each entry as it happens at the table: PLAYER FIGURE when a player captures "
             "a figure ({a} {helmet}); {tie} FIGURE when a figure leaves the board on a tie "
             "({tie} {rice}); or FIGURE: TILES to let the console decide, each tile "
             "PLAYER:KIND:VALUE ({helmet}: {a}:{helmet}:3 {b}:{samurai}:2; kinds: {kinds}). "
             "When one tile surrounds several figures, type them in one entry, separated by "
             "commas ({a} {helmet}, {tie} {buddha}), a city's figures before one colon "
             "({helmet} {buddha}: {a}:{samurai}:3 {b}:{ship}:2): they leave the board "
             "together. Figures: {helmet}, {buddha}, {rice}.").format(
        a=colour_word(players[0]), b=colour_word(players[1]), kinds=kinds, **w)


def question_help(state: SamuraiState) -> str:
    if state.over is not None:
        return _("The game is over: undo takes back the last entry, Enter ends.")
    return entry_help(state.game.players)


def book(players: tuple[str, ...] | None = None) -> HelpBook:
    cat = catalogue()
    players = players or cat.colours[:cat.most]
    per = join([_("{n} with {players} players").format(n=n, players=p)
                for p, n in cat.figures_per_type.items()])
    figures = and_list([f.said_plural for f in cat.figures])
    tiles = []
    for tile in cat.tiles.values():
        values = or_list([str(v) for v in tile.values])
        if not tile.influences:
            text = _("Counts for no figure (value {values}).").format(values=values)
        elif len(tile.influences) == len(cat.figures):
            text = _("Counts for every figure; values {values}.").format(values=values)
        else:
            counted = and_list([cat.figure(t).said_plural for t in tile.influences])
            text = _("Counts for {figures}; values {values}.").format(figures=counted,
                                                                      values=values)
        tiles.append((capital(_("{kind} tile").format(kind=tile.said)), text))
    tiles += [(capital(_("{kind} tile").format(kind=_(kind))), capital(_(why)) + ".")
              for kind, why in cat.off_board.items()]
    return HelpBook("knizia-samurai", _("Samurai"), _(
        "Reiner Knizia's Samurai, {fewest} to {most} players. The console keeps the score: you "
        "tell it each capture or tie, or the tiles around a surrounded figure, and it "
        "decides.").format(fewest=cat.fewest, most=cat.most), (
        Topic("game", _("The game"), "", (
            (_("Figures"), f"{capital(figures)}: {per}."),
            (_("Capture"), _("As soon as every land space next to a figure holds a tile, the "
                             "figure is captured: each player adds up his tiles next to it "
                             "that count for it, and the one strongest takes it.")),
            (_("A tie"), _("Players tied for the strongest: the figure goes beside the board "
                           "and belongs to nobody.")),
            (_("The end"), _("The game stops at once when the last figure of a type leaves "
                             "the board, or when the {ordinal} figure leaves it on a "
                             "tie.").format(ordinal=ordinal(cat.ties_that_end))),
        )),
        Topic("tiles", _("Tiles"), _("Each tile shows a value; it adds to its player's "
                                     "influence over the figures next to it that it counts "
                                     "for."), tuple(tiles)),
        Topic("winner", _("The winner"), "", (
            (_("Step 1"), _("A player with most figures of 2 or 3 types wins at once.")),
            (_("Step 2"), _("Otherwise only the players with most of one type can win; a tie "
                            "for most gives that type to nobody.")),
            (_("Step 3"), _("They set that type aside and count their other figures: most "
                            "wins.")),
            (_("Step 4"), _("Still tied, all their figures count; still tied, they share the "
                            "victory.")),
        )),
        Topic("entries", _("Typing an entry"), entry_help(players)),
        table_topic(hint=_("who would win if the game ended now, and which one capture would "
                           "change it")),
    ))
