"""The base-game corrections of engine 2: rules S2, E3/E4, P3-P5, B8 and the map metadata."""

from __future__ import annotations

import json

import pytest
from helpers import chance, cube_totals, quiet_plan, to_planning

from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game, RulesError, State, load_map
from shogun_tower.games.shogun.rules.core.files import DATA_DIR


def _to_actions(s: State, first: list[str], plans: dict[str, dict] | None = None,
                event: str = "E5") -> None:
    """Plans (all bid 0, so the tie order is ``first`` + the rest), the event, the specials
    taken in position order: the i-th player of the tie order takes position i."""
    plans = plans or {}
    for p in s.game.players:
        s.apply(quiet_plan(s, p, **plans.get(p, {})))
    chance(s, "event", event)
    order = first + [p for p in s.game.players if p not in first]
    chance(s, "bid_tie", order)
    for i, p in enumerate(order):
        s.apply({"type": "special", "player": p, "position": i + 1})


# ---- rule S2 -----------------------------------------------------------------------------
def test_s2_five_player_fixed_setup_gives_player_d_bitchu_not_etchu() -> None:
    s = State.new(Game.create(5))
    d = s.game.players[3]
    assert (s.owner["Bitchu"], s.armies["Bitchu"]) == (d, 2)
    assert s.owner["Etchu"] is None


def test_s2_an_engine_1_game_keeps_etchu_so_old_saved_games_replay() -> None:
    s = State.new(Game.create(5, engine=1))
    assert (s.owner["Etchu"], s.armies["Etchu"]) == (s.game.players[3], 2)
    assert s.owner["Bitchu"] is None


# ---- rules E3/E4 in a revolt ---------------------------------------------------------------
@pytest.mark.parametrize("engine, extra", [(2, 1), (1, 0)])
def test_e3_castle_gives_the_extra_defender_army_in_a_revolt_too(engine: int,
                                                                 extra: int) -> None:
    s = State.new(Game.create(4, chance="physical", engine=engine))
    s.apply({"type": "tray", "counts": {}})
    chance(s, "year_events", ["E3", "E1", "E5", "E9"])
    for a in ["tax", "rice", "castle", "temple", "theatre"]:
        chance(s, "action_card", a)
    chance(s, "specials", ["P2", "P3", "P4", "P5", "P1"])  # nobody's +1 tax interferes
    prov = sorted(x for x, o in s.owner.items() if o == "black")[0]
    s.buildings[prov] = ["castle"]
    s.building_supply["castle"] -= 1
    s.markers[prov] = 1
    armies = s.armies[prov]
    _to_actions(s, ["black"], {"black": {"tax": prov}}, event="E3")
    st = s.pending()
    assert st["kind"] == "throw" and st["reason"] == "revolt"
    assert st["into_tower"]["black"] == armies + extra  # rules E3/E4 (revised), V2
    assert st["into_tower"]["green"] == 1


# ---- rules P3-P5: each special card may be declined --------------------------------------
@pytest.mark.parametrize("use, placed", [(True, 6), (False, 5)])
def test_p3_deploy5_asks_the_holder_whether_to_place_six(use: bool, placed: int) -> None:
    s = to_planning(4, order=["deploy5", "rice", "castle", "temple", "theatre"],
                    specials=["P3", "P1", "P2", "P4", "P5"])
    prov = sorted(x for x, o in s.owner.items() if o == "black")[0]
    before = s.armies[prov]
    _to_actions(s, ["black"], {"black": {"deploy5": prov}})
    st = s.pending()
    assert st["kind"] == "choose" and st["what"] == "use_special" and st["card"] == "P3"
    assert st["player"] == "black" and st["rule"] == "P3"
    assert sorted(c["option"] for c in s.legal_commands()) == [False, True]
    s.apply({"type": "choose", "player": "black", "what": "use_special", "option": use})
    assert s.armies[prov] == before + placed


def test_p3_an_engine_1_game_uses_the_card_without_asking() -> None:
    s = State.new(Game.create(4, chance="physical", engine=1))
    s.apply({"type": "tray", "counts": {}})
    chance(s, "year_events", ["E5", "E1", "E2", "E3"])
    for a in ["deploy5", "rice", "castle", "temple", "theatre"]:
        chance(s, "action_card", a)
    chance(s, "specials", ["P3", "P1", "P2", "P4", "P5"])
    prov = sorted(x for x, o in s.owner.items() if o == "black")[0]
    before = s.armies[prov]
    _to_actions(s, ["black"], {"black": {"deploy5": prov}})
    assert s.pending()["kind"] != "choose" and s.armies[prov] == before + 6


def _border(s: State, p: str) -> tuple[str, str]:
    for x in sorted(x for x, o in s.owner.items() if o == p and s.armies[x] >= 2):
        for y in sorted(s.map.provinces[x].neighbours):
            if s.owner.get(y) not in (None, p):
                return x, y
    raise AssertionError("no border")


@pytest.mark.parametrize("p4, p5", [(True, True), (True, False), (False, True),
                                    (False, False)])
