"""X3 Military leaders (rulebook 002 "CHEFS MILITAIRES"): placing the leader, the improved actions
and how they combine with events and special cards, the season's move with statues and trophies,
the leader taken back, the end-of-game points (X3.n)."""

from __future__ import annotations

import copy

import pytest
from helpers import DEFAULT_ORDER, chance, cube_totals, quiet_plan, to_planning

from shogun_tower.errors import DataError, RulesError
from shogun_tower.games.shogun.bots import HeuristicBot, RandomBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.files import packaged
from shogun_tower.games.shogun.rules.core.invariants import problems
from shogun_tower.games.shogun.rules.expansions import leaders, views
from shogun_tower.games.shogun.runner import play_game

# The 3-player fixed start (rule S2): black holds Mino, Owari, Sagami, ...; red Echizen, Kaga,
# Ise, ...; yellow Hida, Shinano, Etchu, ... (map_sun.json).
LEADERS = {"black": "Mino", "red": "Echizen", "yellow": "Hida"}
ORDER = ["black", "red", "yellow"]


def choose(s: State, what: str, option: object, player: str | None = None) -> list[dict]:
    st = s.pending()
    assert (st["kind"], st.get("what")) == ("choose", what), st
    events = s.apply({"type": "choose", "player": player or st["player"], "what": what,
                      "option": option})
    if what == "leader_move" and s.pending().get("what") == "leader_statue":
        events += s.apply({"type": "choose", "player": player or st["player"],
                           "what": "leader_statue", "option": True})  # rule X3.5: "may"
    return events


def plan_season(s: State, plans: dict[str, dict] | None = None, event: str | None = None,
                order: list[str] | None = None) -> list[dict]:
    """Plans, the event (default: the first still face up), the specials in ``order`` (the
    i-th player takes position i)."""
    events: list[dict] = []
    event = event or s.events_up[0]
    for p in s.game.players:
        events += s.apply(quiet_plan(s, p, **(plans or {}).get(p, {})))
    events += chance(s, "event", event)
    order = order or ORDER
    events += chance(s, "bid_tie", order)
    for i, p in enumerate(order):
        events += s.apply({"type": "special", "player": p, "position": i + 1})
    return events


def play_actions(s: State, trays: dict[str, dict] | None = None,
                 marches: dict[str, dict] | None = None,
                 moves: dict[str, dict] | None = None, specials: bool = True) -> list[dict]:
    """Run the actions until a question of the expansion (or planning): face-down cards in the
    default order, marches and optional moves (by province) as given, else no move, revolts
    put down (1 army out), special cards used (``specials=False``: stop at their question)."""
    events: list[dict] = []
    while True:
        st = s.pending()
        if st["kind"] == "chance" and st["what"] == "action_card":
            events += chance(s, "action_card",
                             next(a for a in DEFAULT_ORDER if a not in s.action_cards))
        elif st["kind"] == "march":
            events += s.apply(dict((marches or {})[st["player"]], type="march",
                                   player=st["player"]))
        elif st["kind"] == "move":
            move = (moves or {}).get(st["from"], {"to": None, "armies": 0})
            events += s.apply(dict(move, type="move", player=st["player"]))
        elif st["kind"] == "throw":
            counts = (trays or {}).get(st.get("province"), None)
            if counts is None:  # a revolt: the player puts it down (rule V3)
                counts = {st["player"]: 1}
            events += s.apply({"type": "tray", "counts": counts})
        elif st["kind"] == "choose" and st["what"] == "use_special" and specials:
            events += s.apply({"type": "choose", "player": st["player"], "what": "use_special",
                               "option": True})
        else:
            return events


def next_season(s: State, events_up: list[str] | None = None) -> None:
    """Season start in physical mode: (a new year's events,) 5 action cards, the specials."""
    if s.pending()["what"] == "year_events":
        chance(s, "year_events", events_up or ["E5", "E1", "E2", "E3"])
    for a in DEFAULT_ORDER[:5]:
        chance(s, "action_card", a)
    chance(s, "specials", ["P1", "P2", "P3", "P4", "P5"])


