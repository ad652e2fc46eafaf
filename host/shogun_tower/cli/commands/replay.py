"""`shogun-tower replay JOURNAL`: replay a game journal, checking every line, and print the
final state."""

from __future__ import annotations

import argparse
import json

from shogun_tower.cli.arguments import ExamplesFormatter, examples
from shogun_tower.games.shogun.journal import Journal


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "replay", help="replay a game journal and print its final state",
        formatter_class=ExamplesFormatter,
        description="Replays a journal that `shogun-tower play` or `demo` wrote, checking "
                    "every line, and prints where the game stands: each player's VP, coins, "
                    "rice, provinces and armies, and what the game waits for. An edited, "
                    "damaged or binary file is refused with the line number; replay never "
                    "changes the file.",
        epilog=examples("shogun-tower replay game.jsonl", "shogun-tower replay game.jsonl --json"))
    p.add_argument("journal", help="the journal file (JSON lines)")
    p.add_argument("--json", action="store_true",
                   help="print the whole state as JSON (default: a summary as text)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    j = Journal.load(args.journal)
    s = j.state
    if args.json:
        print(json.dumps(s.to_json(), sort_keys=True))
        return 0
    pend = s.pending()
    print(f"{args.journal}: {len(j.commands)} commands, year {s.year}, "
          f"{['spring', 'summer', 'autumn', 'winter'][s.season]}, phase {s.phase}")
    for p in s.game.players:
        provs = sum(1 for o in s.owner.values() if o == p)
        print(f"  {p:7} VP {s.vp[p]:3}  coins {s.coins[p]:3}  rice {s.rice[p]:2}  "
              f"provinces {provs:2}  armies in supply {s.supply[p]:2}")
    if pend["kind"] == "over":
        print(f"  game over: winner(s) {', '.join(pend['result']['winners'])}")
    else:
        who = pend.get("player") or ", ".join(pend.get("players", []))
        print(f"  waiting for: {pend['kind']}" + (f" ({who})" if who else ""))
    return 0