def test_p4_p5_attacker_then_defender_decide_before_any_cube_moves(p4: bool, p5: bool) -> None:
    s = to_planning(4, order=["battle_a", "rice", "castle", "temple", "theatre"],
                    specials=["P4", "P5", "P1", "P2", "P3"])
    frm, to = _border(s, "black")
    d = s.owner[to]
    _to_actions(s, ["black", d], {"black": {"battle_a": frm}})
    n = s.armies[frm] - 1
    defending = s.armies[to]
    s.apply({"type": "march", "player": "black", "to": to, "armies": n})
    board = cube_totals(s)
    st = s.pending()
    assert (st["kind"], st["player"], st["card"]) == ("choose", "black", "P4")
    armies = f"{n} {'army' if n == 1 else 'armies'}"
    held = f"{defending} {'army' if defending == 1 else 'armies'}"
    assert st["question"] == (f"you attack {d}'s {to} ({held}) from {frm} with {armies}: use "
                              f"your special card “+1 attacking army” (1 more army from your "
                              f"supply)?")
    assert s.armies[frm] == n + 1 and s.armies[to] == defending  # nothing moved yet
    s.apply({"type": "choose", "player": "black", "what": "use_special", "option": p4})
    st = s.pending()
    assert (st["kind"], st["player"], st["card"]) == ("choose", d, "P5")
    # the defender sees the attack (who, from where, how many) before he answers
    assert st["question"].startswith(f"black attacks your {to} ({held}) from {frm} with "
                                     f"{armies}: use your special card “+1 defending army”")
    s.apply({"type": "choose", "player": d, "what": "use_special", "option": p5})
    st = s.pending()
    assert st["kind"] == "throw"
    thrown_black = n + p4 + 7  # the set-up throw left 7 of each colour inside
    assert s.tower["black"] == thrown_black and s.tower[d] == defending + p5 + 7
    assert cube_totals(s) == board


def test_a_use_special_answer_must_be_yes_or_no() -> None:
    s = to_planning(4, order=["deploy5", "rice", "castle", "temple", "theatre"],
                    specials=["P3", "P1", "P2", "P4", "P5"])
    prov = sorted(x for x, o in s.owner.items() if o == "black")[0]
    _to_actions(s, ["black"], {"black": {"deploy5": prov}})
    with pytest.raises(RulesError, match="rule P3") as err:
        s.apply({"type": "choose", "player": "black", "what": "use_special", "option": 1})
    assert "true" in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(RulesError, match="red"):
        s.apply({"type": "choose", "player": "red", "what": "use_special", "option": True})


# ---- rule B8: a cube spilled by accident stays in the tray ---------------------------------
def test_b8_a_spilled_cube_moves_from_tower_to_tray_and_is_journaled(tmp_path) -> None:
    game = Game.create(4, chance="physical", seed=4)
    j = Journal.new(game, tmp_path / "g.jsonl")
    j.apply({"type": "tray", "counts": {}})
    s = j.state
    before = cube_totals(s)
    waiting = s.pending()
    events = j.apply({"type": "spilled", "counts": {"red": 1}})
    assert events == [{"event": "spilled", "counts": {"red": 1}, "rule": "B8"}]
    assert (s.tower["red"], s.tray["red"]) == (6, 1)
    assert s.pending() == waiting and cube_totals(s) == before
    again = Journal.load(tmp_path / "g.jsonl")
    assert again.state.tray["red"] == 1 and again.state.tower["red"] == 6
    assert json.loads((tmp_path / "g.jsonl").read_text().splitlines()[-1])["command"] == \
        {"type": "spilled", "counts": {"red": 1}}


def test_b8_the_spilled_cube_goes_into_the_next_throw() -> None:
    s = to_planning(4, order=["battle_a", "rice", "castle", "temple", "theatre"],
                    specials=["P1", "P2", "P3", "P4", "P5"])
    s.apply({"type": "spilled", "counts": {"yellow": 1}})
    frm, to = _border(s, "black")
    _to_actions(s, ["black"], {"black": {"battle_a": frm}})
    s.apply({"type": "march", "player": "black", "to": to, "armies": 1})
    while s.pending()["kind"] == "choose":
        st = s.pending()
        s.apply({"type": "choose", "player": st["player"], "what": st["what"], "option": False})
    assert s.pending()["from_tray"] == {"yellow": 1}


def test_b8_spilled_is_refused_during_a_throw_and_beyond_the_tower() -> None:
    s = State.new(Game.create(4, chance="physical"))
    with pytest.raises(RulesError, match="rule B8.*count the spilled cube with its tray"):
        s.apply({"type": "spilled", "counts": {"red": 1}})
    s.apply({"type": "tray", "counts": {}})
    with pytest.raises(RulesError, match="only 7 are in the tower"):
        s.apply({"type": "spilled", "counts": {"red": 8}})
    with pytest.raises(RulesError, match="at least one cube"):
        s.apply({"type": "spilled", "counts": {}})


# ---- map metadata ----------------------------------------------------------------------------
@pytest.mark.parametrize("side", ["sun", "moon"])
def test_map_files_agree_that_the_sea_routes_are_unverified(side: str) -> None:
    doc = json.loads((DATA_DIR / f"map_{side}.json").read_text())
    flagged = any(u.startswith("sea_routes") for u in doc["unverified"])
    assert doc["sea_routes_verified"] is (not flagged) is False
    assert load_map(side).sea_routes_verified is False


def test_a_map_that_claims_verified_sea_routes_it_also_lists_as_unverified_is_read_cautiously(
        ) -> None:
    doc = json.loads((DATA_DIR / "map_sun.json").read_text())
    doc["sea_routes_verified"] = True
    assert load_map(doc).sea_routes_verified is False
    doc["unverified"] = []
    assert load_map(doc).sea_routes_verified is True
    doc["sea_routes_verified"] = "yes"
    with pytest.raises(Exception, match="sea_routes_verified"):
        load_map(doc)
