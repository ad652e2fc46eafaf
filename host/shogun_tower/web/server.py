"""A local web server for the live board page.

The assistant publishes a *view* of the game (a JSON-ready dict, see
:mod:`shogun_tower.games.shogun.view`) after every change; the page receives it at once over
Server-Sent Events and redraws. Bound to 127.0.0.1 unless told otherwise: the page shows the
whole game, secret plans excepted.
"""

from __future__ import annotations

import functools
import json
import pathlib
import re
import socket
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from shogun_tower import i18n
from shogun_tower.errors import ShogunError
from shogun_tower.words import PROVINCE_NAMES, province_word

STATIC = pathlib.Path(__file__).parent
_FILES = {
    "/": ("index.html", "text/html; charset=utf-8"),
    "/index.html": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/layout.json": ("layout.json", "application/json"),
    "/seat.js": ("seat.js", "text/javascript; charset=utf-8"),
    "/seat.css": ("seat.css", "text/css; charset=utf-8"),
    "/live.js": ("live.js", "text/javascript; charset=utf-8"),
    "/i18n.js": ("i18n.js", "text/javascript; charset=utf-8"),
    "/samurai.js": ("samurai.js", "text/javascript; charset=utf-8"),
    "/samurai.css": ("samurai.css", "text/css; charset=utf-8"),
    "/shogun2.js": ("shogun2.js", "text/javascript; charset=utf-8"),
    "/shogun2.css": ("shogun2.css", "text/css; charset=utf-8"),
    "/help.js": ("help.js", "text/javascript; charset=utf-8"),
    "/help.css": ("help.css", "text/css; charset=utf-8"),
}
MAX_BODY = 16_384  # a plan form is a few hundred bytes
NO_SEAT = "this link opens no seat at this table"
PANELS = STATIC / "panels"  # the expansions' panels of Shogun's page: NAME.html, .js, .css
_ORDER = re.compile(r'data-order="(\d+)"')


def panels() -> list[str]:
    """The expansions' panels, in the order the page shows them (each fragment's
    ``data-order``): adding an expansion's panel is adding its files, nothing else."""
    found = [(int(m.group(1)) if (m := _ORDER.search(p.read_text(encoding="utf-8"))) else 0,
              p.stem) for p in PANELS.glob("*.html")]
    return [name for _, name in sorted(found)]


@functools.cache
def _named_provinces() -> tuple[str, ...]:
    """The provinces the names' data lists (games/shogun/data/province_names.json)."""
    data = json.loads(PROVINCE_NAMES.read_text(encoding="utf-8"))
    return tuple(sorted({name for names in data.values() if isinstance(names, dict)
                         for name in names}))


def localised(page: str) -> bytes:
    """A page in the players' language: the catalogue (``i18n.localise_page``) and the
    provinces' names as the players read them (``words.province_word``: their kanji in
    Japanese), which web/i18n.js gives the page's scripts as ``provinceWord(name)``. Only the
    names differing from the province's own name are sent; the page's data keeps the own
    name (the one the console takes)."""
    names = {n: w for n in _named_provinces() if (w := province_word(n)) != n}
    block = (f'<script id="province-words" type="application/json">'
             f'{_script_safe(json.dumps(names, ensure_ascii=False))}</script>')
    return i18n.localise_page(page).replace("<head>", f"<head>\n{block}", 1).encode()


def _with_panels(page: str) -> str:
    names = panels()
    parts = {
        "<!--PANELS-->": "".join((PANELS / f"{n}.html").read_text(encoding="utf-8")
                                 for n in names).rstrip("\n"),
        "<!--PANEL-STYLES-->": "\n".join(f'<link rel="stylesheet" href="/panels/{n}.css">'
                                          for n in names if (PANELS / f"{n}.css").is_file()),
        "<!--PANEL-SCRIPTS-->": "\n".join(f'<script src="/panels/{n}.js"></script>'
                                           for n in ["panels", *names]),
    }
    for mark, text in parts.items():
        page = page.replace(mark, text, 1)
    return page


