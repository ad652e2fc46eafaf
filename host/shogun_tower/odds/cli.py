"""`shogun-tower referee odds`: the exact odds of a battle before it is thrown.

Registered from commands/referee.py: the options of `referee battle` without --tray, plus
--tower (the cubes inside the tower) and --tower-profile (a fitted tower).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from shogun_tower.errors import ShogunError
from shogun_tower.rules.constants import EVENTS, PLAYER_COLOURS
from shogun_tower.rules.errors import RulesError

from .model import load_tower_profile

if TYPE_CHECKING:
    from .throws import Odds

OUTCOME_WORDS = {"attacker": "attacker wins", "defender": "defender holds",
                 "undecided": "undecided", "neutral_holds": "stays neutral",
                 "player": "revolt put down", "farmers": "farmers win"}


def register(sub: argparse._SubParsersAction) -> None:
    from shogun_tower.arguments import ExamplesFormatter, examples

    o = sub.add_parser("odds", help="exact odds of a battle before the throw (tower model)",
                       formatter_class=ExamplesFormatter,
                       description="The probability of each outcome of a battle, the armies "
                                   "the winner moves in and the cubes expected to stay inside, "
                                   "exact under the tower model (docs/odds.md).",
                       epilog=examples(
                           "shogun-tower referee odds --attacker red --armies 4",
                           "shogun-tower referee odds --attacker red --armies 5 --defender blue "
                           "--defender-armies 3 --tower green=4,red=2 --json"))
    o.add_argument("--attacker", required=True, choices=PLAYER_COLOURS)
    o.add_argument("--armies", type=int, required=True, help="armies the attacker moves in")
    o.add_argument("--origin-armies", type=int,
                   help="armies in the origin province before the move, to check rule B7 "
                        "(default: not checked)")
    o.add_argument("--defender", choices=PLAYER_COLOURS,
                   help="defending player (default: none, a neutral province)")
    o.add_argument("--defender-armies", type=int, default=0,
                   help="the defender's armies in the province (default: 0)")
    o.add_argument("--markers", type=int, default=0,
                   help="revolt markers in the province (default: 0: the farmers fight)")
    o.add_argument("--attack-card", action="store_true", help="attacker holds +1 attack (P4)")
    o.add_argument("--defence-card", action="store_true", help="defender holds +1 defence (P5)")
    o.add_argument("--event", choices=sorted(EVENTS),
                   help="this season's event card (default: none)")
    o.add_argument("--castle", action="store_true", help="the province has a castle")
    o.add_argument("--tray-before", default="", metavar="COUNTS",
                   help="cubes lying in the tray before the throw, e.g. red=1,green=1 "
                        "(default: none)")
    o.add_argument("--tower", default="", metavar="COUNTS",
                   help="cubes inside the tower before the throw, e.g. green=4,red=2 "
                        "(default: none)")
    o.add_argument("--tower-profile", metavar="FILE",
                   help="a tower profile from 'shogun-tower tower fit' (default: the model's "
                        "own numbers)")
    o.add_argument("--json", action="store_true", help="print JSON (default: text)")


def run(args: argparse.Namespace) -> int:
    from shogun_tower.commands.referee import parse_counts

    from .throws import battle_cubes, battle_odds

    for name in ("armies", "defender_armies", "markers"):
        if getattr(args, name) < 0:
            raise ShogunError(f"--{name.replace('_', '-')} must be 0 or more, got "
                              f"{getattr(args, name)}")
    if args.armies < 1:
        raise RulesError("A9", "the attacker moves at least 1 army")
    if args.origin_armies is not None and args.armies > args.origin_armies - 1:
        raise RulesError("B7", f"an attack must leave at least 1 army behind: "
                               f"{args.origin_armies} in the origin allow at most "
                               f"{args.origin_armies - 1}")
    if args.defender == args.attacker:
        raise ShogunError("--defender is the attacker; moving into an own province is no battle")
    if args.defender and args.defender_armies < 1:
        raise ShogunError("--defender-armies: a player's province holds at least 1 army")
    params = load_tower_profile(args.tower_profile)
    into = battle_cubes(args.attacker, args.armies, args.defender, args.defender_armies,
                        args.attack_card, args.defence_card, args.event, args.castle)
    odds = battle_odds(args.attacker, args.defender, into,
                       parse_counts(args.tray_before, "--tray-before"),
                       parse_counts(args.tower, "--tower"),
                       farmers_fight=args.defender is None or args.markers == 0, params=params)
    print(json.dumps(odds.to_json(), sort_keys=True) if args.json else describe(odds))
    return 0


def describe(odds: Odds) -> str:
    """The odds as a few lines of text (the referee, the terminal and the page say the same)."""
    lines = [f"into the tower: {_fmt(odds.into_tower)}; inside before: {_fmt(odds.tower)}"]
    for outcome, p in odds.outcomes.items():
        line = f"  {OUTCOME_WORDS.get(outcome, outcome):16} {100 * p:5.1f}%"
        by_n = odds.armies.get(outcome)
        if by_n:
            likely = sorted(by_n.items(), key=lambda kv: -kv[1])[:3]
            line += (f"   armies in the province: mean {odds.expected_armies(outcome):.1f}; "
                     + ", ".join(f"{n}: {100 * q / p:.0f}%" for n, q in sorted(likely)))
        lines.append(line)
    stays = {c: round(v, 1) for c, v in odds.stays_inside.items() if v >= 0.05}
    lines.append("  expected to stay inside the tower: "
                 + (", ".join(f"{v} {c}" for c, v in stays.items()) or "nothing"))
    return "\n".join(lines)


def _fmt(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in counts.items() if n) or "nothing"


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """`play`'s options for the odds: a fitted tower, or no odds at all."""
    parser.add_argument("--tower-profile", metavar="FILE",
                        help="a tower profile from 'shogun-tower tower fit': the odds use it "
                             "and the simulated tower falls like it (default: the model's own "
                             "numbers)")
    parser.add_argument("--no-odds", action="store_true",
                        help="show no battle odds: neither 'odds' at the Battle/Move question "
                             "nor on the board page (default: odds are offered)")


def seat_odds(args: argparse.Namespace) -> object:
    """What a HumanSeat gets as ``odds``: None (no odds) or the tower's parameters."""
    if getattr(args, "no_odds", False):
        return None
    return load_tower_profile(getattr(args, "tower_profile", None))


def table_sim_options(args: argparse.Namespace) -> list[str]:
    """The simulated tower's options from ``--tower-profile`` (play, demo, sim)."""
    from .model import sim_options

    path = getattr(args, "tower_profile", None)
    return sim_options(load_tower_profile(path)) if path else []
