"""Whole bot games with every subset of the expansions: cubes and courtiers are conserved after
every command, a journal replays them exactly (a short seeded slice; thousands of games run in
``bench/bench_expansions.py``)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shogun_tower.rules import Game, State
from shogun_tower.rules.bots import HeuristicBot, RandomBot
from shogun_tower.rules.expansions import EXPANSION_NAMES
from shogun_tower.rules.expansions.invariants import problems
from shogun_tower.rules.journal import Journal
from shogun_tower.rules.runner import play_game

SUBSETS = [c for n in range(len(EXPANSION_NAMES) + 1)
           for c in itertools.combinations(EXPANSION_NAMES, n)]


def _check(s: State, cmd: dict) -> None:
    assert problems(s) == [], cmd


@pytest.mark.parametrize("expansions", SUBSETS, ids=lambda e: "+".join(e) or "base")
@pytest.mark.parametrize("seed", range(4))
def test_bot_games_conserve_cubes_and_courtiers_and_replay(expansions, seed, tmp_path) -> None:
    players = 3 + seed % 3
    game = Game.create(players, seed=seed, setup="draft" if seed % 2 else "fixed",
                       expansions=expansions)
    kinds = (HeuristicBot, RandomBot)
    bots = {p: kinds[(i + seed) % 2](seed * 10 + i) for i, p in enumerate(game.players)}
    record: list[dict] = []
    end = play_game(game, bots, tower_seed=seed, on_command=_check, record=record)
    assert end.phase == "over" and end.result["winners"]
    j = Journal.new(game, tmp_path / "g.jsonl")
    for c in record:
        j.apply(c)
    assert Journal.load(tmp_path / "g.jsonl").state.to_json() == end.to_json()
    if "court" in expansions:
        assert any(c["type"] == "choose" and c["what"] == "court_favour" for c in record)
    if "samurai" in expansions and players == 3:
        assert any(c["type"] == "choose" and c["what"] == "samurai_bonus" for c in record)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4, 5]),
       expansions=st.sampled_from(SUBSETS[1:]), data=st.data())
def test_any_tray_keeps_cubes_and_courtiers_conserved(seed, players, expansions, data) -> None:
    """Any legal tray count (not only the tower model's), physical chance drawn by the bots."""
    game = Game.create(players, seed=seed, expansions=expansions)
    s = State.new(game)
    bots = {p: RandomBot(seed + i) for i, p in enumerate(game.players)}
    for _ in range(300):
        step = s.step
        if step is None:
            break
        if step["kind"] == "throw":
            counts = {c: data.draw(st.integers(0, n), label=c)
                      for c, n in step["max_out"].items()}
            s.apply({"type": "tray", "counts": counts})
        elif step["kind"] == "plan":
            p = next(p for p in game.players if p not in s.plans)
            s.apply(bots[p].decide(s, p))
        else:
            s.apply(bots[step["player"]].decide(s, step["player"]))
        assert problems(s) == []


def test_the_view_data_shows_the_court_and_every_samurai_stack() -> None:
    import json

    from shogun_tower.rules.expansions import views

    s = State.new(Game.create(3, seed=2, expansions=["court", "samurai"]))
    s.apply({"type": "tray", "counts": {"red": 2}})
    v = views(s)
    assert v["court"]["courtiers"]["red"] == {"supply": 5, "hall": 2, "room": 0}
    assert len(v["court"]["places"]) == 3 and v["court"]["pile"] == 18
    assert [p["courtiers"] for p in v["court"]["places"]] == [4, 3, 2]
    assert set(v["samurai"]["stacks"]) == {"black", "red", "yellow"}
    assert v["samurai"]["stacks"]["red"]["next"]["coins"] == 2
    json.dumps(v)  # the page gets it as JSON
