"""`shogun-tower referee odds`: the exact odds of a battle before it is thrown.

Registered from cli/commands/referee.py: the options of `referee battle` without --tray, plus
--tower (the cubes inside the tower) and --tower-profile (a fitted tower).
"""

from __future__ import annotations

import argparse
import json
import threading
from typing import TYPE_CHECKING

from shogun_tower.cli.arguments import ExamplesFormatter, examples
from shogun_tower.cli.situation import add_battle_situation, battle_into, counts_option
from shogun_tower.games.shogun.odds.model import load_tower_profile
from shogun_tower.games.shogun.odds.outcomes import outcome_word
from shogun_tower.i18n import _, join
from shogun_tower.lines import cells
from shogun_tower.words import cube_count

if TYPE_CHECKING:
    from shogun_tower.games.shogun.odds.throws import Odds


def register(sub: argparse._SubParsersAction) -> None:
    o = sub.add_parser("odds", help=_("exact odds of a battle before the throw (tower model)"),
                       formatter_class=ExamplesFormatter,
                       description=_("The probability of each outcome of a battle, the armies "
                                     "the winner moves in and the cubes expected to stay "
                                     "inside, exact under the tower model (docs/odds.md)."),
                       epilog=examples(
                           "shogun-tower referee odds --attacker red --armies 4",
                           "shogun-tower referee odds --attacker red --armies 5 --defender blue "
                           "--defender-armies 3 --tray-before red=1,farmers=1 "
                           "--tower farmers=4,red=2 --json"))
    add_battle_situation(o)
    o.add_argument("--tray-before", default="", metavar="COUNTS",
                   help=_("cubes lying in the tray before the throw, e.g. red=1,farmers=1 "
                          "(default: none)"))
    o.add_argument("--tower", default="", metavar="COUNTS",
                   help=_("cubes inside the tower before the throw, e.g. farmers=4,red=2 "
                          "(default: none)"))
    o.add_argument("--tower-profile", metavar="FILE",
                   help=_("a tower profile from 'shogun-tower tower fit' (default: the "
                          "model's own numbers)"))
    o.add_argument("--json", action="store_true", help=_("print JSON (default: text)"))


def run(args: argparse.Namespace) -> int:
    # one reading of referee battle's options (checks, cubes into the tower) for both commands
    from shogun_tower.games.shogun.odds.throws import battle_odds  # numpy: loaded when asked

    into, farmers_fight = battle_into(args)
    params = load_tower_profile(args.tower_profile)
    odds = battle_odds(args.attacker, args.defender, into,
                       counts_option(args.tray_before, "--tray-before"),
                       counts_option(args.tower, "--tower"),
                       farmers_fight=farmers_fight, params=params)
    print(json.dumps(odds.to_json(), sort_keys=True) if args.json else describe(odds))
    return 0


def describe(odds: Odds) -> str:
    """The odds as a few lines of text (the referee, the terminal and the page say the same)."""
    lines = [_("into the tower: {thrown}; inside before: {inside}").format(
        thrown=_fmt(odds.into_tower), inside=_fmt(odds.tower))]
    words = {outcome: outcome_word(outcome) for outcome in odds.outcomes}
    width = max(16, *(cells(w) for w in words.values()))
    for outcome, p in odds.outcomes.items():
        word = words[outcome]
        line = f"  {word}{' ' * (width - cells(word))} {100 * p:5.1f}%"
        by_n = odds.armies.get(outcome)
        if by_n:
            likely = sorted(by_n.items(), key=lambda kv: -kv[1])[:3]
            # Translators: "2: 40%" is 2 armies with a chance of 40%
            line += "   " + _("armies in the province: mean {mean}; {likely}").format(
                mean=f"{odds.expected_armies(outcome):.1f}",
                likely=join([f"{n}: {100 * q / p:.0f}%" for n, q in sorted(likely)]))
        lines.append(line)
    stays = {c: round(v, 1) for c, v in odds.stays_inside.items() if v >= 0.05}
    lines.append("  " + _("expected to stay inside the tower: {cubes}").format(
        cubes=join([cube_count(v, c) for c, v in stays.items()]) or _("nothing")))
    return "\n".join(lines)


def _fmt(counts: dict[str, int]) -> str:
    return join([cube_count(n, c) for c, n in counts.items() if n]) or _("nothing")


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """`play`'s options for the odds: a fitted tower, or no odds at all."""
    parser.add_argument("--tower-profile", metavar="FILE",
                        help=_("a tower profile from 'shogun-tower tower fit': the odds use "
                               "it and the simulated tower falls like it (default: the "
                               "model's own numbers)"))
    parser.add_argument("--no-odds", action="store_true",
                        help=_("show no battle odds: neither 'odds' at the Battle/Move "
                               "question nor on the board page (default: odds are offered)"))


def seat_odds(args: argparse.Namespace) -> object:
    """What a HumanSeat gets as ``odds``: None (no odds) or the tower's parameters, whose
    exit-law table starts filling in the background."""
    if getattr(args, "no_odds", False):
        return None
    params = load_tower_profile(getattr(args, "tower_profile", None))
    warm_up(params)
    return params


_WARMED: set = set()


def warm_up(params: object) -> None:
    """Fill the tower model's table of exit laws (every throw up to 20 cubes with up to 30
    inside; about 1 s of CPU, once per model and process) on a background thread, so that the
    odds a player asks for during the game are lookups (about 1 ms) and not a first DP of up to
    100 ms for each new count of cubes inside."""
    from shogun_tower.games.shogun.odds.exits import exit_table

    if params in _WARMED:
        return
    _WARMED.add(params)
    threading.Thread(target=exit_table, args=(params,), name="odds-table", daemon=True).start()


def table_sim_options(args: argparse.Namespace) -> list[str]:
    """The simulated tower's options from ``--tower-profile`` (play, demo, sim)."""
    from shogun_tower.games.shogun.odds.model import sim_options

    path = getattr(args, "tower_profile", None)
    return sim_options(load_tower_profile(path)) if path else []
