"""`shogun-tower referee`: the rules engine as an arbiter for a game on the physical board.

Give the situation and the tray counts, get the verdict (text or --json). Without --tray, the
battle and revolt commands say which cubes go into the tower. Every count is checked against
what the box holds (62 armies a player, 20 farmers, 42 revolt markers, the map's provinces, the
buildings' supply) and conflicting options are refused: see docs/bad-inputs.md.

The JSON output keys counts by cube colour, so farmers are "green" there (their cubes' colour);
every message says farmers.
"""

from __future__ import annotations

import argparse
import json

from shogun_tower.cli import odds as odds_cli
from shogun_tower.cli.arguments import ExamplesFormatter, count, examples
from shogun_tower.cli.situation import (
    _at_most,
    _within_box,
    add_battle_situation,
    battle_into,
    counts_option,
)
from shogun_tower.errors import RulesError, ShogunError
from shogun_tower.games.shogun.rules import load_map
from shogun_tower.games.shogun.rules.core.battle import Verdict, battle_verdict, revolt_verdict
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARDS
from shogun_tower.games.shogun.rules.core.constants import (
    ARMIES_PER_PLAYER,
    BUILDING_NAMES,
    BUILDING_SUPPLY,
    BUILDINGS,
    CUBE_COLOURS,
    FARMERS,
    PLAYER_COLOURS,
    REVOLT_MARKERS,
    RICE_TRACK_MAX,
    provisions,
)
from shogun_tower.games.shogun.rules.core.scoring import score
from shogun_tower.i18n import _, join, ngettext
from shogun_tower.words import colour_word, cube_count, cube_word, sentence