def started(plans: dict[str, dict] | None = None, event: str = "E5",
            order: list[str] | None = None, at: dict[str, str] | None = None,
            specials: list[str] | None = None) -> tuple[State, list[dict]]:
    """A 3-player fixed start with leaders, the first spring planned, leaders placed (X3.2)."""
    events_up = [event] + [e for e in ("E5", "E1", "E2", "E3") if e != event][:3]
    s = to_planning(3, expansions=("leaders",), specials=specials, events=events_up)
    events = plan_season(s, plans, event, order)
    for p in order or ORDER:
        events += choose(s, "leader_place", (at or LEADERS)[p], p)
    return s, events


def of(events: list[dict], kind: str, **match: object) -> list[dict]:
    return [e for e in events if e["event"] == kind
            and all(e.get(k) == v for k, v in match.items())]


# ---- X3.1, the phases -------------------------------------------------------------------------
def test_x3_phases_placing_after_the_turn_order_moving_before_the_season_end() -> None:
    g = Game.create(3, expansions=["leaders"])
    assert g.season_phases == ("season_start", "plan", "bids", "specials", "leader_place",
                               "actions", "leader_moves", "season_end")
    # rule X3.5: the move at winter's end too, after its scoring, before the year's end
    assert g.year_end_phases == ("winter", "winter_scoring", "leader_winter_moves",
                                 "year_end", "leader_return")
    every = Game.create(3, expansions=["court", "samurai", "leaders"])
    assert every.season_phases == ("season_start", "reveal_favours", "plan", "bids",
                                   "specials", "leader_place", "samurai_bonus",
                                   "court_actions", "actions", "court_close", "leader_moves",
                                   "season_end")


def test_x3_1_each_player_has_one_leader_and_six_statues() -> None:
    s = State.new(Game.create(4, expansions=["leaders"]))
    me = s.expansions["leaders"]
    assert me["at"] == dict.fromkeys(s.game.players)
    assert me["statue_supply"] == dict.fromkeys(s.game.players, 6)
    assert problems(s) == []


# ---- X3.2, X3.3: placing the leader --------------------------------------------------------------
def test_x3_2_fixed_set_up_leaders_placed_in_the_first_spring_in_turn_order() -> None:
    s = to_planning(3, expansions=("leaders",))
    plan_season(s, order=["yellow", "black", "red"])
    st = s.pending()
    assert (st["what"], st["player"], st["rule"]) == ("leader_place", "yellow", "X3.2")
    assert [o["value"] for o in st["options"]] == sorted(
        x for x, o in s.owner.items() if o == "yellow")
    with pytest.raises(RulesError, match="answer one of"):  # only his own provinces
        choose(s, "leader_place", "Mino")
    choose(s, "leader_place", "Hida")
    assert s.pending()["player"] == "black"
    choose(s, "leader_place", "Mino")
    ev = choose(s, "leader_place", "Echizen")
    assert s.expansions["leaders"]["at"] == {"black": "Mino", "red": "Echizen",
                                             "yellow": "Hida"}
    assert of(ev, "leader_placed", player="red") == [
        {"event": "leader_placed", "player": "red", "province": "Echizen", "rule": "X3.2"}]
    assert s.pending()["kind"] != "choose"  # on to the actions
    # only in the first spring: the next seasons ask no placing
    play_actions(s)
    for p in ["yellow", "black", "red"]:
        choose(s, "leader_move", s.pending()["options"][0]["value"], p)
    next_season(s)
    plan_season(s)
    assert s.pending()["kind"] != "choose" or s.pending()["what"] != "leader_place"


