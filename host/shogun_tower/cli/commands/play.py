"""`shogun-tower play`: the assistant at the table. It leads the whole game, asks each player in
turn (plans in private), throws every battle and revolt through the tower, keeps the journal
as play goes and the board page live. `--resume FILE` continues a game after a crash."""

from __future__ import annotations

import argparse
import pathlib

from shogun_common.colours import PLAYER_COLOURS
from shogun_tower import games
from shogun_tower.cli import odds as odds_cli
from shogun_tower.cli.situation import add_shogun_options
from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.i18n import _, and_list, join
from shogun_tower.table.conductor import TableGame
from shogun_tower.table.console import (
    QUIT_CODE_CTRL_C,
    Console,
    QuitRequested,
    UndoRequested,
    resume_command,
    until_stopped,
)
from shogun_tower.table.equipment import (
    add_page_arguments,
    check_tower,
    is_loopback,
    open_tower,
    page_host,
    start_page,
)
from shogun_tower.table.phones import PlanDesk, SeatCodes, seat_key
from shogun_tower.table.report import SeasonReport
from shogun_tower.table.seats import BotSeat, HumanSeat
from shogun_tower.table.terminal import colour_word, use_colour
from shogun_tower.words import sentence

# The table's options: kept in the journal's header, given back by --resume. The game's own
# options (players, map, set-up, cards, seed) are in the header's game.
TABLE_DEFAULTS = {"bots": [], "bot": "heuristic", "tower": "sim", "port": None, "page": True,
                  "host": None, "page_port": 8765, "phones": False, "odds": True,
                  "tower_profile": None}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "play", help=_("play a game at the table with the tower (journal, page, resume)"),
        description=_("Leads a whole game of Shogun: set-up, every season, battles and revolts "
                      "through the tower, winter, scoring. At any question type undo, show, "
                      "page, help or quit. --resume FILE continues a saved game with the same "
                      "table (bots, tower, port, page), which the journal keeps."))
    p.add_argument("--players", default=None,
                   help=_("3, 4 or 5 (the first colours of black, red, yellow, purple, blue, "
                          "in that seat order), or the colours at the table, e.g. "
                          "red,blue,purple; knizia-samurai: 2-4, or colours among "
                          "red,yellow,blue,green (default: 4)"))
    add_shogun_options(p, resumable=True)
    p.add_argument("--cards", default=None, choices=("auto", "physical"),
                   help=_("auto: the assistant draws the cards; physical: you draw real cards "
                          "and type what came (default: auto)"))
    p.add_argument("--bots", default=None,
                   help=_("colours played by the computer, e.g. yellow,purple, or 'all' "
                          "(default: none, everyone is a person)"))
    p.add_argument("--bot", default=None, choices=games.bot_kinds(),
                   help=_("how the bots play: Shogun heuristic, odds or random (default: "
                          "heuristic); shogun2 random or alphabeta (default: alphabeta)"))
    p.add_argument("--tower", default=None, choices=("sim", "device", "manual"),
                   help=_("sim: the simulated tower; device: a real tower (--port); "
                          "manual: you type the tray counts (default: sim, or device with --port)"))
    p.add_argument("--port", default=None,
                   help=_("serial port of the tower, e.g. /dev/ttyUSB0 (default: none)"))
    p.add_argument("--seed", type=int, default=None,
                   help=_("seed of the game's cards and bots (default: a random one)"))
    p.add_argument("--journal", type=pathlib.Path,
                   help=_("journal file to write (default: shogun-DATE-TIME.jsonl here)"))
    p.add_argument("--resume", type=pathlib.Path, metavar="FILE",
                   help=_("continue the game in this journal, with its table (default: a new "
                          "game)"))
    add_page_arguments(p)
    games.add_game_argument(p)
    odds_cli.add_table_arguments(p)  # the odds at the table
    p.add_argument("--phones", action="store_true", default=None,
                   help=_("each person plans in secret on their own phone: a private link (and "
                          "QR code) per seat; the page then listens on the local network "
                          "(default: off, plans are typed at the laptop in turn)"))
    p.add_argument("--no-clear", action="store_true",
                   help=_("do not clear the screen around secret plans (e.g. in a log; "
                          "default: cleared)"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    return games.run("play", args)


def run_shogun(args: argparse.Namespace) -> int:
    colour = use_colour()
    console = Console(colour=colour, clear_screen=not args.no_clear)
    game, path, saved = _game_and_table(args)  # every argument checked before a file is made
    table_options = _table(args, game, saved)
    args.no_odds = not table_options["odds"]  # the odds as the saved table has them
    args.tower_profile = table_options["tower_profile"]
    if saved is not None:
        console.say(sentence(len(saved.commands), "resumed {path}: {n} command replayed",
                             "resumed {path}: {n} commands replayed", path=saved.path))
    bots = set(table_options["bots"])
    tower_kind = table_options["tower"]
    port = table_options["port"]
    check_tower(tower_kind, port)
    phones = table_options["phones"]
    if phones and not table_options["page"]:
        raise ShogunError(_("--phones needs the page's server for the seats' links; drop "
                            "--no-page"))
    host = page_host(table_options["host"], phones)
    seats = {p: (BotSeat(table_options["bot"], game.seed * 10 + i) if p in bots
                 else HumanSeat(console, game.seed, odds_cli.seat_odds(args)))
             for i, p in enumerate(game.players)}
    people = [p for p in game.players if p not in bots]
    desk = None
    journal = saved
    page = None
    try:
        with open_tower(tower_kind, console, port, seed=game.seed,
                        sim_options=odds_cli.table_sim_options(args)) as kit:
            page = start_page(host, table_options["page_port"], console) \
                if table_options["page"] else None
            # the tower answered and the page is up: only now is a new journal file made
            if journal is None:
                if page is not None:  # the port it got (a busy one falls back): kept for
                    table_options["page_port"] = page.port  # --resume, so links stay good
                journal = Journal.new(game, path, table=table_options)
            if page is not None and phones and people:
                desk = _phone_desk(people, journal, console)
                page.desk = desk
            console.say(kit.description)
            if page is not None:
                console.say(_("the board page: {url}").format(url=page.url))
                if not is_loopback(host):
                    console.say(_("warning: the page listens on {host}: anyone on this "
                                  "network can open the board page; each seat's link below "
                                  "is private: show it only to its player").format(host=host))
            if desk is not None and page is not None:
                codes = SeatCodes(console, desk, page.url)
                codes.tell()
                # `help` names `phone COLOUR` once it works (the coach's book says what it does)
                console.seat_links, console.phone_code = codes.tell, codes.show
            resume = resume_command(journal.path)
            console.say(_("the journal: {path} (continue later with `{command}`)").format(
                path=journal.path, command=resume))
            console.say(_players_line(args, game, bots, colour))
            table = TableGame(journal, seats, kit.tower, console, link=kit.link, page=page,
                              table=HumanSeat(console, game.seed), show_led=True, desk=desk,
                              on_season_end=SeasonReport(console).season_ended)
            table.chronicle.odds = not args.no_odds  # the page's odds too
            if saved is not None:
                table.recap()
            if journal.commands and tower_kind == "device" \
                    and journal.state.pending()["kind"] == "throw":
                _ask_about_interrupted_throw(table, console)
            while True:
                try:
                    state = until_stopped(table.run, console, journal.path)
                except ShogunError as err:
                    if kit.sim is not None and kit.sim.ended:
                        raise ShogunError(_("the simulated tower stopped: its program ended "
                                            "during the game; the game is saved in {path}: "
                                            "continue with `{command}`").format(
                                                path=journal.path, command=resume)) from None
                    raise ShogunError(_("{error}; the game is saved in {path}: continue with "
                                        "`{command}`").format(error=err, path=journal.path,
                                                              command=resume)) from None
                if state is None:
                    return QUIT_CODE_CTRL_C if getattr(console, "stopped_by_ctrl_c", False) \
                        else 0
                agrees = table.tower_agrees()
                if agrees is not None:
                    console.say(_("inside the tower: the rules and the simulated tower agree")
                                if agrees else
                                _("inside the tower: the rules and the simulated tower "
                                  "DISAGREE"))
                console.say("")
                SeasonReport(console).finish(state)
                result = state.result or {}
                winners = [colour_word(p, colour)
                           for p in result.get("winners", [])]
                console.say(sentence(len(winners), "winner: {players}", "winners: {players}",
                                     players=and_list(winners)))
                if not _game_over_held(table, console, page is not None):
                    break
    finally:
        if page is not None:
            page.stop()
    return 0


def _game_over_held(table: TableGame, console: Console, page: bool) -> bool:
    """The game is over: the screen (and the board page) stay until Enter, as in the other
    games; undo takes back the last command and the game goes on (True)."""
    try:
        console.enter(_("The game is over. Press Enter to end (the board page closes), or type "
                        "undo: ") if page else
                      _("The game is over. Press Enter to end, or type undo: "))
    except UndoRequested:
        table.undo()
        return True
    except QuitRequested:
        pass
    return False


def _players_line(args: argparse.Namespace, game: Game, bots: set[str], colour: bool) -> str:
    """Who plays which colour; with a number of players, which colours that number takes."""
    seats = join([_("{player} (bot)").format(player=colour_word(p, colour))
                  if p in bots else colour_word(p, colour)
                  for p in game.players])
    if args.resume is None and (args.players is None or str(args.players).isdigit()):
        return _("players: {seats} (the first {n} colours; choose others with e.g. --players "
                 "red,blue,purple)").format(seats=seats, n=len(game.players))
    return _("players: {seats}").format(seats=seats)


def _phone_desk(people: list[str], journal: Journal, console: Console) -> PlanDesk:
    """The seats' desk, its links kept from the game's last session when its key is found."""
    key, made = seat_key(journal.path)
    if made and journal.commands:
        console.say(_("The phones' key was not found beside the journal: every seat has a new "
                      "link (phone COLOUR shows it)."))
    return PlanDesk(people, key)


def _game_and_table(args: argparse.Namespace
                    ) -> tuple[Game, pathlib.Path | None, Journal | None]:
    """A resumed journal (its game and table), or a new game and the file it will go to."""
    journal, path = games.open_journal(args, Journal, "shogun")
    if journal is not None:
        _refuse_game_flags(args, journal.game)
        return journal.game, args.resume, journal
    game = Game.create(_players(args.players or "4"), args.map or "sun",
                       chance=args.cards or "auto", setup=args.setup or "fixed",
                       seed=args.seed if args.seed is not None else _fresh_seed(),
                       expansions=args.expansions or ())
    return game, path, None


def _refuse_game_flags(args: argparse.Namespace, game: Game) -> None:
    """A game's own options cannot change on resume: a flag that disagrees is refused."""
    given = {"--players": args.players, "--map": args.map, "--setup": args.setup,
             "--cards": args.cards, "--seed": args.seed, "--expansions": args.expansions}
    g = game.to_json()
    for flag, value in given.items():
        if value is None:
            continue
        if flag == "--players":
            wanted = _players(value)
            same = (wanted == len(game.players) if isinstance(wanted, int)
                    else set(wanted) == set(game.players))
            saved = ",".join(game.players)
        else:
            key = {"--map": "map", "--setup": "setup", "--cards": "chance", "--seed": "seed",
                   "--expansions": "expansions"}[flag]
            saved = g.get(key)
            if flag == "--expansions":
                value = ",".join(sorted(w.strip() for w in str(value).split(",") if w.strip()))
                saved = ",".join(sorted(saved or [])) or "none"
            if isinstance(saved, dict):
                saved = saved.get("side", saved.get("name", saved))
            same = str(value) == str(saved)
        if not same:
            raise ShogunError(_("--resume {journal}: {flag} {value} conflicts with the saved "
                                "game ({flag} {saved}); drop {flag}").format(
                                    journal=args.resume, flag=flag, value=value, saved=saved))


def _table(args: argparse.Namespace, game: Game, saved: Journal | None) -> dict:
    """The table's options: the saved ones on --resume (a flag that disagrees is refused,
    except --no-page: a game goes on without its page), else the flags with their defaults.
    The page's port is the one the page was served on (a busy 8765 falls back to a free one),
    so a resume serves it at the same address; a --page-port given with --resume moves it."""
    moved = args.page_port if saved is not None else None
    given = {"bots": (None if args.bots is None
                      else sorted(_bot_colours(args.bots, game.players))),
             "bot": args.bot, "tower": args.tower or ("device" if args.port else None),
             "port": args.port, "page": args.page, "host": args.host,
             "page_port": None if saved is not None else args.page_port,
             "phones": args.phones,
             "odds": False if args.no_odds else None, "tower_profile": args.tower_profile}
    no_page = saved is not None and args.page is False
    if no_page:
        given["page"] = None
    table = games.table_options(args, given, TABLE_DEFAULTS,
                                saved.table if saved is not None else None)
    if no_page:
        table["page"] = False
    return table if moved is None else dict(table, page_port=moved)


def _ask_about_interrupted_throw(table: TableGame, console: Console) -> None:
    """The game stopped while cubes were being thrown into a real tower."""
    console.say(_("The game stopped during a throw."))
    if console.confirm(_("have these cubes already been thrown (y), or not yet (n)? ")):
        table.retype_next_throw()


def _players(text: str) -> int | list[str]:
    if text.isdigit():
        return int(text)
    colours = [c.strip().lower() for c in text.split(",") if c.strip()]
    bad = [c for c in colours if c not in PLAYER_COLOURS]
    if bad:
        raise ShogunError(_("--players: {colours} is not a player colour; use {players} or a "
                            "number 3-5").format(colours=", ".join(bad),
                                                 players=", ".join(PLAYER_COLOURS)))
    return colours


def _bot_colours(text: str, players: tuple[str, ...] | list[str]) -> set[str]:
    if text.strip().lower() == "all":
        return set(players)
    colours = {c.strip().lower() for c in text.split(",") if c.strip()}
    bad = colours - set(players)
    if bad:
        raise ShogunError(_("--bots: {colours} is not at this table; players are "
                            "{players}").format(colours=", ".join(sorted(bad)),
                                                players=", ".join(players)))
    return colours


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(1 << 31)
