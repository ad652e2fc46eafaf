"""`shogun-tower referee`: the rules engine as an arbiter for a game on the physical board.

Give the situation and the tray counts, get the verdict (text or --json). Without --tray, the
battle and revolt commands say which cubes go into the tower.
"""

from __future__ import annotations

import argparse
import json

from shogun_tower.errors import ShogunError
from shogun_tower.rules import load_map
from shogun_tower.rules.battle import Verdict, battle_verdict, revolt_verdict
from shogun_tower.rules.constants import CUBE_COLOURS, EVENTS, PLAYER_COLOURS, provisions
from shogun_tower.rules.errors import RulesError
from shogun_tower.rules.scoring import score


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("referee", help="rule on a battle, revolt, winter or scoring",
                              description="Arbiter for games on the physical board.")
    sub = p.add_subparsers(dest="situation", metavar="SITUATION")
    sub.required = True

    b = sub.add_parser("battle", help="a battle (rules B1-B7)")
    b.add_argument("--attacker", required=True, choices=PLAYER_COLOURS)
    b.add_argument("--armies", type=int, required=True, help="armies the attacker moves in")
    b.add_argument("--origin-armies", type=int,
                   help="armies in the origin province before the move (checks rule B7)")
    b.add_argument("--defender", choices=PLAYER_COLOURS,
                   help="defending player (omit for a neutral province)")
    b.add_argument("--defender-armies", type=int, default=0)
    b.add_argument("--markers", type=int, default=0, help="revolt markers in the province")
    b.add_argument("--attack-card", action="store_true", help="attacker holds +1 attack (P4)")
    b.add_argument("--defence-card", action="store_true", help="defender holds +1 defence (P5)")
    b.add_argument("--event", choices=sorted(EVENTS), help="this season's event card")
    b.add_argument("--castle", action="store_true", help="the province has a castle")
    _common(b)

    r = sub.add_parser("revolt", help="a revolt (rules V1-V4, W3)")
    r.add_argument("--player", required=True, choices=PLAYER_COLOURS)
    r.add_argument("--armies", type=int, required=True, help="armies in the province")
    r.add_argument("--markers", type=int, default=0, help="revolt markers before collecting")
    r.add_argument("--winter-farmers", type=int, default=0,
                   help="extra farmers from the provisions table (winter revolts)")
    _common(r)

    w = sub.add_parser("winter", help="rice supply and revolts of one player (rules W1-W3)")
    w.add_argument("--provinces", type=int, required=True)
    w.add_argument("--rice", type=int, required=True, help="rice before the winter loss")
    w.add_argument("--event", choices=sorted(EVENTS), help="the year's 4th event card")
    w.add_argument("--loss", type=int, help="rice lost (instead of --event)")
    w.add_argument("--json", action="store_true")

    s = sub.add_parser("score", help="winter scoring with region majorities (rule W4)")
    s.add_argument("--map", default="sun", help="sun, moon or a map JSON file")
    s.add_argument("--province", action="append", default=[], metavar="NAME=COLOUR[:B+B]",
                   help="an owned province and its buildings, e.g. Mikawa=black:castle+temple")
    s.add_argument("--board", help="JSON file {\"owner\": {...}, \"buildings\": {...}}")
    s.add_argument("--json", action="store_true")
    p.set_defaults(handler=run)


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tray-before", default="", metavar="COUNTS",
                   help="cubes lying in the tray before the throw, e.g. red=1,green=1")
    p.add_argument("--tray", metavar="COUNTS",
                   help="what fell into the tray, e.g. blue=3,yellow=1,red=1,green=1")
    p.add_argument("--json", action="store_true")


