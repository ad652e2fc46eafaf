"""Refused commands name their rule and change nothing; journals replay, undo and refuse edits;
bad map files are refused with the province/field named."""

from __future__ import annotations

import json

import pytest
from helpers import chance, quiet_plan, to_planning

from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import (
    Game,
    JournalError,
    MapError,
    RulesError,
    State,
    load_map,
)
from shogun_tower.games.shogun.rules.core.battle import battle_verdict
from shogun_tower.games.shogun.runner import TowerDriver


def test_bid_above_coins_is_refused_with_rule_t3_and_changes_nothing():
    s = to_planning(5)
    s.coins["black"] = 1
    before = s.to_json()
    with pytest.raises(RulesError, match="rule T3") as err:
        s.apply(quiet_plan(s, "black", bid=3))
    assert "\n" not in str(err.value) and isinstance(err.value, ShogunError)
    assert s.to_json() == before


def _to_march(players=4, order=("battle_a", "rice", "castle", "temple", "theatre")):
    s = to_planning(players, order=list(order))
    return s


def test_attack_leaving_no_army_is_refused_with_b7_and_excluded_province_with_s1():
    s = to_planning(3, order=["battle_a", "rice", "castle", "temple", "theatre"])
    # Tajima (black, 2 armies) borders Kaga (red) and Izumo (out of play with 3 players)
    assert s.owner["Tajima"] == "black" and s.armies["Tajima"] == 2
    for p in s.game.players:
        s.apply(quiet_plan(s, p, **({"battle_a": "Tajima"} if p == "black" else {})))
    chance(s, "event", "E1")
    chance(s, "bid_tie", list(s.game.players))
    for i, p in enumerate(s.game.players):
        s.apply({"type": "special", "player": p, "position": i + 1})
    st = s.pending()
    assert st["kind"] == "march" and st["from"] == "Tajima" and st["max_armies"] == 1
    before = s.to_json()
    with pytest.raises(RulesError, match="rule B7"):
        s.apply({"type": "march", "player": "black", "to": st["targets"][0], "armies": 2})
    with pytest.raises(RulesError, match="rule S1"):
        s.apply({"type": "march", "player": "black", "to": "Izumo", "armies": 1})
    with pytest.raises(RulesError, match="turn"):
        s.apply({"type": "march", "player": "red", "to": st["targets"][0], "armies": 1})
    assert s.to_json() == before


def test_one_army_province_skips_battle_with_b7():
    s = to_planning(4, order=["battle_a", "rice", "castle", "temple", "theatre"])
    s.armies["Noto"] = 1
    s.supply["black"] += 1
    for p in s.game.players:
        s.apply(quiet_plan(s, p, **({"battle_a": "Noto"} if p == "black" else {})))
    chance(s, "event", "E1")
    chance(s, "bid_tie", list(s.game.players))
    events = []
    for i, p in enumerate(s.game.players):
        events += s.apply({"type": "special", "player": p, "position": i + 1})
    skipped = [e for e in events if e["event"] == "skipped" and e["province"] == "Noto"]
    assert skipped and skipped[0]["rule"] == "B7"


def test_tray_counts_cannot_exceed_what_is_in_the_tower():
    s = State.new(Game.create(4))
    with pytest.raises(RulesError, match="rule B2"):
        s.apply({"type": "tray", "counts": {"black": 8}})
    with pytest.raises(RulesError, match="unknown colour"):
        s.apply({"type": "tray", "counts": {"pink": 1}})
    s.apply({"type": "tray", "counts": {"black": 7, "green": 10}})
    assert s.supply["black"] == 62 - 25 and s.supply["green"] == 20 and s.tower["black"] == 0


def test_defender_win_with_only_farmers_is_undecided():
    v = battle_verdict("red", "blue", {"red": 1, "green": 3}, farmers_fight=True)
    assert v.outcome == "undecided" and v.holder is None and v.clear_province
    v = battle_verdict("red", "blue", {"red": 2, "blue": 1, "green": 3}, farmers_fight=True)
    assert v.outcome == "defender" and v.to_province == 1  # farmers absorb losses first
    v = battle_verdict("red", "blue", {"red": 2, "blue": 2, "green": 3}, farmers_fight=False)
    assert v.outcome == "undecided" and "green" not in v.counted


