"""A new expansion with a new kind of decision plugs in from one declaration: this module's.

The toy expansion below asks the first player of each season to pick a number (a decision kind
of its own, ``toy_pick``) and says so in its words. Nothing else in the host knows it: the
engine applies and refuses its command, the bots answer it, a person at the console is asked
for it, the page says what the game waits for, the narration tells its event, the invariants
check its state. (The few files an expansion of the catalogue adds are listed in
docs/expansions.md: its module, its data file, its page panel and, if it has one, its terminal
board.)
"""

from __future__ import annotations

import io

import pytest

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.bots import HeuristicBot, RandomBot
from shogun_tower.games.shogun.narrate import describe as narrate
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.invariants import problems
from shogun_tower.games.shogun.rules.core.map import load_map
from shogun_tower.games.shogun.rules.core.ruleset import (
    DecisionKind,
    Expansion,
    Phase,
    RuleSet,
)
from shogun_tower.games.shogun.rules.engine import BASE
from shogun_tower.games.shogun.runner import play_game
from shogun_tower.games.shogun.view import pending_text
from shogun_tower.table.console import Console
from shogun_tower.table.seats import HumanSeat

NUMBERS = (1, 2, 3)


def _ask(s: State, ev: list[dict]) -> dict | None:
    me = s.expansions["toy"]
    if me["asked"] == [s.year, s.season]:
        return None
    me["asked"] = [s.year, s.season]
    return {"kind": "toy_pick", "player": s.turn_order[0], "rule": "X9.1"}


def _pick(s: State, cmd: dict, ev: list[dict]) -> None:
    if cmd.get("number") not in NUMBERS:
        raise RulesError("X9.1", f"pick one of {NUMBERS}, not {cmd.get('number')!r}")
    s.expansions["toy"]["picked"].append(cmd["number"])
    ev.append({"event": "toy_picked", "player": cmd["player"], "number": cmd["number"]})
    s.step = None


TOY = Expansion(
    name="toy", rule="X9", title="Toy",
    phases=(Phase("toy_phase", _ask, after="specials"),),
    decisions=(DecisionKind(
        "toy_pick", "toy_pick", _pick,
        legal=lambda s: [{"type": "toy_pick", "player": s.step["player"], "number": n}
                         for n in NUMBERS],
        describe=lambda s, st: f"{st['player']} picks a toy number", rule="X9.1"),),
    new_state=lambda s: {"asked": None, "picked": []},
    narration={"toy_picked": lambda e: f"{e['player']} picks the number {e['number']}"},
    view=lambda s: {"title": "Toy", "picked": list(s.expansions["toy"]["picked"])},
    invariants=lambda s: [] if all(n in NUMBERS for n in s.expansions["toy"]["picked"])
    else ["a toy number out of range"],
)


def toy_game(seed: int = 1) -> Game:
    return Game(load_map("sun"), ("black", "red", "yellow", "purple"), seed=seed,
                expansions=("toy",), expansion_data={}, rules=RuleSet.build(BASE, (TOY,)))


def until_toy(s: State, bot: RandomBot) -> None:
    while s.step is not None and s.step["kind"] != "toy_pick":
        if s.step["kind"] == "throw":
            s.apply({"type": "tray", "counts": {}})
        elif s.step["kind"] == "plan":
            p = next(p for p in s.game.players if p not in s.plans)
            s.apply(bot.decide(s, p))
        else:
            s.apply(bot.decide(s, s.step["player"]))


@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot])
def test_the_bots_play_a_whole_game_with_a_new_decision_kind(bot):
    game = toy_game()
    seen: list[dict] = []
    final = play_game(game, {p: bot(i) for i, p in enumerate(game.players)}, tower_seed=1,
                      on_command=lambda s, c: seen.append(c) or problems(s) == [] or 1 / 0)
    assert final.result is not None and problems(final) == []
    picks = [c for c in seen if c["type"] == "toy_pick"]
    assert len(picks) == 6  # once a season, three seasons a year, two years
    assert final.expansions["toy"]["picked"] == [c["number"] for c in picks]


def test_the_engine_the_page_and_the_narration_read_the_declaration():
    s = State.new(toy_game())
    until_toy(s, RandomBot(3))
    who = s.step["player"]
    assert pending_text(s) == f"{who} picks a toy number"
    assert len(s.legal_commands()) == 3
    before = s.to_json()
    with pytest.raises(RulesError, match="rule X9.1: pick one of"):
        s.apply({"type": "toy_pick", "player": who, "number": 7})
    with pytest.raises(RulesError, match="turn"):
        s.apply({"type": "toy_pick", "player": "nobody", "number": 1})
    assert s.to_json() == before
    events = s.apply({"type": "toy_pick", "player": who, "number": 2})
    assert [narrate(e, s) for e in events if e["event"] == "toy_picked"] == \
        [f"{who} picks the number 2"]


def test_a_person_is_asked_for_a_decision_kind_the_console_has_no_prompt_for():
    s = State.new(toy_game())
    until_toy(s, RandomBot(5))
    who = s.step["player"]
    out = io.StringIO()
    answers = iter(["3"])
    seat = HumanSeat(Console(lambda prompt: next(answers), out, clear_screen=False))
    command = seat.decide(s, who, 0)
    assert command == {"type": "toy_pick", "player": who, "number": 3}
    assert f"{who}: {who} picks a toy number" in out.getvalue()
    assert "rule X9.1" not in out.getvalue()  # rule IDs are for the docs, not the players