def test_x3_3_draft_each_pick_asks_and_the_last_province_takes_an_unplaced_leader() -> None:
    s = State.new(Game.create(3, chance="auto", setup="draft", seed=4,
                              expansions=["leaders"]))
    asked: dict[str, int] = {}
    forced = []
    while s.phase == "setup" and s.pending()["kind"] != "throw":
        st = s.pending()
        if st["kind"] == "draft":
            s.apply({"type": "draft", "player": st["player"], "take": st["faceup"][0],
                     "group": st["groups"][0]})
            continue
        assert (st["what"], st["rule"]) == ("leader_draft", "X3.3")
        assert s.owner[st["province"]] == st["player"]
        asked[st["player"]] = asked.get(st["player"], 0) + 1
        # black takes it on his 3rd province; red and yellow always say no
        yes = st["player"] == "black" and asked["black"] == 3
        for e in choose(s, "leader_draft", yes):
            if e["event"] == "leader_placed" and e["player"] != st["player"]:
                forced.append(e)
    me = s.expansions["leaders"]
    assert asked["black"] == 3  # never asked again once placed
    assert asked["red"] == asked["yellow"] == 8  # 9 groups: the 9th province is not a question
    assert me["at"]["black"] is not None and s.owner[me["at"]["black"]] == "black"
    for p in ("red", "yellow"):  # rule X3.3: must go to the last province
        assert me["at"][p] is not None and s.owner[me["at"][p]] == p
    assert problems(s) == []


# ---- X3.4: the improved actions, and how they combine ---------------------------------------
def test_x3_4_buildings_cost_one_less_in_the_leaders_province() -> None:
    # each player builds one kind in his leader's province and one elsewhere
    s, ev = started({"black": {"castle": "Mino", "temple": "Owari"},
                    "red": {"temple": "Echizen", "castle": "Kaga"},
                    "yellow": {"theatre": "Hida", "temple": "Shinano"}})
    ev += play_actions(s)
    built = {(e["province"], e["building"]): e["cost"] for e in of(ev, "built")}
    assert built[("Mino", "castle")] == 2 and built[("Owari", "temple")] == 2
    assert built[("Echizen", "temple")] == 1 and built[("Kaga", "castle")] == 3
    assert built[("Hida", "theatre")] == 0 and built[("Shinano", "temple")] == 2
    assert of(ev, "built", province="Hida")[0]["improved_by"] == ["X3.4"]
    assert "improved_by" not in of(ev, "built", province="Kaga")[0]


def test_x3_4_rice_and_tax_give_one_more_after_the_events_bound() -> None:
    # Mino rice 5; Echizen tax 4; Hida tax 4; Owari (no leader) tax 6, capped at 5 by E5,
    # +1 from black's special card P1
    s, ev = started({"black": {"rice": "Mino", "tax": "Owari"},
                    "red": {"tax": "Echizen"}, "yellow": {"tax": "Hida"}}, event="E5")
    ev += play_actions(s)
    got = {(e["province"], e["what"]): e["amount"] for e in of(ev, "collected")}
    assert got[("Mino", "rice")] == 6 and got[("Echizen", "tax")] == 5
    assert got[("Hida", "tax")] == 5 and got[("Owari", "tax")] == 6
    assert "improved_by" not in of(ev, "collected", province="Owari")[0]


def test_x3_4_a5_order_event_cap_then_special_card_then_leader() -> None:
    # Etchu tax 7; event E5 (at most 5); yellow holds P1 (+1); leader +1 -> 7 (decision)
    s, ev = started({"yellow": {"tax": "Etchu"}}, event="E5",
                   order=["yellow", "black", "red"], at=dict(LEADERS, yellow="Etchu"))
    ev += play_actions(s)
    assert of(ev, "collected", province="Etchu")[0]["amount"] == 5 + 1 + 1


def test_x3_4_deploy_6_4_2_for_3_2_1_coins_and_deploy_2_still_moves() -> None:
    s, ev = started({"black": {"deploy5": "Mino"}, "red": {"deploy3": "Echizen"},
                    "yellow": {"deploy1": "Hida"}})
    before = cube_totals(s)
    ev += play_actions(s, moves={"Hida": {"to": "Shinano", "armies": 1}})  # rule A8
    dep = {e["province"]: (e["armies"], e["cost"]) for e in of(ev, "deployed")}
    assert dep["Mino"] == (6, 3) and dep["Echizen"] == (4, 2) and dep["Hida"] == (2, 1)
    assert of(ev, "moved", player="yellow", to="Shinano")
    assert cube_totals(s) == before


