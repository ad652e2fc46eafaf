"""The board page shows the odds of the battle being thrown, in Chromium."""

from __future__ import annotations

import sys
from pathlib import Path

from shogun_tower.games.shogun.odds.table import throw_odds_of
from shogun_tower.games.shogun.view import Chronicle, board_view
from shogun_tower.web.server import BoardServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from web import seen  # noqa: E402  (the page tests' helpers: what the page shows)

from .test_table_odds import _until  # noqa: E402


def test_the_page_shows_the_odds_of_the_battle_being_thrown(page) -> None:  # noqa: ANN001
    s = _until("throw")
    odds = throw_odds_of(s)
    assert odds is not None
    server = BoardServer(port=0).start()
    try:
        server.publish(board_view(s))
        seen.open_board(page, server, 1)
        shown = page.inner_text("#next")
        assert "odds of this throw:" in shown
        for outcome, p in odds.outcomes.items():
            assert f"{100 * p:.0f}%" in shown, outcome
        # a table that prefers no odds sees none
        chronicle = Chronicle()
        chronicle.odds = False
        server.publish(chronicle.view(s))
        seen.wait_version(page, 2)
        assert "odds" not in page.inner_text("#next")
    finally:
        server.stop()
