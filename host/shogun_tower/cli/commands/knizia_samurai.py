"""`shogun-tower knizia-samurai`: the referee of Knizia's Samurai (rulebook 004) for a game on
its own board. `capture` says who takes a surrounded figure, `winner` applies the end rules to
the figures each player took, `end` says whether the game has ended. `play --game
knizia-samurai` keeps the score of a whole game. `samurai` is its old name, still taken."""

from __future__ import annotations

import argparse
import json

from shogun_tower.cli.arguments import ExamplesFormatter, count, examples
from shogun_tower.errors import ShogunError
from shogun_tower.games.knizia_samurai.capture import adjudicate, tile_from_text
from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.ranking import rank
from shogun_tower.games.knizia_samurai.state import end_reason
from shogun_tower.games.knizia_samurai.view import standing_line, ties_text, winner_line
from shogun_tower.i18n import _, join


def register(subparsers: argparse._SubParsersAction) -> None:
    cat = catalogue()
    types = ", ".join(cat.types)
    p = subparsers.add_parser(
        "knizia-samurai", aliases=["samurai"],
        help=_("referee of Knizia's Samurai: capture, winner, end"),
        description=_("The referee of Knizia's Samurai, played on its own board: who captures "
                      "a surrounded figure, who wins once the game has ended, whether it has "
                      "ended. `knizia-samurai WHAT --help` describes each; `play --game "
                      "knizia-samurai` keeps the score of a whole game."))
    sub = p.add_subparsers(dest="what", metavar="WHAT")
    sub.required = True

    c = sub.add_parser(
        "capture", help=_("who captures a surrounded figure"), formatter_class=ExamplesFormatter,
        description=_("A figure whose land hexes are all covered is captured by the player "
                      "with the most influence on it: each tile next to it adds its value if it "
                      "counts for the figure's type (a helmet, Buddha or rice field tile for its "
                      "own type; samurai, cavalry and ship tiles for every type; the exchange "
                      "tile is worth 0). A tie for the most influence: the figure leaves the "
                      "board."),
        epilog=examples(
            "shogun-tower knizia-samurai capture --figure helmet blue:helmet:3 red:samurai:2",
            "shogun-tower knizia-samurai capture --figure buddha yellow:buddha:4 green:buddha:3 "
            "red:cavalry:1 --json",
            "shogun-tower knizia-samurai capture --figure rice green:rice:2 blue:ship:2 "
            "yellow:exchange"))
    c.add_argument("--figure", required=True, choices=cat.types,
                   help=_("the surrounded figure's type: {types}").format(types=types))
    c.add_argument("tiles", nargs="+", metavar="PLAYER:KIND:VALUE",
                   help=_("each tile next to the figure, e.g. blue:helmet:3; kinds: {kinds} "
                          "(the exchange tile without a value)").format(
                       kinds=", ".join(cat.tiles)))
    c.add_argument("--json", action="store_true", help=_("the verdict as JSON"))
    c.set_defaults(handler=_capture)

    w = sub.add_parser(
        "winner", help=_("who wins, from the figures each player took"),
        formatter_class=ExamplesFormatter,
        description=_("The end rules in order: the most of 2 or 3 types wins at once; "
                      "otherwise only the players with a strict most of one type can win; they "
                      "set that type aside and compare the rest; then all their figures; then "
                      "they share the victory. Nobody with a strict most of any type: nobody "
                      "wins. Prints the full ranking and the reason."),
        epilog=examples(
            "shogun-tower knizia-samurai winner green=3,3,4 blue=5,3,2 red=1,4,3 yellow=4,3,3",
            "shogun-tower knizia-samurai winner green=2,4,4 blue=4,3,4 red=6,1,2 yellow=0,5,3 "
            "--json"))
    w.add_argument("counts", nargs="+", metavar="PLAYER=H,B,R",
                   help=_("each player's captured helmets, Buddhas and rice fields, e.g. "
                          "green=3,3,4"))
    w.add_argument("--json", action="store_true", help=_("the ranking as JSON"))
    w.set_defaults(handler=_winner)

    e = sub.add_parser(
        "end", help=_("whether the game has ended"), formatter_class=ExamplesFormatter,
        description=_("The game ends at once when the last figure of a type has left the board "
                      "(captured or on a tie), or when a 4th figure has left the board on a "
                      "tie. The figures one tile surrounds leave together, so two types can run "
                      "out at once and a 4th and 5th figure can leave on a tie together. Give "
                      "the figures still on the board and how many left it on a tie."),
        epilog=examples(
            "shogun-tower knizia-samurai end --players 4 --on-board helmet=3,buddha=0,rice=5",
            "shogun-tower knizia-samurai end --players 3 --on-board helmet=4,buddha=2,rice=6 "
            "--ties 4",
            "shogun-tower knizia-samurai end --players 2 --on-board helmet=1,buddha=3,rice=2 "
            "--ties 1 --json",
            "shogun-tower knizia-samurai end --players 4 --on-board helmet=2,buddha=5,rice=3 "
            "--ties 5"))
    e.add_argument("--players", type=int, default=4, choices=range(cat.fewest, cat.most + 1),
                   help=_("how many play (the figures of each type: {counts}; default: "
                          "4)").format(counts=", ".join(
                       _("{n} players {figures}").format(n=n, figures=k)
                       for n, k in cat.figures_per_type.items())))
    e.add_argument("--on-board", required=True, metavar="TYPE=N,...",
                   help=_("the figures of each type still on the board, e.g. "
                          "helmet=3,buddha=0,rice=5"))
    e.add_argument("--ties", type=count, default=0,
                   help=_("figures that have left the board on a tie so far, e.g. 4 (default: "
                          "0)"))
    e.add_argument("--json", action="store_true", help=_("the answer as JSON"))
    e.set_defaults(handler=_end)


