"""The board page in headless Chromium: what a person sees matches the game."""

from __future__ import annotations

import pytest

from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.rules.core.map import load_map
from shogun_tower.games.shogun.view import board_view
from shogun_tower.web.server import BoardServer

from . import seen
from .games import BotGame, four_player_game

LETTER = {"castle": "C", "temple": "T", "theatre": "N"}


@pytest.fixture(scope="module")
def midgame() -> BotGame:
    g = four_player_game(battles=6)
    s = g.state
    # the situation must show everything the page can draw
    assert any(s.buildings.values()) and any(s.markers.values()) and any(s.tray.values())
    return g


def check_map(page, state) -> dict:
    """Every province as drawn against the state; returns what was seen."""
    shown = seen.provinces(page)
    assert set(shown) == set(state.map.provinces)
    swatch = seen.swatches(page)
    for name, p in shown.items():
        owner = state.owner.get(name)
        armies = state.armies.get(name, 0)
        buildings = state.buildings.get(name, [])
        markers = state.markers.get(name, 0)
        assert p["visible"], name
        assert p["owner"] == (owner or "neutral"), name
        assert p["armies"] == str(armies) and p["revolt"] == str(markers), name
        assert p["buildings"] == ",".join(buildings), name
        assert p["letters"] == "".join(LETTER[b] for b in buildings), name
        assert p["dots"] == markers, name
        assert p["region_under"] == state.map.provinces[name].region, name
        if name in state.owner:
            assert p["excluded"] == "false" and float(p["opacity"]) == 1.0
            assert p["armies_text"] == (str(armies) if armies else ""), name
            if owner:  # the token has the colour of its owner's swatch in the players table
                assert p["fill"] == swatch[owner], name
            else:
                assert p["fill"] not in swatch.values(), name
    return shown


def test_map_shows_owners_armies_buildings_and_revolt_markers(page, board, midgame):
    board.publish(midgame.view())
    seen.open_board(page, board, 1)
    check_map(page, midgame.state)
    assert page.inner_text("#side").lower() == "sun side"
    assert page.inner_text("#when") == board_view(midgame.state)["when"]


def test_region_borders_and_sea_routes_are_drawn(page, board, midgame):
    view = midgame.view()
    board.publish(view)
    seen.open_board(page, board, 1)
    provs = view["provinces"]
    regions = {r["name"] for r in view["regions"]}
    assert page.locator("#regions-layer .region").count() == len(regions)
    # every land border between two regions: going from one province to the other a person
    # crosses the first region's outline before entering the second region
    crossings = 0
    for a, b, kind in view["edges"]:
        ra, rb = provs[a]["region"], provs[b]["region"]
        if kind != "land" or ra == rb:
            continue
        path = seen.walk(page, a, b)
        assert path[0] == f"fill:{ra}" and path[-1] == f"fill:{rb}", (a, b, path)
        assert f"rim:{ra}" in path and f"rim:{rb}" in path, (a, b, path)
        assert page.locator(f"line.edge.land.cross[data-edge='{a}|{b}']").count() == 1
        crossings += 1
    assert crossings >= 10
    # within a region the land stays that region's all the way
    a, b = next((a, b) for a, b, k in view["edges"]
                if k == "land" and provs[a]["region"] == provs[b]["region"])
    assert seen.walk(page, a, b) == [f"fill:{provs[a]['region']}"]
    # sea routes: dashed lines, one per route of the map
    sea = page.locator("#map line.edge.sea")
    assert sea.count() == len(midgame.state.map.sea_routes) > 0
    dash = sea.first.evaluate("e => getComputedStyle(e).strokeDasharray")
    assert dash not in ("none", "")
    land_width = page.locator("#map line.edge.land:not(.cross)").first.evaluate(
        "e => parseFloat(getComputedStyle(e).strokeWidth)")
    cross_width = page.locator("#map line.edge.land.cross").first.evaluate(
        "e => parseFloat(getComputedStyle(e).strokeWidth)")
    assert cross_width > land_width
    legend = page.inner_text("#legend")
    assert "sea route" in legend and all(r in legend.lower() for r in regions)


