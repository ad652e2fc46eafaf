"""The assistant leading a game: seats, secret planning, throws, undo, the journal."""

from __future__ import annotations

import io
import pathlib

import pytest

from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.runner import TowerDriver
from shogun_tower.table.conductor import TableGame
from shogun_tower.table.console import CLEAR_SCREEN, Console, QuitRequested
from shogun_tower.table.equipment import open_tower
from shogun_tower.table.seats import BotSeat, HumanSeat


class ScriptedInput:
    """Answers typed by the players, in order; the end of the script ends the session."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def _table(tmp_path: pathlib.Path, humans: tuple[str, ...], *lines: str,
           players: int = 3, tower: object = None, chance: str = "auto"
           ) -> tuple[TableGame, io.StringIO, ScriptedInput]:
    typed = ScriptedInput(*lines)
    out = io.StringIO()
    console = Console(typed, out, clear_screen=True)
    game = Game.create(players, seed=11, chance=chance)
    journal = Journal.new(game, tmp_path / "game.jsonl")
    seats = {p: HumanSeat(console, 1) if p in humans else BotSeat("heuristic", i)
             for i, p in enumerate(game.players)}
    table = TableGame(journal, seats, tower or TowerDriver(3), console,
                      table=HumanSeat(console, 1))
    return table, out, typed


def test_a_whole_bot_game_is_led_to_the_end_and_journaled(tmp_path: pathlib.Path) -> None:
    table, out, _ = _table(tmp_path, (), players=4)
    state = table.run()
    assert state.result is not None and state.result["winners"]
    replayed = Journal.load(tmp_path / "game.jsonl").state
    assert replayed.to_json() == state.to_json()
    assert table.record.battles > 0
    assert table.record.throws[0]["reason"] == "setup"
    assert table.record.cubes_applied == sum(sum(t["out"].values()) for t in table.record.throws)
    assert "game over" in out.getvalue()


def test_plans_are_typed_in_private_and_bots_plans_never_shown(tmp_path: pathlib.Path) -> None:
    # red is a person: Enter once the set-up's results are read, Enter when alone at the
    # screen, take the suggestion, Enter: this is the plan.
    table, out, typed = _table(tmp_path, ("red",), "", "", "y", "")
    with pytest.raises(QuitRequested):
        table.run()
    text = out.getvalue()
    # the results stay until a key is pressed: nothing was cleared before that question
    assert "Press Enter to go on" in typed.prompts[0]
    assert "red, press Enter when ready" in typed.prompts[1]
    private = text.split(CLEAR_SCREEN)
    # the plan was shown only between two clears of the screen (scrollback included)
    with_plan = [i for i, part in enumerate(private) if "The assistant's suggestion" in part]
    assert with_plan and 0 < with_plan[0] < len(private) - 1
    assert "red has planned" in private[with_plan[0] + 1]
    assert "black has planned" in text  # a bot's plan is announced, never shown
    assert text.count("The assistant's suggestion") == 1
    state = table.state
    assert "red" in state.plans and "black" in state.plans


def test_a_plan_is_checked_entry_by_entry_and_kept_across_a_refusal(tmp_path: pathlib.Path
                                                                     ) -> None:
    state = Journal.new(Game.create(3, seed=11)).state
    provinces = sorted(p for p, o in state.owner.items() if o == "red")
    cards = (provinces + ["1", "2", "3", "4"])[:10]
    # castle: a province; temple: the same one again (refused at once, rule T3), then the rest;
    # the bid 7 is no card (refused, never taken as the 7th card), then chest 0
    typed = ["", "", "n", cards[0], cards[0], *cards[1:], "7", "0",
             "rice", "-",        # empty the Rice space: the plan is refused, entries kept
             "rice", cards[3],   # the Rice space again
             ""]                 # Enter: this is my plan
    table, out, prompts = _table(tmp_path, ("red",), *typed)
    with pytest.raises(QuitRequested):
        table.run()
    text = out.getvalue()
    assert "refused: red: castle" not in text and "rule T3" not in text
    # refused right at the second entry, naming the card
    assert f"refused: red: card {cards[0]} is planned" in text
    temple = [i for i, p in enumerate(prompts.prompts) if p.strip().startswith("Temple")]
    assert len(temple) == 2  # the Temple space asked again after its refusal
    assert "'7' is not one of" in text
    assert "refused: red: fill 11 of the 11 spaces" in text
    after = text.split("refused: red: fill")[0].rsplit("Castle", 1)[1]
    assert cards[1] in after  # the refused plan was shown with every entry kept
    plan = table.state.plans["red"]
    assert plan["actions"]["castle"] == cards[0] and plan["actions"]["rice"] == cards[3]
    assert plan["bid"] == 0


def test_undo_takes_back_to_the_last_persons_decision(tmp_path: pathlib.Path) -> None:
    table, out, _ = _table(tmp_path, ("red",), "", "", "y", "", "undo")
    with pytest.raises(QuitRequested):
        table.run()
    state = table.state
    assert "red" not in state.plans and "yellow" not in state.plans
    assert "black" in state.plans  # planned before red: stays
    lines = (tmp_path / "game.jsonl").read_text().splitlines()
    # the bots' commands after red's plan (yellow's plan, maybe a special) went back too
    assert sum('"undo":true' in line for line in lines) >= 2
    assert "taken back: red's plan" in out.getvalue()
    assert Journal.load(tmp_path / "game.jsonl").state.to_json() == state.to_json()


def test_typed_tray_counts_are_checked_against_the_tower(tmp_path: pathlib.Path) -> None:
    typed = ScriptedInput("black 9", "black 6, red 5, yellow 7, green 8")
    out = io.StringIO()
    console = Console(typed, out, clear_screen=False)
    game = Game.create(3, seed=11)
    journal = Journal.new(game, tmp_path / "game.jsonl")
    seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
    with open_tower("manual", console) as kit:
        table = TableGame(journal, seats, kit.tower, console, table=HumanSeat(console, 1))
        with pytest.raises(QuitRequested):
            table.run()
    text = out.getvalue()
    assert "Throw into your tower: black 7, red 7, yellow 7, farmers 10" in text
    assert "refused: tray: 9 black cubes cannot fall out, only 7" in text
    assert table.record.throws[0]["out"] == {"black": 6, "red": 5, "yellow": 7, "green": 8}


def test_physical_cards_are_reported_by_the_table(tmp_path: pathlib.Path) -> None:
    # Rule S4: this year's 4 events; T1: 5 action cards face up; T2: the special cards' order.
    table, out, typed = _table(tmp_path, (), "E9, e10, E11, E12", "tax", "rice", "castle",
                               "99", "deploy5", "temple", "P5,P4,P3,P2,P1", chance="physical")
    with pytest.raises(QuitRequested):
        table.run()
    state = table.state
    assert state.events_up == ["E9", "E10", "E11", "E12"]
    assert state.action_cards == ["tax", "rice", "castle", "deploy5", "temple"]
    assert state.specials == ["P5", "P4", "P3", "P2", "P1"]
    assert "'99' is not one of" in out.getvalue()  # asked again, nothing applied
    assert "Draw the next action card: one of" in out.getvalue()


def test_the_draft_lists_refresh_when_it_is_possible_and_its_refusal_names_it() -> None:
    from shogun_tower.games.shogun.bots import RandomBot
    from shogun_tower.games.shogun.rules import State

    s = State.new(Game.create(3, seed=2, setup="draft"))
    n = 0
    while not (s.step["kind"] == "draft" and s.step["can_refresh"]):
        st = s.step
        s.apply(RandomBot(200 + n).decide(s, st["player"]) if st["kind"] == "draft"
                else s.legal_commands()[0])
        n += 1
    typed = ScriptedInput("nowhere", "refresh")
    out = io.StringIO()
    player = s.step["player"]
    command = HumanSeat(Console(typed, out, clear_screen=False), 1).decide(s, player, n)
    assert command == {"type": "draft", "player": player, "take": "refresh"}
    assert "the pile, or refresh: two new face-up cards)?" in typed.prompts[0]
    assert "'nowhere' is not one of: " in out.getvalue()
    assert "pile or refresh" in out.getvalue()


class _SimulatedTray:
    """The simulated tower's link as _tell_unknown asks it: what is still inside."""

    def __init__(self, inside: dict[str, int]) -> None:
        self.inside = inside

    def sim_tower(self) -> dict[str, int]:
        return dict(self.inside)


