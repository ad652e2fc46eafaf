"""Shogun's board page and phone page name the provinces as the players read them: in Japanese
their historical kanji (games/shogun/data/province_names.json) on the map, in the players' and
the leaders' tables and in the phone's list of provinces, while what the page keeps as data and
what the phone's form sends stay the province's own name, the one the console takes. The court
panel's favour cards are in the players' language; the map file's notes for its maintainers
(English) are no tooltip on a page in another language."""

from __future__ import annotations

import pathlib

import pytest
from web import seen

from i18n.test_shogun_languages import PERSON, last_season
from shogun_tower.games.shogun.rules.expansions import court
from shogun_tower.games.shogun.view import Chronicle
from shogun_tower.table.phones import PlanDesk
from shogun_tower.web.server import BoardServer
from shogun_tower.words import province_word


@pytest.fixture
def planning(tmp_path: pathlib.Path):
    """A three-player game with the court and the military leaders at its last season's
    planning, the leaders placed and favours in the audience room."""
    return last_season(tmp_path / "game.jsonl").state


@pytest.mark.parametrize("speaking", ["ja", "fr"], indirect=True)
def test_the_board_page_names_provinces_in_the_players_words(browser, board, planning,
                                                             speaking: str) -> None:
    view = Chronicle().view(planning)
    view["map_notes"] = ["sea_routes: not verified against the printed board (MAP_NOTES.md)"]
    leaders = view["expansions"]["leaders"]["leaders"]
    assert any(leaders.values())
    board.publish(view)
    with seen.page_at(browser, 390) as page:
        seen.open_board(page, board, 1)
        for name in view["provinces"]:
            shown = page.text_content(f"[id='province-{name}'] text.name")
            assert shown == province_word(name), (name, shown)
        if speaking == "ja":
            assert page.text_content("[id='province-Owari'] text.name") == "尾張"
        for player, at in leaders.items():
            cells = page.locator(f"#leader-{player} td").all_inner_texts()
            if at:
                assert cells[1] == province_word(at)
            statues = [x for x, p in view["expansions"]["leaders"]["statues"].items()
                       if p == player]
            for x in statues:
                assert province_word(x) in cells[2]
        favours = page.locator("#court-places li").all_inner_texts()
        places = court.view(planning)["places"]
        assert places and len(favours) == len(places)
        for shown, place in zip(favours, places, strict=True):
            assert place["text"] in shown  # the view's text, in the players' language
            english = court.card(planning, place["favour"])["text"]
            assert english not in shown and court.favour_text(english) == place["text"]
        # the maintainers' notes: kept with the legend, no tooltip a player reads
        assert page.get_attribute("#legend", "title") is None
        assert "MAP_NOTES" in page.get_attribute("#legend", "data-map-notes")


@pytest.mark.parametrize("speaking", ["ja"], indirect=True)
def test_the_phone_shows_kanji_and_sends_the_provinces_own_names(browser, planning,
                                                                  speaking: str) -> None:
    desk = PlanDesk(list(planning.game.players))
    desk.open_planning(planning, [PERSON], "planning")
    server = BoardServer(port=0).start()
    server.desk = desk
    context = browser.new_context(viewport={"width": 390, "height": 900})
    try:
        page = context.new_page()
        page.goto(desk.links(server.url)[PERSON])
        page.wait_for_function("document.body.dataset.status === 'plan'")
        mine = sorted(x for x, o in planning.owner.items() if o == PERSON)
        listed = page.locator("#provinces li .prov-head b").all_inner_texts()
        assert listed == [province_word(x) for x in mine]
        # every one of them is in kanji
        assert all(a != b for a, b in zip(listed, mine, strict=True))
        options = page.eval_on_selector_all(
            "#space-castle option", "os => os.map(o => [o.value, o.textContent])")
        offered = {value: label for value, label in options if value in mine}
        assert sorted(offered) == mine
        for name, label in offered.items():
            assert label.startswith(f"{name} {province_word(name)}"), label
        page.select_option("#space-castle", mine[0])
        for _try in range(50):
            if desk.seat_view(PERSON)["draft"].get("castle") == mine[0]:
                break
            page.wait_for_timeout(100)
        assert desk.seat_view(PERSON)["draft"].get("castle") == mine[0]
    finally:
        server.stop()
        context.close()