def test_x3_4_e12_with_the_leader_deploy_5_places_4_and_deploy_3_places_3() -> None:
    # decision: E12 bounds the card (5 -> 3, 3 -> 2), then the leader adds one
    s, ev = started({"black": {"deploy5": "Mino"}, "red": {"deploy3": "Echizen"},
                    "yellow": {"deploy5": "Shinano"}}, event="E12")
    ev += play_actions(s)
    dep = {e["province"]: e["armies"] for e in of(ev, "deployed")}
    assert dep["Mino"] == 4 and dep["Echizen"] == 3
    assert dep["Shinano"] == 6  # no leader there; yellow's P3 makes it 6 under E12 (rule P3)


def test_x3_4_p3_with_the_leader_places_7_and_declining_p3_leaves_the_leaders_6() -> None:
    # black third in order holds P3; under E12 too: P3 makes the card 6, the leader adds one
    for event, declined in (("E5", 6), ("E12", 4)):
        for use in (True, False):
            s, ev = started({"black": {"deploy5": "Mino"}}, event=event,
                           order=["red", "yellow", "black"])
            play_actions(s, specials=False)
            st = s.pending()
            while (st.get("what"), st.get("card")) == ("use_special", "P4"):  # not here
                choose(s, "use_special", False)
                play_actions(s, specials=False)
                st = s.pending()
            assert (st.get("what"), st.get("player"), st.get("card")) == \
                ("use_special", "black", "P3"), st
            assert (st["armies"], st["extra"]) == (declined, 7 - declined)
            assert "places 7 armies in Mino instead of" in st["question"]
            ev = choose(s, "use_special", use)
            assert of(ev, "deployed", province="Mino")[0]["armies"] == (7 if use else declined)


def test_x3_4_no_improvement_outside_the_leaders_province_and_without_the_expansion() -> None:
    s = to_planning(3)
    ev = plan_season(s, {"black": {"castle": "Mino", "deploy5": "Owari"}})
    ev += play_actions(s)
    assert of(ev, "built", province="Mino")[0]["cost"] == 3
    assert of(ev, "deployed", province="Owari")[0]["armies"] == 5


