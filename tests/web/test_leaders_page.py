"""The military leaders on the board page (rule X3), in Chromium: each leader's banner in its
province and each statue where it stands, in their players' colours, as the engine has them; the
side panel's row per player (leader, statues, statues left, trophies, VP at the end); nothing of
it without the expansion; at the end the players' VP include the statues and trophies."""

from __future__ import annotations

import pytest

from shogun_tower.games.shogun.rules import Game

from .games import BotGame

MAP_JS = """() => ({
  leaders: Object.fromEntries([...document.querySelectorAll('#leaders-layer .leader')]
    .map(g => [g.dataset.leader, g.dataset.province])),
  statues: Object.fromEntries([...document.querySelectorAll('#leaders-layer .statue')]
    .map(g => [g.dataset.province, g.dataset.statue])),
  fills: Object.fromEntries([...document.querySelectorAll('#leaders-layer .leader')]
    .map(g => [g.dataset.leader, g.querySelector('.banner').getAttribute('fill')])),
})"""
COLOURS = {"black": "#222", "red": "#d62828", "yellow": "#e9b400", "purple": "#8e3bd6",
           "blue": "#2a64e0"}


def _has_trophy(g: BotGame) -> bool:
    me = g.state.expansions["leaders"]
    return any(me["trophies"].values()) and g.state.phase == "plan"


@pytest.fixture(scope="module")
def with_trophy() -> BotGame:
    """A 4-player leaders game played by bots until some leader took a statue as a trophy."""
    for seed in range(1, 30):
        g = BotGame(Game.create(players=4, seed=seed, expansions="leaders"), seed=seed)
        g.play_until(lambda g: _has_trophy(g) or g.state.step is None)
        if _has_trophy(g):
            return g
    raise AssertionError("no bot game took a trophy")


def _show(page, board, view: dict) -> None:
    version = board.publish(view)
    page.goto(board.url)
    page.wait_for_selector(f"body[data-version='{version}']", state="attached")


def test_leaders_statues_and_trophies_are_drawn_as_the_engine_has_them(page, board,
                                                                     with_trophy) -> None:
    s = with_trophy.state
    ld = s.expansions["leaders"]
    view = with_trophy.view()
    _show(page, board, view)
    assert page.is_visible("#leaders")
    drawn = page.evaluate(MAP_JS)
    assert drawn["leaders"] == {p: at for p, at in ld["at"].items() if at}
    assert drawn["statues"] == ld["statues"] and drawn["statues"]
    assert drawn["fills"] == {p: COLOURS[p] for p, at in ld["at"].items() if at}
    for p in s.game.players:
        cells = page.locator(f"#leader-{p} td")
        statues = sorted(x for x, c in ld["statues"].items() if c == p)
        assert cells.nth(0).inner_text().strip() == p
        want = ld["at"][p] or ("taken back" if p in ld["taken"] else "not placed")
        assert cells.nth(1).inner_text() == want
        shown = cells.nth(2).inner_text()
        assert (sorted(shown.split(", ")) if statues else shown) == (statues or "–")
        assert cells.nth(3).inner_text() == str(ld["statue_supply"][p])
        assert cells.nth(4).locator(".swatch").count() == len(ld["trophies"][p])
        assert cells.nth(5).inner_text() == str(len(statues) + len(ld["trophies"][p]))
    title = page.locator("#leaders-layer .statue title").first.text_content()
    assert "1 VP at the end" in title


def test_no_leaders_on_the_page_without_the_expansion(page, board) -> None:
    g = BotGame(Game.create(players=4, seed=9), seed=9)
    g.play_until(lambda g: g.state.phase == "plan")
    _show(page, board, g.view())
    assert page.is_hidden("#leaders")
    assert page.locator("#leaders-layer").count() == 0


def test_at_the_end_the_players_vp_include_the_statues_and_trophies(page, board) -> None:
    g = BotGame(Game.create(players=3, seed=4, expansions="leaders"), seed=4)
    g.play_until(lambda g: False)
    s = g.state
    final = s.scores[-1]["final"]
    ld = s.expansions["leaders"]
    for p in s.game.players:
        assert final[p] == {"statues": sum(1 for c in ld["statues"].values() if c == p),
                            "trophies": len(ld["trophies"][p])}
    assert any(sum(row.values()) for row in final.values())
    view = g.view()
    _show(page, board, view)
    for p in s.game.players:  # the players' table and the VP track read the same s.vp
        assert page.inner_text(f"#player-{p}").split()[1] == str(s.vp[p])
    assert any(line.startswith("end of the game: ") for line in view["log"])


@pytest.mark.parametrize("width", [1000, 1400])
def test_the_leaders_panel_fits_the_side_panel(browser, board, with_trophy, width) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        pg = context.new_page()
        version = board.publish(with_trophy.view())
        pg.goto(board.url)
        pg.wait_for_selector(f"body[data-version='{version}']", state="attached")
        inside = pg.evaluate("""() => {
          const aside = document.querySelector('aside').getBoundingClientRect();
          const table = document.querySelector('#leader-players').getBoundingClientRect();
          return table.right <= aside.right + 0.5 && table.left >= aside.left - 0.5;
        }""")
        assert inside
        assert pg.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    finally:
        context.close()
