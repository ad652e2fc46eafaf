"""Knizia's Samurai's help: the figures, the tiles, the end and the winner, and how an entry is
typed, with the numbers of the box's one catalogue (``samurai.json``). The console's `help` and
the board page's help page both read this book (``helpbook.py``)."""

from __future__ import annotations

from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.state import SamuraiState
from shogun_tower.helpbook import HelpBook, Topic, table_topic


def entry_help(players: tuple[str, ...]) -> str:
    """How an entry is typed, with this table's players in the examples."""
    a, b = players[0], players[1]
    kinds = ", ".join(catalogue().tiles)
    return (f"Type each entry as it happens at the table: PLAYER FIGURE when a player captures "
            f"a figure ({a} helmet); tie FIGURE when a figure leaves the board on a tie (tie "
            f"rice); or FIGURE: TILES to let the console decide, each tile PLAYER:KIND:VALUE "
            f"(helmet: {a}:helmet:3 {b}:samurai:2; kinds: {kinds}). When one tile surrounds "
            f"several figures, type them in one entry, separated by commas ({a} helmet, tie "
            f"buddha), a city's figures before one colon (helmet buddha: {a}:samurai:3 "
            f"{b}:ship:2): they leave the board together. Figures: helmet, buddha, rice.")


def question_help(state: SamuraiState) -> str:
    if state.over is not None:
        return "The game is over: undo takes back the last entry, Enter ends."
    return entry_help(state.game.players)


def book(players: tuple[str, ...] | None = None) -> HelpBook:
    cat = catalogue()
    players = players or cat.colours[:cat.most]
    per = ", ".join(f"{n} with {p} players" for p, n in cat.figures_per_type.items())
    figures = ", ".join(f.plural for f in cat.figures)
    tiles = []
    for kind, tile in cat.tiles.items():
        values = ", ".join(map(str, tile.values))
        if not tile.influences:
            text = f"Counts for no figure (value {values})."
        elif len(tile.influences) == len(cat.figures):
            text = f"Counts for every figure; values {values}."
        else:
            counted = " and ".join(cat.figure(t).plural for t in tile.influences)
            text = f"Counts for {counted}; values {values}."
        tiles.append((f"{kind.capitalize()} tile", text))
    tiles += [(f"{kind.replace('-', ' ').capitalize()} tile", why[0].upper() + why[1:] + ".")
              for kind, why in cat.off_board.items()]
    return HelpBook("knizia-samurai", "Samurai", f"Reiner Knizia's Samurai, {cat.fewest} to "
                    f"{cat.most} players. The console keeps the score: you tell it each capture "
                    f"or tie, or the tiles around a surrounded figure, and it decides.", (
        Topic("game", "The game", "", (
            ("Figures", f"{figures[0].upper()}{figures[1:]}: {per}."),
            ("Capture", "As soon as every land space next to a figure holds a tile, the figure "
                        "is captured: each player adds up his tiles next to it that count for "
                        "it, and the one strongest takes it."),
            ("A tie", "Players tied for the strongest: the figure goes beside the board and "
                      "belongs to nobody."),
            ("The end", f"The game stops at once when the last figure of a type leaves the "
                        f"board, or when the {cat.ties_that_end}th figure leaves it on a tie."),
        )),
        Topic("tiles", "Tiles", "Each tile shows a value; it adds to its player's influence "
              "over the figures next to it that it counts for.", tuple(tiles)),
        Topic("winner", "The winner", "", (
            ("Step 1", "A player with most figures of 2 or 3 types wins at once."),
            ("Step 2", "Otherwise only the players with most of one type can win; a tie for most "
                  "gives that type to nobody."),
            ("Step 3", "They set that type aside and count their other figures: most wins."),
            ("Step 4", "Still tied, all their figures count; still tied, they share the victory."),
        )),
        Topic("entries", "Typing an entry", entry_help(players)),
        table_topic(hint="who would win if the game ended now, and which one capture would "
                         "change it"),
    ))
