"""`shogun-tower demo`: whole games of Shogun between bots, every throw through the tower's
real firmware path (the simulated device by default), with the live board page."""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

from shogun_common.colours import CUBE_COLOURS
from shogun_tower import games
from shogun_tower.cli import odds as odds_cli
from shogun_tower.cli.situation import add_shogun_options
from shogun_tower.errors import ShogunError
from shogun_tower.games import check_output_folders
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.narrate import SEASON_NAMES
from shogun_tower.games.shogun.rules import Game
from shogun_tower.i18n import N_, _, and_list, join, ngettext
from shogun_tower.table.conductor import TableGame
from shogun_tower.table.console import Console
from shogun_tower.table.equipment import (
    add_page_arguments,
    check_tower,
    fill_page_defaults,
    open_tower,
    page_host,
    start_page,
)
from shogun_tower.table.progress import ProgressLine
from shogun_tower.table.report import SeasonReport
from shogun_tower.table.seats import BotSeat
from shogun_tower.table.terminal import colour_word, use_colour


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "demo", help=_("whole games between bots through the (simulated) tower, with the page"),
        description=_("Plays whole games of Shogun between bots. Every battle and revolt is "
                      "thrown through the tower: the simulated device runs the real firmware "
                      "and counts what falls out; the assistant applies the verdict, lights the "
                      "score track and updates the board page."))
    p.add_argument("--seed", type=int, default=1,
                   help=_("seed of the first game; game N uses seed+N-1 (same seed, same games; "
                          "default: 1)"))
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5),
                   help=_("number of bots at the table: Shogun 3-5, knizia-samurai 2-4 "
                          "(default: 4)"))
    p.add_argument("--games", type=int, default=1, help=_("number of games (default: 1)"))
    add_shogun_options(p, resumable=False)
    p.add_argument("--bot", default=None, choices=games.bot_kinds(),
                   help=_("how the bots play: Shogun heuristic or random (default: heuristic); "
                          "shogun2 random or alphabeta (default: alphabeta against random)"))
    p.add_argument("--tower", default="sim", choices=("sim", "device"),
                   help=_("sim: the simulated tower; device: a real board (--port) (default: sim)"))
    p.add_argument("--port", help=_("serial port of a real tower, e.g. /dev/ttyUSB0 "
                                    "(default: none)"))
    p.add_argument("--summary", type=pathlib.Path,
                   help=_("write a JSON summary to this file, also for the games finished when "
                          "a game is cut short (default: none)"))
    p.add_argument("--journals", type=pathlib.Path,
                   help=_("keep each game's journal in this folder (game-N.jsonl) (default: "
                          "journals are not kept)"))
    add_page_arguments(p)
    games.add_game_argument(p)
    odds_cli.add_table_arguments(p)  # the odds at the table
    p.add_argument("--quiet", action="store_true",
                   help=_("one line per season (VP, coins, provinces) instead of the "
                          "play-by-play (default: off; several games print one line per game)"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    return games.run("demo", args)


def run_shogun(args: argparse.Namespace) -> int:
    args.bot = args.bot or "heuristic"
    if args.bot not in ("heuristic", "random"):
        raise ShogunError(_("--bot {bot}: the demo's Shogun bots are heuristic or random; "
                            "choose one of them").format(bot=args.bot))
    if args.games < 1:
        raise ShogunError(_("--games must be 1 or more"))
    check_output_folders(args)
    check_tower(args.tower, args.port)
    Game.create(args.players, args.map, setup=args.setup, seed=args.seed,
                expansions=args.expansions or ())  # a bad map or expansion: refused now
    fill_page_defaults(args)
    colour = use_colour()
    console = Console(colour=colour, clear_screen=False)
    # one game: the play-by-play and a table per season; --quiet: one line per season;
    # several games: a progress line and one line per game
    detail = not args.quiet and args.games == 1
    games: list[dict] = []
    all_throws: list[dict] = []
    frames = 0
    lost = 0
    in_tower: dict[str, int] = {}
    stopped = ""
    page = start_page(page_host(args.host, False), args.page_port, console) if args.page \
        else None
    try:
        with open_tower(args.tower, console, args.port, seed=args.seed,
                        sim_options=odds_cli.table_sim_options(args)) as kit:
            console.say(kit.description)
            if page is not None:
                console.say(_("the board page: {url}").format(url=page.url))
            progress = ProgressLine(sys.stdout, enabled=not detail and not args.quiet)
            for n in range(1, args.games + 1):
                seed = args.seed + n - 1
                game = Game.create(args.players, args.map, setup=args.setup, seed=seed,
                                   expansions=args.expansions or ())
                path = args.journals / f"game-{n}.jsonl" if args.journals else None
                if path and path.exists():
                    raise ShogunError(_("{path} exists; choose an empty --journals "
                                        "folder").format(path=path))
                journal = Journal.new(game, path)
                seats = {p: BotSeat(args.bot, seed * 10 + i) for i, p in
                         enumerate(game.players)}
                report = SeasonReport(console, one_line=not detail) \
                    if detail or args.quiet else None

                table = TableGame(journal, seats, kit.tower, console, link=kit.link, page=page,
                                  show_led=detail, narrate=detail,
                                  on_progress=lambda t, n=n: progress.update(
                                      _progress(t, n, args.games)),
                                  on_season_end=report.season_ended if report else None)
                table.chronicle.odds = not args.no_odds  # the page's odds
                if detail or args.quiet:
                    names = join([colour_word(p, colour) for p in game.players])
                    console.say("")
                    console.say(_("Game {n}: {players} on the {map} side").format(
                        n=n, players=names, map=args.map))
                counted_before = getattr(kit.tower, "cubes_counted", 0)
                try:
                    # (the tower can end between two games too: told as any game's stop)
                    before = kit.link.status() if kit.link else None
                    state = table.run()
                except (ShogunError, KeyboardInterrupt) as err:
                    progress.clear()
                    stopped, told = _why_stopped(err, kit, n)
                    break
                if report is not None:
                    report.finish(state)
                time.sleep(0.05)
                after = kit.link.status() if kit.link else None
                received = getattr(kit.tower, "cubes_counted", 0) - counted_before
                device_inside = kit.link.sim_tower() if kit.tower.simulated else None
                summary = _game_summary(n, seed, state, table, before, after, received,
                                        device_inside, path)
                progress.clear()
                games.append(summary)
                all_throws.extend({"in": t["in"], "out": t["out"]} for t in
                                  table.record.throws)
                frames += table.record.frames
                lost += summary["cubes"]["device"] - summary["cubes"]["received"]
                in_tower = summary["in_tower"]["engine"]
                _print_result(console, summary, colour)
    finally:
        if page is not None:
            page.stop()
    result = {"seed": args.seed, "players": args.players, "games": games,
              "throws": all_throws, "in_tower": in_tower, "frames": frames,
              "lost_events": lost, "stopped": stopped or None}
    if args.summary:
        try:
            args.summary.write_text(json.dumps(result, indent=2) + "\n")
        except OSError as err:
            raise ShogunError(_("cannot write the summary to {path}: {error}").format(
                path=args.summary, error=err)) from err
        console.say(ngettext("summary written to {path} ({n} finished game)",
                             "summary written to {path} ({n} finished games)", len(games))
                    .format(path=args.summary, n=len(games)) if stopped else
                    _("summary written to {path}").format(path=args.summary))
    if stopped:
        raise ShogunError(ngettext("{stopped}; the summary of the {n} finished game is in "
                                   "{path}",
                                   "{stopped}; the summary of the {n} finished games is in "
                                   "{path}", len(games)).format(
                                       stopped=told, n=len(games), path=args.summary)
                          if args.summary else told)
    agree = all(g["cubes"]["agree"] and g["in_tower"]["agree"] for g in games)
    return 0 if agree and lost == 0 else 1


def _why_stopped(err: BaseException, kit: object, n: int) -> tuple[str, str]:
    """Why game ``n`` could not finish, in one line: the simulated tower's end is told as such.
    In English for the JSON summary, then in the players' language for the screen."""
    sim = getattr(kit, "sim", None)
    if isinstance(err, KeyboardInterrupt):
        why = N_("game {n} stopped by Ctrl-C")
    elif sim is not None and sim.ended:
        why = N_("game {n} stopped: the simulated tower's program ended; run the demo again")
    else:
        why = N_("game {n} stopped: {error}")
    return why.format(n=n, error=err), _(why).format(n=n, error=err)


def _progress(table: TableGame, n: int, games: int) -> str:
    s = table.state
    if s.phase in ("setup", "draft"):
        when = _("set-up")
    else:
        when = _("year {year} {season}").format(year=s.year,
                                                season=_(SEASON_NAMES[min(s.season, 3)]))
    # Translators: the progress line of several demo games
    return _("game {n}/{games} · {when} · {commands} commands · {throws} throws · {battles} "
             "battles").format(n=n, games=games, when=when,
                               commands=len(table.journal.commands),
                               throws=len(table.record.throws),
                               battles=table.record.battles)


def _game_summary(n: int, seed: int, state, table: TableGame, before: dict | None,
                  after: dict | None, received: int, device_inside: dict | None,
                  path: pathlib.Path | None) -> dict:
    result = state.result or {}
    engine_inside = {c: state.tower[c] for c in CUBE_COLOURS}
    device = (after["cubes"] - before["cubes"]) if before and after else received
    hardware = (after["hw_count"] - before["hw_count"]) if before and after else received
    return {
        "game": n, "seed": seed, "players": list(state.game.players),
        "winner": result.get("winners", []), "ranking": result.get("ranking", []),
        "scores": dict(state.vp), "coins": dict(state.coins),
        "battles": table.record.battles, "revolts": table.record.revolts,
        "throws": len(table.record.throws),
        # cubes the colour sensor could not tell (the bots then look at the simulated tray);
        # on a busy laptop the simulation's timing makes this the one figure that can vary
        "colour_unknown": table.record.unknown,
        "cubes": {"device": device, "hardware_counter": hardware, "received": received,
                  "engine": table.record.cubes_applied,
                  "agree": device == hardware == received == table.record.cubes_applied},
        "in_tower": {"engine": engine_inside, "device": device_inside,
                     "agree": device_inside is None or device_inside == engine_inside},
        "journal": str(path) if path else None,
    }


def _print_result(console: Console, g: dict, colour: bool) -> None:
    winners = and_list([colour_word(p, colour) for p in g["winner"]])
    # Translators: one player's score in the list after a game, e.g. "red 24"
    scores = join([_("{player} {vp}").format(player=colour_word(p, colour), vp=g["scores"][p])
                   for p in g["ranking"]])
    console.say(_("Game {n}: {winners} won · {scores} · {battles} battles, {revolts} revolts, "
                  "{throws} throws").format(n=g["game"], winners=winners, scores=scores,
                                            battles=g["battles"], revolts=g["revolts"],
                                            throws=g["throws"]))
    c = g["cubes"]
    counts = {"device": c["device"], "counter": c["hardware_counter"],
              "received": c["received"], "engine": c["engine"]}
    console.say("  " + (_("cubes out of the tower: device {device} (hardware counter "
                          "{counter}), received {received}, applied by the rules {engine} — "
                          "they agree") if c["agree"] else
                        _("cubes out of the tower: device {device} (hardware counter "
                          "{counter}), received {received}, applied by the rules {engine} — "
                          "THEY DISAGREE")).format(**counts))
    inside = g["in_tower"]
    if inside["device"] is not None:
        console.say("  " + (_("inside the tower: the engine and the simulated tower agree")
                            if inside["agree"] else
                            _("inside the tower: the engine and the simulated tower DISAGREE "
                              "({device})").format(device=inside["device"])))
