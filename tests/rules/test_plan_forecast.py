"""Rule T6 ahead of time: a plan's actions that will be skipped, foreseen by the same checks the
engine makes when the action comes (``actions.blocker``), and the court's conversions foreseen
likewise; the bots no longer plan conversions that would be skipped."""

from __future__ import annotations

from helpers import DEFAULT_ORDER, chance, quiet_plan, to_planning

from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.rules import Game, RulesError, State
from shogun_tower.games.shogun.rules.core.constants import ACTION_NAMES
from shogun_tower.games.shogun.rules.phases.actions import plan_forecast
from shogun_tower.games.shogun.runner import play_game


def _red(s: State) -> list[str]:
    return sorted(x for x, o in s.owner.items() if o == "red")


def _plan(player: str, bid: object = 0, extra: dict | None = None, **actions: object) -> dict:
    """A plan command as the table sends it (the forecast reads it as it is)."""
    command = {"type": "plan", "player": player, "actions": actions, "bid": bid}
    if extra is not None:
        command["extra"] = extra
    return command


def test_the_forecast_says_what_the_engine_then_skips_in_the_same_words() -> None:
    s = to_planning(3)  # face up in order: castle, temple, theatre, rice, tax
    mine = _red(s)
    s.coins["red"] = 4
    plan = quiet_plan(s, "red", bid=1, castle=mine[0], temple=mine[1])
    # 4 coins - the bid 1 = 3: the castle takes them, the temple and the Nō theatre (a spare
    # province there) come with none left
    said = plan_forecast(s, "red", plan)
    assert said[0] == f"Temple in {mine[1]} is skipped: needs 2 coins"
    for p in s.game.players:
        s.apply(plan if p == "red" else quiet_plan(s, p))
    chance(s, "event", "E5")
    chance(s, "bid_tie", s.pending()["players"])  # red bid 1, the others 0
    events = []
    while s.pending()["kind"] == "special":
        st = s.pending()
        events += s.apply({"type": "special", "player": st["player"],
                           "position": st["positions"][0]})
    while s.pending()["kind"] == "chance" and s.pending()["what"] == "action_card" \
            and len(s.action_cards) == 5:
        events += chance(s, "action_card",
                         next(a for a in DEFAULT_ORDER if a not in s.action_cards))
    skipped = [f"{ACTION_NAMES[e['action']]} in {e['province']} is skipped: {e['reason']}"
               for e in events if e["event"] == "skipped" and e["player"] == "red"
               and e["action"] in s.action_cards[:5]]
    assert skipped == [line for line in said if "may be" not in line]


def test_a_face_down_action_may_be_skipped_and_a_full_province_always_is() -> None:
    s = to_planning(3)
    mine = _red(s)
    s.coins["red"] = 20
    s.buildings[mine[0]] = ["castle", "theatre", "temple"][:s.map.provinces[mine[0]]
                                                           .building_slots]
    assert plan_forecast(s, "red", _plan("red", castle=mine[0])) == [
        f"Castle in {mine[0]} is skipped: no free building slot"]
    # Deploy 5 and Deploy 3 are face down: what is left for them depends on their order
    s.coins["red"] = 3
    assert plan_forecast(s, "red", _plan("red", deploy5=mine[1], deploy3=mine[2])) == [
        f"Deploy 3 in {mine[2]} may be skipped: needs 2 coins"]
    s.supply["red"] = 2
    assert plan_forecast(s, "red", _plan("red", deploy5=mine[1])) == [
        f"Deploy 5 in {mine[1]} may be skipped: needs 5 armies in the supply"]
    s.coins["red"], s.supply["red"] = 0, 20  # Tax on a face-up card pays for what follows
    assert plan_forecast(s, "red", _plan("red", tax=mine[3], temple=mine[4])) == [
        f"Temple in {mine[4]} is skipped: needs 2 coins"]
    assert plan_forecast(s, "red", _plan("red", tax=mine[3], deploy3=mine[4])) == []


def test_a_battle_from_a_province_with_one_army_is_foreseen() -> None:
    s = to_planning(3)
    mine = _red(s)
    s.armies[mine[0]] = 1
    assert plan_forecast(s, "red", _plan("red", battle_a=mine[0])) == [
        f"Battle/Move A in {mine[0]} is skipped: an attack or move needs 2 armies in the "
        f"province"]


def test_the_courts_conversions_are_foreseen_from_the_tray_and_the_courtiers() -> None:
    s = to_planning(3, expansions=("court",), favours=[2, 8, 10])
    mine = _red(s)
    s.tray["red"] = 2
    plan = _plan("red", extra={"convert3": "tower", "convert2": "tower", "convert1": "tower"})
    assert plan_forecast(s, "red", plan) == [
        "Convert 3 from the tray is skipped: only 2 armies of red's lie in the tray",
        "Convert 1 from the tray is skipped: only 0 armies of red's lie in the tray"]
    s.armies[mine[0]] = 3
    assert plan_forecast(s, "red", _plan("red", extra={"convert3": mine[0]})) == [
        f"Convert 3 from {mine[0]} is skipped: {mine[0]} holds 3 armies and at least 1 must "
        f"stay"]
    s.expansions["court"]["supply"]["red"] = 1
    assert plan_forecast(s, "red", _plan("red", extra={"convert1": "tower"})) == []


def test_the_bots_plan_no_conversion_that_would_be_skipped() -> None:
    for seed in range(3):
        game = Game.create(4, seed=seed, expansions=["court"])
        bots = {p: HeuristicBot(seed * 10 + i) for i, p in enumerate(game.players)}
        record: list[dict] = []
        play_game(game, bots, seed, record=record)
        s = State.new(game)
        skipped = [e for c in record for e in s.apply(c) if e.get("event") == "skipped"
                   and str(e.get("action")).startswith("convert")]
        assert skipped == [], skipped[:3]


def test_an_expansion_named_twice_is_refused_in_one_line() -> None:
    import pytest

    with pytest.raises(RulesError, match="expansion 'court' is named twice"):
        Game.create(3, expansions="court,court")


def test_verdicts_say_one_army_and_several_armies_rightly() -> None:
    from shogun_tower.games.shogun.rules.core.battle import battle_verdict, revolt_verdict

    assert battle_verdict("red", None, {"red": 2, "green": 1}, True).text == \
        "red 2 beats farmers 1: 1 army moves in, 1 goes back to the supply"
    assert battle_verdict("red", None, {"red": 4}, True).text == \
        "red 4 beats farmers 0: 4 armies move in"
    assert battle_verdict("red", "blue", {"red": 3, "blue": 1}, False).text == \
        "red 3 beats blue 1: 2 armies move in, the province is red's"
    assert revolt_verdict("red", {"red": 2, "green": 1}).text == \
        "red 2 puts down the revolt (farmers 1): 1 army returns to the province"