def test_unknown_cubes_on_the_simulated_tower_are_told_by_the_simulation(
        tmp_path: pathlib.Path) -> None:
    # A bot game on the simulated tower: nobody looks at a tray, the simulation does. An
    # unknown cube, and one the sensor took for another colour, are normal outcomes there: the
    # tray's truth goes on. Only a count with cubes missed or counted twice stops the game.
    from shogun_common.colours import CUBE_COLOURS
    from shogun_tower.errors import ShogunError

    table, out, _typed = _table(tmp_path, ())
    table.simulated_tower = True
    table.narrate = True
    before = dict.fromkeys(CUBE_COLOURS, 2)
    into = {"red": 3, "purple": 2}
    table._inside_before = before
    # fell: red 3, purple 1, black 1 (inside: one purple, one black fewer, all red thrown out)
    table.link = _SimulatedTray({**before, "red": 2, "purple": 3, "black": 1})
    fell = {**dict.fromkeys(CUBE_COLOURS, 0), "red": 3, "purple": 1, "black": 1}
    counted = {**dict.fromkeys(CUBE_COLOURS, 0), "red": 3, "unknown": 2}
    assert table._tell_unknown(into, dict(counted)) == fell
    assert table.record.unknown == 2
    assert "2 cubes not told by colour; the tray shows" in out.getvalue()
    # the purple taken for black, the black unknown: the same cubes, the tray's colours
    taken = {**dict.fromkeys(CUBE_COLOURS, 0), "red": 3, "black": 1, "unknown": 1}
    assert table._tell_unknown(into, taken) == fell
    # a cube missed (or one counted twice): the game stops, saying so
    for wrong in ({"red": 2, "unknown": 2}, {"red": 3, "unknown": 3}):
        with pytest.raises(ShogunError, match="missed or counted twice"):
            table._tell_unknown(into, {**dict.fromkeys(CUBE_COLOURS, 0), **wrong})
