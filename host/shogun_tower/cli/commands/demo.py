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
from shogun_tower.games.shogun.rules import Game
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
        "demo", help="whole games between bots through the (simulated) tower, with the page",
        description="Plays whole games of Shogun between bots. Every battle and revolt is "
                    "thrown through the tower: the simulated device runs the real firmware "
                    "and counts what falls out; the assistant applies the verdict, lights the "
                    "score track and updates the board page.")
    p.add_argument("--seed", type=int, default=1,
                   help="seed of the first game; game N uses seed+N-1 (same seed, same games; "
                        "default: 1)")
    p.add_argument("--players", type=int, default=4, choices=(2, 3, 4, 5),
                   help="number of bots at the table: Shogun 3-5, knizia-samurai 2-4 (default: 4)")
    p.add_argument("--games", type=int, default=1, help="number of games (default: 1)")
    add_shogun_options(p, resumable=False)
    p.add_argument("--bot", default=None, choices=games.bot_kinds(),
                   help="how the bots play: Shogun heuristic or random (default: heuristic); "
                        "shogun2 random or alphabeta (default: alphabeta against random)")
    p.add_argument("--tower", default="sim", choices=("sim", "device"),
                   help="sim: the simulated tower; device: a real board (--port) (default: sim)")
    p.add_argument("--port", help="serial port of a real tower, e.g. /dev/ttyUSB0 "
                                  "(default: none)")
    p.add_argument("--summary", type=pathlib.Path,
                   help="write a JSON summary to this file, also for the games finished when "
                        "a game is cut short (default: none)")
    p.add_argument("--journals", type=pathlib.Path,
                   help="keep each game's journal in this folder (game-N.jsonl) (default: "
                        "journals are not kept)")
    add_page_arguments(p)
    games.add_game_argument(p)
    odds_cli.add_table_arguments(p)  # the odds at the table
    p.add_argument("--quiet", action="store_true",
                   help="one line per season (VP, coins, provinces) instead of the "
                        "play-by-play (default: off; several games print one line per game)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    return games.run("demo", args)


def run_shogun(args: argparse.Namespace) -> int:
    args.bot = args.bot or "heuristic"
    if args.bot not in ("heuristic", "random"):
        raise ShogunError(f"--bot {args.bot}: the demo's Shogun bots are heuristic or random; "
                          f"choose one of them")
    if args.games < 1:
        raise ShogunError("--games must be 1 or more")
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
                console.say(f"the board page: {page.url}")
            progress = ProgressLine(sys.stdout, enabled=not detail and not args.quiet)
            for n in range(1, args.games + 1):
                seed = args.seed + n - 1
                game = Game.create(args.players, args.map, setup=args.setup, seed=seed,
                                   expansions=args.expansions or ())
                path = args.journals / f"game-{n}.jsonl" if args.journals else None
                if path and path.exists():
                    raise ShogunError(f"{path} exists; choose an empty --journals folder")
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
                    names = ", ".join(colour_word(p, colour) for p in game.players)
                    console.say(f"\nGame {n}: {names} on the {args.map} side")
                counted_before = getattr(kit.tower, "cubes_counted", 0)
                try:
                    # (the tower can end between two games too: told as any game's stop)
                    before = kit.link.status() if kit.link else None
                    state = table.run()
                except (ShogunError, KeyboardInterrupt) as err:
                    progress.clear()
                    stopped = _why_stopped(err, kit, n)
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
            raise ShogunError(f"cannot write the summary to {args.summary}: {err}") from err
        console.say(f"summary written to {args.summary}"
                    + (f" ({len(games)} finished games)" if stopped else ""))
    if stopped:
        raise ShogunError(stopped + (f"; the summary of the {len(games)} finished games is in "
                                     f"{args.summary}" if args.summary else ""))
    agree = all(g["cubes"]["agree"] and g["in_tower"]["agree"] for g in games)
    return 0 if agree and lost == 0 else 1


def _why_stopped(err: BaseException, kit: object, n: int) -> str:
    """Why game ``n`` could not finish, in one line: the simulated tower's end is told as such."""
    sim = getattr(kit, "sim", None)
    if isinstance(err, KeyboardInterrupt):
        return f"game {n} stopped by Ctrl-C"
    if sim is not None and sim.ended:
        return f"game {n} stopped: the simulated tower's program ended; run the demo again"
    return f"game {n} stopped: {err}"


def _progress(table: TableGame, n: int, games: int) -> str:
    s = table.state
    season = ("spring", "summer", "autumn", "winter")[min(s.season, 3)]
    when = "set-up" if s.phase in ("setup", "draft") else f"year {s.year} {season}"
    return (f"game {n}/{games} · {when} · {len(table.journal.commands)} commands · "
            f"{len(table.record.throws)} throws · {table.record.battles} battles")


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
    winners = " and ".join(colour_word(p, colour) for p in g["winner"])
    console.say(f"Game {g['game']}: {winners} won · " + ", ".join(
        f"{colour_word(p, colour)} {g['scores'][p]}" for p in g["ranking"]) +
        f" · {g['battles']} battles, {g['revolts']} revolts, {g['throws']} throws")
    c = g["cubes"]
    console.say(f"  cubes out of the tower: device {c['device']} (hardware counter "
                f"{c['hardware_counter']}), received {c['received']}, applied by the rules "
                f"{c['engine']} — {'they agree' if c['agree'] else 'THEY DISAGREE'}")
    inside = g["in_tower"]
    if inside["device"] is not None:
        console.say("  inside the tower: the engine and the simulated tower "
                    + ("agree" if inside["agree"] else f"DISAGREE ({inside['device']})"))
