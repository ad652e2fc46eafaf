"""`replay` and `serve` for the journal of every game of the catalogue (Shogun, the two-player
Shogun, Knizia's Samurai), finished or not: replay prints where the game stands; serve shows it
on that game's own page, in Chromium, and follows the file as the game goes on."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import pytest

from shogun_tower.games.knizia_samurai.state import SamuraiGame, SamuraiJournal
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun2 import Game as Game2
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.table import _bot

from .games import BotGame
from .test_serve import Serve

CLI = [sys.executable, "-m", "shogun_tower.cli"]


def shogun(path: pathlib.Path, finished: bool) -> Journal:
    g = BotGame(Game.create(players=3, seed=3), seed=3)
    g.play_until(lambda g: not finished and len(g.commands) >= 40, limit=100_000)
    journal = Journal.new(g.game, path)
    for command in g.commands:
        journal.apply(command)
    return journal


def shogun2(path: pathlib.Path, finished: bool) -> Shogun2Journal:
    journal = Shogun2Journal.new(Game2(seed=3), path, table={"bots": ["red"], "bot": "random"})
    while not journal.state.result and (finished or journal.state.plies < 30):
        state = journal.state
        journal.apply({"move": str(_bot("random", state, state.to_move).choose(state))})
    return journal


def samurai(path: pathlib.Path, finished: bool) -> SamuraiJournal:
    journal = SamuraiJournal.new(SamuraiGame.create(3), path, table={"tower": "sim"})
    players = journal.game.players
    for i in range(9):
        journal.apply({"capture": ("helmet", "buddha", "rice")[i % 3], "player": players[i % 3]})
    if finished:  # three ties, then one tile with two: the 4th and 5th leave together
        for figure in ("rice", "helmet", "buddha"):
            journal.apply({"tie": figure})
        journal.apply({"figures": [{"tie": "helmet"}, {"tie": "rice"}]})
    return journal


MAKERS = {"shogun": shogun, "shogun2": shogun2, "knizia-samurai": samurai}
CASES = [(game, finished) for game in MAKERS for finished in (False, True)]


def replay(path: pathlib.Path, *more: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, "replay", str(path), *more], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("game, finished", CASES)
def test_replay_prints_where_every_game_stands(tmp_path, game: str, finished: bool) -> None:
    path = tmp_path / f"{game}.jsonl"
    journal = MAKERS[game](path, finished)
    done = replay(path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{path}: ")
    over = [ln for ln in lines if "the game is over" in ln.lower()]
    waiting = [ln for ln in lines if ln.strip().startswith("waiting for: ")]
    assert (len(over), len(waiting)) == ((1, 0) if finished else (0, 1)), done.stdout
    if game == "knizia-samurai":
        assert lines[0] == f"{path}: Knizia's Samurai, 3 players, {journal.state.entries} " \
                           f"entries"
        if finished:
            assert "  The game is over: a 4th figure has left the board on a tie." in lines
            assert any("tie removals 5 (the 4th ended the game)" in ln for ln in lines)
    if game == "shogun2":
        assert f"{journal.state.plies} moves played" in lines[0]
        assert sum(1 for ln in lines if re.match(r" [1-8]  ", ln)) == 8  # the board's rows
    as_json = json.loads(replay(path, "--json").stdout)
    assert as_json == json.loads(json.dumps(journal.state.to_json(), sort_keys=True))
    assert path.read_text() == journal.text(), "replay never changes the file"


def test_replay_refuses_an_edited_journal_of_another_game_with_its_line(tmp_path) -> None:
    path = tmp_path / "samurai.jsonl"
    samurai(path, finished=False)
    path.write_text(path.read_text().replace('"player":"red"', '"player":"blue"', 1))
    done = replay(path)
    assert done.returncode == 2 and done.stdout == ""
    assert "line 2: digest mismatch" in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.parametrize("game, finished", CASES)
def test_serve_shows_every_games_journal_on_its_own_page(browser, tmp_path, game: str,
                                                          finished: bool) -> None:
    path = tmp_path / f"{game}.jsonl"
    journal = MAKERS[game](path, finished)
    server = Serve("--journal", str(path))
    context = browser.new_context(viewport={"width": 390, "height": 900})
    try:
        page = context.new_page()
        page.goto(server.url)
        if game == "shogun":
            page.wait_for_selector("#provinces-layer .province")
            assert "Shogun" in page.title()
        elif game == "shogun2":
            page.wait_for_selector("#board td .piece")
            assert page.title() == "Shogun Tower — Shogun (Ravensburger)"
            assert page.locator("#board td .piece").count() == \
                sum(1 for v in journal.state.position.board if v)
            assert page.locator("#log li").count() == journal.state.plies
            assert page.locator("#result").is_visible() == finished
        else:
            page.wait_for_selector("#captured tbody tr")
            assert page.title() == "Shogun Tower — Knizia's Samurai"
            assert page.inner_text("#entries").endswith(f"{journal.state.entries} entries")
            assert page.inner_text("#strip-note") == \
                "the strip is read back at the laptop that runs the game"
            assert page.locator("#result").is_visible() == finished
            if finished:
                assert page.inner_text("#over") == \
                    "The game is over: a 4th figure has left the board on a tie."
                assert page.locator("#ranking li").count() == 3
            else:
                # the game goes on in the program that writes the journal: the page follows
                page.evaluate("window.sameDocument = true")
                journal.apply({"figures": [{"capture": "rice", "player": "red"},
                                           {"capture": "rice", "player": "yellow"}]})
                page.wait_for_function("document.getElementById('entries').textContent"
                                       f".endsWith('{journal.state.entries} entries')")
                assert "red captures a rice field" in page.inner_text("#last")
                assert page.evaluate("window.sameDocument") is True
        width = page.evaluate("document.documentElement.scrollWidth")
        if game != "shogun":  # Shogun's own page is the phones developer's
            assert width <= 390
    finally:
        context.close()
        assert server.stop() == 0, "Ctrl-C ends serve cleanly"