def _capture(args: argparse.Namespace) -> int:
    cat = catalogue()
    tiles = [tile_from_text(t) for t in args.tiles]
    verdict = adjudicate(tiles, args.figure)
    if args.json:
        print(json.dumps({"figure": verdict.figure, "winner": verdict.winner,
                          "influence": verdict.influence, "tied": list(verdict.tied)}))
    else:
        print(verdict.text(cat.figure(args.figure).said))
    return 0


def parse_figure_counts(texts: list[str]) -> dict[str, dict[str, int]]:
    """``green=3,3,4`` -> {"green": {"helmet": 3, "buddha": 3, "rice": 4}}."""
    cat = catalogue()
    counts: dict[str, dict[str, int]] = {}
    for text in texts:
        player, sep, rest = text.partition("=")
        player = player.strip().lower()
        numbers = [n.strip() for n in rest.split(",")]
        if not sep or len(numbers) != len(cat.types) or not all(n.isdigit() for n in numbers):
            raise ShogunError(_("{text!r}: write PLAYER=HELMETS,BUDDHAS,RICE, e.g. "
                                "green=3,3,4").format(text=text))
        if player not in cat.colours:
            raise ShogunError(_("{text!r}: {player!r} is not a Samurai colour; use "
                                "{colours}").format(text=text, player=player,
                                                    colours=", ".join(cat.colours)))
        if player in counts:
            raise ShogunError(_("{player} is given twice; give each player once").format(
                player=player))
        counts[player] = dict(zip(cat.types, map(int, numbers), strict=True))
    if len(counts) < cat.fewest:
        raise ShogunError(_("give the figures of every player ({fewest} to {most}), e.g. "
                            "green=3,3,4 blue=5,3,2").format(fewest=cat.fewest, most=cat.most))
    if len(counts) > cat.most:
        raise ShogunError(_("Samurai is for at most {most} players, not {count}").format(
            most=cat.most, count=len(counts)))
    most = cat.figures_per_type[len(counts)]
    for t in cat.types:
        taken = sum(c[t] for c in counts.values())
        if taken > most:
            raise ShogunError(_("{figures} taken in all, but a game of {players} has {most}; "
                                "check the counts").format(figures=cat.figure(t).count(taken),
                                                           players=len(counts), most=most))
    return counts


def _winner(args: argparse.Namespace) -> int:
    result = rank(parse_figure_counts(args.counts)).to_json()
    if args.json:
        print(json.dumps(result))
        return 0
    print(winner_line(result))
    for s in result["ranking"]:
        print(standing_line(s))
    return 0


def parse_on_board(text: str, players: int) -> dict[str, int]:
    cat = catalogue()
    most = cat.figures_per_type[players]
    got: dict[str, int] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        name = name.strip().lower()
        if not sep or not value.strip().isdigit():
            raise ShogunError(_("--on-board {text}: write TYPE=N for each type, e.g. "
                                "helmet=3,buddha=0,rice=5").format(text=text))
        if name not in cat.types:
            raise ShogunError(_("--on-board: no figure type {figure!r}; the types are "
                                "{types}").format(figure=name, types=", ".join(cat.types)))
        if name in got:
            raise ShogunError(_("--on-board {text}: {figure} is given twice; give each type "
                                "once, e.g. helmet=3,buddha=0,rice=5").format(text=text,
                                                                              figure=name))
        got[name] = int(value)
        if got[name] > most:
            raise ShogunError(_("--on-board: {figures}, but a game of {players} has {most}; "
                                "check the count").format(
                figures=cat.figure(name).count(got[name]), players=players, most=most))
    missing = [t for t in cat.types if t not in got]
    if missing:
        raise ShogunError(_("--on-board: give every type; {missing} is missing").format(
            missing=", ".join(missing)))
    return got


def _end(args: argparse.Namespace) -> int:
    cat = catalogue()
    on_board = parse_on_board(args.on_board, args.players)
    left = sum(cat.figures_per_type[args.players] - n for n in on_board.values())
    if args.ties > left:
        raise ShogunError(_("--ties {ties}: more than the figures that have left the board "
                            "({left}); check --ties or --on-board").format(ties=args.ties,
                                                                           left=left))
    why = end_reason(on_board, args.ties)
    if args.json:
        print(json.dumps({"over": why is not None, **(why or {})}))
    elif why is None:
        left_text = join([cat.figure(t).count(n) for t, n in on_board.items()])
        print(_("the game goes on: {left} on the board, {ties}").format(
            left=left_text, ties=ties_text(args.ties)))
    else:
        print(_("the game is over: {reason}").format(reason=why["text"]))
    return 0
