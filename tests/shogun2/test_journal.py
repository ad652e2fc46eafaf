"""The journal of a game of Ravensburger's Shogun: Shogun's own journal with this game's state —
saved move by move, undo, replay to the same position, an edited move refused with its line."""

from __future__ import annotations

import json
import pathlib

import pytest

from shogun_tower import games
from shogun_tower.errors import JournalError
from shogun_tower.games.shogun2 import Game
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.notation import format_position


def test_moves_undo_and_replay(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "g.jsonl"
    j = Shogun2Journal.new(Game(seed=31, turned=180, first="red"), path)
    for _ in range(6):
        j.apply({"move": str(j.state.legal_moves()[0])})
    before = format_position(j.state.position)
    j.apply({"move": str(j.state.legal_moves()[-1])})
    j.undo()
    assert format_position(j.state.position) == before
    loaded = Shogun2Journal.load(path)
    assert format_position(loaded.state.position) == before
    assert loaded.state.table == j.state.table and loaded.game.turned == 180
    assert loaded.state.to_move == j.state.to_move
    assert games.journal_game(path) == "shogun2"


def test_an_edited_move_is_refused_with_its_line(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "g.jsonl"
    j = Shogun2Journal.new(Game(seed=32), path)
    for _ in range(3):
        j.apply({"move": str(j.state.legal_moves()[0])})
    lines = path.read_text().splitlines()
    rec = json.loads(lines[2])
    other = [str(m) for m in Shogun2Journal.loads("\n".join(lines[:2]) + "\n").state
             .legal_moves()]
    rec["command"]["move"] = next(m for m in other if m != rec["command"]["move"])
    lines[2] = json.dumps(rec, sort_keys=True, separators=(",", ":"))
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match="line 3: digest mismatch"):
        Shogun2Journal.load(path)
