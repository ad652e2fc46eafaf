"""The Samurai board page in Chromium, as a player sees it on a laptop (1280 px) and on a phone
(390 px): the rulebook's first end example entered as at the table, its last entry the city
whose one tile takes the last helmet and the last Buddha together (rule K11); the counts, the
strict mosts, the end, the winner and the full ranking with each player's own place, a shared
place shown once for both; nobody winning when nobody has a strict most (rule K12); the strip;
and nothing wider than the window."""

from __future__ import annotations

import io

import pytest

from shogun_tower.games.knizia_samurai import strip
from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.console import ScoringTable, parse_entry
from shogun_tower.games.knizia_samurai.state import SamuraiGame, SamuraiJournal
from shogun_tower.table.console import Console
from shogun_tower.web.server import BoardServer

TYPES = ("helmet", "buddha", "rice")
EXAMPLE_1 = {"green": (3, 3, 4), "blue": (5, 3, 2), "red": (1, 4, 3), "yellow": (4, 3, 3)}
# blue's 5th helmet and red's 4th Buddha stand in one city: one tile closes it
LAST_CITY = "helmet buddha: blue:helmet:3 red:buddha:2 green:samurai:1"
WIDTHS = (390, 1280)

# The page's width against the window's, and every element reaching past either side of it.
FIT_JS = """() => {
  const cut = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > innerWidth + 0.5 || r.left < -0.5))
      cut.push(el.tagName + (el.id ? '#' + el.id : '') + ' ' + el.textContent.slice(0, 30));
  }
  return {page: document.documentElement.scrollWidth, window: innerWidth, cut};
}"""

RANKING_JS = """() => [...document.querySelectorAll('#ranking li')].map(li => [
  li.dataset.player, li.querySelector('.place').textContent, li.textContent,
  li.classList.contains('winner')])"""


@pytest.fixture
def board():
    server = BoardServer(port=0, front="samurai.html").start()
    yield server
    server.stop()


def table_of(board: BoardServer, players: str = "red,yellow,blue,green") -> ScoringTable:
    journal = SamuraiJournal.new(SamuraiGame.create(players))
    return ScoringTable(journal, Console(read=lambda p: "", out=io.StringIO()), None, board)


def enter_counts(table: ScoringTable, counts: dict[str, tuple[int, ...]],
                 keep: dict[str, str]) -> None:
    """Each player's captures one entry each, but the figures of ``keep`` (type -> player)."""
    for player, row in counts.items():
        for figure, n in zip(TYPES, row, strict=True):
            n -= keep.get(figure) == player
            for _ in range(n):
                table.enter({"capture": figure, "player": player})


def looks_right(browser, url: str, width: int, ready: str) -> dict:
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector(ready, state="attached")
        return {"fit": page.evaluate(FIT_JS), "ranking": page.evaluate(RANKING_JS),
                "winner": page.inner_text("#winner"), "over": page.inner_text("#over"),
                "last": page.inner_text("#last")}
    finally:
        context.close()


def test_the_first_end_example_on_the_page(page, browser, board) -> None:
    page.goto(board.url)
    assert page.locator("#entries").inner_text() == "no game yet"
    table = table_of(board)
    enter_counts(table, EXAMPLE_1, keep={"helmet": "blue", "buddha": "red"})
    page.wait_for_function("document.querySelector('#entries').textContent.includes("
                           "'36 entries')")
    assert page.locator("#result").is_hidden()
    assert page.locator("#strip-note").inner_text() == "no tower lights this game"
    table.enter(parse_entry(LAST_CITY, table.state.game.players))
    page.wait_for_selector("#result:not([hidden])")
    # the example exactly: all 13 helmets and all 13 Buddhas, as the rulebook prints it
    assert table.state.on_board() == {"helmet": 0, "buddha": 0, "rice": 1}
    assert page.locator("#over").inner_text() == \
        "The game is over: the last helmet and the last Buddha have left the board."
    assert page.locator("#winner").inner_text() == (
        "Winner: green — green has the most rice fields, and with them set aside the most "
        "other figures: 6 (against blue 5, red 4)")
    last = page.locator("#last").inner_text()
    assert "blue captures the helmet: blue 3, green 1, red 0" in last
    assert "red captures the Buddha: red 2, green 1, blue 0" in last
    # the strict mosts are marked in the counts: blue's helmets, red's Buddhas, green's rice
    most = page.locator("#captured td.most")
    assert sorted(most.nth(i).evaluate("td => td.parentNode.dataset.player + ' ' + "
                                       "td.dataset.type") for i in range(most.count())) \
        == ["blue helmet", "green rice", "red buddha"]
    assert page.locator("#on-board li[data-type=helmet]").inner_text() == "0 helmets"
    for width in WIDTHS:
        seen = looks_right(browser, board.url, width, "#result:not([hidden])")
        assert seen["fit"]["page"] <= width and seen["fit"]["cut"] == [], (width, seen["fit"])
        assert [(p, place, winner) for p, place, _, winner in seen["ranking"]] == [
            ("green", "1.", True), ("blue", "2.", False), ("red", "3.", False),
            ("yellow", "4.", False)]
        assert seen["ranking"][0][2] == \
            "1.green: the most rice fields; other figures 6, 10 in all"
        assert seen["ranking"][3][2] == "4.yellow: no most of any type, so lost; 10 figures in all"
    # the console stops: the page says that what it shows may be stale (live.js)
    assert page.locator("#connection").is_hidden()
    board.stop()
    page.wait_for_selector("#connection:not([hidden])")
    assert page.evaluate("document.body.dataset.connected") == "false"


