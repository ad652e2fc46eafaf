"""The view the page draws (shogun_tower.games.shogun.view): faithful to the State, never secret."""

from __future__ import annotations

import json

from shogun_tower.games.shogun.narrate import SEASON_NAMES, describe
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.scoring import score
from shogun_tower.games.shogun.view import VP_SPACES, board_view, replay_view, throw_record

from .games import BotGame


def test_season_labels_follow_the_state_through_a_whole_game():
    g = BotGame(Game.create(players=4, seed=3), seed=3)
    seen = set()
    while True:
        s = g.state
        v = board_view(s)
        if s.phase == "setup":
            assert v["when"].startswith("Set-up")
        elif s.phase == "over":
            assert v["when"] == "Game over"
        else:
            season = SEASON_NAMES[s.season]
            assert v["when"].startswith(f"Year {s.year} · {season.capitalize()}"), v["when"]
            assert v["season"] == season and v["year"] == s.year and v["phase"] == s.phase
            if s.phase == "winter":
                assert s.season == 3
            seen.add((s.year, season))
        if s.step is None:
            break
        g.step()
    assert seen == {(y, n) for y in (1, 2) for n in SEASON_NAMES}
    assert v["result"]["winners"] and v["next"] == "game over"


def test_the_view_holds_no_plan_no_hidden_bid_and_no_generator():
    g = BotGame(Game.create(players=4, seed=5), seed=5)
    g.play_until(lambda g: g.state.phase == "plan" and len(g.state.plans) == 2)
    s = g.state
    v = board_view(s)
    text = json.dumps(v)
    assert "rng" not in v and str(s.rng.state) not in text
    for p in v["players"]:
        assert p["bid"] is None and not p["bid_shown"]
        assert p["planned"] == (p["colour"] in s.plans)
    # nothing of a secret plan appears, not even where a chest card lies
    assert "actions" not in text and "void" not in text and "plans" not in text
    # once the bids are revealed (rule T5) they are shown, as the bid events said
    g.play_until(lambda g: g.state.phase == "actions")
    bids = {e["player"]: e["bid"] for e in g.events if e["event"] == "bid"}
    shown = {p["colour"]: p["bid"] for p in board_view(g.state)["players"]}
    assert shown == bids


def test_draft_shows_the_face_up_cards_and_only_the_size_of_the_pile():
    s = State.new(Game.create(players=4, map="moon", setup="draft", seed=1))
    v = board_view(s)
    assert v["when"] == "Set-up · draft"
    assert v["draft"]["faceup"] == s.draft["faceup"] and len(v["draft"]["faceup"]) == 2
    assert v["draft"]["pile"] == len(s.draft["pile"]) + len(s.draft["bottom"])
    assert "drafts a starting province" in v["next"]


def test_provinces_regions_and_borders_match_the_map():
    s = State.new(Game.create(players=3, seed=2))
    v = board_view(s)
    gm = s.map
    assert v["side"] == "sun"
    excluded = {n for n, p in v["provinces"].items() if p["excluded"]}
    assert excluded == {n for n, p in gm.provinces.items() if p.three_player_excluded}
    assert len(excluded) == 8
    for name, p in v["provinces"].items():
        assert p["region"] == gm.provinces[name].region
        assert (p["owner"], p["armies"]) == (s.owner.get(name), s.armies.get(name, 0))
    assert [r["name"] for r in v["regions"]] == list(gm.regions)
    for r in v["regions"]:
        assert r["provinces"] == list(gm.regions[r["name"]])
        assert set(r["in_play"]) == set(r["provinces"]) - excluded
    sea = {frozenset(e[:2]) for e in v["edges"] if e[2] == "sea"}
    assert sea == set(gm.sea_routes)
    land = {frozenset(e[:2]) for e in v["edges"] if e[2] == "land"}
    assert len(land) + len(sea) == sum(len(p.neighbours) for p in gm.provinces.values()) // 2


def test_region_majorities_agree_with_winter_scoring():
    g = BotGame(Game.create(players=5, seed=9), seed=9)
    g.play_until(lambda g: g.state.year == 2)
    s = g.state
    v = board_view(s)
    table = score(s.map, s.game.players, s.owner, s.buildings)
    got = dict.fromkeys(s.game.players, 0)
    for r in v["regions"]:
        for m in r["majorities"].values():
            for p in m["leaders"]:
                got[p] += m["vp"]
    assert got == {p: row["majorities"] for p, row in table.items()}
    assert any(got.values())


def test_tracks_tower_tray_and_cards():
    g = BotGame(Game.create(players=4, seed=3), seed=3)
    g.play_until(lambda g: g.state.year == 2 and g.state.phase == "actions")
    s = g.state
    s.vp["red"] = 85  # past the end of the track (laps, rule C5)
    v = board_view(s)
    red = next(p for p in v["players"] if p["colour"] == "red")
    assert (red["vp_space"], red["vp_lap"]) == (85 - VP_SPACES, 1)
    assert v["tower"] == s.tower and v["tray"] == s.tray
    assert v["event"]["card"] == s.event and v["event"]["text"].startswith(s.event)
    assert [a["action"] for a in v["action_track"] if a["action"]] == s.action_cards
    assert sum(a["current"] for a in v["action_track"]) == 1
    assert [x["card"] for x in v["specials"]] == s.specials
    assert v["turn_order"] == s.turn_order
    assert sorted(p["turn"] for p in v["players"]) == [1, 2, 3, 4]


def test_last_throw_and_log_follow_the_game():
    g = BotGame(Game.create(players=4, seed=3), seed=3)
    g.play_until(lambda g: g.count("battle") >= 2 and g.state.step["kind"] != "throw")
    t = g.chronicle.last_throw
    verdict = [e for e in g.events if e["event"] == "verdict"][-1]
    assert t["reason"] in ("battle", "revolt") and t["province"] == verdict["province"]
    assert t["verdict"] == verdict["text"]
    tray = [e for e in g.events if e["event"] == "tray"][-1]
    assert t["out"] == tray["counts"]
    v = g.view()
    assert v["log"] and len(v["log"]) <= 30
    # newest first: the verdict's line comes before the line of its throw
    lines = v["log"]
    assert lines.index(describe(verdict)) < lines.index(describe(tray))
    # the same game replayed (as `serve --journal` does) shows the same view
    state, again = replay_view(g.game, g.commands)
    assert again == v and state.to_json() == g.state.to_json()


def test_throw_record_of_the_setup_throw():
    s = State.new(Game.create(players=4, seed=1))
    step = s.step
    events = s.apply({"type": "tray", "counts": {"red": 2, "green": 1}})
    t = throw_record(step, events)
    assert t == {"in": {"black": 7, "red": 7, "yellow": 7, "purple": 7, "green": 10},
                 "out": {"red": 2, "green": 1}, "reason": "setup", "province": None,
                 "verdict": "set-up throw: what fell out went back to the supplies",
                 "title": "Set-up throw"}
    assert throw_record({"kind": "plan"}, events) is None
