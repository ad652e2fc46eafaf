"""The board page of `play --game shogun2` in Chromium (beside the other page tests: one
browser for the whole session): the 8×8 board with every dial number, the last move's way,
"Shogun!", the result, live updates without a reload; every move played, numbered as the
console counts them, also after `--resume`; the whole board on a phone (390 px) and a laptop
(1280 px)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from shogun_tower.games.shogun2 import Game, State
from shogun_tower.games.shogun2.board import SIDE_NAMES, name
from shogun_tower.games.shogun2.game import load_position
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.table import FRONT, Table, _bot
from shogun_tower.table.console import Console
from shogun_tower.web.server import BoardServer


@pytest.fixture
def server() -> Iterator[BoardServer]:
    s = BoardServer(port=0, front=FRONT).start()
    yield s
    s.stop()


def shown_pieces(page) -> dict[str, tuple[str, str, str]]:
    out = {}
    for cell in page.locator("#board td .piece").all():
        sq = cell.evaluate("n => n.parentElement.id.slice(3)")
        out[sq] = (cell.get_attribute("data-side"), cell.get_attribute("data-kind"),
                   cell.inner_text())
    return out


def expected_pieces(state) -> dict[str, tuple[str, str, str]]:
    pos = state.position
    return {name(sq): (SIDE_NAMES[1 if v > 0 else -1], "shogun" if abs(v) == 2 else "piece",
                       str(pos.dials[sq])) for sq, v in enumerate(pos.board) if v}


def test_the_board_with_every_dial_and_live_moves(page, server) -> None:
    journal = Shogun2Journal.new(Game(seed=12))
    table = Table(journal, {}, Console(read=lambda p: "quit"), page=server, narrate=False)
    table.publish()
    page.goto(server.url)
    assert page.locator("#board td").count() == 64
    assert shown_pieces(page) == expected_pieces(journal.state)
    assert page.locator("#turn").inner_text() == "white to move"
    move = journal.state.legal_moves()[0]
    table._apply(str(move), bot=False)
    page.wait_for_function("document.body.dataset.version === '2'")
    assert shown_pieces(page) == expected_pieces(journal.state)
    assert page.locator(f"#sq-{name(move.end)}").get_attribute("class") == "landed"
    for sq in move.path[:-1]:
        assert page.locator(f"#sq-{name(sq)}").get_attribute("class") == "way"
    assert page.locator("#turn").inner_text() == "red to move"
    assert page.locator("#log li").count() == 1
    assert page.locator("#log li").inner_text() == \
        f"white {move}: the piece went {move_dial(journal, 0)} and now shows " \
        f"{journal.state.moves[0]['new_dial']}"


def test_shogun_and_the_end_on_the_page(page, server) -> None:
    journal = Shogun2Journal.new(Game(seed=13))
    journal.state = load_position(Game(seed=13), "7s1/2p35/8/3p14/2p2S14/8/8/P16P1 w")
    Table(journal, {}, Console(read=lambda p: "quit"), page=server, narrate=False).publish()
    page.goto(server.url)
    assert "Shogun! white's Shogun on d4 is threatened from d5" in \
        page.locator("#shogun").inner_text()
    assert page.locator("#sq-d4").get_attribute("class") == "threat"
    assert page.locator("#result").inner_text() == \
        "the game is over: white's Shogun cannot be saved — red wins"
    assert page.locator("#turn").inner_text() == "game over"


def start_play(*args: str) -> tuple[subprocess.Popen, str]:
    """`shogun-tower play ARGS` with its input a pipe, and the board page's address it prints."""
    proc = subprocess.Popen([sys.executable, "-m", "shogun_tower.cli", "play", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in proc.stdout:
        if line.startswith("the board page: "):
            return proc, line.split(": ", 1)[1].strip()
    proc.kill()
    proc.wait()
    raise AssertionError("play printed no board page's address")


def test_play_shows_each_typed_move_on_the_page(page, tmp_path) -> None:
    """The real `play --game shogun2`: a move typed at the laptop appears on the open page with
    the number the piece now shows."""
    seed = 14
    start = State.new(Game(seed=seed))
    move = start.legal_moves()[0]
    proc, url = start_play("--game", "shogun2", "--seed", str(seed), "--page-port", "0",
                           "--journal", str(tmp_path / "g.jsonl"))
    try:
        page.goto(url)
        page.wait_for_function("document.body.dataset.version === '1'")  # (its first view)
        assert shown_pieces(page) == expected_pieces(start)
        proc.stdin.write(f"{move}\n")
        proc.stdin.flush()
        page.wait_for_function("document.body.dataset.version === '2'")
        start.apply({"move": str(move)})
        assert shown_pieces(page) == expected_pieces(start)
        assert page.locator(f"#sq-{name(move.end)} .piece").inner_text() == \
            str(start.table.shows(start.position.board[move.end], move.end))
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def move_dial(journal: Shogun2Journal, i: int) -> int:
    return journal.state.moves[i]["dial"]


FIT_JS = """() => {
  const cut = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > innerWidth + 0.5 || r.left < -0.5))
      cut.push(el.tagName + (el.id ? '#' + el.id : ''));
  }
  const board = document.getElementById('board').getBoundingClientRect();
  return {page: document.documentElement.scrollWidth, cut, board: [board.left, board.right],
          square: document.getElementById('sq-a1').getBoundingClientRect().width};
}"""


def a_game_with_captures(path, plies: int = 24) -> Shogun2Journal:
    """A journal of two people (the bots' moves typed for them) with at least one capture."""
    for seed in range(40, 80):
        journal = Shogun2Journal.new(Game(seed=seed), table={"bots": [], "bot": "alphabeta",
                                                              "page": True, "page_port": 0})
        for _ in range(plies):
            state = journal.state
            if state.result:
                break
            journal.apply({"move": str(_bot("alphabeta", state, state.to_move).choose(state))})
        if len(journal.commands) == plies and not journal.state.result \
                and any(m["took"] for m in journal.state.moves):
            journal.save(path)
            return Shogun2Journal.load(path)
    raise AssertionError("no seed gave a game with a capture")


def test_after_resume_the_page_lists_every_move_numbered_as_played(browser, tmp_path) -> None:
    """`play --resume`: the page lists all 24 moves at once, 1 to 24 as "moves played" counts
    them, a capture on its move's line; the whole board fits a phone and a laptop."""
    path = tmp_path / "g.jsonl"
    saved = a_game_with_captures(path)
    proc, url = start_play("--resume", str(path))
    try:
        for width in (390, 1280):
            context = browser.new_context(viewport={"width": width, "height": 900})
            try:
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector("#log li")
                facts = page.locator("#facts").inner_text()
                assert "moves played\n24" in facts.replace("\t", "\n")
                items = page.evaluate("""() => [...document.querySelectorAll('#log li')]
                  .map(li => [li.value, li.textContent])""")
                assert [n for n, _ in items] == list(range(1, 25))
                for (_, text), move in zip(items, saved.state.moves, strict=True):
                    assert text.startswith(f"{move['side']} {move['from']}")
                    assert ("; takes the " in text) == bool(move["took"])
                fit = page.evaluate(FIT_JS)
                assert fit["page"] <= width and fit["cut"] == [], (width, fit)
                assert fit["square"] >= (38 if width == 390 else 60), fit
            finally:
                context.close()
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_page_comes_back_after_the_console_restarts(page) -> None:
    first = BoardServer(port=0, front=FRONT).start()
    port = first.port
    journal = Shogun2Journal.new(Game(seed=15))
    Table(journal, {}, Console(read=lambda p: "quit"), page=first, narrate=False).publish()
    page.goto(first.url)
    page.wait_for_function("document.body.dataset.connected === 'true'")
    first.stop()
    page.wait_for_function("document.body.dataset.connected === 'false'")
    assert page.locator("#connection").is_visible()
    again = BoardServer(port=port, front=FRONT).start()
    try:
        journal.apply({"move": str(journal.state.legal_moves()[0])})
        Table(journal, {}, Console(read=lambda p: "quit"), page=again, narrate=False).publish()
        page.wait_for_function("document.body.dataset.connected === 'true'", timeout=15_000)
        page.wait_for_function("document.getElementById('turn').textContent === 'red to move'")
    finally:
        again.stop()
