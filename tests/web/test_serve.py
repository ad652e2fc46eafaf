"""`shogun-tower serve`: the page on its own, following a journal another program writes."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import threading

import pytest

from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.view import replay_view

from .games import BotGame

PROVINCE_HOOKS_JS = """() => Object.fromEntries([...document.querySelectorAll(
  '#provinces-layer .province')].map(g => [g.id.replace('province-', ''),
  [g.dataset.owner, Number(g.dataset.armies), g.dataset.buildings, Number(g.dataset.revolt)]]))"""


def hooks_of(view: dict) -> dict:
    return {n: [p["owner"] or "neutral", p["armies"], ",".join(p["buildings"]), p["revolt"]]
            for n, p in view["provinces"].items()}


def wait_for_board(page, view: dict) -> None:
    """Wait until the page shows the provinces and the newest log line of ``view``."""
    page.wait_for_function(
        """([want, line]) => {
             const got = (""" + PROVINCE_HOOKS_JS + """)();
             const first = document.querySelector('#log li');
             return JSON.stringify(got) === JSON.stringify(want)
                    && (first ? first.textContent : '') === line;
           }""", arg=[hooks_of(view), (view["log"] or [""])[0]])


class Serve:
    """``shogun-tower serve`` in a subprocess, as a second terminal would run it."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "shogun_tower.cli", "serve", "--page-port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self.proc.stdout.readline()))
        reader.start()
        reader.join(timeout=15)
        match = re.search(r"http://\S+", line[0] if line else "")
        if not match:
            self.proc.kill()
            raise AssertionError(f"serve printed no URL: {line!r}, "
                                 f"stderr: {self.proc.stderr.read()}")
        self.url = match.group(0)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)  # Ctrl-C
        try:
            return self.proc.wait(timeout=10)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def serve():
    started: list[Serve] = []

    def start(*args: str) -> Serve:
        started.append(Serve(*args))
        return started[-1]

    yield start
    for s in started:
        assert s.stop() == 0, "Ctrl-C must end `serve` cleanly"


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shogun_tower.cli", "serve", *args],
                          capture_output=True, text=True, timeout=30)


def test_serve_follows_a_journal_as_it_is_appended(page, serve, tmp_path):
    path = tmp_path / "game.jsonl"
    g = BotGame(Game.create(players=4, seed=3), seed=3)
    journal = Journal.new(g.game, path)

    def play(done) -> None:
        while not done(g):
            g.step()
            journal.apply(g.commands[-1])

    play(lambda g: g.count("verdict") >= 1 and g.state.step["kind"] != "throw")
    server = serve("--journal", str(path))
    assert server.url.startswith("http://127.0.0.1:")
    page.goto(server.url)
    wait_for_board(page, g.view())
    assert page.inner_text("#when") == g.view()["when"]
    assert page.inner_text("#waiting") == ""
    # the game goes on in "another program": the page follows without being reloaded
    page.evaluate("window.sameDocument = true")
    play(lambda g: g.count("verdict") >= 4 and g.state.step["kind"] != "throw")
    wait_for_board(page, g.view())
    assert g.chronicle.last_throw["verdict"] in page.inner_text("#last-throw")
    assert page.evaluate("window.sameDocument") is True
    # an undo is followed too
    journal.undo()
    _state, view = replay_view(g.game, journal.commands)
    wait_for_board(page, view)


def test_half_written_or_refused_journal_keeps_the_last_good_board(page, serve, tmp_path):
    path = tmp_path / "game.jsonl"
    g = BotGame(Game.create(players=3, seed=5), seed=5)
    journal = Journal(g.game)  # in memory: the test writes the file line by line itself
    g.play_until(lambda g: g.count("verdict") >= 2 and g.state.step["kind"] != "throw")
    for command in g.commands:
        journal.apply(command)
    good = len(journal.lines)
    path.write_text("\n".join(journal.lines) + "\n", encoding="utf-8")
    first_view = g.view()
    server = serve("--journal", str(path))
    page.goto(server.url)
    wait_for_board(page, first_view)
    g.play_until(lambda g: g.count("verdict") >= 3 and g.state.step["kind"] != "throw")
    for command in g.commands[len(journal.commands):]:
        journal.apply(command)
    rest = journal.lines[good:]
    # the writer is caught in the middle of a line
    with path.open("a", encoding="utf-8") as f:
        f.write(rest[0][: len(rest[0]) // 2])
    page.wait_for_function("document.querySelector('#waiting').textContent.includes("
                           "'incomplete')")
    assert "showing the last good state" in page.inner_text("#waiting")
    assert page.evaluate(PROVINCE_HOOKS_JS) == hooks_of(first_view)
    # ... and finishes it, and the rest
    with path.open("a", encoding="utf-8") as f:
        f.write(rest[0][len(rest[0]) // 2:] + "\n" + "".join(line + "\n" for line in rest[1:]))
    wait_for_board(page, g.view())
    page.wait_for_function("document.querySelector('#waiting').textContent === ''")
    # an edited journal is refused on replay: the board stays, the warning says where
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[3])
    record["digest"] = "0" * 32
    lines[3] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page.wait_for_function("document.querySelector('#waiting').textContent.includes("
                           "'line 4: digest mismatch')")
    assert page.evaluate(PROVINCE_HOOKS_JS) == hooks_of(g.view())
    assert "\n" not in page.inner_text("#waiting")


def test_serve_without_a_journal_shows_no_game_yet(page, serve):
    server = serve()
    page.goto(server.url)
    page.wait_for_function("document.querySelector('#waiting').textContent.includes("
                           "'no game yet')")
    assert page.locator("#provinces-layer").count() == 0


def test_serve_refuses_a_busy_port_with_one_line():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run_cli("--page-port", str(port))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"127.0.0.1:{port}" in done.stderr and "--page-port" in done.stderr


def test_serve_refuses_a_missing_journal_with_one_line(tmp_path):
    done = run_cli("--journal", str(tmp_path / "nothing.jsonl"), "--page-port", "0")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "no journal file" in done.stderr, done.stderr


def test_serve_refuses_a_file_that_is_no_journal(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n", encoding="utf-8")
    done = run_cli("--journal", str(path), "--page-port", "0")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "line 1" in done.stderr
