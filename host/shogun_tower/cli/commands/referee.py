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
from shogun_tower.words import cube_word, sentence

# What a count may name: a player colour, or the farmers (by name or by their cubes' colour).
_COUNT_NAMES = (*PLAYER_COLOURS, "farmers")
_MOST_WINTER_FARMERS = provisions(99)[1]  # the provisions table's last row (rule W2)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "referee", help="rule on a battle, revolt, winter or scoring",
        description="The rules engine as the arbiter of a game played on the physical board: "
                    "describe the situation, get the verdict with the rule it follows. "
                    "`referee SITUATION --help` describes each situation.")
    sub = p.add_subparsers(dest="situation", metavar="SITUATION")
    sub.required = True
    odds_cli.register(sub)  # `referee odds`

    b = sub.add_parser(
        "battle", help="a battle (rules B1-B7)", formatter_class=ExamplesFormatter,
        description="A battle for a province (rules B1-B7). Without --tray: which cubes go "
                    "into the tower (the armies, the defender's, the farmers of a neutral "
                    "province, the cards' extra cube). With --tray (what fell out): who wins, "
                    "which cubes go back to the supply, how many armies move in, and what stays "
                    "in the tray.",
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
        "revolt", help="a revolt (rules V1-V4, W3)", formatter_class=ExamplesFormatter,
        description="A revolt in a player's province, after collecting rice or tax where "
                    "revolt markers lie (rule V1), or in winter (rule W3). Without --tray: "
                    "which cubes go into the tower (every army in the province, a farmer per "
                    "revolt marker, the winter's extra farmers). With --tray: who wins and "
                    "where every cube goes (rules V2-V4).",
        epilog=examples(
            "shogun-tower referee revolt --player red --armies 4 --markers 2",
            "shogun-tower referee revolt --player red --armies 4 --markers 2 "
            "--tray red=3,farmers=1",
            "shogun-tower referee revolt --player red --armies 3 --winter-farmers 2 "
            "--tray-before red=1,farmers=1 --tray red=1,farmers=2"))
    r.add_argument("--player", required=True, choices=PLAYER_COLOURS,
                   help="the player whose province revolts")
    r.add_argument("--armies", type=count, required=True,
                   help="the player's armies in the province (1 or more)")
    r.add_argument("--markers", type=count, default=0,
                   help="revolt markers in the province before collecting (default: 0)")
    r.add_argument("--winter-farmers", type=count, default=0,
                   help=f"extra farmers from the provisions table in a winter revolt "
                        f"(rule W2: 0-{_MOST_WINTER_FARMERS}; default: 0)")
    _common(r, "red=3,farmers=1")

    w = sub.add_parser(
        "winter", help="rice supply and revolts of one player (rules W1-W3)",
        formatter_class=ExamplesFormatter,
        description="One player's winter: the rice lost to the year's 4th event card (W1), "
                    "the shortage against the provinces owned, and from the provisions table "
                    "how many revolts follow and how many extra farmers each gets (W2, W3).",
        epilog=examples("shogun-tower referee winter --provinces 9 --rice 6 --event E3",
                         "shogun-tower referee winter --provinces 9 --rice 6 --loss 0 --json"))
    w.add_argument("--provinces", type=count, required=True,
                   help="provinces the player owns")
    w.add_argument("--rice", type=count, required=True,
                   help=f"rice before the winter loss (0-{RICE_TRACK_MAX})")
    w.add_argument("--event", choices=sorted(EVENT_CARDS),
                   help="the year's 4th event card, which says the rice lost (no default: "
                        "give it or --loss)")
    w.add_argument("--loss", type=count,
                   help="rice lost, when you give it yourself instead of --event (no default)")
    w.add_argument("--map", default="sun",
                   help="sun, moon or a map JSON file, for its number of provinces "
                        "(default: sun)")
    w.add_argument("--json", action="store_true", help="answer in JSON (default: text)")

    s = sub.add_parser(
        "score", help="winter scoring with region majorities (rule W4)",
        formatter_class=ExamplesFormatter,
        description="Winter scoring (rule W4): 1 VP per province and per building, and in each "
                    "region the majorities of castles, temples and Nō theatres. Give every "
                    "owned province once, with its buildings, or the whole board as JSON.",
        epilog=examples(
            "shogun-tower referee score --province Mikawa=black:castle "
            "--province Shinano=black:castle+temple --province Owari=red:theatre",
            "shogun-tower referee score --map moon --province Omi=black:castle+temple "
            "--province Owari=red:castle --json"))
    s.add_argument("--map", default="sun", help="sun, moon or a map JSON file (default: sun)")
    s.add_argument("--province", action="append", default=[], metavar="NAME=COLOUR[:B+B]",
                   help="an owned province and its buildings (castle, temple, theatre), each "
                        "province once, e.g. Shinano=black:castle+temple (default: none)")
    s.add_argument("--board", help="JSON file {\"owner\": {...}, \"buildings\": {...}} "
                                   "(default: none)")
    s.add_argument("--json", action="store_true", help="answer in JSON (default: text)")
    p.set_defaults(handler=run)