# What a count may name: a player colour, or the farmers (by name or by their cubes' colour).
_COUNT_NAMES = (*PLAYER_COLOURS, "farmers")
_MOST_WINTER_FARMERS = provisions(99)[1]  # the provisions table's last row (rule W2)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "referee", help=_("rule on a battle, revolt, winter or scoring"),
        description=_("The rules engine as the arbiter of a game played on the physical board: "
                      "describe the situation, get the verdict with the rule it follows. "
                      "`referee SITUATION --help` describes each situation."))
    sub = p.add_subparsers(dest="situation", metavar="SITUATION")
    sub.required = True
    odds_cli.register(sub)  # `referee odds`

    b = sub.add_parser(
        "battle", help=_("a battle (rules B1-B7)"), formatter_class=ExamplesFormatter,
        description=_("A battle for a province (rules B1-B7). Without --tray: which cubes go "
                      "into the tower (the armies, the defender's, the farmers of a neutral "
                      "province, the cards' extra cube). With --tray (what fell out): who wins, "
                      "which cubes go back to the supply, how many armies move in, and what stays "
                      "in the tray."),
        epilog=examples(
            "shogun-tower referee battle --attacker blue --armies 4 --origin-armies 5 "
            "--defender yellow --defender-armies 3",
            "shogun-tower referee battle --attacker blue --armies 4 --origin-armies 5 "
            "--defender yellow --defender-armies 3 --tray blue=3,yellow=1,red=1,farmers=1",
            "shogun-tower referee battle --attacker red --armies 3 --tray-before red=1,farmers=1 "
            "--tray red=2,farmers=1"))
    add_battle_situation(b)
    _common(b, "blue=3,yellow=1,red=1,farmers=1")

    r = sub.add_parser(
        "revolt", help=_("a revolt (rules V1-V4, W3)"), formatter_class=ExamplesFormatter,
        description=_("A revolt in a player's province, after collecting rice or tax where "
                      "revolt markers lie (rule V1), or in winter (rule W3). Without --tray: "
                      "which cubes go into the tower (every army in the province, a farmer per "
                      "revolt marker, the winter's extra farmers). With --tray: who wins and "
                      "where every cube goes (rules V2-V4)."),
        epilog=examples(
            "shogun-tower referee revolt --player red --armies 4 --markers 2",
            "shogun-tower referee revolt --player red --armies 4 --markers 2 "
            "--tray red=3,farmers=1",
            "shogun-tower referee revolt --player red --armies 3 --winter-farmers 2 "
            "--tray-before red=1,farmers=1 --tray red=1,farmers=2"))
    r.add_argument("--player", required=True, choices=PLAYER_COLOURS,
                   help=_("the player whose province revolts"))
    r.add_argument("--armies", type=count, required=True,
                   help=_("the player's armies in the province (1 or more)"))
    r.add_argument("--markers", type=count, default=0,
                   help=_("revolt markers in the province before collecting (default: 0)"))
    r.add_argument("--winter-farmers", type=count, default=0,
                   help=_("extra farmers from the provisions table in a winter revolt "
                          "(rule W2: 0-{most}; default: 0)").format(most=_MOST_WINTER_FARMERS))
    _common(r, "red=3,farmers=1")

    w = sub.add_parser(
        "winter", help=_("rice supply and revolts of one player (rules W1-W3)"),
        formatter_class=ExamplesFormatter,
        description=_("One player's winter: the rice lost to the year's 4th event card (W1), "
                      "the shortage against the provinces owned, and from the provisions table "
                      "how many revolts follow and how many extra farmers each gets (W2, W3)."),
        epilog=examples("shogun-tower referee winter --provinces 9 --rice 6 --event E3",
                         "shogun-tower referee winter --provinces 9 --rice 6 --loss 0 --json"))
    w.add_argument("--provinces", type=count, required=True,
                   help=_("provinces the player owns"))
    w.add_argument("--rice", type=count, required=True,
                   help=_("rice before the winter loss (0-{most})").format(most=RICE_TRACK_MAX))
    w.add_argument("--event", choices=sorted(EVENT_CARDS),
                   help=_("the year's 4th event card, which says the rice lost (no default: "
                          "give it or --loss)"))
    w.add_argument("--loss", type=count,
                   help=_("rice lost, when you give it yourself instead of --event (no default)"))
    w.add_argument("--map", default="sun",
                   help=_("sun, moon or a map JSON file, for its number of provinces "
                          "(default: sun)"))
    w.add_argument("--json", action="store_true", help=_("answer in JSON (default: text)"))

    s = sub.add_parser(
        "score", help=_("winter scoring with region majorities (rule W4)"),
        formatter_class=ExamplesFormatter,
        description=_("Winter scoring (rule W4): 1 VP per province and per building, and in each "
                      "region the majorities of castles, temples and Nō theatres. Give every "
                      "owned province once, with its buildings, or the whole board as JSON."),
        epilog=examples(
            "shogun-tower referee score --province Mikawa=black:castle "
            "--province Shinano=black:castle+temple --province Owari=red:theatre",
            "shogun-tower referee score --map moon --province Omi=black:castle+temple "
            "--province Owari=red:castle --json"))
    s.add_argument("--map", default="sun", help=_("sun, moon or a map JSON file (default: sun)"))
    s.add_argument("--province", action="append", default=[], metavar="NAME=COLOUR[:B+B]",
                   help=_("an owned province and its buildings (castle, temple, theatre), each "
                          "province once, e.g. Shinano=black:castle+temple (default: none)"))
    s.add_argument("--board", help=_("JSON file {\"owner\": {...}, \"buildings\": {...}} "
                                     "(default: none)"))
    s.add_argument("--json", action="store_true", help=_("answer in JSON (default: text)"))
    p.set_defaults(handler=run)


def _common(p: argparse.ArgumentParser, tray_example: str) -> None:
    p.add_argument("--tray-before", default="", metavar="COUNTS",
                   help=_("cubes lying in the tray before the throw, which go in too, e.g. "
                          "red=1,farmers=1 (default: none)"))
    p.add_argument("--tray", metavar="COUNTS",
                   help=_("what fell into the tray, e.g. {example} (default: none given: say "
                          "what goes into the tower)").format(example=tray_example))
    p.add_argument("--json", action="store_true", help=_("answer in JSON (default: text)"))


def _word(colour: str) -> str:
    return cube_word(colour)