def _bot_journal(tmp_path, seed=1):
    game = Game.create(4, seed=seed)
    j = Journal.new(game, tmp_path / "game.jsonl")
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
    tower = TowerDriver(seed)
    for _ in range(150):
        st = j.state.step
        if st is None:
            break
        if st["kind"] == "throw":
            j.apply({"type": "tray", "counts": tower.throw(st["into_tower"])})
        elif st["kind"] == "plan":
            p = [p for p in game.players if p not in j.state.plans][0]
            j.apply(bots[p].decide(j.state, p))
        else:
            j.apply(bots[st["player"]].decide(j.state, st["player"]))
    return j


def test_journal_load_replays_exactly_and_undo(tmp_path):
    j = _bot_journal(tmp_path)
    loaded = Journal.load(tmp_path / "game.jsonl")
    assert loaded.state.to_json() == j.state.to_json()
    last = j.commands[-1]
    before_last = Journal.loads("\n".join(j.lines[:-1]) + "\n").state.to_json()
    assert j.undo() == last
    assert j.state.to_json() == before_last
    again = Journal.load(tmp_path / "game.jsonl")  # the undo line replays too
    assert again.state.to_json() == before_last


def test_edited_or_corrupted_journal_is_refused_with_line_number(tmp_path):
    j = _bot_journal(tmp_path)
    lines = j.lines[:]
    rec = json.loads(lines[5])
    if "command" in rec and rec["command"]["type"] == "tray":
        rec["command"]["counts"] = {}
    else:
        rec["command"]["player"] = "nobody"
    edited = lines[:5] + [json.dumps(rec)] + lines[6:]
    with pytest.raises(JournalError, match="line 6"):
        Journal.loads("\n".join(edited))
    with pytest.raises(JournalError, match="line 3: not valid JSON"):
        Journal.loads("\n".join(lines[:2] + ["{oops"] + lines[3:]))
    with pytest.raises(JournalError, match="line 4"):
        Journal.loads("\n".join(lines[:3] + lines[4:]))


def test_refused_command_leaves_journal_untouched(tmp_path):
    j = Journal.new(Game.create(4), tmp_path / "g.jsonl")
    text = (tmp_path / "g.jsonl").read_text()
    with pytest.raises(RulesError):
        j.apply({"type": "tray", "counts": {"red": 99}})
    assert (tmp_path / "g.jsonl").read_text() == text and len(j.lines) == 1


def _sun() -> dict:
    return json.loads(json.dumps(load_map("sun").source))


@pytest.mark.parametrize("edit, words", [
    (lambda d: d["provinces"]["Settsu"].__setitem__("tax", "seven"), "Settsu: field 'tax'"),
    (lambda d: d["provinces"]["Izu"]["neighbours"].remove("Shima"), "Shima: neighbour Izu"),
    (lambda d: d["provinces"]["Kai"].__setitem__("building_slots", 4), "Kai: field 'building"),
    (lambda d: d["provinces"]["Mutsu"].__setitem__("three_player_excluded", False),
     "three_player_excluded"),
    (lambda d: d["provinces"]["Aki"]["neighbours"].append("Atlantis"), "Aki: neighbour Atlant"),
])
def test_bad_map_file_is_refused_naming_the_field(tmp_path, edit, words):
    d = _sun()
    edit(d)
    path = tmp_path / "map.json"
    path.write_text(json.dumps(d))
    with pytest.raises(MapError, match=words) as err:
        load_map(str(path))
    assert "\n" not in str(err.value)


def test_corrected_map_file_is_accepted_and_embedded_in_the_game(tmp_path):
    d = _sun()
    d["provinces"]["Kai"]["neighbours"].append("Mikawa")
    d["provinces"]["Mikawa"]["neighbours"].append("Kai")
    path = tmp_path / "map.json"
    path.write_text(json.dumps(d))
    g = Game.create(4, map=str(path))
    assert "Mikawa" in g.game_map.provinces["Kai"].neighbours
    assert Game.from_json(json.loads(json.dumps(g.to_json()))).game_map.provinces[
        "Kai"].neighbours == g.game_map.provinces["Kai"].neighbours


def test_moon_map_loads_with_its_exclusions_and_marked_unverified():
    m = load_map("moon")
    assert sorted(x for x, p in m.provinces.items() if p.three_player_excluded) == sorted(
        ["Iwami", "Aki", "Mutsu", "Shimotsuke", "Iyo", "Tosa", "Hitachi", "Shimosa"])
    assert m.provinces["Sanuki"].region == "green" and m.unverified
    with pytest.raises(RulesError, match="rule S2"):
        Game.create(4, map="moon", setup="fixed")
    s = State.new(Game.create(3, map="moon", setup="draft"))
    assert s.pending()["kind"] == "draft" and "Iwami" not in s.owner
