"""The Samurai board page in Chromium: the rulebook's first end example entered one figure at a
time, seen on the page as a player sees it — counts, the strict mosts, the end, the winner and
the full ranking; a game without a tower says so.

The example holds all 13 helmets and all 13 Buddhas, which a game cannot reach (it ends when the
first type runs out): here yellow has one Buddha fewer, which changes no place."""

from __future__ import annotations

import io

from shogun_tower.games.knizia_samurai.console import ScoringTable
from shogun_tower.games.knizia_samurai.state import SamuraiGame, SamuraiJournal
from shogun_tower.table.console import Console
from shogun_tower.web.server import BoardServer

EXAMPLE_1 = {"green": (3, 3, 4), "blue": (5, 3, 2), "red": (1, 4, 3), "yellow": (4, 2, 3)}
TYPES = ("helmet", "buddha", "rice")


def test_the_first_end_example_on_the_page(page) -> None:
    board = BoardServer(port=0, front="samurai.html").start()
    try:
        page.goto(board.url)
        assert page.locator("#entries").inner_text() == "no game yet"
        journal = SamuraiJournal.new(SamuraiGame.create("red,yellow,blue,green"))
        table = ScoringTable(journal, Console(read=lambda p: "", out=io.StringIO()), None, board)
        entries = [{"capture": t, "player": p} for p, counts in EXAMPLE_1.items()
                   for t, n in zip(TYPES, counts, strict=True) for _ in range(n)]
        # the 13th helmet ends the game: keep one helmet for last
        last = next(e for e in entries if e["capture"] == "helmet")
        entries.remove(last)
        for e in entries:
            table.enter(e)
        page.wait_for_function("document.querySelector('#entries').textContent.includes("
                               f"'{len(entries)} entries')")
        assert page.locator("#result").is_hidden()
        assert page.locator("#strip-note").inner_text() == "no tower lights this game"
        table.enter(last)
        page.wait_for_selector("#result:not([hidden])")
        assert page.locator("#over").inner_text() == \
            "The game is over: the last helmet has left the board."
        assert page.locator("#winner").inner_text() == (
            "Winner: green — green has the most rice fields, and with them set aside the most "
            "other figures: 6 (against blue 5, red 4)")
        ranking = page.locator("#ranking li")
        assert [ranking.nth(i).get_attribute("data-player") for i in range(4)] == \
            ["green", "blue", "red", "yellow"]
        assert ranking.nth(3).inner_text().endswith("yellow: no strict most; other figures "
                                                    "9, all 9")
        # the strict mosts are marked in the counts: blue's helmets, red's Buddhas, green's rice
        most = page.locator("#captured td.most")
        assert sorted(most.nth(i).evaluate("td => td.parentNode.dataset.player + ' ' + "
                                           "td.dataset.type") for i in range(most.count())) \
            == ["blue helmet", "green rice", "red buddha"]
        assert page.locator("#on-board li[data-type=helmet]").inner_text() == "0 helmets"
        # the console stops: the page says that what it shows may be stale (live.js)
        assert page.locator("#connection").is_hidden()
        board.stop()
        page.wait_for_selector("#connection:not([hidden])")
        assert page.evaluate("document.body.dataset.connected") == "false"
    finally:
        board.stop()
