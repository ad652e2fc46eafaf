"""The functions `play` and the board page call for odds (issue 15 item 2)."""

from __future__ import annotations

import pytest

from shogun_tower.odds.table import march_odds, throw_odds_of
from shogun_tower.rules import Game, State
from shogun_tower.rules.bots import HeuristicBot
from shogun_tower.rules.runner import TowerDriver


def _until(kind: str, seed: int = 4) -> State:
    game = Game.create(5, seed=seed)
    s, tower = State.new(game), TowerDriver(seed)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
    while s.step and s.step["kind"] != kind or (kind == "throw" and s.step["reason"] == "setup"):
        st = s.step
        if st["kind"] == "throw":
            s.apply({"type": "tray", "counts": tower.throw(st["into_tower"])})
        elif st["kind"] == "plan":
            for p in game.players:
                if p not in s.plans:
                    s.apply(bots[p].decide(s, p))
        else:
            s.apply(bots[st["player"]].decide(s, st["player"]))
    return s


def test_march_odds_cover_every_battle_target_and_army_count() -> None:
    s = _until("march")
    st = s.step
    before = s.to_json()
    found = march_odds(s)
    assert s.to_json() == before  # the game itself is untouched
    battles = [t for t in st["targets"] if s.owner[t] != st["player"]]
    assert {(m.target, m.armies) for m in found} == {
        (t, n) for t in battles for n in range(1, st["max_armies"] + 1)}
    for m in found:
        assert sum(m.odds.outcomes.values()) == pytest.approx(1.0)
    # more armies never make the attack less likely to succeed
    for t in battles:
        wins = [m.odds.outcomes["attacker"] for m in found if m.target == t]
        assert wins == sorted(wins)


def test_the_odds_of_the_march_are_the_odds_of_the_throw_it_causes() -> None:
    s = _until("march")
    st = s.step
    chosen = march_odds(s)[-1]
    s.apply({"type": "march", "player": st["player"], "to": chosen.target,
             "armies": chosen.armies})
    while s.step["kind"] == "choose":
        s.apply({"type": "choose", "player": s.step["player"], "what": s.step["what"],
                 "option": True})
    thrown = throw_odds_of(s)
    assert thrown is not None
    assert thrown.outcomes == pytest.approx(chosen.odds.outcomes)
    assert thrown.into_tower == chosen.odds.into_tower


def test_no_odds_for_the_set_up_throw() -> None:
    game = Game.create(5, seed=1)
    s = State.new(game)
    assert s.step["kind"] == "throw" and throw_odds_of(s) is None
