"""`shogun-tower replay JOURNAL`: replay a journal of any game, checking every line, and print
where the game stands. The journal's header names its game; the games catalogue
(``shogun_tower.games``) knows how to load it and what to print."""

from __future__ import annotations

import argparse
import json
import re

from shogun_tower import games
from shogun_tower.cli.arguments import ExamplesFormatter, examples
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.i18n import _


def register(subparsers: argparse._SubParsersAction) -> None:
    # each game's title up to its colon, in the players' language
    names = ", ".join(re.split("[:：]", _(e.title))[0].strip() for e in games.GAMES.values())
    p = subparsers.add_parser(
        "replay", help=_("replay a game journal and print where the game stands"),
        formatter_class=ExamplesFormatter,
        description=_("Replays a journal that `shogun-tower play` or `demo` wrote, of any game "
                      "({names}), finished or not, checking every line, and prints where the "
                      "game stands: for Shogun each player's VP, coins, rice, provinces and "
                      "armies; for the two-player Shogun the board; for Knizia's Samurai the "
                      "figures each player took; and the end or what the game waits for. An "
                      "edited, damaged or binary file is refused with the line number; replay "
                      "never changes the file.").format(names=names),
        epilog=examples("shogun-tower replay game.jsonl", "shogun-tower replay game.jsonl --json"))
    p.add_argument("journal", help=_("the journal file (JSON lines)"))
    p.add_argument("--json", action="store_true",
                   help=_("print the whole state as JSON (default: a summary as text)"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    game, journal = games.saved_game(args.journal)
    if args.json:
        print(json.dumps(journal.state.to_json(), sort_keys=True))
        return 0
    for line in games.replay_lines(game, journal, args.journal):
        print(line)
    return 0


def shogun_lines(journal: Journal, path: str) -> list[str]:
    """Where a game of Shogun stands: each player's counts and what the game waits for."""
    s = journal.state
    pend = s.pending()
    lines = [f"{path}: {len(journal.commands)} commands, year {s.year}, "
             f"{['spring', 'summer', 'autumn', 'winter'][s.season]}, phase {s.phase}"]
    for p in s.game.players:
        provs = sum(1 for o in s.owner.values() if o == p)
        lines.append(f"  {p:7} VP {s.vp[p]:3}  coins {s.coins[p]:3}  rice {s.rice[p]:2}  "
                     f"provinces {provs:2}  armies in supply {s.supply[p]:2}")
    if pend["kind"] == "over":
        winners = pend["result"]["winners"]
        lines.append("  " + (_("the game is over: {players} wins") if len(winners) == 1 else
                             _("the game is over: {players} share the victory")).format(
            players=" and ".join(winners)))
    else:
        who = pend.get("player") or ", ".join(pend.get("players", []))
        lines.append(f"  waiting for: {pend['kind']}" + (f" ({who})" if who else ""))
    return lines
