"""The help page of each game in Chromium, reached from its board page by the Help link, at a
phone's 390 px and a laptop's 1280 px: every topic of the game's one help book, nothing cut
off, nothing wider than the window."""

from __future__ import annotations

import pytest

from shogun_tower.games.knizia_samurai.console import PAGE as SAMURAI_PAGE
from shogun_tower.games.knizia_samurai.console import ScoringTable
from shogun_tower.games.knizia_samurai.state import SamuraiGame, SamuraiJournal
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun2 import Game as Game2
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.table import FRONT as SHOGUN2_PAGE
from shogun_tower.games.shogun2.table import Table as Shogun2Table
from shogun_tower.table.conductor import TableGame
from shogun_tower.table.console import Console
from shogun_tower.table.seats import BotSeat
from shogun_tower.web.server import BoardServer

# What a person sees: each topic's title and entries, and anything wider than the window.
SEEN_JS = """() => {
  const out = {page: document.documentElement.scrollWidth, window: innerWidth, cut: [],
               topics: {}};
  for (const el of document.querySelectorAll('header *, nav a, .topic *')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > innerWidth + 0.5 || r.left < -0.5)) out.cut.push(el.textContent);
  }
  for (const s of document.querySelectorAll('.topic')) {
    out.topics[s.dataset.key] = {title: s.querySelector('h2').textContent,
                                 entries: s.querySelectorAll('dt').length};
  }
  out.title = document.getElementById('title').textContent;
  return out;
}"""


def _quit(prompt: str) -> str:
    return "quit"


def shogun_table(server: BoardServer) -> dict:
    game = Game.create(4, seed=3, expansions=["court", "leaders"])
    table = TableGame(Journal.new(game), {p: BotSeat() for p in game.players}, None,
                      Console(read=_quit), page=server, narrate=False)
    table.publish()
    return server.help_book


def samurai_table(server: BoardServer) -> dict:
    ScoringTable(SamuraiJournal.new(SamuraiGame.create(3)), Console(read=_quit),
                 page=server, narrate=False).publish()
    return server.help_book


def shogun2_table(server: BoardServer) -> dict:
    Shogun2Table(Shogun2Journal.new(Game2(seed=12)), {}, Console(read=_quit), page=server,
                 narrate=False).publish()
    return server.help_book


GAMES = {"shogun": ("index.html", shogun_table, "Shogun — help"),
         "samurai": (SAMURAI_PAGE, samurai_table, "Samurai — help"),
         "shogun2": (SHOGUN2_PAGE, shogun2_table, "Shogun (Ravensburger) — help")}


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("game", list(GAMES))
def test_the_help_page_from_the_board_page(browser, game, width) -> None:
    front, table, title = GAMES[game]
    server = BoardServer(port=0, front=front).start()
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        book = table(server)
        board = context.new_page()
        board.goto(server.url)
        link = board.locator("#help-link")
        box = link.bounding_box()
        assert link.is_visible() and box["x"] + box["width"] <= width, box
        with context.expect_page() as opened:
            link.click()
        page = opened.value
        page.wait_for_selector("body[data-ready='true']")
        seen = page.evaluate(SEEN_JS)
        assert seen["title"] == title
        assert seen["page"] <= seen["window"], seen
        assert seen["cut"] == [], seen["cut"]
        assert list(seen["topics"]) == [t["key"] for t in book["topics"]]
        for t in book["topics"]:
            assert seen["topics"][t["key"]]["entries"] == len(t["entries"]), t["key"]
            assert seen["topics"][t["key"]]["title"].startswith(t["title"])
        if game == "shogun":
            assert seen["topics"]["court"]["title"] == "Imperial Court (expansion)"
            assert seen["topics"]["chambers"]["title"].endswith("not in this game")
            text = page.inner_text("#topic-actions")
            assert "Deploy 5" in text and "Pay 3 coins and put 5 armies" in text
        page.click("#back")
        page.wait_for_url(server.url)
    finally:
        context.close()
        server.stop()
