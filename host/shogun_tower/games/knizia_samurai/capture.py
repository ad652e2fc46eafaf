"""Capture of a surrounded figure (rulebook 004, "Capture des figurines"): every tile next to it
adds its value to its player's influence if it counts for the figure's type (samurai, cavalry and
ship tiles count for every type; the exchange tile is worth 0); the one strongest player takes the
figure; a tie for the strongest, at whatever value, sends it off the board."""

from __future__ import annotations

from dataclasses import dataclass

from shogun_tower.errors import ShogunError
from shogun_tower.games.knizia_samurai.catalogue import Catalogue, catalogue
from shogun_tower.i18n import _, and_list, join, or_list
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
    """``blue:helmet:3``, ``blue helmet 3`` or ``yellow:exchange`` (its value is 0), in
    English or in the players' language (``bleu:heaume:3``)."""
    cat = cat or catalogue()
    parts = cat.typed_text(text).replace(":", " ").split()
    if len(parts) == 2 and parts[1].lower() in cat.off_board:
        raise ShogunError(_("tile {tile!r}: {why}; leave it out").format(
            tile=text, why=_(cat.off_board[parts[1].lower()])))
    if len(parts) == 2 and parts[1].lower() in cat.tiles \
            and cat.tiles[parts[1].lower()].values == (0,):
        parts.append("0")  # the exchange tile shows no number
    if len(parts) != 3:
        raise ShogunError(_("tile {tile!r}: write PLAYER:KIND:VALUE, e.g. {example} (the "
                            "exchange tile: {exchange})").format(
            tile=text, example=_example(3), exchange=_example(0)))
    player, kind, value = parts[0].lower(), parts[1].lower(), parts[2]
    if not value.isdigit():
        raise ShogunError(_("tile {tile!r}: the value {value!r} is not a number; e.g. "
                            "{example}").format(tile=text, value=value, example=_example(3)))
    return make_tile(player, kind, int(value), players, cat)


def _example(value: int) -> str:
    """A tile as typed, in the players' words: ``blue:helmet:3``, ``yellow:exchange``."""
    if value == 0:
        return f"{colour_word('yellow')}:{_('exchange')}"
    return f"{colour_word('blue')}:{_('helmet')}:{value}"


def make_tile(player: str, kind: str, value: int, players: tuple[str, ...] | None = None,
              cat: Catalogue | None = None) -> Tile:
    """A checked tile: ShogunError in one line says what is wrong with it and what to give."""
    cat = cat or catalogue()
    allowed = players or cat.colours
    tile = f"{player}:{kind}:{value}"
    if player not in allowed:
        raise ShogunError(_("tile {tile}: {player!r} is not a player here; players are "
                            "{players}").format(tile=tile, player=player, players=join(
                                [colour_word(p) for p in allowed])))
    if kind in cat.off_board:
        raise ShogunError(_("tile {tile}: {why}; leave it out").format(
            tile=f"{player}:{kind}", why=_(cat.off_board[kind])))
    if kind not in cat.tiles:
        raise ShogunError(_("tile {tile}: no tile kind {kind!r}; kinds are {kinds}").format(
            tile=tile, kind=kind, kinds=join([t.said for t in cat.tiles.values()])))
    values = cat.tiles[kind].values
    if value not in values:
        shown = or_list([str(v) for v in values])
        kind_said = cat.tiles[kind].said
        if len(values) == 1:
            raise ShogunError(_("tile {tile}: a {kind} tile shows only {values}, not "
                                "{value}").format(tile=tile, kind=kind_said, values=shown,
                                                  value=value))
        raise ShogunError(_("tile {tile}: a {kind} tile shows {values}, not {value}").format(
            tile=tile, kind=kind_said, values=shown, value=value))
    return Tile(player, kind, value)


def influence(tiles: list[Tile], figure: str, cat: Catalogue | None = None) -> dict[str, int]:
    """Each player's influence on a figure of type ``figure``: every player with a tile next to
    it, 0 included, strongest first (players of equal influence in the order of their tiles)."""
    cat = cat or catalogue()
    if figure not in cat.types:
        raise ShogunError(_("figure {figure!r}: the figure types are {types}").format(
            figure=figure, types=", ".join(cat.types)))
    total: dict[str, int] = {}
    for t in tiles:
        counts = figure in cat.tiles[t.kind].influences
        total[t.player] = total.get(t.player, 0) + (t.value if counts else 0)
    return dict(sorted(total.items(), key=lambda kv: -kv[1]))


def adjudicate(tiles: list[Tile], figure: str, cat: Catalogue | None = None) -> Verdict:
    """Who captures a surrounded figure of type ``figure`` with these tiles next to it."""
    if not tiles:
        raise ShogunError(_("a surrounded figure has at least one tile next to it; give its "
                            "tiles as PLAYER:KIND:VALUE"))
    inf = influence(tiles, figure, cat)
    top = max(inf.values())
    strongest = tuple(p for p, v in inf.items() if v == top)
    # the strongest alone, with some influence, takes it; at 0 every player ties (decision)
    if len(strongest) == 1 and top > 0:
        return Verdict(figure, strongest[0], inf, ())
    return Verdict(figure, None, inf, strongest)
