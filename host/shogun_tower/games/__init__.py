"""The games the console serves: one catalogue, read by `play`, `demo`, `replay`, `serve` and
the help.

Shogun (Queen Games) is the default. Each other game of the rulebooks is its own package here
(``shogun2``, ``knizia_samurai``); its entry names the functions that run `play --game NAME` and
`demo --game NAME`, given the parsed arguments, and what `replay` and `serve` need to show any
of its journals, finished or not: its journal class, its page and the words of its state. The
options of `play`/`demo` are Shogun's; another game takes the few it understands (its
``options``) and refuses any other one given, in one line, so no Shogun flag is silently
ignored.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import pathlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.bots import BOT_KINDS
from shogun_tower.i18n import N_, _, ngettext
from shogun_tower.table.console import QuitRequested, until_stopped

DEFAULT = "shogun"


@dataclass(frozen=True)
class GameEntry:
    """One game of the catalogue."""

    name: str  # what --game takes, and the "name" in a journal's game
    title: str
    rulebook: str  # the number of the rulebook it comes from (docs/rules.md)
    players: tuple[int, int]  # fewest and most players
    play: str  # "module:function" run by `play --game NAME` with the parsed arguments
    demo: str  # "module:function" run by `demo --game NAME`
    bots: tuple[str, ...]  # the kinds --bot takes for this game (Shogun: its BOT_KINDS)
    options: frozenset[str] = frozenset()  # play/demo options it takes (argparse dests)
    # "module:function" adding the game's own options to play/demo (each defaults to None);
    # their dests belong in ``options``; any other game refuses them when given
    arguments: str | None = None
    # other names --game takes for it, and the name its journals carry if not ``name``
    aliases: tuple[str, ...] = ()
    journal_name: str | None = None
    # its journals: "module:Class", and "module:function"s of a loaded journal giving what
    # `replay` prints (journal, path -> lines) and the view its page draws (journal -> view)
    journal: str = ""
    replay: str = ""
    view: str = ""
    front: str = "index.html"  # its board page's front file (web/)


GAMES: dict[str, GameEntry] = {e.name: e for e in (
    GameEntry("shogun", N_("Shogun (Queen Games, 2006)"), "001/002", (3, 5),
              "shogun_tower.cli.commands.play:run_shogun",
              "shogun_tower.cli.commands.demo:run_shogun",
              (),  # its bots: games/shogun/bots.py BOT_KINDS
              journal="shogun_tower.games.shogun.journal:Journal",
              replay="shogun_tower.cli.commands.replay:shogun_lines",
              view="shogun_tower.cli.commands.serve:shogun_view"),
    GameEntry("shogun2", N_("Shogun (Ravensburger, two players, magnetic dials)"), "003", (2, 2),
              "shogun_tower.games.shogun2.table:run_play",
              "shogun_tower.games.shogun2.table:run_demo",
              ("random", "alphabeta"),
              frozenset({"seed", "journal", "resume", "bots", "bot", "page", "host",
                         "page_port", "no_clear", "games", "summary", "journals", "quiet",
                         "turned", "first"}),
              "shogun_tower.games.shogun2.table:add_arguments",
              journal="shogun_tower.games.shogun2.journal:Shogun2Journal",
              replay="shogun_tower.games.shogun2.view:replay_lines",
              view="shogun_tower.games.shogun2.view:journal_view", front="shogun2.html"),
    GameEntry("knizia-samurai", N_("Knizia's Samurai (Reiner Knizia): the referee and scoring "
                                   "console"), "004",
              (2, 4),
              "shogun_tower.games.knizia_samurai.console:run_play",
              "shogun_tower.games.knizia_samurai.console:run_demo",
              ("random",),  # the demo's table: seeded random captures and ties
              frozenset({"players", "seed", "journal", "resume", "tower", "port", "page",
                         "host", "page_port", "no_clear", "bot", "summary", "quiet"}),
              # "samurai" was its name before the Shogun expansion Samurai (X2) kept it alone
              aliases=("samurai",), journal_name="samurai",
              journal="shogun_tower.games.knizia_samurai.state:SamuraiJournal",
              replay="shogun_tower.games.knizia_samurai.view:replay_lines",
              view="shogun_tower.games.knizia_samurai.view:journal_view", front="samurai.html"),
)}
# Each other name of a game (an old name, a journal's) and the game it names.
ALIASES: dict[str, str] = {a: e.name for e in GAMES.values()
                           for a in (*e.aliases, e.journal_name) if a and a != e.name}


def add_game_argument(parser: argparse.ArgumentParser) -> None:
    """`--game NAME` on a command that runs any game; the parser is kept so a game can tell a
    flag given from a flag left at its default."""
    parser.add_argument("--game", default=None, choices=sorted([*GAMES, *ALIASES]),
                        metavar="{" + ",".join(sorted(GAMES)) + "}",
                        help=_("which game: {games} (default: {default}, or the game of the "
                               "--resume journal)").format(
                            games="; ".join(_("{name}: {title}, {players}").format(
                                name=e.name, title=_(e.title), players=_players(e.players))
                                for e in GAMES.values()), default=DEFAULT))
    own: dict[str, str] = {}
    for e in GAMES.values():
        if e.arguments:
            before = {a.dest for a in parser._actions}
            _function(e.arguments)(parser)
            own.update({a.dest: e.name for a in parser._actions if a.dest not in before})
    parser.set_defaults(game_parser=parser, game_options=own)


def _function(ref: str):  # noqa: ANN202 - any game's function
    module, _, function = ref.partition(":")
    return getattr(importlib.import_module(module), function)


def _players(span: tuple[int, int]) -> str:
    low, high = span
    if low == high:
        return ngettext("{n} player", "{n} players", low).format(n=low)
    return _("{low}-{high} players").format(low=low, high=high)


def bots_of(game: GameEntry) -> tuple[str, ...]:
    if game.bots:
        return game.bots
    return tuple(sorted(BOT_KINDS))


def bot_kinds() -> list[str]:
    """Every game's bot kinds, for --bot's choices (each game is checked for its own)."""
    return sorted({k for e in GAMES.values() for k in bots_of(e)})


def entry(name: str) -> GameEntry:
    try:
        return GAMES[ALIASES.get(name, name)]
    except KeyError:
        raise ShogunError(_("--game {game}: no such game; choose one of {games}").format(
            game=name, games=", ".join(sorted(GAMES)))) from None


def chosen(args: argparse.Namespace) -> GameEntry:
    """The game to run: --game, else the game of the --resume journal, else Shogun."""
    name = getattr(args, "game", None)
    resume = getattr(args, "resume", None)
    if resume is not None:
        saved = journal_game(resume)
        if name is not None and ALIASES.get(name, name) != saved:
            raise ShogunError(_("--resume {journal}: this journal is a game of {saved}, not "
                                "{game}; drop --game").format(journal=resume, saved=saved,
                                                              game=name))
        name = saved
    return entry(name or DEFAULT)


def run(what: str, args: argparse.Namespace) -> int:
    """Run `play` or `demo` (``what``) for the chosen game."""
    game = chosen(args)
    if game.name != DEFAULT:
        refuse_foreign_options(args, game)
    for dest, owner in getattr(args, "game_options", {}).items():
        if owner != game.name and getattr(args, dest, None) is not None:
            flag = "--" + dest.replace("_", "-")
            raise ShogunError(_("{flag} is an option of {owner}, not of {game}; drop it or "
                                "add --game {owner}").format(flag=flag, owner=owner,
                                                             game=game.name))
    bot = getattr(args, "bot", None)
    if bot is not None and bot not in bots_of(game):
        raise ShogunError(_("--bot {bot}: the bots of {game} are {bots}; choose one of "
                            "them").format(bot=bot, game=game.name,
                                           bots=", ".join(bots_of(game))))
    return int(_function(getattr(game, what))(args) or 0)


def refuse_foreign_options(args: argparse.Namespace, game: GameEntry) -> None:
    """A Shogun option given to another game is refused, never silently ignored."""
    parser = getattr(args, "game_parser", None)
    if parser is None:
        return
    for action in parser._actions:
        dest = action.dest
        if dest in ("help", "game", "version", "lang") or dest in game.options \
                or dest in getattr(args, "game_options", {}) or not action.option_strings:
            continue  # another game's own options are refused by run()
        if getattr(args, dest, None) != action.default:
            raise ShogunError(_("{flag} is an option of Shogun; {game} does not take it; drop "
                                "it").format(flag=action.option_strings[0], game=game.name))


def open_journal(args: argparse.Namespace, journal_type: type, stem: str
                 ) -> tuple[Any, pathlib.Path]:
    """``--resume FILE``: the saved journal (a torn last line cut off and said), and its path;
    else None and the path a new journal will go to (``--journal`` or ``STEM-DATE-TIME.jsonl``
    here), refused in one line if it exists or its folder does not."""
    if args.resume:
        if args.journal:
            raise ShogunError(_("give either --resume FILE or --journal FILE, not both"))
        journal = journal_type.load(args.resume, mend_torn_line=True)
        if journal.torn:
            print(_("the journal's last line was cut off by the crash (kept in {path}); the "
                    "game continues from the last complete command").format(path=journal.torn),
                  flush=True)
        return journal, pathlib.Path(args.resume)
    path = args.journal or pathlib.Path(
        datetime.datetime.now().strftime(f"{stem}-%Y%m%d-%H%M%S.jsonl"))
    if path.exists():
        raise ShogunError(_("{path} already exists; continue it with --resume {path} or choose "
                            "another --journal").format(path=path))
    if not path.parent.is_dir():
        raise ShogunError(_("--journal: there is no folder {folder}").format(folder=path.parent))
    return None, path


def table_options(args: argparse.Namespace, given: dict, defaults: dict,
                  saved: dict | None) -> dict:
    """The table's options (bots, tower, page...): on ``--resume`` the saved ones, a flag given
    that disagrees refused in one line; else the flags given (None: left out) over the
    defaults. ``saved`` None: a new game, or a journal older than tables."""
    if saved is None:
        return {k: defaults[k] if v is None else v for k, v in given.items()}
    table = dict(defaults, **saved)
    for key, value in given.items():
        if value is not None and value != table[key]:
            flag = "--" + key.replace("_", "-")
            raise ShogunError(_("--resume {journal}: {flag} {given} conflicts with the saved "
                                "table ({flag} {saved}); drop {flag} to continue as "
                                "saved").format(journal=args.resume, flag=flag,
                                                given=shown(value), saved=shown(table[key])))
    return table


def shown(value: object) -> str:
    """An option's value as typed: a list as a comma list, on/off, none."""
    if isinstance(value, list):
        return ",".join(value) or "none"
    if value is None or isinstance(value, bool):
        return {True: "on", False: "off", None: "none"}[value]
    return str(value)