class BoardServer:
    """Serves the page and pushes every published view to every open page."""

    def __init__(self, host: str = "127.0.0.1", port: int = 8765,
                 front: str = "index.html") -> None:
        self.host = host
        self.port = port
        # the page served at "/": Shogun's board, or another game's own page
        self.front = front
        self._view: dict = {"version": 0, "waiting": "no game yet"}
        self._version = 0
        self._cv = threading.Condition()
        self._closing = False
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        # the seats' private planning (`play --phones`): a PlanDesk, or None (every seat
        # request is then refused)
        self.desk: Any = None
        # the game's help book (helpbook.HelpBook.to_json), served at /help (``serve_help``)
        self.help_book: dict | None = None
        self._routes: dict[str, Callable[[], tuple[str, bytes]]] = {}

    def add_route(self, path: str, answer: Callable[[], tuple[str, bytes]]) -> None:
        """Serve ``path`` (e.g. "/help") with ``answer()``: its content type and body, made at
        each request. The page's own files and /seat, /state, /events cannot be replaced."""
        if path in _FILES or path in ("/state", "/events") or path.startswith(("/seat",
                                                                                "/panels/")):
            raise ValueError(f"{path} is one of the page's own addresses")
        self._routes[path] = answer

    def route(self, path: str) -> Callable[[], tuple[str, bytes]] | None:
        return self._routes.get(path)

    def serve_help(self, book: dict) -> None:
        """The game's help page at /help: its help book inside, drawn by help.js."""
        self.help_book = book
        self.add_route("/help", lambda: ("text/html; charset=utf-8", help_page(book)))

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}/"

    def start(self) -> BoardServer:
        server = self

        class Handler(_Handler):
            board = server

        class Server(ThreadingHTTPServer):
            # an address such as "::" needs an IPv6 socket; the default is IPv4
            address_family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
            daemon_threads = True  # an open page must not keep the program from ending

        try:
            self._httpd = Server((self.host, self.port), Handler)
        except OSError as err:
            raise ShogunError(f"cannot serve the board page on {self.host}:{self.port}: "
                              f"{err.strerror}; choose another port with --page-port") from err
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="board-page",
                                        daemon=True)
        self._thread.start()
        return self

    def publish(self, view: dict) -> int:
        with self._cv:
            self._version += 1
            self._view = dict(view, version=self._version)
            self._cv.notify_all()
            return self._version

    def snapshot(self) -> tuple[int, str]:
        with self._cv:
            return self._version, json.dumps(self._view)

    def wait_newer(self, version: int, timeout: float) -> tuple[int, str] | None:
        with self._cv:
            self._cv.wait_for(lambda: self._version > version or self._closing, timeout)
            if self._closing or self._version <= version:
                return None
            return self._version, json.dumps(self._view)

    def stop(self) -> None:
        """Stops serving and ends every open page's stream (the pages then try to reconnect)."""
        with self._cv:
            self._closing = True
            self._cv.notify_all()
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.shutdown()
            httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> BoardServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _script_safe(text: str) -> str:
    """JSON inside a <script> element: a "</" in a string must not end the element."""
    return text.replace("</", "<\\/").replace("<!--", "<\\u0021--")


