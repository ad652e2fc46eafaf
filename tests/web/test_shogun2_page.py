"""The board page of `play --game shogun2` in Chromium (beside the other page tests: one
browser for the whole session): the 8×8 board with every dial number, the last move's way,
"Shogun!", the result, live updates without a reload."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from shogun_tower.games.shogun2 import Game, State
from shogun_tower.games.shogun2.board import SIDE_NAMES, name
from shogun_tower.games.shogun2.game import load_position
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.table import FRONT, Table
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
    assert "now shows" in page.locator("#log").inner_text()


def test_shogun_and_the_end_on_the_page(page, server) -> None:
    journal = Shogun2Journal.new(Game(seed=13))
    journal.state = load_position(Game(seed=13), "7s1/2p35/8/3p14/2p2S14/8/8/P16P1 w")
    Table(journal, {}, Console(read=lambda p: "quit"), page=server, narrate=False).publish()
    page.goto(server.url)
    assert "Shogun! white's Shogun on d4 is threatened from d5" in \
        page.locator("#shogun").inner_text()
    assert page.locator("#sq-d4").get_attribute("class") == "threat"
    assert page.locator("#result").inner_text() == \
        "red wins: white's Shogun cannot be saved"
    assert page.locator("#turn").inner_text() == "game over"


def test_play_shows_each_typed_move_on_the_page(page, tmp_path) -> None:
    """The real `play --game shogun2`: a move typed at the laptop appears on the open page with
    the number the piece now shows."""
    seed = 14
    start = State.new(Game(seed=seed))
    move = start.legal_moves()[0]
    proc = subprocess.Popen([sys.executable, "-m", "shogun_tower.cli", "play", "--game",
                             "shogun2", "--seed", str(seed), "--page-port", "0", "--journal",
                             str(tmp_path / "g.jsonl")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    try:
        url = ""
        for line in proc.stdout:
            if line.startswith("the board page: "):
                url = line.split(": ", 1)[1].strip()
                break
        assert url
        page.goto(url)
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