def check_output_folders(args: argparse.Namespace) -> None:
    """demo's --summary and --journals go to folders that exist."""
    for folder, what in ((args.summary and args.summary.parent, "--summary"),
                         (args.journals, "--journals")):
        if folder and not folder.is_dir():
            raise ShogunError(_("{option}: there is no folder {folder}; create it or give "
                                "another path").format(option=what, folder=folder))


def saved_game(path: str | os.PathLike) -> tuple[GameEntry, Any]:
    """The game of a journal file (its header says which) and the journal loaded with that
    game's own class, every line checked; JournalError (one line) if it cannot be read. A last
    line cut off by a crash is refused, never mended: the file is not changed."""
    game = entry(journal_game(path))
    return game, _function(game.journal).load(path)


def load_journal(game: GameEntry, text: str, name: str) -> Any:
    """A journal of ``game`` from its text (a file being written, read once)."""
    return _function(game.journal).loads(text, name)


def replay_lines(game: GameEntry, journal: Any, path: str | os.PathLike) -> list[str]:
    """What `replay` prints of a journal of ``game``: where the game stands."""
    return list(_function(game.replay)(journal, str(path)))


def journal_view(game: GameEntry, journal: Any) -> dict:
    """The view ``game``'s page draws of a journal (`serve --journal`)."""
    return _function(game.view)(journal)