def parse_counts(text: str, what: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for part in filter(None, (x.strip() for x in text.split(","))):
        colour, _, n = part.partition("=")
        if colour not in CUBE_COLOURS or not n.isdigit():
            raise ShogunError(f"{what}: {part!r} must be colour=count with a colour among "
                              f"{', '.join(CUBE_COLOURS)}, e.g. blue=3,green=1")
        out[colour] = out.get(colour, 0) + int(n)
    return out


def _nonneg(**values: int) -> None:
    for name, v in values.items():
        if v is not None and v < 0:
            raise ShogunError(f"--{name.replace('_', '-')} must be 0 or more, got {v}")


def run(args: argparse.Namespace) -> int:
    if args.situation == "winter":
        return _winter(args)
    if args.situation == "score":
        return _score(args)
    if args.situation == "battle":
        _nonneg(armies=args.armies, defender_armies=args.defender_armies, markers=args.markers)
        if args.origin_armies is not None and args.armies > args.origin_armies - 1:
            raise RulesError("B7", f"an attack must leave at least 1 army behind: "
                                   f"{args.origin_armies} in the origin allow at most "
                                   f"{args.origin_armies - 1}")
        if args.armies < 1:
            raise RulesError("A9", "the attacker moves at least 1 army")
        if args.defender == args.attacker:
            raise ShogunError("--defender is the attacker; moving into an own province is no "
                              "battle")
        if args.defender and args.defender_armies < 1:
            raise ShogunError("--defender-armies: a player's province holds at least 1 army")
        effect = EVENTS[args.event]["effect"] if args.event else None
        into = {args.attacker: args.armies}
        if args.defender is None:
            into["green"] = 2 if effect == "neutral_two_farmers" else 1  # rules B1, E9
        else:
            into[args.defender] = args.defender_armies
            if args.attack_card:
                into[args.attacker] += 1
            if args.defence_card:
                into[args.defender] += 1
            if effect == "castle_defence" and args.castle:
                into[args.defender] += 1
        farmers_fight = args.defender is None or args.markers == 0
    else:
        _nonneg(armies=args.armies, markers=args.markers, winter_farmers=args.winter_farmers)
        if args.armies < 1:
            raise ShogunError("--armies: a player's province holds at least 1 army")
        into = {args.player: args.armies, "green": args.markers + args.winter_farmers}
        farmers_fight = True
    before = parse_counts(args.tray_before, "--tray-before")
    thrown = {c: into.get(c, 0) + before.get(c, 0) for c in CUBE_COLOURS}
    thrown = {c: n for c, n in thrown.items() if n}
    if args.tray is None:
        return _out(args, {"into_tower": thrown},
                    f"put into the tower: {_fmt(thrown)}; then give --tray with what fell out")
    tray = parse_counts(args.tray, "--tray")
    if args.situation == "battle":
        v = battle_verdict(args.attacker, args.defender, tray, farmers_fight)
    else:
        v = revolt_verdict(args.player, tray)
    return _verdict(args, v, thrown, tray)


def _fmt(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in counts.items() if n) or "nothing"


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
    _nonneg(provinces=args.provinces, rice=args.rice, loss=args.loss)
    if args.loss is None and args.event is None:
        raise ShogunError("give --event (the year's 4th event card) or --loss")
    loss = args.loss if args.loss is not None else EVENTS[args.event]["rice_loss"]
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
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise ShogunError(f"--board {args.board}: cannot read owner/buildings ({err})") \
                from None
    for item in args.province:
        name, _, rest = item.partition("=")
        colour, _, blds = rest.partition(":")
        owner[name] = colour
        buildings[name] = [b for b in blds.split("+") if b]
    for name, colour in owner.items():
        if name not in m.provinces:
            raise ShogunError(f"--province: {name!r} is not a province of the {m.side} map")
        if colour not in PLAYER_COLOURS:
            raise ShogunError(f"--province {name}: {colour!r} is not a player colour")
        bl = buildings.get(name, [])
        bad = [b for b in bl if b not in ("castle", "temple", "theatre")]
        if bad or len(set(bl)) != len(bl) or len(bl) > m.provinces[name].building_slots:
            raise RulesError("C4", f"{name}: buildings {bl} must be distinct castle/temple/"
                                   f"theatre within its {m.provinces[name].building_slots} "
                                   f"slot(s)")
    players = [p for p in PLAYER_COLOURS if p in owner.values()]
    if not players:
        raise ShogunError("give the board: --province NAME=COLOUR[:castle+temple] or --board")
    table = score(m, players, owner, buildings)
    lines = [f"{p}: {r['provinces']} provinces + {r['buildings']} buildings + "
             f"{r['majorities']} majorities = {r['total']} VP" for p, r in table.items()]
    return _out(args, table, "\n".join(lines))