def _common(p: argparse.ArgumentParser, tray_example: str) -> None:
    p.add_argument("--tray-before", default="", metavar="COUNTS",
                   help="cubes lying in the tray before the throw, which go in too, e.g. "
                        "red=1,farmers=1 (default: none)")
    p.add_argument("--tray", metavar="COUNTS",
                   help=f"what fell into the tray, e.g. {tray_example} (default: none "
                        f"given: say what goes into the tower)")
    p.add_argument("--json", action="store_true", help="answer in JSON (default: text)")


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
        _within_box("into the tower (with --tray-before)", colour, n)
    if args.tray is None:
        return _out(args, {"into_tower": thrown},
                    f"put into the tower: {_fmt(thrown)}; then give --tray with what fell out")
    tray = counts_option(args.tray, "--tray")
    if args.situation == "battle":
        v = battle_verdict(args.attacker, args.defender, tray, farmers_fight)
    else:
        v = revolt_verdict(args.player, tray)
    return _verdict(args, v, thrown, tray)


def _revolt_into(args: argparse.Namespace) -> dict[str, int]:
    _at_most("--armies", args.armies, ARMIES_PER_PLAYER,
             f"a player has {ARMIES_PER_PLAYER} armies (rule C2)")
    _at_most("--markers", args.markers, REVOLT_MARKERS,
             f"the game has {REVOLT_MARKERS} revolt markers")
    _at_most("--winter-farmers", args.winter_farmers, _MOST_WINTER_FARMERS,
             "the provisions table's most (rule W2)")
    if args.armies < 1:
        raise ShogunError("--armies: a player's province holds at least 1 army")
    if args.markers == 0 and args.winter_farmers == 0:
        raise RulesError("V1", "a revolt needs revolt markers in the province (--markers) or, "
                               "in winter, the provisions table's farmers (--winter-farmers)")
    return {args.player: args.armies, FARMERS: args.markers + args.winter_farmers}


def _fmt(counts: dict[str, int]) -> str:
    return ", ".join(sentence(n, "{n} farmer", "{n} farmers") if c == FARMERS
                     else f"{n} {_word(c)}" for c, n in counts.items() if n) or "nothing"


def _verdict(args: argparse.Namespace, v: Verdict, thrown: dict, tray: dict) -> int:
    stays = {c: tray.get(c, 0) - v.to_supply.get(c, 0) - (v.to_province if c == v.holder else 0)
             for c in CUBE_COLOURS}
    data = {"into_tower": thrown, "tray": tray, "outcome": v.outcome, "counted": v.counted,
            "to_supply": {c: n for c, n in v.to_supply.items() if n},
            "province_holder": v.holder, "armies_into_province": v.to_province,
            "province_cleared": v.clear_province,
            "stays_in_tray": {c: n for c, n in stays.items() if n}}
    text = (f"{v.text}\n  back to supply: {_fmt(data['to_supply'])}\n"
            f"  stays in the tray: {_fmt(data['stays_in_tray'])}")
    return _out(args, data, text)


