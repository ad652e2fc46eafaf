"""Saved games keep working: journals written by older engines load and replay to the state they
recorded (fixtures in tests/rules/fixtures, see its README)."""

from __future__ import annotations

import json
import pathlib

import pytest

from shogun_tower.games.shogun.journal import Journal

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
V1 = sorted(p.stem for p in FIXTURES.glob("v1_*.jsonl"))
V2 = sorted(p.stem for p in FIXTURES.glob("v2_*.jsonl"))


def test_the_fixtures_are_there() -> None:
    assert len(V1) == 5 and len(V2) == 2


@pytest.mark.parametrize("name", V1 + V2)
def test_a_saved_journal_replays_to_its_recorded_final_state(name: str) -> None:
    j = Journal.load(FIXTURES / f"{name}.jsonl")
    expected = json.loads((FIXTURES / f"{name}.final.json").read_text())
    got = j.state.to_json()
    assert {k: got[k] for k in expected} == expected


def test_a_new_journal_records_engine_version_and_expansions(tmp_path: pathlib.Path) -> None:
    from shogun_tower.games.shogun.rules import Game
    from shogun_tower.games.shogun.rules.core.game import ENGINE

    j = Journal.new(Game.create(4, seed=3), tmp_path / "g.jsonl")
    header = json.loads((tmp_path / "g.jsonl").read_text().splitlines()[0])
    assert header["version"] == 2 and header["engine"] == ENGINE == 3
    assert header["expansions"] == [] and header["game"]["engine"] == ENGINE
    assert j.game.engine == ENGINE


def test_a_state_field_added_later_does_not_break_a_saved_game(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The digest covers commands and a checkpoint, not the whole to_json()."""
    from shogun_tower.games.shogun.bots import HeuristicBot
    from shogun_tower.games.shogun.rules import Game, State
    from shogun_tower.games.shogun.runner import play_game

    game = Game.create(4, seed=21)
    record: list[dict] = []
    play_game(game, {p: HeuristicBot(i) for i, p in enumerate(game.players)}, 3, record=record)
    j = Journal.new(game, tmp_path / "g.jsonl")
    for c in record[:60]:
        j.apply(c)
    j.undo()
    before = j.state.to_json()
    plain = State.to_json
    monkeypatch.setattr(State, "to_json", lambda self: {**plain(self), "a_new_field": [1, 2]})
    again = Journal.load(tmp_path / "g.jsonl")
    assert {k: v for k, v in again.state.to_json().items() if k != "a_new_field"} == before


def test_an_edited_command_in_a_v2_journal_is_refused(tmp_path: pathlib.Path) -> None:
    from shogun_tower.errors import JournalError
    from shogun_tower.games.shogun.rules import Game

    j = Journal.new(Game.create(4, seed=3, chance="physical"), tmp_path / "g.jsonl")
    j.apply({"type": "tray", "counts": {"black": 2}})
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    lines[1] = lines[1].replace('"black":2', '"black":1')
    (tmp_path / "g.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match="line 2: digest mismatch"):
        Journal.load(tmp_path / "g.jsonl")


def test_a_resumed_v1_journal_goes_on_with_v1_digests(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text((FIXTURES / "v1_physical_midgame.jsonl").read_text())
    j = Journal.load(path)
    assert j.version == 1 and j.game.engine == 1
    s = j.state
    from helpers import quiet_plan

    j.apply(quiet_plan(s, "black"))
    again = Journal.load(path)
    assert again.version == 1 and len(again.commands) == len(j.commands)
    assert json.loads(path.read_text().splitlines()[0])["version"] == 1


def test_a_journal_from_a_newer_engine_is_a_one_line_error(tmp_path: pathlib.Path) -> None:
    from shogun_tower.errors import JournalError
    from shogun_tower.games.shogun.rules import Game

    Journal.new(Game.create(4, seed=3), tmp_path / "g.jsonl")
    lines = (tmp_path / "g.jsonl").read_text().splitlines()
    lines[0] = lines[0].replace('"engine":3', '"engine":9')
    (tmp_path / "g.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match="update shogun-tower") as err:
        Journal.load(tmp_path / "g.jsonl")
    assert "\n" not in str(err.value)


def test_a_state_saved_before_a_field_existed_loads_with_that_fields_start_value() -> None:
    from shogun_tower.games.shogun.rules import Game, State

    s = State.new(Game.create(4, seed=3))
    d = s.to_json()
    del d["expansions"]
    again = State.from_json(d)
    assert again.expansions == {} and again.to_json() == s.to_json()