def test_tracks_tower_tray_last_throw_and_log(page, board, midgame):
    s = midgame.state.copy()
    s.vp["yellow"] = 85  # a lap of the 0-80 track (rule C5)
    s.rice["red"] = 18
    view = board_view(s, midgame.chronicle.log, midgame.chronicle.last_throw)
    board.publish(view)
    seen.open_board(page, board, 1)
    for p in s.game.players:
        vp = page.locator(f"#vp-{p}")
        assert vp.is_visible()
        space = vp.evaluate("m => Number(m.closest('.space').dataset.space)")
        assert space == s.vp[p] % 81 and vp.get_attribute("data-value") == str(s.vp[p])
        assert vp.get_attribute("data-lap") == str(s.vp[p] // 81)
        rice = page.locator(f"#rice-{p}")
        assert rice.is_visible()
        assert rice.evaluate("m => Number(m.closest('.space').dataset.space)") == s.rice[p]
    assert page.inner_text("#vp-yellow") == "+81"
    assert page.locator("#vp-track .space").count() == 81
    assert page.locator("#rice-track .space").count() == 19
    tower = {c: n for c, n in s.tower.items() if n}
    tray = {c: n for c, n in s.tray.items() if n}
    assert seen.cubes(page, "#tower") == tower and seen.cubes(page, "#tray") == tray
    text = page.inner_text("#tower")
    assert f"({sum(tower.values())} cubes)" in text
    for c, n in tower.items():
        assert f"{'farmers' if c == 'green' else c} {n}" in text
    t = view["last_throw"]
    box = page.locator("#last-throw")
    assert box.get_attribute("data-reason") == t["reason"]
    assert t["province"] in box.inner_text() and t["verdict"] in box.inner_text()
    assert seen.cubes(page, "#last-throw .throw-in") == {c: n for c, n in t["in"].items() if n}
    assert seen.cubes(page, "#last-throw .throw-out") == {c: n for c, n in t["out"].items() if n}
    assert page.locator("#log li").all_inner_texts() == view["log"]
    # players table: the numbers of the state
    for p in s.game.players:
        cells = page.locator(f"#player-{p} td").all_inner_texts()
        assert cells[1:4] == [str(s.vp[p]), str(s.rice[p]), str(s.coins[p])]


def test_page_updates_live_without_reloading(page, board):
    g = BotGame(Game.create(players=4, seed=3), seed=3)
    g.play_until(lambda g: g.count("verdict") >= 2 and g.state.step["kind"] != "throw")
    board.publish(g.view())
    seen.open_board(page, board, 1)
    page.evaluate("window.sameDocument = true")
    check_map(page, g.state)
    before = seen.provinces(page)
    g.play_until(lambda g: g.count("verdict") >= 5 and g.state.step["kind"] != "throw")
    board.publish(g.view())
    seen.wait_version(page, 2)
    after = check_map(page, g.state)
    assert after != before
    assert page.evaluate("window.sameDocument") is True  # redrawn in place, not reloaded
    assert page.locator("#log li").first.inner_text() == g.view()["log"][0]
    board.publish(g.view(waiting="tower disconnected: check the cable"))
    seen.wait_version(page, 3)
    assert page.inner_text("#waiting") == "tower disconnected: check the cable"


def test_page_reconnects_after_the_server_restarts(page, board):
    g = four_player_game(battles=2)
    board.publish(g.view())
    seen.open_board(page, board, 1)
    assert page.locator("#connection").is_hidden()
    port = board.port
    board.stop()
    page.wait_for_selector("#connection", state="visible")
    assert "disconnected" in page.inner_text("#connection")
    assert page.evaluate("document.body.dataset.connected") == "false"
    g.play_until(lambda g: g.count("verdict") >= 4 and g.state.step["kind"] != "throw")
    with BoardServer(port=port) as again:
        again.publish(g.view())
        page.wait_for_selector("#connection", state="hidden")
        seen.wait_version(page, 1)
        check_map(page, g.state)
        assert page.locator("#log li").first.inner_text() == g.view()["log"][0]


def test_three_players_grey_out_the_excluded_provinces(page, board):
    g = BotGame(Game.create(players=3, seed=4), seed=4)
    g.play_until(lambda g: g.count("verdict") >= 2 and g.state.step["kind"] != "throw")
    board.publish(g.view())
    seen.open_board(page, board, 1)
    shown = check_map(page, g.state)
    out = {n for n, p in g.state.map.provinces.items() if p.three_player_excluded}
    assert {n for n, p in shown.items() if p["excluded"] == "true"} == out and len(out) == 8
    for name in out:
        p = shown[name]
        assert float(p["opacity"]) < 0.6 and p["armies_text"] == "" and p["owner"] == "neutral"
        assert page.locator(f"#province-{name} .cross-out").count() == 2
        assert "out of play" in page.locator(f"#province-{name} title").text_content()
    rows = page.locator("#regions tbody tr").all_inner_texts()
    assert any(" of 9" in r for r in rows)  # regions that lost provinces say so


def test_moon_side_with_drafted_starts(page, board):
    g = BotGame(Game.create(players=5, map="moon", setup="draft", seed=8), seed=8)
    g.play_until(lambda g: g.count("start_province") >= 6)
    board.publish(g.view())
    seen.open_board(page, board, 1)
    shown = check_map(page, g.state)
    assert page.inner_text("#side").lower() == "moon side"
    assert page.inner_text("#when") == "Set-up · draft"
    assert page.locator("#draft-panel").is_visible()
    for card in g.state.draft["faceup"]:
        assert card in page.inner_text("#draft")
    # the map file's notes are for its maintainers: a tooltip on the legend, not page text
    notes = board_view(g.state)["map_notes"]
    assert notes and all(n in (page.get_attribute("#legend", "title") or "") for n in notes)
    assert not any(n in page.inner_text("body") for n in notes)
    # the provinces whose region differs between the sides are drawn in the moon's region
    sun = load_map("sun")
    moved = [n for n, p in g.state.map.provinces.items() if sun.provinces[n].region != p.region]
    assert moved
    for name in moved:
        assert shown[name]["region_under"] == g.state.map.provinces[name].region
    # play on into the first season: the cards of the season appear
    g.play_until(lambda g: g.state.phase == "actions")
    board.publish(g.view())
    seen.wait_version(page, 2)
    check_map(page, g.state)
    track = page.locator("#action-track li").all_inner_texts()
    assert len(track) == 10 and "face down" in track[-1]
    assert page.locator("#action-track li.current").count() == 1
    assert g.state.event in page.inner_text("#event")
    for s in g.state.specials:
        assert s in page.inner_text("#specials")


def test_no_game_yet(page, board):
    seen.open_board(page, board, 0)
    assert "no game yet" in page.inner_text("#waiting")
    assert "no game yet" in page.text_content("#map")


def test_game_over_banner(page, board):
    g = BotGame(Game.create(players=3, seed=6), seed=6).play_until(lambda g: False)
    board.publish(g.view())
    seen.open_board(page, board, 1)
    winners = g.state.result["winners"]
    assert page.locator("#result").is_visible()
    assert all(w in page.inner_text("#result") for w in winners)
    assert page.inner_text("#when") == "Game over"
    check_map(page, g.state)


def test_another_page_is_one_route(page, board):
    """A page of its own (e.g. a game's help) is served by one route; the board's own
    addresses cannot be taken."""
    board.add_route("/help", lambda: ("text/html; charset=utf-8",
                                      b"<!doctype html><title>help</title><h1>How to play</h1>"))
    page.goto(board.url + "help")
    assert page.inner_text("h1") == "How to play"
    for taken in ("/", "/state", "/events", "/seat", "/seat/x", "/panels/court.js"):
        with pytest.raises(ValueError):
            board.add_route(taken, lambda: ("text/plain", b""))
