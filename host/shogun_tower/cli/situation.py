"""Shogun described by command-line options: the game's map, set-up and expansions (`play`,
`demo`), and a battle for `referee battle` and `referee odds`: the options, their checks
against the box (rules C1, C2, B7, A9) and the cubes the battle puts into the tower (the rules'
own ``battle_cubes``)."""

from __future__ import annotations

import argparse

from shogun_tower.cli.arguments import count
from shogun_tower.counts import parse_count_option
from shogun_tower.errors import RulesError, ShogunError
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARDS
from shogun_tower.games.shogun.rules.core.constants import (
    ARMIES_PER_PLAYER,
    FARMER_CUBES,
    FARMERS,
    PLAYER_COLOURS,
    REVOLT_MARKERS,
)
from shogun_tower.games.shogun.rules.core.tower import battle_cubes
from shogun_tower.games.shogun.rules.expansions import EXPANSION_NAMES
from shogun_tower.i18n import _, ngettext
from shogun_tower.words import colour_word


def add_shogun_options(parser: argparse.ArgumentParser, resumable: bool) -> None:
    """--map, --setup and --expansions; ``resumable``: each defaults to None (a resumed game
    keeps its own), else to its value for a new game."""
    parser.add_argument("--map", default=None if resumable else "sun",
                        help=_("sun, moon, or a map file (default: sun)"))
    parser.add_argument("--setup", default=None if resumable else "fixed",
                        choices=("fixed", "draft"),
                        help=_("fixed start or the draft (rule S2) (default: fixed)"))
    parser.add_argument("--expansions", default=None if resumable else "",
                        help=_("expansions of the second rulebook to play with, a comma list of "
                               "{names}, e.g. court,leaders (default: none)").format(
                                   names=", ".join(EXPANSION_NAMES)))


def add_battle_situation(parser: argparse.ArgumentParser) -> None:
    """The options that describe a battle before its throw: `referee battle` and `referee odds`
    read the same ones."""
    parser.add_argument("--attacker", required=True, choices=PLAYER_COLOURS,
                   help=_("the attacking player"))
    parser.add_argument("--armies", type=count, required=True,
                   help=_("armies the attacker moves in (1 or more)"))
    parser.add_argument("--origin-armies", type=count,
                   help=_("armies in the origin province before the move, to check rule B7 "
                          "(default: not checked)"))
    parser.add_argument("--defender", choices=PLAYER_COLOURS,
                   help=_("defending player (default: none, a neutral province)"))
    parser.add_argument("--defender-armies", type=count,
                   help=_("the defender's armies in the province (needs --defender; default: "
                          "none, a neutral province)"))
    parser.add_argument("--markers", type=count, default=0,
                   help=_("revolt markers in the province: with any, the farmers stay out of a "
                          "battle between players (rule B1; default: 0)"))
    parser.add_argument("--attack-card", action="store_true",
                   help=_("the attacker holds the +1 attack card (rule P4; default: no)"))
    parser.add_argument("--defence-card", action="store_true",
                   help=_("the defender holds the +1 defence card (rule P5; needs --defender; "
                          "default: no)"))
    parser.add_argument("--event", choices=sorted(EVENT_CARDS),
                   help=_("this season's event card (default: none that matters)"))
    parser.add_argument("--castle", action="store_true",
                   help=_("the province has a castle (matters under E3/E4; default: no)"))


def battle_into(args: argparse.Namespace) -> tuple[dict[str, int], bool]:
    armies = _("a player has {n} armies (rule C2)").format(n=ARMIES_PER_PLAYER)
    _at_most("--armies", args.armies, ARMIES_PER_PLAYER, armies)
    _at_most("--origin-armies", args.origin_armies, ARMIES_PER_PLAYER, armies)
    _at_most("--defender-armies", args.defender_armies, ARMIES_PER_PLAYER, armies)
    _at_most("--markers", args.markers, REVOLT_MARKERS,
             _("the game has {n} revolt markers").format(n=REVOLT_MARKERS))
    if args.origin_armies is not None and args.armies > args.origin_armies - 1:
        raise RulesError("B7", _("an attack must leave at least 1 army behind: {origin} in "
                                 "the origin allow at most {most}").format(
                                     origin=args.origin_armies,
                                     most=max(0, args.origin_armies - 1)))
    if args.armies < 1:
        raise RulesError("A9", _("the attacker moves at least 1 army"))
    if args.defender is None:
        if args.defender_armies is not None:
            raise ShogunError(_("--defender-armies needs --defender (the defending player); "
                                "without it the province is neutral"))
        if args.defence_card:
            raise ShogunError(_("--defence-card needs --defender: a neutral province has no "
                                "defender to hold it"))
    elif args.defender == args.attacker:
        raise ShogunError(_("--defender is the attacker; moving into an own province is no "
                            "battle"))
    elif not args.defender_armies:
        raise ShogunError(_("--defender-armies: a player's province holds at least 1 army; "
                            "give how many"))
    into = battle_cubes(args.attacker, args.armies, args.defender, args.defender_armies or 0,
                        args.attack_card, args.defence_card, args.event, args.castle)
    return into, args.defender is None or args.markers == 0


def _at_most(option: str, value: int | None, most: int, why: str) -> None:
    if value is not None and value > most:
        raise ShogunError(_("{option}: {value} is more than {most}, {why}").format(
            option=option, value=value, most=most, why=why))


def _within_box(what: str, colour: str, n: int) -> None:
    if colour == FARMERS and n > FARMER_CUBES:
        raise ShogunError(ngettext("{what}: {n} farmer, but there are {most} farmers in the "
                                   "game (rule C1)",
                                   "{what}: {n} farmers, but there are {most} farmers in the "
                                   "game (rule C1)", n).format(what=what, n=n, most=FARMER_CUBES))
    if colour != FARMERS and n > ARMIES_PER_PLAYER:
        raise ShogunError(ngettext("{what}: {n} {colour} army, but a player has {most} "
                                   "(rule C2)",
                                   "{what}: {n} {colour} armies, but a player has {most} "
                                   "(rule C2)", n).format(what=what, n=n,
                                                          colour=colour_word(colour),
                                                          most=ARMIES_PER_PLAYER))


def counts_option(text: str, what: str) -> dict[str, int]:
    """An option's ``colour=count,...``, each count within the box (rules C1, C2)."""
    out = parse_count_option(text, what)
    for colour, n in out.items():
        _within_box(what, colour, n)
    return out