def journal_game(path: str | os.PathLike) -> str:
    """The name of the game a journal holds, from its header (Shogun's journals have none)."""
    try:
        with pathlib.Path(path).open("rb") as f:
            first = f.readline(1 << 20)
    except OSError:
        return DEFAULT  # Shogun's loader says what is wrong with the file
    try:
        header = json.loads(first.decode("utf-8"))
        name = header["game"].get("name", DEFAULT) if isinstance(header, dict) else DEFAULT
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError, AttributeError, TypeError):
        return DEFAULT  # not a journal's header: Shogun's loader says what is wrong with it
    name = ALIASES.get(name, name)
    return name if name in GAMES else DEFAULT


INTERRUPTED = 130  # the exit code of a program a person stops with Ctrl-C


def play_until_stopped(run: Callable[[], Any], console: Any, path: str | os.PathLike
                       ) -> tuple[Any, int]:
    """``run()``'s result (None: a person stopped the game) and the exit code of `play`: 0, or
    130 after Ctrl-C, once ``until_stopped`` has said where the game is saved."""
    interrupted = False

    def watched() -> Any:
        nonlocal interrupted
        try:
            return run()
        except KeyboardInterrupt:
            interrupted = True
            raise
        except QuitRequested as why:
            interrupted = str(why) == "Ctrl-C"
            raise

    result = until_stopped(watched, console, path)
    return result, INTERRUPTED if interrupted else 0
