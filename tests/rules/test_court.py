"""X1 the Imperial Court (rulebook 002 "COUR IMPERIALE"): the rulebook's worked examples by name,
the plan spaces and cards, the favours (X1.n)."""

from __future__ import annotations

import copy

import pytest
from helpers import chance, cube_totals, quiet_plan, through_specials, to_planning

from shogun_tower.errors import DataError
from shogun_tower.games.shogun.rules import Game, RulesError, State
from shogun_tower.games.shogun.rules.core.files import packaged
from shogun_tower.games.shogun.rules.expansions import court

# Rulebook 002's players: Jens blue, Dirk red, Anika purple, Barbara yellow (and black).
JENS, DIRK, ANIKA, BARBARA = "blue", "red", "purple", "yellow"
TURN = [BARBARA, DIRK, JENS, ANIKA, "black"]  # Jens before Anika in turn order


def _court(s: State) -> dict:
    return s.expansions["court"]


def _example_table() -> State:
    """Five players; the rulebook's set-up tray (X1.3 example); Barbara holds Kai with 4 armies."""
    s = to_planning(5, expansions=("court",), favours=[2, 8, 10],
                    setup_tray={"green": 2, JENS: 2, DIRK: 2, ANIKA: 1})
    assert s.owner["Kai"] is None  # neutral in the 5-player fixed start: Barbara's in the seed
    s.owner["Kai"] = BARBARA
    s.armies["Kai"] = 4
    s.supply[BARBARA] -= 4
    return s


def test_x1_phases_reveal_before_planning_and_court_actions_before_the_actions() -> None:
    g = Game.create(4, expansions=["court"])
    assert g.season_phases == ("season_start", "reveal_favours", "plan", "bids", "specials",
                               "court_actions", "actions", "court_close", "season_end")
    both = Game.create(4, expansions=["samurai", "court"])  # rule X2.6, whatever the order
    assert both.expansions == ("court", "samurai")
    assert both.season_phases.index("samurai_bonus") < both.season_phases.index(
        "court_actions")


def test_x1_3_set_up_throw_jens_two_dirk_two_anika_one_courtier() -> None:
    s = State.new(Game.create(5, chance="physical", expansions=["court"]))
    supply = dict(s.supply)
    s.apply({"type": "tray", "counts": {"green": 2, JENS: 2, DIRK: 2, ANIKA: 1}})
    me = _court(s)
    assert {p: n for p, n in me["hall"].items() if n} == {JENS: 2, DIRK: 2, ANIKA: 1}
    assert me["supply"][JENS] == 5 and me["supply"][ANIKA] == 6
    assert s.supply[JENS] == supply[JENS] + 2  # the armies go back to their supply
    assert s.tray == dict.fromkeys(s.tray, 0)


def test_x1_5_favours_are_placed_by_number_10_on_four_8_on_three_2_on_two() -> None:
    s = _example_table()
    assert _court(s)["places"] == [[10, 4], [8, 3], [2, 2]]


def _converted(events: list[dict], player: str) -> list[tuple[str, str, int]]:
    return [(e["action"], e["from"], e["courtiers"]) for e in events
            if e["event"] == "courtiers" and e["player"] == player and e["rule"] == "X1.7"]


def test_x1_7_barbara_converts_three_armies_from_kai_and_one_stays() -> None:
    s = _example_table()
    supply = s.supply[BARBARA]
    events = through_specials(s, TURN, {BARBARA: {"extra": {"convert3": "Kai",
                                                            "convert2": 1, "convert1": 2}}})
    assert _converted(events, BARBARA) == [("convert3", "Kai", 3)]
    assert s.armies["Kai"] == 1  # "Il ne lui reste donc plus qu'une seule armée"
    assert s.supply[BARBARA] == supply + 3


def test_x1_7_barbara_converts_two_armies_from_the_tray() -> None:
    s = _example_table()
    s.apply({"type": "spilled", "counts": {BARBARA: 2}})  # two of hers lie in the tray
    before = cube_totals(s)
    supply = s.supply[BARBARA]
    events = through_specials(s, TURN, {BARBARA: {"extra": {"convert3": 1,
                                                            "convert2": "tower",
                                                            "convert1": 2}}})
    assert _converted(events, BARBARA) == [("convert2", "the tray", 2)]
    assert s.tray[BARBARA] == 0 and s.supply[BARBARA] == supply + 2
    assert cube_totals(s) == before


