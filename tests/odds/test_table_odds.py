"""The functions `play` and the board page call for odds."""

from __future__ import annotations

import pytest

from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.odds.table import march_odds, throw_odds_of
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.runner import TowerDriver


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


def _seat_at_march(answers: list[str], odds: object = "default"):  # noqa: ANN202
    import io

    from shogun_tower.table.console import Console
    from shogun_tower.table.seats import HumanSeat

    s = _until("march")
    typed = iter(answers)
    out = io.StringIO()

    def read(prompt: str) -> str:
        out.write(prompt + "\n")  # the screen shows the question too
        return next(typed)

    seat = HumanSeat(Console(read, out, clear_screen=False), 0, odds)
    return s, seat.decide(s, s.step["player"], 0), out.getvalue()


def test_odds_at_the_battle_question_then_the_march() -> None:
    s = _until("march")
    st = s.step
    enemy = next(t for t in st["targets"] if s.owner[t] != st["player"])
    _, command, screen = _seat_at_march(["odds", enemy, "1"])
    assert "(type odds for the chance of each battle" in screen
    assert "chance to take it with" in screen and enemy in screen
    expected = march_odds(s)[0]
    assert f"1: {100 * expected.odds.outcomes['attacker']:.0f}%" in screen
    assert command == {"type": "march", "player": st["player"], "to": enemy, "armies": 1}


def test_odds_turned_off_is_not_offered() -> None:
    s = _until("march")
    st = s.step
    enemy = next(t for t in st["targets"] if s.owner[t] != st["player"])
    _, command, screen = _seat_at_march([enemy, "1"], odds=None)
    assert "into which province?" in screen and "odds" not in screen
    assert command["to"] == enemy


def test_play_takes_a_tower_profile_or_no_odds(tmp_path) -> None:  # noqa: ANN001
    import json

    from shogun_tower.cli import build_parser
    from shogun_tower.cli.odds import seat_odds
    from shogun_tower.errors import ShogunError
    from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams

    parser = build_parser()
    assert seat_odds(parser.parse_args(["play", "--no-odds"])) is None
    assert seat_odds(parser.parse_args(["play"])) == DEFAULT
    profile = tmp_path / "mine.json"
    profile.write_text(json.dumps(TowerParams((0.7, 0.7), 0.05).to_profile()))
    args = parser.parse_args(["play", "--tower-profile", str(profile)])
    assert seat_odds(args) == TowerParams((0.7, 0.7), 0.05)
    args = parser.parse_args(["play", "--tower-profile", str(tmp_path / "none.json")])
    with pytest.raises(ShogunError, match="--tower-profile"):
        seat_odds(args)
