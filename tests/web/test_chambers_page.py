"""The chamber board on the board page (rule X4), in Chromium: every space as the engine has it
(face-up tile, neutral face-down tile, a player's marker), each row's and column's VP and who
holds most there, hidden when the Chambers are not played; the players' VP at the end include
the chambers' points."""

from __future__ import annotations

import pytest

from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.rules.expansions import chambers

from .games import BotGame

SPACES_JS = """() => [...document.querySelectorAll('#chamber-board td.space')].map(td => ({
  tile: td.dataset.tile, state: td.dataset.state, owner: td.dataset.owner,
  text: td.textContent}))"""
LINES_JS = """() => Object.fromEntries(
  [...document.querySelectorAll('#chamber-board td[data-line]')]
  .map(td => [td.dataset.line, td.querySelector('.most').dataset.leaders]))"""
INSIDE_JS = """() => {
  const aside = document.querySelector('aside').getBoundingClientRect();
  const board = document.querySelector('#chamber-board').getBoundingClientRect();
  return board.right <= aside.right + 0.5 && board.left >= aside.left - 0.5;
}"""


@pytest.fixture(scope="module")
def second_year() -> BotGame:
    """Four players with the chambers, in the first season of the second year: markers and
    neutral tiles from three seasons, six tiles face up."""
    g = BotGame(Game.create(players=4, seed=9, expansions="chambers"), seed=9)
    return g.play_until(lambda g: g.state.year == 2 and g.state.phase == "plan")


def _check_board(page, view: dict) -> None:
    ch = view["expansions"]["chambers"]
    spaces = page.evaluate(SPACES_JS)
    want = [sp for row in ch["spaces"] for sp in row]
    assert [(s["tile"], s["state"], s["owner"] or None) for s in spaces] == \
        [(s["tile"], s["state"], s["owner"]) for s in want]
    for s in spaces:  # a face-up tile shows its name, a neutral tile #, a marker no text
        assert s["text"] == {"up": s["tile"], "down": "#"}.get(s["state"], "")
    leaders = page.evaluate(LINES_JS)
    assert leaders == {line["line"]: ",".join(line["leaders"]) for line in ch["lines"]}
    head = page.inner_text("#chamber-board thead").split()
    assert head == ["A", "B", "C", "D", "E", "F", "VP", "most"]
    vp_row = page.inner_text("#chamber-board tbody tr:nth-last-child(2)").split()
    assert vp_row == ["VP"] + [str(v) for v in ch["column_vp"]]
    for r, vp in enumerate(ch["row_vp"]):
        cells = page.locator(f"#chamber-board tbody tr:nth-child({r + 1}) td.vp")
        assert cells.inner_text() == str(vp)


def test_the_chamber_board_shows_every_space_and_each_lines_majority(page, board,
                                                                     second_year) -> None:
    s = second_year.state
    me = s.expansions["chambers"]
    assert me["markers"] and me["down"] and len(me["up"]) == 6
    view = second_year.view()
    version = board.publish(view)
    page.goto(board.url)
    page.wait_for_selector(f"body[data-version='{version}']", state="attached")
    assert page.is_visible("#chambers")
    _check_board(page, view)
    info = page.inner_text("#chamber-info")
    assert f"tiles in the bag: {len(me['bag'])}" in info
    assert "region row: " + ", ".join(me["row"]) in info
    assert "points if the game ended now: " + ", ".join(
        f"{p} {n}" for p, n in chambers.points(s).items()) in info
    assert page.evaluate(INSIDE_JS)


@pytest.mark.parametrize("width", [1000, 1400])
def test_the_chamber_board_fits_the_side_panel(browser, board, second_year, width) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        pg = context.new_page()
        version = board.publish(second_year.view())
        pg.goto(board.url)
        pg.wait_for_selector(f"body[data-version='{version}']", state="attached")
        assert pg.evaluate(INSIDE_JS)
        assert pg.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    finally:
        context.close()


def test_no_chamber_board_without_the_chambers(page, board) -> None:
    g = BotGame(Game.create(players=4, seed=9), seed=9)
    g.play_until(lambda g: g.state.phase == "plan")
    version = board.publish(g.view())
    page.goto(board.url)
    page.wait_for_selector(f"body[data-version='{version}']", state="attached")
    assert page.is_hidden("#chambers")


def test_at_the_end_the_players_vp_include_the_chambers_points(page, board) -> None:
    g = BotGame(Game.create(players=3, seed=4, expansions="chambers"), seed=4)
    g.play_until(lambda g: False)
    s = g.state
    final = s.scores[-1]["final"]
    assert {p: row["chambers"] for p, row in final.items()} == chambers.points(s)
    view = g.view()
    version = board.publish(view)
    page.goto(board.url)
    page.wait_for_selector(f"body[data-version='{version}']", state="attached")
    _check_board(page, view)
    for p in s.game.players:  # the players' table and the VP track read the same s.vp
        assert page.inner_text(f"#player-{p}").split()[1] == str(s.vp[p])
    assert any("the chambers' rows and columns score:" in line for line in view["log"])