def run(args: argparse.Namespace) -> int:
    if args.situation == "odds":
        return odds_cli.run(args)
    if args.situation == "winter":
        return _winter(args)
    if args.situation == "score":
        return _score(args)
    if args.situation == "battle":
        into, farmers_fight = battle_into(args)
    else:
        into = _revolt_into(args)
        farmers_fight = True
    before = counts_option(args.tray_before, "--tray-before")
    thrown = {c: into.get(c, 0) + before.get(c, 0) for c in CUBE_COLOURS}
    thrown = {c: n for c, n in thrown.items() if n}
    for colour, n in thrown.items():
        _within_box(_("into the tower (with --tray-before)"), colour, n)
    if args.tray is None:
        return _out(args, {"into_tower": thrown},
                    _("put into the tower: {cubes}; then give --tray with what fell out").format(
                        cubes=_fmt(thrown)))
    tray = counts_option(args.tray, "--tray")
    if args.situation == "battle":
        v = battle_verdict(args.attacker, args.defender, tray, farmers_fight)
    else:
        v = revolt_verdict(args.player, tray)
    return _verdict(args, v, thrown, tray)


def _revolt_into(args: argparse.Namespace) -> dict[str, int]:
    _at_most("--armies", args.armies, ARMIES_PER_PLAYER,
             _("a player has {n} armies (rule C2)").format(n=ARMIES_PER_PLAYER))
    _at_most("--markers", args.markers, REVOLT_MARKERS,
             _("the game has {n} revolt markers").format(n=REVOLT_MARKERS))
    _at_most("--winter-farmers", args.winter_farmers, _MOST_WINTER_FARMERS,
             _("the provisions table's most (rule W2)"))
    if args.armies < 1:
        raise ShogunError(_("--armies: a player's province holds at least 1 army"))
    if args.markers == 0 and args.winter_farmers == 0:
        raise RulesError("V1", _("a revolt needs revolt markers in the province (--markers) "
                                 "or, in winter, the provisions table's farmers "
                                 "(--winter-farmers)"))
    return {args.player: args.armies, FARMERS: args.markers + args.winter_farmers}


def _fmt(counts: dict[str, int]) -> str:
    return join([cube_count(n, c) for c, n in counts.items() if n]) or _("nothing")


def _verdict(args: argparse.Namespace, v: Verdict, thrown: dict, tray: dict) -> int:
    stays = {c: tray.get(c, 0) - v.to_supply.get(c, 0) - (v.to_province if c == v.holder else 0)
             for c in CUBE_COLOURS}
    data = {"into_tower": thrown, "tray": tray, "outcome": v.outcome, "counted": v.counted,
            "to_supply": {c: n for c, n in v.to_supply.items() if n},
            "province_holder": v.holder, "armies_into_province": v.to_province,
            "province_cleared": v.clear_province,
            "stays_in_tray": {c: n for c, n in stays.items() if n}}
    text = "\n  ".join((v.text,
                        _("back to supply: {cubes}").format(cubes=_fmt(data["to_supply"])),
                        _("stays in the tray: {cubes}").format(
                            cubes=_fmt(data["stays_in_tray"]))))
    return _out(args, data, text)


def _out(args: argparse.Namespace, data: dict, text: str) -> int:
    print(json.dumps(data, sort_keys=True) if args.json else text)
    return 0


def _winter(args: argparse.Namespace) -> int:
    if args.loss is None and args.event is None:
        raise ShogunError(_("give --event (the year's 4th event card) or --loss"))
    if args.loss is not None and args.event is not None:
        raise ShogunError(_("give --event or --loss, not both: {event} loses {rice} rice, "
                            "--loss says {loss}").format(
                                event=args.event, rice=EVENT_CARDS[args.event]["rice_loss"],
                                loss=args.loss))
    provinces = len(load_map(args.map).provinces)
    _at_most("--provinces", args.provinces, provinces,
             _("the provinces of the {map} map").format(map=args.map))
    top = _("the top of the rice track (rule C5)")
    _at_most("--rice", args.rice, RICE_TRACK_MAX, top)
    _at_most("--loss", args.loss, RICE_TRACK_MAX, top)
    loss = args.loss if args.loss is not None else EVENT_CARDS[args.event]["rice_loss"]
    rice = max(0, args.rice - loss)
    shortage = max(0, args.provinces - rice)
    revolts, extra = provisions(shortage)
    data = {"rice_after_loss": rice, "shortage": shortage, "revolts": revolts,
            "extra_farmers": extra}
    text = sentence(revolts, "rice {rice} - {loss} = {left} for {provinces} provinces: "
                             "shortage {shortage} -> {n} revolt, {extra} each (rule W2); the "
                             "left neighbour draws {n} province card at random (rule W3)",
                    "rice {rice} - {loss} = {left} for {provinces} provinces: shortage "
                    "{shortage} -> {n} revolts, {extra} each (rule W2); the left neighbour "
                    "draws {n} province cards at random (rule W3)",
                    rice=args.rice, loss=loss, left=rice, provinces=args.provinces,
                    shortage=shortage,
                    extra=sentence(extra, "+{n} farmer", "+{n} farmers"))
    return _out(args, data, text)