def test_x1_8_favour_order_barbara_then_dirk_then_jens_before_anika() -> None:
    s = _example_table()
    s.apply({"type": "spilled", "counts": {BARBARA: 2}})
    dirk = next(x for x, o in sorted(s.owner.items()) if o == DIRK and s.armies[x] >= 2)
    anika = next(x for x, o in sorted(s.owner.items()) if o == ANIKA and s.armies[x] >= 2)
    through_specials(s, TURN, {
        BARBARA: {"extra": {"convert3": "Kai", "convert2": "tower", "convert1": 1}},
        DIRK: {"extra": {"convert3": 1, "convert2": 2, "convert1": dirk}},
        ANIKA: {"extra": {"convert3": 1, "convert2": 2, "convert1": anika}}})
    me = _court(s)
    # Barbara 5 (Kai 3 + tray 2), Dirk 3 (2 + 1), Jens 2, Anika 2 (1 + 1)
    st = s.pending()
    assert (st["kind"], st["what"], st["player"]) == ("choose", "court_favour", BARBARA)
    assert me["room"][BARBARA] == 5 and me["hall"] == {BARBARA: 0, DIRK: 3, JENS: 2,
                                                       ANIKA: 2, "black": 0}
    assert [o["value"] for o in st["options"]] == [10, 8, 2, 0]
    s.apply({"type": "choose", "player": BARBARA, "what": "court_favour", "option": 8})
    assert me["supply"][BARBARA] == 2 + 3  # she gives back 3 courtiers for #8
    st = s.pending()
    assert (st["player"], [o["value"] for o in st["options"]]) == (DIRK, [2, 0])
    events = s.apply({"type": "choose", "player": DIRK, "what": "court_favour", "option": 2})
    applied = next(e for e in events if e["event"] == "favour_applied")
    assert (applied["player"], applied["effect"], applied["amount"]) == (DIRK, "rice", 1)
    assert [(e["player"], e["courtiers"]) for e in events if e["event"] == "audience"] == \
        [(JENS, 2), (ANIKA, 2)]
    # Jens then Anika move their courtiers to the room; neither can pay 4 for #10
    assert me["places"] == [] and me["gone"][-1] == 10
    assert me["hall"] == {BARBARA: 2, DIRK: 1, JENS: 2, ANIKA: 2, "black": 0}  # X1.10
    assert me["room"] == dict.fromkeys(s.game.players, 0)


def test_x1_4_the_three_extra_spaces_must_be_filled_when_the_hand_allows() -> None:
    s = to_planning(4, expansions=("court",))
    plan = quiet_plan(s, "black")
    plan["extra"]["convert1"] = None
    with pytest.raises(RulesError, match="rule T3: black: fill 14 of the 14 spaces"):
        s.apply(plan)
    plan["extra"] = {"convert3": "tower", "convert2": "tower", "convert1": "tower"}
    plan["actions"]["castle"], spare = "tower", plan["actions"]["castle"]
    with pytest.raises(RulesError, match="3 tower cards in hand, 4 planned"):
        s.apply(plan)
    plan["actions"]["castle"] = spare
    s.apply(plan)


def test_x1_4_a_tower_card_on_a_base_space_does_nothing_and_as_bid_is_a_chest_of_0() -> None:
    s = to_planning(4, order=["castle", "rice", "tax", "temple", "theatre"],
                    expansions=("court",))
    plan = quiet_plan(s, "black", bid=None, extra={"convert3": 0, "convert2": 1,
                                                   "convert1": 2})
    plan["bid"] = "tower"
    plan["actions"]["castle"] = "tower"
    s.apply(plan)
    assert s.plans["black"]["bid"] == 0 and s.plans["black"]["bid_card"] == "tower"
    events: list[dict] = []
    for p in s.game.players[1:]:
        events += s.apply(quiet_plan(s, p, bid=1))
    events += chance(s, "event", "E5")
    assert {"event": "bid", "player": "black", "bid": 0} in events  # pays nothing
    chance(s, "bid_tie", ["red", "yellow", "purple"])
    st = s.pending()
    assert st["kind"] == "special" and st["player"] == "red"  # chest 1 bids before chest 0
    for i, p in enumerate(["red", "yellow", "purple", "black"]):
        events += s.apply({"type": "special", "player": p, "position": i + 1})
    assert not any(e.get("player") == "black" and e["event"] in ("built", "skipped")
                   and e.get("action") == "castle" for e in events)