def _out(args: argparse.Namespace, data: dict, text: str) -> int:
    print(json.dumps(data, sort_keys=True) if args.json else text)
    return 0


def _winter(args: argparse.Namespace) -> int:
    if args.loss is None and args.event is None:
        raise ShogunError("give --event (the year's 4th event card) or --loss")
    if args.loss is not None and args.event is not None:
        raise ShogunError(f"give --event or --loss, not both: {args.event} loses "
                          f"{EVENT_CARDS[args.event]['rice_loss']} rice, --loss says {args.loss}")
    provinces = len(load_map(args.map).provinces)
    _at_most("--provinces", args.provinces, provinces, f"the provinces of the {args.map} map")
    _at_most("--rice", args.rice, RICE_TRACK_MAX, "the top of the rice track (rule C5)")
    _at_most("--loss", args.loss, RICE_TRACK_MAX, "the top of the rice track (rule C5)")
    loss = args.loss if args.loss is not None else EVENT_CARDS[args.event]["rice_loss"]
    rice = max(0, args.rice - loss)
    shortage = max(0, args.provinces - rice)
    revolts, extra = provisions(shortage)
    data = {"rice_after_loss": rice, "shortage": shortage, "revolts": revolts,
            "extra_farmers": extra}
    text = (f"rice {args.rice} - {loss} = {rice} for {args.provinces} provinces: shortage "
            f"{shortage} -> {revolts} revolt(s), +{extra} farmer(s) each (rule W2); the left "
            f"neighbour draws {revolts} province card(s) at random (rule W3)")
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
            raise ShogunError(f"--board {args.board}: cannot read owner/buildings ({err})") \
                from None
    given = set()
    for item in args.province:
        name, _, rest = item.partition("=")
        if name in given or name in owner:
            where = "--province" if name in given else "--board and --province"
            raise ShogunError(f"--province: {name} is given twice ({where}); give each "
                              f"province once with its owner and all its buildings")
        given.add(name)
        colour, _, blds = rest.partition(":")
        owner[name] = colour
        buildings[name] = [b for b in blds.split("+") if b]
    for name, colour in owner.items():
        if name not in m.provinces:
            raise ShogunError(f"--province: {name!r} is not a province of the {m.side} map")
        if colour not in PLAYER_COLOURS:
            raise ShogunError(f"--province {name}: {colour!r} is not a player colour")
        _check_buildings(name, buildings.get(name, []), m.provinces[name].building_slots)
    for kind in BUILDINGS:
        built = sum(b.count(kind) for b in buildings.values())
        _at_most(f"{kind}s", built, BUILDING_SUPPLY[kind],
                 "the supply of the game (rule C4)")
    players = [p for p in PLAYER_COLOURS if p in owner.values()]
    if not players:
        raise ShogunError("give the board: --province NAME=COLOUR[:castle+temple] or --board")
    table = score(m, players, owner, buildings)
    lines = [f"{p}: {r['provinces']} provinces + {r['buildings']} buildings + "
             f"{r['majorities']} majorities = {r['total']} VP" for p, r in table.items()]
    return _out(args, table, "\n".join(lines))


def _check_buildings(name: str, built: list[str], slots: int) -> None:
    unknown = [b for b in built if b not in BUILDINGS]
    if unknown:
        raise ShogunError(f"--province {name}: {', '.join(unknown)} is no building; buildings "
                          f"are {', '.join(BUILDINGS)}")
    repeated = sorted({b for b in built if built.count(b) > 1})
    if repeated:
        raise RulesError("C4", f"{name}: one {repeated[0]} a province at most, "
                               f"{built.count(repeated[0])} given")
    if len(built) > slots:
        raise RulesError("C4", f"{name} has {slots} building slot(s), {len(built)} buildings "
                               f"given ({'+'.join(built)})")