def _score(args: argparse.Namespace) -> int:
    m = load_map(args.map)
    owner: dict[str, str] = {}
    buildings: dict[str, list[str]] = {}
    if args.board:
        try:
            with open(args.board, encoding="utf-8") as f:
                board = json.load(f)
            owner.update(board["owner"])
            buildings.update(board.get("buildings", {}))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise ShogunError(_("--board {file}: cannot read owner/buildings ({error})").format(
                file=args.board, error=err)) from None
    given = set()
    for item in args.province:
        name, _sign, rest = item.partition("=")
        if name in given or name in owner:
            where = "--province" if name in given else "--board --province"
            raise ShogunError(_("--province: {province} is given twice ({where}); give each "
                                "province once with its owner and all its buildings").format(
                                    province=name, where=where))
        given.add(name)
        colour, _colon, blds = rest.partition(":")
        owner[name] = colour
        buildings[name] = [b for b in blds.split("+") if b]
    for name, colour in owner.items():
        if name not in m.provinces:
            raise ShogunError(_("--province: {province!r} is not a province of the {map} "
                                "map").format(province=name, map=m.side))
        if colour not in PLAYER_COLOURS:
            raise ShogunError(_("--province {province}: {colour!r} is not a player "
                                "colour").format(province=name, colour=colour))
        _check_buildings(name, buildings.get(name, []), m.provinces[name].building_slots)
    for kind in BUILDINGS:
        built = sum(b.count(kind) for b in buildings.values())
        _at_most(_(BUILDING_NAMES[kind]), built, BUILDING_SUPPLY[kind],
                 _("the supply of the game (rule C4)"))
    players = [p for p in PLAYER_COLOURS if p in owner.values()]
    if not players:
        raise ShogunError(_("give the board: --province NAME=COLOUR[:castle+temple] or "
                            "--board"))
    table = score(m, players, owner, buildings)
    lines = [_("{player}: {provinces} provinces + {buildings} buildings + {majorities} "
               "majorities = {total} VP").format(
                   player=colour_word(p), provinces=r["provinces"], buildings=r["buildings"],
                   majorities=r["majorities"], total=r["total"]) for p, r in table.items()]
    return _out(args, table, "\n".join(lines))


def _check_buildings(name: str, built: list[str], slots: int) -> None:
    unknown = [b for b in built if b not in BUILDINGS]
    if unknown:
        raise ShogunError(_("--province {province}: {unknown} is no building; buildings are "
                            "{buildings}").format(province=name, unknown=", ".join(unknown),
                                                  buildings=", ".join(BUILDINGS)))
    repeated = sorted({b for b in built if built.count(b) > 1})
    if repeated:
        raise RulesError("C4", _("{province}: one {building} a province at most, {n} "
                                 "given").format(province=name, building=repeated[0],
                                                 n=built.count(repeated[0])))
    if len(built) > slots:
        raise RulesError("C4", ngettext("{province} has {n} building slot, {given} buildings "
                                        "given ({buildings})",
                                        "{province} has {n} building slots, {given} buildings "
                                        "given ({buildings})", slots).format(
                                            province=name, n=slots, given=len(built),
                                            buildings="+".join(built)))