def test_x1_7_an_action_that_cannot_be_done_fully_is_abandoned() -> None:
    s = to_planning(4, expansions=("court",))
    small = next(x for x, o in sorted(s.owner.items()) if o == "black" and s.armies[x] <= 3)
    armies = s.armies[small]
    events: list[dict] = []
    for p in s.game.players:
        extra = {"convert3": small, "convert2": "tower", "convert1": 1} if p == "black" \
            else None
        events += s.apply(quiet_plan(s, p, extra=extra))
    chance(s, "event", "E5")
    chance(s, "bid_tie", list(s.game.players))
    for i, p in enumerate(s.game.players):
        events += s.apply({"type": "special", "player": p, "position": i + 1})
    skipped = [e for e in events if e["event"] == "skipped" and e["player"] == "black"
               and e["rule"] == "X1.7"]
    assert {e["action"] for e in skipped} == {"convert3", "convert2"}
    assert s.armies[small] == armies and _court(s)["supply"]["black"] == 7


def _take(s: State, player: str, favour: int) -> list[dict]:
    return s.apply({"type": "choose", "player": player, "what": "court_favour",
                    "option": favour})


def _court_with(favours: list[int], courtiers: dict[str, int], event: str = "E5") -> State:
    """A 4-player court game at its first favour question; ``courtiers`` from the set-up."""
    s = to_planning(4, order=["battle_a", "tax", "rice", "castle", "temple"],
                    expansions=("court",), favours=favours, setup_tray=courtiers)
    through_specials(s, list(s.game.players), event=event)
    return s


def test_e1_a_no_theatre_built_with_favour_13_calms_its_province() -> None:
    """Rules E1/E2 (decision): any Nō theatre built this season removes a revolt marker, also
    one built free with favour #13."""
    s = _court_with([13, 1, 2], {"red": 4}, event="E1")
    red = sorted(x for x, o in s.owner.items() if o == "red" and not s.buildings[x])[0]
    s.markers[red] = 2
    _take(s, "red", 13)
    events = s.apply({"type": "choose", "player": "red", "what": "court_favour_use",
                      "option": red})
    assert "theatre" in s.buildings[red] and s.markers[red] == 1
    assert {"event": "marker_removed", "province": red, "rule": "E1"} in events
    # without the calming event the marker stays; engine 2 games kept it too
    s = _court_with([13, 1, 2], {"red": 4}, event="E2")
    s.event = "E3"
    s.markers[red] = 2
    _take(s, "red", 13)
    s.apply({"type": "choose", "player": "red", "what": "court_favour_use", "option": red})
    assert s.markers[red] == 2


def test_x1_9_favour_18_protects_its_holder_from_both_battles_this_season() -> None:
    s = _court_with([18, 1, 2], {"red": 4})
    st = s.pending()
    assert st["player"] == "red" and 18 in [o["value"] for o in st["options"]]
    _take(s, "red", 18)
    st = s.pending()
    assert (st["what"], st["favour"]) == ("court_favour_use", 18)
    s.apply({"type": "choose", "player": "red", "what": "court_favour_use", "option": True})
    assert _court(s)["protected"]["red"] == ["battle_a", "battle_b"]
    red = next(x for x, o in s.owner.items() if o == "red")
    assert court.march_blocked(s, "black", "battle_a", red)
    assert not court.march_blocked(s, "red", "battle_a", red)
    assert not court.march_blocked(s, "black", "battle_a",
                                   next(x for x, o in s.owner.items() if o is None))


def test_x1_9_favour_4_is_kept_and_cancels_the_next_revolt_marker() -> None:
    s = _court_with([4, 1, 2], {"red": 4})
    _take(s, "red", 4)  # no marker on red's provinces yet: kept
    assert _court(s)["kept"]["red"] == [4]
    red = next(x for x, o in sorted(s.owner.items()) if o == "red")
    events: list[dict] = []
    assert court.marker_placed(s, "red", red, events) is True
    assert _court(s)["kept"]["red"] == [] and events[0]["effect"] == "remove_marker"
    assert court.marker_placed(s, "red", red, events) is False


def test_x1_9_favour_12_takes_a_neutral_province_without_a_battle() -> None:
    s = _court_with([12, 1, 2], {"red": 4})
    _take(s, "red", 12)
    st = s.pending()
    neutral = next(x for x, o in sorted(s.owner.items()) if o is None)
    assert neutral in [o["value"] for o in st["options"]]
    before = cube_totals(s)
    s.apply({"type": "choose", "player": "red", "what": "court_favour_use",
             "option": neutral})
    assert (s.owner[neutral], s.armies[neutral]) == ("red", 3)
    assert cube_totals(s) == before