class _Handler(BaseHTTPRequestHandler):
    board: BoardServer

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib name
        pass  # the terminal belongs to the players

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        path = self.path.split("?", 1)[0]
        if path == "/seat" or path.startswith("/seat/"):
            self._seat("GET", path)
        elif path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", self._board_page())
        elif path in _FILES:
            name, ctype = _FILES[path]
            self._send(HTTPStatus.OK, ctype, (STATIC / name).read_bytes())
        elif path.startswith("/panels/") and self._panel_file(path[len("/panels/"):]):
            name = path[len("/panels/"):]
            ctype = "text/css; charset=utf-8" if name.endswith(".css") \
                else "text/javascript; charset=utf-8"
            self._send(HTTPStatus.OK, ctype, (PANELS / name).read_bytes())
        elif path == "/state":
            _version, body = self.board.snapshot()
            self._send(HTTPStatus.OK, "application/json", body.encode())
        elif path == "/events":
            self._events()
        elif (answer := self.board.route(path)) is not None:
            ctype, body = answer()
            self._send(HTTPStatus.OK, ctype, body)
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found\n")

    def _board_page(self) -> bytes:
        """The page with the layout and the current view inside it: the first paint shows the
        game at once (no request can come back empty in between)."""
        _version, view = self.board.snapshot()
        front = self.board.front
        data = [("initial-view", view)]
        if front == "index.html":  # Shogun's map
            data.insert(0, ("initial-layout", (STATIC / "layout.json").read_text(encoding="utf-8")))
        blocks = "\n".join(
            f'<script id="{name}" type="application/json">{_script_safe(text)}</script>'
            for name, text in data)
        page = (STATIC / front).read_text(encoding="utf-8")
        if front == "index.html":
            page = _with_panels(page)
        return localised(page.replace("<!--INITIAL-->", f"<!--INITIAL-->{blocks}", 1))

    @staticmethod
    def _panel_file(name: str) -> bool:
        """Only a panel's own script or style (never a path elsewhere)."""
        stem, dot, ext = name.rpartition(".")
        return bool(dot) and ext in ("js", "css") and stem in ("panels", *panels()) \
            and (PANELS / name).is_file()

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        path = self.path.split("?", 1)[0]
        if path == "/seat" or path.startswith("/seat/"):
            self._seat("POST", path)
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found\n")

    def _seat(self, method: str, path: str) -> None:
        """``/seat/<token>`` (the page), ``/seat/<token>/state``, POST ``/seat/<token>/check``
        and ``/seat/<token>/plan``. A token that opens no seat gets 403, whatever it asks."""
        parts = path.split("/")[2:]  # "", "seat", token, [what]
        desk = self.board.desk
        player = desk.seat_of(parts[0]) if desk is not None and parts and parts[0] else None
        if player is None:
            if method == "GET" and len(parts) <= 1:  # a person opened the link: say what to do
                page = (STATIC / "seat.html").read_text(encoding="utf-8")
                page = page.replace('data-status="loading"', 'data-status="forbidden"', 1)
                self._send(HTTPStatus.FORBIDDEN, "text/html; charset=utf-8", localised(page))
            else:
                self._json(HTTPStatus.FORBIDDEN, {"refused": NO_SEAT})
            return
        what = parts[1] if len(parts) > 1 else ""
        if method == "GET" and what == "" and len(parts) == 1:
            self._send(HTTPStatus.OK, "text/html; charset=utf-8",
                       localised((STATIC / "seat.html").read_text(encoding="utf-8")))
        elif method == "GET" and what == "state" and len(parts) == 2:
            self._json(HTTPStatus.OK, desk.seat_view(player))
        elif method == "POST" and what in ("check", "plan") and len(parts) == 2:
            form = self._form()
            if form is None:
                self._json(HTTPStatus.BAD_REQUEST, {"refused": "the form could not be read"})
            elif what == "check":
                self._json(HTTPStatus.OK, desk.check(player, form))
            else:
                ok, view = desk.submit(player, form)
                self._json(HTTPStatus.OK if ok else HTTPStatus.CONFLICT, view)
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain", b"not found\n")

    def _form(self) -> dict | None:
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            return None
        if not 0 < length <= MAX_BODY:
            return None
        try:
            form = json.loads(self.rfile.read(length))
        except (ValueError, UnicodeDecodeError):
            return None
        return form if isinstance(form, dict) else None

    def _json(self, status: HTTPStatus, data: dict) -> None:
        self._send(status, "application/json", json.dumps(data).encode())

    def _send(self, status: HTTPStatus, ctype: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        version, body = self.board.snapshot()
        try:
            # retry: how soon the browser's own reconnection tries again after a drop
            self.wfile.write(f"retry: 1000\ndata: {body}\n\n".encode())
            self.wfile.flush()
            while True:
                newer = self.board.wait_newer(version, timeout=15)
                if newer is None:
                    if self.board._closing:
                        return
                    self.wfile.write(b": keep-alive\n\n")  # notices a closed page
                else:
                    version, body = newer
                    self.wfile.write(f"data: {body}\n\n".encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return


def help_page(book: dict) -> bytes:
    """A game's help page: its help book inside, drawn by help.js."""
    block = (f'<script id="help-book" type="application/json">{_script_safe(json.dumps(book))}'
             f'</script>')
    page = (STATIC / "help.html").read_text(encoding="utf-8")
    # the page's own words in the players' language, as every page (i18n.js before help.js)
    return localised(page.replace("<!--HELP-->", block, 1))
