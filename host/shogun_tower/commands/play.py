"""`shogun-tower play`: the assistant at the table. It leads the whole game, asks each player in
turn (plans in private), throws every battle and revolt through the tower, keeps the journal
as play goes and the board page live. `--resume FILE` continues a game after a crash."""

from __future__ import annotations

import argparse
import datetime
import pathlib

from shogun_common.colours import PLAYER_COLOURS
from shogun_tower.assistant.conductor import TableGame, state_tables
from shogun_tower.assistant.console import Console, QuitRequested
from shogun_tower.assistant.equipment import (
    add_page_arguments,
    check_tower,
    is_loopback,
    open_tower,
    page_host,
    start_page,
)
from shogun_tower.assistant.phones import PlanDesk, show_seat_links
from shogun_tower.assistant.seats import BOT_KINDS, BotSeat, HumanSeat
from shogun_tower.errors import ShogunError
from shogun_tower.rules import Game
from shogun_tower.rules.journal import Journal
from shogun_tower.terminal import colour_word, use_colour


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "play", help="play a game at the table with the tower (journal, page, resume)",
        description="Leads a whole game of Shogun: set-up, every season, battles and revolts "
                    "through the tower, winter, scoring. At any question type undo, show, "
                    "page, help or quit.")
    p.add_argument("--players", default="4",
                   help="3, 4 or 5, or the colours at the table, e.g. red,blue,purple")
    p.add_argument("--map", default="sun", help="sun (default), moon, or a map file")
    p.add_argument("--setup", default="fixed", choices=("fixed", "draft"),
                   help="fixed start (default) or the draft (rule S2)")
    p.add_argument("--cards", default="auto", choices=("auto", "physical"),
                   help="auto: the assistant draws the cards; physical: you draw real cards "
                        "and type what came")
    p.add_argument("--bots", default="",
                   help="colours played by the computer, e.g. yellow,purple, or 'all'")
    p.add_argument("--bot", default="heuristic", choices=sorted(BOT_KINDS))
    p.add_argument("--tower", choices=("sim", "device", "manual"),
                   help="sim: the simulated device (default); device: a real tower (--port); "
                        "manual: you type the tray counts")
    p.add_argument("--port", help="serial port of the tower, e.g. /dev/ttyUSB0")
    p.add_argument("--seed", type=int, help="seed of the game's cards and bots")
    p.add_argument("--journal", type=pathlib.Path,
                   help="journal file to write (default: shogun-DATE-TIME.jsonl here)")
    p.add_argument("--resume", type=pathlib.Path, metavar="FILE",
                   help="continue the game in this journal")
    add_page_arguments(p)
    p.add_argument("--phones", action="store_true",
                   help="each person plans in secret on their own phone: a private link (and "
                        "QR code) per seat; the page then listens on the local network "
                        "(default: off, plans are typed at the laptop in turn)")
    p.add_argument("--no-clear", action="store_true",
                   help="do not clear the screen around secret plans (e.g. in a log; "
                        "default: cleared)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    colour = use_colour()
    console = Console(colour=colour, clear_screen=not args.no_clear)
    tower_kind = args.tower or ("device" if args.port else "sim")
    check_tower(tower_kind, args.port)
    journal = _open_journal(args, console)  # every argument checked before a file is made
    game = journal.game
    bots = _bot_colours(args.bots, game.players)
    seats = {p: (BotSeat(args.bot, game.seed * 10 + i) if p in bots else HumanSeat(console,
                                                                                    game.seed))
             for i, p in enumerate(game.players)}
    if args.phones and not args.page:
        raise ShogunError("--phones needs the page's server for the seats' links; drop "
                          "--no-page")
    host = page_host(args.host, args.phones)
    people = [p for p in game.players if p not in bots]
    desk = PlanDesk(people) if args.phones and people else None
    page = start_page(host, args.page_port, console) if args.page else None
    if page is not None and desk is not None:
        page.desk = desk
    try:
        with open_tower(tower_kind, console, args.port, seed=game.seed) as kit:
            console.say(kit.description)
            if page is not None:
                console.say(f"the board page: {page.url}")
                if not is_loopback(host):
                    console.say(f"warning: the page listens on {host}: anyone on this "
                                f"network can open the board page; each seat's link below "
                                f"is private: show it only to its player")
            if desk is not None and page is not None:
                show_seat_links(console, desk.links(page.url))
            console.say(f"the journal: {journal.path} (continue later with `shogun-tower play "
                        f"--resume {journal.path}`)")
            console.say("players: " + ", ".join(
                colour_word(p, colour) + (" (bot)" if p in bots else "") for p in game.players))
            table = TableGame(journal, seats, kit.tower, console, link=kit.link, page=page,
                              table=HumanSeat(console, game.seed), show_led=True, desk=desk)
            if journal.commands and tower_kind == "device" \
                    and journal.state.pending()["kind"] == "throw":
                _ask_about_interrupted_throw(table, console)
            try:
                state = table.run()
            except (QuitRequested, KeyboardInterrupt) as why:
                console.say(f"\nstopped ({why or 'interrupted'}); the game is saved in "
                            f"{journal.path}: continue with `shogun-tower play --resume "
                            f"{journal.path}`")
                return 0
            agrees = table.tower_agrees()
            if agrees is not None:
                console.say("inside the tower: the rules and the simulated tower "
                            + ("agree" if agrees else "DISAGREE"))
    finally:
        if page is not None:
            page.stop()
    console.say("")
    for line in state_tables(state, colour)[: len(game.players) + 1]:
        console.say(line)
    result = state.result or {}
    console.say("winner: " + " and ".join(colour_word(p, colour) for p in result.get("winners",
                                                                                       [])))
    return 0


def _open_journal(args: argparse.Namespace, console: Console) -> Journal:
    if args.resume:
        if args.journal:
            raise ShogunError("give either --resume FILE or --journal FILE, not both")
        _mend_torn_line(args.resume, console)
        journal = Journal.load(args.resume)
        _bot_colours(args.bots, journal.game.players)
        console.say(f"resumed {args.resume}: {len(journal.commands)} commands replayed")
        return journal
    path = args.journal or pathlib.Path(
        datetime.datetime.now().strftime("shogun-%Y%m%d-%H%M%S.jsonl"))
    if path.exists():
        raise ShogunError(f"{path} already exists; continue it with --resume {path} or choose "
                          f"another --journal")
    if not path.parent.is_dir():
        raise ShogunError(f"--journal: there is no folder {path.parent}")
    game = Game.create(_players(args.players), args.map, chance=args.cards, setup=args.setup,
                       seed=args.seed if args.seed is not None else _fresh_seed())
    _bot_colours(args.bots, game.players)
    return Journal.new(game, path)


def _mend_torn_line(path: pathlib.Path, console: Console) -> None:
    """A crash while a line was written leaves it without its newline: that command was never
    complete. Keep the torn text beside the journal and cut it off; every complete line stays."""
    if not path.is_file():
        return  # Journal.load says so
    data = path.read_bytes()
    if not data or data.endswith(b"\n"):
        return
    cut = data.rfind(b"\n") + 1
    torn = path.with_name(path.name + ".torn")
    torn.write_bytes(data[cut:])
    with path.open("r+b") as f:
        f.truncate(cut)
    console.say(f"the journal's last line was cut off by the crash (kept in {torn}); the game "
                f"continues from the last complete command")


def _ask_about_interrupted_throw(table: TableGame, console: Console) -> None:
    """The game stopped while cubes were being thrown into a real tower."""
    console.say("The game stopped during a throw.")
    if console.confirm("have these cubes already been thrown (y), or not yet (n)? "):
        table.retype_next_throw()


def _players(text: str) -> int | list[str]:
    if text.isdigit():
        return int(text)
    colours = [c.strip().lower() for c in text.split(",") if c.strip()]
    bad = [c for c in colours if c not in PLAYER_COLOURS]
    if bad:
        raise ShogunError(f"--players: {', '.join(bad)} is not a player colour; use "
                          f"{', '.join(PLAYER_COLOURS)} or a number 3-5")
    return colours


def _bot_colours(text: str, players: tuple[str, ...]) -> set[str]:
    if text.strip().lower() == "all":
        return set(players)
    colours = {c.strip().lower() for c in text.split(",") if c.strip()}
    bad = colours - set(players)
    if bad:
        raise ShogunError(f"--bots: {', '.join(sorted(bad))} is not at this table; players are "
                          f"{', '.join(players)}")
    return colours


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(1 << 31)
