"""The board page as players see it on a laptop and on a phone: it fits every width from 390 px
(a phone) to 1600 px with nothing cut off, it shows no note meant for the people who maintain
the map data, and its first paint is the game."""

from __future__ import annotations

import pytest

from .games import BotGame, four_player_game

FIT_JS = """() => {
  const box = (sel) => document.querySelector(sel).getBoundingClientRect();
  const out = {page: document.documentElement.scrollWidth, window: innerWidth, cut: []};
  const aside = box('aside'), map = box('#map-panel');
  const cells = '#players th, #players td, #regions th, #regions td';
  for (const el of document.querySelectorAll(cells)) {
    const r = el.getBoundingClientRect();
    if (r.right > aside.right + 0.5 || r.left < aside.left - 0.5) out.cut.push(el.textContent);
  }
  for (const el of document.querySelectorAll('#action-track li, #cards > div, #map')) {
    const r = el.getBoundingClientRect();
    if (r.right > map.right + 0.5) out.cut.push(el.id || el.textContent);
  }
  const side = document.querySelector('aside');
  out.aside = [side.scrollWidth, side.clientWidth];
  return out;
}"""


@pytest.fixture(scope="module")
def midgame() -> BotGame:
    return four_player_game(battles=6)


@pytest.mark.parametrize("width", [1000, 1280, 1400, 1600])
def test_the_page_fits_without_overflow(browser, board, midgame, width) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        page = context.new_page()
        board.publish(midgame.view())
        page.goto(board.url)
        page.wait_for_selector("#player-red")
        seen = page.evaluate(FIT_JS)
        assert seen["page"] <= seen["window"], seen
        assert seen["aside"][0] <= seen["aside"][1], seen
        assert seen["cut"] == [], seen
        turn = page.eval_on_selector("#players thead th:last-child",
                                     "th => th.getBoundingClientRect().right")
        assert turn <= width and page.inner_text("#players thead th:last-child") == "turn"
    finally:
        context.close()


def test_notes_on_the_map_data_never_reach_the_players(page, board, midgame) -> None:
    view = midgame.view()
    view["map_notes"] = ["sea_routes: not verified against the printed board (MAP_NOTES.md)"]
    board.publish(view)
    page.goto(board.url)
    page.wait_for_selector("#player-red")
    text = page.inner_text("body")
    assert "MAP_NOTES" not in text and "not verified" not in text
    assert "MAP_NOTES" in (page.get_attribute("#legend", "title") or "")  # a tooltip only


def test_the_first_paint_is_the_game_not_an_empty_board(browser, board, midgame) -> None:
    board.publish(midgame.view())
    expected = len(midgame.state.map.provinces)
    for _ in range(10):
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        try:
            page = context.new_page()
            # no live stream and no second request: what shows can only be the page itself
            page.route("**/events", lambda route: route.abort())
            page.route("**/layout.json", lambda route: route.abort())
            page.route("**/state", lambda route: route.abort())
            page.goto(board.url, wait_until="load")
            drawn = page.evaluate("""() => ({
              provinces: document.querySelectorAll('#provinces-layer .province').length,
              players: document.querySelectorAll('#players tbody tr').length,
              when: document.getElementById('when').textContent})""")
            assert drawn["provinces"] == expected and drawn["players"] == 4, drawn
            assert drawn["when"] != "waiting for the game…"
        finally:
            context.close()


def test_the_court_and_the_samurai_are_drawn_only_when_played(page, board, midgame) -> None:
    from shogun_tower.games.shogun.rules import Game

    board.publish(midgame.view())
    page.goto(board.url)
    page.wait_for_selector("#player-red")
    assert page.is_hidden("#court") and page.is_hidden("#samurai")
    g = BotGame(Game.create(players=4, seed=5, expansions="court,samurai"), seed=5)
    g.play_until(lambda g: g.state.phase == "actions")
    view = g.view()
    version = board.publish(view)
    page.wait_for_selector(f"body[data-version='{version}']", state="attached")
    court, samurai = view["expansions"]["court"], view["expansions"]["samurai"]
    for player, c in court["courtiers"].items():
        cells = page.inner_text(f"#court-{player}").split()
        assert cells[:4] == [player, str(c["supply"]), str(c["hall"]), str(c["room"])]
    for player, s in samurai["stacks"].items():
        assert f"{s['regions']} of {samurai['regions_needed']}" in page.inner_text(
            f"#samurai-{player}")
    assert page.evaluate(FIT_JS)["cut"] == []


# Every element inside the window's width: what sticks out (none may), and whether the page
# itself scrolls sideways.
OUTSIDE_JS = """() => [...document.querySelectorAll('body *')].filter(e => {
  const r = e.getBoundingClientRect();
  return r.width && (r.right > innerWidth + 0.5 || r.left < -0.5);
}).map(e => e.id || e.getAttribute('class') || e.tagName).concat(
  document.documentElement.scrollWidth > innerWidth ? ['the page scrolls sideways'] : [])"""


# The words of the action track's cards split over two lines (a word's text then has two boxes).
BROKEN_WORDS_JS = """() => {
  const broken = [];
  for (const li of document.querySelectorAll('#action-track li')) {
    for (const node of li.childNodes) {
      if (node.nodeType !== 3) continue;
      for (const m of node.textContent.matchAll(/[^\\s\\/]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        if ([...range.getClientRects()].filter(r => r.width > 0).length > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_a_phone_and_a_laptop_see_the_whole_page(browser, board, width) -> None:
    """Five players and the four expansions, while four of them have planned ("planned" in
    the players table) and mid-season: at a phone's 390 px nothing sticks out of the window
    (map, action track, every table and panel), the action cards' names wrap only after their
    slash, and the map's numbers stay readable (at least 9 px)."""
    from shogun_tower.games.shogun.rules import Game

    g = BotGame(Game.create(players=5, seed=5, expansions="court,samurai,leaders,chambers"),
                seed=5)
    planning = g.play_until(lambda g: g.state.year == 2 and g.state.phase == "plan"
                            and len(g.state.plans) == 4).view("planning: waiting for blue")
    g.play_until(lambda g: g.state.year == 2 and g.state.phase == "actions"
                 and g.state.step["kind"] != "throw")
    context = browser.new_context(viewport={"width": width, "height": 844})
    try:
        page = context.new_page()
        for view, planned in ((planning, 4), (g.view(), 0)):
            version = board.publish(view)
            page.goto(board.url)
            page.wait_for_selector(f"body[data-version='{version}']", state="attached")
            assert page.locator("#players td.bid", has_text="planned").count() == planned
            for panel in ("#court", "#samurai", "#leaders", "#chambers"):
                assert page.is_visible(panel)
            assert page.evaluate(OUTSIDE_JS) == []
            seen = page.evaluate(FIT_JS)
            assert seen["cut"] == [] and seen["aside"][0] <= seen["aside"][1], seen
            assert page.evaluate(BROKEN_WORDS_JS) == []
            tallest = page.evaluate("""() => Math.min(...[...document.querySelectorAll(
              '.province .armies')].map(e => e.getBoundingClientRect().height))""")
            assert tallest >= 9
    finally:
        context.close()
