"""Capture of a surrounded figure (rulebook 004, "Capture des figurines"): every tile next to it
adds its value to its player's influence if it counts for the figure's type (samurai, cavalry and
ship tiles count for every type; the exchange tile is worth 0); the one strongest player takes the
figure; a tie for the strongest, at whatever value, sends it off the board."""

from __future__ import annotations

from dataclasses import dataclass

from shogun_tower.errors import ShogunError
from shogun_tower.games.knizia_samurai.catalogue import Catalogue, catalogue
from shogun_tower.i18n import _, and_list, join
from shogun_tower.words import colour_word


@dataclass(frozen=True)
class Tile:
    """One hexagon next to the figure."""

    player: str
    kind: str
    value: int

    def to_json(self) -> list:
        return [self.player, self.kind, self.value]


@dataclass(frozen=True)
class Verdict:
    figure: str
    winner: str | None           # None: a tie, the figure leaves the board
    influence: dict[str, int]    # every player with a tile next to it, strongest first
    tied: tuple[str, ...]        # the players tied for the strongest influence (on a tie)

    def text(self, title: str) -> str:
        """One line for the table, e.g. ``blue captures the helmet: blue 3, red 2``, in the
        players' language (``title``: the figure's name in it)."""
        # Translators: one player's influence in a list, e.g. "blue 3"
        counts = join([_("{player} {influence}").format(player=colour_word(p), influence=v)
                       for p, v in self.influence.items()])
        if self.winner is not None:
            return _("{player} captures the {figure}: {counts}").format(
                player=colour_word(self.winner), figure=title, counts=counts)
        top = next(iter(self.influence.values()))
        if top == 0:
            return _("the {figure} leaves the board: no tile next to it counts for a "
                     "{figure} ({counts}), a tie at 0").format(figure=title, counts=counts)
        tied = and_list([colour_word(p) for p in self.tied])
        if len(self.tied) < len(self.influence):
            return _("the {figure} leaves the board: {players} tie at {top} ({counts})").format(
                figure=title, players=tied, top=top, counts=counts)
        return _("the {figure} leaves the board: {players} tie at {top}").format(
            figure=title, players=tied, top=top)


def tile_from_text(text: str, players: tuple[str, ...] | None = None,
                   cat: Catalogue | None = None) -> Tile:
    """``blue:helmet:3``, ``blue helmet 3`` or ``yellow:exchange`` (its value is 0)."""
    cat = cat or catalogue()
    parts = text.replace(":", " ").split()
    if len(parts) == 2 and parts[1].lower() in cat.off_board:
        raise ShogunError(f"tile {text!r}: {cat.off_board[parts[1].lower()]}; leave it out")
    if len(parts) == 2 and parts[1].lower() in cat.tiles \
            and cat.tiles[parts[1].lower()].values == (0,):
        parts.append("0")  # the exchange tile shows no number
    if len(parts) != 3:
        raise ShogunError(f"tile {text!r}: write PLAYER:KIND:VALUE, e.g. blue:helmet:3 "
                          f"(the exchange tile: yellow:exchange)")
    player, kind, value = parts[0].lower(), parts[1].lower(), parts[2]
    if not value.isdigit():
        raise ShogunError(f"tile {text!r}: the value {value!r} is not a number; e.g. "
                          f"blue:helmet:3")
    return make_tile(player, kind, int(value), players, cat)


def make_tile(player: str, kind: str, value: int, players: tuple[str, ...] | None = None,
              cat: Catalogue | None = None) -> Tile:
    """A checked tile: ShogunError in one line says what is wrong with it and what to give."""
    cat = cat or catalogue()
    allowed = players or cat.colours
    if player not in allowed:
        raise ShogunError(f"tile {player}:{kind}:{value}: {player!r} is not a player here; "
                          f"players are {', '.join(allowed)}")
    if kind in cat.off_board:
        raise ShogunError(f"tile {player}:{kind}: {cat.off_board[kind]}; leave it out")
    if kind not in cat.tiles:
        raise ShogunError(f"tile {player}:{kind}:{value}: no tile kind {kind!r}; kinds are "
                          f"{', '.join(cat.tiles)}")
    values = cat.tiles[kind].values
    if value not in values:
        shown = ", ".join(map(str, values))
        raise ShogunError(f"tile {player}:{kind}:{value}: a {kind} tile shows "
                          f"{'only ' if len(values) == 1 else ''}{shown}, not {value}")
    return Tile(player, kind, value)


def influence(tiles: list[Tile], figure: str, cat: Catalogue | None = None) -> dict[str, int]:
    """Each player's influence on a figure of type ``figure``: every player with a tile next to
    it, 0 included, strongest first (players of equal influence in the order of their tiles)."""
    cat = cat or catalogue()
    if figure not in cat.types:
        raise ShogunError(f"figure {figure!r}: the figure types are {', '.join(cat.types)}")
    total: dict[str, int] = {}
    for t in tiles:
        counts = figure in cat.tiles[t.kind].influences
        total[t.player] = total.get(t.player, 0) + (t.value if counts else 0)
    return dict(sorted(total.items(), key=lambda kv: -kv[1]))


def adjudicate(tiles: list[Tile], figure: str, cat: Catalogue | None = None) -> Verdict:
    """Who captures a surrounded figure of type ``figure`` with these tiles next to it."""
    if not tiles:
        raise ShogunError("a surrounded figure has at least one tile next to it; give its tiles "
                          "as PLAYER:KIND:VALUE")
    inf = influence(tiles, figure, cat)
    top = max(inf.values())
    strongest = tuple(p for p, v in inf.items() if v == top)
    # the strongest alone, with some influence, takes it; at 0 every player ties (decision)
    if len(strongest) == 1 and top > 0:
        return Verdict(figure, strongest[0], inf, ())
    return Verdict(figure, None, inf, strongest)