def test_a_shared_second_place_is_shown_as_the_terminal_says_it(browser, board) -> None:
    """Red and blue both have 5 other figures and 10 in all: both are 2nd, then yellow 4th."""
    table = table_of(board)
    shared = {"green": (3, 3, 4), "blue": (5, 3, 2), "red": (2, 5, 3), "yellow": (3, 2, 3)}
    enter_counts(table, shared, keep={"helmet": "blue", "buddha": "red"})
    said = io.StringIO()
    table.console.out = said
    table.enter(parse_entry("blue helmet, red buddha", table.state.game.players))
    terminal = [ln.strip() for ln in said.getvalue().splitlines() if ln.strip()[:2] in
                ("1.", "2.", "3.", "4.")]
    assert [ln.split(":")[0] for ln in terminal] == ["1. green", "2. red", "2. blue",
                                                     "4. yellow"]
    for width in WIDTHS:
        seen = looks_right(browser, board.url, width, "#result:not([hidden])")
        assert seen["fit"]["page"] <= width and seen["fit"]["cut"] == [], (width, seen["fit"])
        assert [(p, place) for p, place, _, _ in seen["ranking"]] == [
            ("green", "1."), ("red", "2."), ("blue", "2."), ("yellow", "4.")]
        # the page's lines are the terminal's, with the place and the player's swatch
        assert [text.replace(".", ". ", 1) for _, _, text, _ in
                seen["ranking"]] == terminal


def test_nobody_wins_when_nobody_has_a_strict_most(browser, board) -> None:
    table = table_of(board, "red,yellow")
    for figure in TYPES:
        for player in ("red", "yellow") * 3:
            table.enter({"capture": figure, "player": player})
    table.enter(parse_entry("tie helmet, tie buddha, tie rice", table.state.game.players))
    seen = looks_right(browser, board.url, 390, "#result:not([hidden])")
    assert seen["winner"].startswith("Nobody wins — nobody has the most of any type")
    assert [(p, place, winner) for p, place, _, winner in seen["ranking"]] == [
        ("red", "1.", False), ("yellow", "1.", False)]
    assert all("so lost" in text for _, _, text, _ in seen["ranking"])


@pytest.mark.parametrize("players", [2, 4])
def test_the_strip_fits_a_phone_and_a_laptop(browser, board, players: int) -> None:
    """Two players have the longest segments (15 LEDs): on a phone they go under the name
    across the whole width; every LED of every band stays inside the window."""
    table = table_of(board, ",".join(catalogue().colours[:players]))
    for k in range(9):
        table.enter({"capture": TYPES[k % 3], "player": table.state.game.players[k % players]})
    # the frame a tower renders from the SEGMENTS runs: a lit LED in any colour, white for two
    frame = bytearray(3 * strip.STRIP_LEDS)
    game = table.state.game
    for first, count, colour in strip.runs(game.players, table.state.captured, TYPES):
        rgb = b"\xff\xff\xff" if colour == strip.WHITE else bytes((200, 30, 30 + colour))
        frame[3 * first:3 * (first + count)] = rgb * count
    table._frame = bytes(frame)
    table.shown = strip.counts_from_frame(table._frame, game.players, TYPES)
    table.publish()
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        try:
            page = context.new_page()
            page.goto(board.url)
            page.wait_for_selector("#strip .band")
            fit = page.evaluate(FIT_JS)
            assert fit["page"] <= width and fit["cut"] == [], (width, fit)
            leds = page.evaluate("""() => [...document.querySelectorAll('#strip .led')]
              .map(l => l.getBoundingClientRect()).map(r => [r.width, r.right])""")
            assert len(leds) == players * 3 * strip.segment_length(players)
            assert all(w >= 4 and right <= width for w, right in leds), leds[:5]
            assert page.inner_text("#strip-note") == \
                "read back from the tower: it agrees with the counts"
        finally:
            context.close()