# ---- X3.5-X3.8: the season's move, statues, trophies, the leader taken back ---------------
def test_x3_5_to_x3_8_a_year_of_moves_statues_trophy_and_a_leader_taken_back() -> None:
    s, ev = started()
    play_actions(s)
    # spring's end, in turn order: black Mino -> Owari (adjacent: statue on Mino, X3.5)
    st = s.pending()
    assert (st["what"], st["player"], st["province"]) == ("leader_move", "black", "Mino")
    assert "Mino" not in [o["value"] for o in st["options"]]  # "another province"
    text = {o["value"]: o["text"] for o in st["options"]}
    assert text["Owari"] == "Owari (adjacent: you may leave a statue in Mino)"
    assert text["Sagami"] == "Sagami (not adjacent: no statue)"
    ev = choose(s, "leader_move", "Owari")
    assert of(ev, "statue_placed") == [{"event": "statue_placed", "player": "black",
                                        "province": "Mino", "rule": "X3.5"}]
    # red Echizen -> Ise is not adjacent: no statue (X3.7)
    ev = choose(s, "leader_move", "Ise")
    assert of(ev, "no_statue")[0]["rule"] == "X3.7" and not of(ev, "statue_placed")
    choose(s, "leader_move", "Shinano")  # yellow Hida -> Shinano: statue on Hida
    me = s.expansions["leaders"]
    assert me["statues"] == {"Mino": "black", "Hida": "yellow"}
    assert me["statue_supply"] == {"black": 5, "red": 6, "yellow": 5}
    assert me["at"] == {"black": "Owari", "red": "Ise", "yellow": "Shinano"}

    # summer: yellow takes Mino (black's statue stays, X3.5); red takes Owari, where black's
    # leader stands: black takes his leader back (X3.8)
    next_season(s)
    plan_season(s, {"yellow": {"battle_a": "Omi"}, "red": {"battle_b": "Ise"}})
    ev = play_actions(s, trays={"Mino": {"yellow": 3}, "Owari": {"red": 2}},
                      marches={"yellow": {"to": "Mino", "armies": 3},
                               "red": {"to": "Owari", "armies": 2}})
    assert s.owner["Mino"] == "yellow" and s.owner["Owari"] == "red"
    assert me["statues"]["Mino"] == "black"
    assert of(ev, "leader_taken_back") == [{"event": "leader_taken_back", "player": "black",
                                            "province": "Owari", "rule": "X3.8"}]
    assert me["at"]["black"] is None and me["taken"] == ["black"]
    assert problems(s) == []
    # summer's end: black is not asked (no leader on the board); red Ise -> Owari (adjacent:
    # statue on Ise); yellow Shinano -> Mino takes black's statue as a trophy (X3.6)
    assert s.pending()["player"] == "red"
    choose(s, "leader_move", "Owari")
    st = s.pending()
    assert st["player"] == "yellow"
    assert {o["value"]: o["text"] for o in st["options"]}["Mino"] == \
        "Mino (takes black's statue; adjacent: you may leave a statue in Shinano)"
    ev = choose(s, "leader_move", "Mino")
    assert of(ev, "trophy") == [{"event": "trophy", "player": "yellow", "province": "Mino",
                                 "statue": "black", "rule": "X3.6"}]
    assert me["trophies"]["yellow"] == ["black"]
    assert me["statues"] == {"Hida": "yellow", "Ise": "red", "Shinano": "yellow"}
    assert problems(s) == []

    # autumn, then winter: red and yellow move at its end too (X3.5), then black places his
    # leader again (X3.8)
    next_season(s)
    plan_season(s)
    play_actions(s)
    for _ in range(2):
        st = s.pending()
        assert st["what"] == "leader_move" and st["player"] != "black"
        choose(s, "leader_move", st["options"][0]["value"])
    winter_moves = []
    while s.pending().get("what") != "leader_return":
        if s.pending().get("what") == "leader_move":
            st = s.pending()
            assert s.season == 3 and len(s.scores) == 1  # after the winter's scoring
            winter_moves.append(st["player"])
            choose(s, "leader_move", st["options"][0]["value"])
            continue
        st = s.pending()
        if st["kind"] == "throw":
            s.apply({"type": "tray", "counts": {st["player"]: 1}})
        elif st["kind"] == "chance":
            s.apply(s.legal_commands()[0]) if s.legal_commands() else chance(
                s, st["what"], sorted(x for x, o in s.owner.items()
                                      if o == st["player"])[:st["count"]])
        else:
            s.apply(s.legal_commands()[0])
    assert winter_moves == [p for p in s.turn_order if me["at"][p] is not None]
    st = s.pending()
    assert (st["what"], st["player"], st["rule"]) == ("leader_return", "black", "X3.8")
    assert s.year == 2 and len(s.scores) == 1  # after the first winter's scoring
    choose(s, "leader_return", "Sagami")
    assert me["at"]["black"] == "Sagami" and me["taken"] == []
    assert problems(s) == []


def test_x3_5_the_player_may_keep_his_statue() -> None:
    s, ev = started()
    play_actions(s)
    s.apply({"type": "choose", "player": "black", "what": "leader_move", "option": "Owari"})
    st = s.pending()
    assert (st["what"], st["player"], st["province"]) == ("leader_statue", "black", "Mino")
    assert "leave one of your statues there (6 left)?" in st["question"]
    assert "trophy" in st["question"] and "rule" not in st["question"]
    assert s.expansions["leaders"]["at"]["black"] == "Mino"  # arrives once he has answered
    ev = s.apply({"type": "choose", "player": "black", "what": "leader_statue",
                  "option": False})
    me = s.expansions["leaders"]
    assert me["statues"] == {} and me["statue_supply"]["black"] == 6
    assert me["at"]["black"] == "Owari"
    assert of(ev, "no_statue") == [{"event": "no_statue", "player": "black",
                                    "province": "Mino", "reason": "the player keeps it",
                                    "rule": "X3.5"}]
    assert problems(s) == []