def test_x1_9_favour_1_cancels_the_event_if_its_taker_wants() -> None:
    s = _court_with([1, 2, 3], {"red": 2})
    assert s.event == "E5"
    st = s.pending()
    assert [o["value"] for o in st["options"]] == [1, 0]  # 2 courtiers: the 2-place only
    _take(s, "red", 1)
    st = s.pending()
    assert (st["what"], st["question"]) == ("court_favour_use",
                                            "favour #1: cancel this season's event E5?")
    s.apply({"type": "choose", "player": "red", "what": "court_favour_use", "option": True})
    assert s.event is None and s.event_card_effect() is None


def test_x1_11_the_favour_file_has_21_cards_each_marked_seed_or_decision() -> None:
    doc = packaged("court_favours.json")
    assert [c["number"] for c in doc["cards"]] == list(range(1, 22))
    assert {c["number"] for c in doc["cards"] if c["source"] == "seed"} == {1, 4, 12}
    assert all(c["reason"] for c in doc["cards"] if c["source"] == "decision")
    assert {c["number"] for c in doc["cards"] if c["timing"] == "kept"} == {4, 10, 11, 18}


def test_x1_11_the_favour_file_is_validated_at_load() -> None:
    doc = packaged("court_favours.json")
    bad = copy.deepcopy(doc)
    bad["cards"][6]["effect"] = "gold"
    with pytest.raises(DataError, match="card #7: field 'effect' 'gold'"):
        Game.create(4, expansions=["court"], expansion_data={"court": bad})
    bad = copy.deepcopy(doc)
    bad["cards"][16]["params"] = {"building": "pagoda"}
    with pytest.raises(DataError, match="card #17: params 'building'"):
        court.load_data(bad)
    bad = copy.deepcopy(doc)
    del bad["cards"][20]
    with pytest.raises(DataError, match="21 favour cards"):
        court.load_data(bad)
    fixed = copy.deepcopy(doc)
    fixed["cards"][2]["params"]["amount"] = 3  # a player with the real card corrects #3
    g = Game.create(4, expansions=["court"], expansion_data={"court": fixed})
    assert g.expansion_data["court"]["cards"][2]["params"]["amount"] == 3
    assert Game.from_json(g.to_json()).expansion_data == g.expansion_data


def test_x1_5_reported_favour_draws_must_be_three_different_cards_of_the_pile() -> None:
    s = to_planning(4, expansions=("court",), favours=[5, 6, 7])
    assert _court(s)["pile"] == [n for n in range(1, 22) if n not in (5, 6, 7)]
    s2 = State.new(Game.create(4, chance="physical", expansions=["court"]))
    s2.apply({"type": "tray", "counts": {}})
    chance(s2, "year_events", ["E5", "E1", "E2", "E3"])
    for a in ["castle", "rice", "tax", "temple", "theatre"]:
        chance(s2, "action_card", a)
    chance(s2, "specials", ["P1", "P2", "P3", "P4", "P5"])
    assert s2.pending()["what"] == "favours" and s2.pending()["count"] == 3
    for bad in ([1, 1, 2], [1, 2], [1, 2, 22]):
        with pytest.raises(RulesError, match="rule X1.5: favours: report a list of 3"):
            chance(s2, "favours", bad)


def test_x1_9_a_protected_players_provinces_are_no_battle_targets() -> None:
    from shogun_tower.games.shogun.rules.phases.actions import march_targets

    s = _court_with([18, 1, 2], {"red": 4})
    _take(s, "red", 18)
    frm = next(x for x, o in sorted(s.owner.items()) if o == "black"
               and any(s.owner.get(y) == "red" for y in s.map.provinces[x].neighbours))
    before = march_targets(s, "black", frm, "battle_a")
    s.apply({"type": "choose", "player": "red", "what": "court_favour_use", "option": True})
    after = march_targets(s, "black", frm, "battle_b")
    assert any(s.owner[y] == "red" for y in before)
    assert not any(s.owner[y] == "red" for y in after)
    assert after == [y for y in before if s.owner[y] != "red"]


def test_x1_9_kept_protection_is_offered_again_in_a_later_season() -> None:
    from shogun_tower.games.shogun.bots import HeuristicBot
    from shogun_tower.games.shogun.runner import play_game

    found = []
    for seed in range(12):
        g = Game.create(4, seed=seed, expansions=["court"])
        record: list[dict] = []

        def watch(s: State, cmd: dict, record: list[dict] = record) -> None:
            st = s.step or {}
            if st.get("what") == "court_favour_use" and st["question"].startswith("kept"):
                record.append({"season": (s.year, s.season), "favour": st["favour"]})

        play_game(g, {p: HeuristicBot(seed * 7 + i) for i, p in enumerate(g.players)}, seed,
                  on_command=watch)
        found += record
    assert found and all(f["favour"] in (10, 11, 18) for f in found)
