"""`shogun-tower serve [--journal FILE]`: the live board page on its own.

`play` starts the same page itself; `serve --journal` lets a second terminal or another screen
follow a game that `play` is writing, of any game, or show a finished one: the journal file is
watched and the page redrawn whenever it grows. Its header names the game; the games catalogue
(``shogun_tower.games``) gives that game's journal class, page and view.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import signal
import sys
import threading
import time
import webbrowser

from shogun_tower import games
from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.view import replay_view
from shogun_tower.i18n import _
from shogun_tower.table.equipment import is_loopback, tcp_port
from shogun_tower.web.server import BoardServer

POLL_S = 0.2


class JournalIncomplete(ShogunError):
    """The journal's last line is still being written: worth another look in a moment."""


def no_game() -> dict:
    """What the page shows before any game, in the players' language."""
    return {"when": _("no game yet"),
            "waiting": _("no game yet: start one with `shogun-tower play`, or follow its "
                         "journal with `shogun-tower serve --journal FILE`")}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "serve", help=_("serve the live board page (optionally following a game journal)"),
        description=_("Serves the board page on this computer. With --journal it shows that "
                      "game (Shogun, the two-player Shogun or Knizia's Samurai, finished or "
                      "not) on its own page and follows the file as it grows, so another screen "
                      "can watch a game that `shogun-tower play` writes."))
    p.add_argument("--journal", metavar="FILE",
                   help=_("the game journal to show and follow (default: none, the page says "
                          "'no game yet')"))
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default 127.0.0.1: this computer only; "
                          "0.0.0.0 shows the page to the whole network)"))
    p.add_argument("--page-port", type=tcp_port, default=8765, metavar="PORT",
                   help=_("port of the page (default 8765; 0 picks a free one)"))
    p.add_argument("--open", action="store_true",
                   help=_("open the page in the web browser (default: off)"))
    p.set_defaults(handler=run)


def journal_view(path: pathlib.Path, game: games.GameEntry | None = None) -> dict:
    """The view of a journal file as it is now (``game``: the game it holds, else read from its
    header); ShogunError (one line) if it cannot be shown."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ShogunError(_("journal {path} is gone").format(path=path)) from None
    except (OSError, UnicodeDecodeError) as err:
        raise ShogunError(_("journal {path} cannot be read ({error})").format(
            path=path, error=err)) from None
    if text and not text.endswith("\n"):
        # the writer appends one whole line at a time: a missing end of line means that line
        # is still being written (or was cut short)
        n = text.count("\n") + 1
        raise JournalIncomplete(_("journal {path}: line {n} is incomplete (being "
                                  "written?)").format(
            path=path, n=n))
    game = game or games.entry(games.journal_game(path))
    return games.journal_view(game, games.load_journal(game, text, str(path)))


def shogun_view(journal: Journal) -> dict:
    """The view of Shogun's page of a journal: the board, the log and the last throw."""
    _state, view = replay_view(journal.game, journal.commands)
    return view


class JournalFollower:
    """Shows a journal on the page and shows it again whenever the file changes.

    A journal caught half-written, or refused on replay, keeps the last good view on the page
    with a one-line warning: a glitch on the writing side must not blank the table's board.
    """

    def __init__(self, path: str | os.PathLike, server: BoardServer,
                 game: games.GameEntry | None = None) -> None:
        self.path = pathlib.Path(path)
        self.server = server
        self.game = game or games.entry(games.journal_game(self.path))
        self.seen: tuple[int, int] | None = None
        self.good: dict | None = None  # the last view published from a journal that loaded
        self.warning = ""

    def _stamp(self) -> tuple[int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def poll(self) -> bool:
        """Look at the file; publish a new view if it changed. True if something was published."""
        stamp = self._stamp()
        if stamp == self.seen:
            return False
        self.seen = stamp
        try:
            view = journal_view(self.path, self.game)
        except ShogunError as err:
            warning = _("{error}; showing the last good state").format(error=err) \
                if self.good else str(err)
            if warning == self.warning:
                return False
            self.warning = warning
            self.server.publish(dict(self.good or no_game(), waiting=warning))
            return True
        self.good = view
        self.warning = ""
        self.server.publish(view)
        return True


def run(args: argparse.Namespace) -> int:
    follower = None
    game = games.entry(games.DEFAULT)
    if args.journal:
        path = pathlib.Path(args.journal)
        if not path.is_file():
            raise ShogunError(_("no journal file {path}; give the journal file that "
                                "`shogun-tower play` writes").format(path=path))
        game = games.entry(games.journal_game(path))  # its page is that game's own
        # Refuse a journal that cannot be shown at all before taking the port; a half-written
        # last line is only a moment in another program's write, so it is retried briefly.
        for attempt in range(5):
            try:
                journal_view(path, game)
                break
            except ShogunError as err:
                if not isinstance(err, JournalIncomplete) or attempt == 4:
                    raise
                time.sleep(POLL_S)
    server = BoardServer(args.host, args.page_port, front=game.front).start()
    stop = threading.Event()

    def _stop(signum: int, frame: object) -> None:
        stop.set()

    previous = {}
    if threading.current_thread() is threading.main_thread():
        # Ctrl-C and a service manager's stop both end the page cleanly (exit code 0); set
        # explicitly because a shell starting us in the background leaves SIGINT ignored.
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, _stop)
    try:
        if args.journal:
            follower = JournalFollower(args.journal, server, game)
            follower.poll()
        else:
            server.publish(no_game())
        print(_("board page: {url}  (Ctrl-C to stop)").format(url=server.url), flush=True)
        if not is_loopback(args.host):
            print(_("warning: listening on {host}: anyone on this network can see the board "
                    "page").format(host=args.host), file=sys.stderr, flush=True)
        if args.open:
            webbrowser.open(server.url)
        while not stop.wait(POLL_S):
            if follower is not None:
                follower.poll()
    except KeyboardInterrupt:
        pass  # Ctrl-C is how the page is meant to be stopped
    finally:
        server.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0