def test_x3_5_engine_2_games_leave_the_statue_and_skip_the_winters_move() -> None:
    game = Game.create(4, seed=3, expansions=["leaders"], engine=2)
    bots = {p: HeuristicBot(30 + i) for i, p in enumerate(game.players)}
    asked: list[tuple[int, str]] = []

    def watch(s: State, c: dict) -> None:
        if s.step and s.step.get("kind") == "choose":
            asked.append((s.season, s.step["what"]))

    play_game(game, bots, tower_seed=3, on_command=watch)
    assert ("leader_statue" not in {w for _, w in asked})
    assert not [w for season, w in asked if season == 3 and w == "leader_move"]
    game3 = Game.create(4, seed=3, expansions=["leaders"])
    asked.clear()
    play_game(game3, {p: HeuristicBot(30 + i) for i, p in enumerate(game.players)},
              tower_seed=3, on_command=watch)
    assert {w for _, w in asked} >= {"leader_statue", "leader_move"}
    assert [w for season, w in asked if season == 3 and w == "leader_move"]


def test_x3_5_the_bots_keep_a_statue_only_where_it_would_likely_become_a_trophy() -> None:
    s, ev = started()
    play_actions(s)
    st = {"what": "leader_statue", "province": "Mino", "to": "Owari"}
    assert leaders.bot_statue(s, "black", st) is True
    enemy = next(y for y in s.map.provinces["Mino"].neighbours if s.owner.get(y) == "red")
    s.armies[enemy] = s.armies["Mino"] + 5  # outnumbered next door, statues scarce
    s.expansions["leaders"]["statue_supply"]["black"] = 2
    assert leaders.bot_statue(s, "black", st) is False
    s.year, s.season = 2, 2  # the second autumn: one move still to come, two statues are plenty
    assert leaders.bot_statue(s, "black", st) is True


# ---- X3.9: the end of the game ----------------------------------------------------------------
def _last_command_state(seed: int = 3) -> tuple[State, dict]:
    """A bot game with leaders replayed up to its last command (a leader's move at the last
    winter's end, after its scoring, X3.5: then the game ends), and that command."""
    game = Game.create(4, seed=seed, expansions=["leaders"])
    bots = {p: HeuristicBot(seed * 10 + i) for i, p in enumerate(game.players)}
    record: list[dict] = []
    play_game(game, bots, tower_seed=seed, record=record)
    s = State.new(game)
    for c in record[:-1]:
        s.apply(c)
    return s, record[-1]


def test_x3_9_seed_example_seven_points_for_five_statues_and_two_trophies() -> None:
    """The rulebook's picture (lost in the scan) gives 7 VP for one player's statues on the board
    and trophies; reconstructed as 5 statues + 2 trophies, scored through the last winter."""
    s, last = _last_command_state()
    assert last.get("what") in ("leader_move", "leader_statue") and len(s.scores) == 2
    me = s.expansions["leaders"]
    p, q, r = [x for x in s.game.players if x != last["player"]]
    # put the position on the table: p has 5 statues on the board and took 2 (q's and r's)
    for prov in [x for x, c in me["statues"].items() if c == p]:
        del me["statues"][prov]
    for t in me["trophies"].values():
        while p in t:
            t.remove(p)
    free = [x for x in sorted(s.owner) if x not in me["statues"]
            and x not in (last.get("option"), s.pending().get("to"))][:5]
    me["statues"].update(dict.fromkeys(free, p))
    me["statue_supply"][p] = 1
    for other in (q, r):
        if me["statue_supply"][other] == 0:
            gone = next(x for x, c in me["statues"].items() if c == other)
            del me["statues"][gone]
        else:
            me["statue_supply"][other] -= 1
    me["trophies"][p] = [q, r]
    assert problems(s) == []
    vp = dict(s.vp)  # the last winter's own W4 points are in already
    ev = s.apply(last)
    final = of(ev, "final_scored")[0]
    assert final["table"][p] == {"statues": 5, "trophies": 2}
    assert sum(final["table"][p].values()) == 7
    assert s.vp[p] == vp[p] + 7
    assert s.result is not None and s.result["vp"][p] == s.vp[p]
    assert s.scores[-1]["final"][p] == {"statues": 5, "trophies": 2}


def test_x3_9_statues_on_provinces_lost_still_score_for_their_owner() -> None:
    s, last = _last_command_state(seed=5)
    me = s.expansions["leaders"]
    p = s.game.players[0]
    neutral = next(x for x, o in s.owner.items() if o is None and x not in me["statues"])
    if me["statue_supply"][p]:
        me["statue_supply"][p] -= 1
        me["statues"][neutral] = p
    on_board = sum(1 for c in me["statues"].values() if c == p)
    ev = s.apply(last)
    assert of(ev, "final_scored")[0]["table"][p]["statues"] == on_board >= 1


# ---- journal, data, view ------------------------------------------------------------------------
def test_x3_journal_replays_a_leaders_game_exactly_and_undo_restores_a_move(tmp_path) -> None:
    game = Game.create(4, seed=7, setup="draft", expansions=["leaders"])
    bots = {p: RandomBot(70 + i) for i, p in enumerate(game.players)}
    record: list[dict] = []
    end = play_game(game, bots, tower_seed=7, record=record,
                    on_command=lambda s, c: problems(s) == [] or pytest.fail(problems(s)))
    whats = {c.get("what") for c in record}
    assert {"leader_draft", "leader_move"} <= whats
    j = Journal.new(game, tmp_path / "g.jsonl")
    k = next(i for i, c in enumerate(record) if c.get("what") == "leader_move")
    for c in record[:k]:
        j.apply(c)
    before = copy.deepcopy(j.state.to_json())
    j.apply(record[k])
    assert j.state.to_json() != before
    j.undo()
    assert j.state.to_json() == before
    for c in record[k:]:
        j.apply(c)
    assert Journal.load(tmp_path / "g.jsonl").state.to_json() == end.to_json()


def test_x3_data_file_is_validated_and_a_corrected_one_is_played() -> None:
    doc = packaged("leaders.json")
    assert all(v["source"] == "seed" for v in doc["building_cost"].values())
    bad = copy.deepcopy(doc)
    bad["deploy"]["deploy5"]["armies"] = 4
    with pytest.raises(DataError, match="deploy deploy5: field 'armies' must be a whole "
                                        "number 5-20, got 4"):
        Game.create(3, expansions=["leaders"], expansion_data={"leaders": bad})
    bad = copy.deepcopy(doc)
    bad["vp"]["trophy"] = {"value": 2, "source": "decision"}
    with pytest.raises(DataError, match="vp trophy: a decision needs a 'reason'"):
        Game.create(3, expansions=["leaders"], expansion_data={"leaders": bad})
    fixed = copy.deepcopy(doc)
    fixed["statues"] = {"value": 4, "source": "decision", "reason": "a test"}
    s = State.new(Game.create(3, expansions=["leaders"], expansion_data={"leaders": fixed}))
    assert s.expansions["leaders"]["statue_supply"]["red"] == 4


def test_x3_view_shows_leaders_statues_trophies_and_their_points() -> None:
    import json

    s, ev = started()
    play_actions(s)
    choose(s, "leader_move", "Owari")
    v = views(s)["leaders"]
    assert v["leaders"]["black"] == "Owari" and v["statues"] == {"Mino": "black"}
    assert v["vp"]["black"] == 1 and v["statue_supply"]["black"] == 5
    assert v["trophies"] == {"black": [], "red": [], "yellow": []}
    json.dumps(v)


def test_x3_bots_play_leaders_games_with_every_component_conserved() -> None:
    for seed in range(3):
        game = Game.create(3 + seed, seed=seed, setup="draft" if seed % 2 else "fixed",
                           expansions=["leaders"])
        bots = {p: HeuristicBot(seed * 10 + i) for i, p in enumerate(game.players)}
        record: list[dict] = []
        end = play_game(game, bots, tower_seed=seed, record=record,
                        on_command=lambda s, c: problems(s) == [] or pytest.fail(problems(s)))
        assert end.result is not None
        assert [c for c in record if c.get("what") == "leader_move"]
        # bots stay adjacent where they can (X3.5), so statues stand at the end
        assert end.expansions[leaders.NAME]["statues"]
        assert end.scores[-1]["final"]  # and score (X3.9)
