"""The table's loop with typed answers (the terminal test types them in tmux): a person takes
back the move that ended the game and plays it again; against a bot, undo goes back to the
person's own move."""

from __future__ import annotations

import io

import pytest

from shogun_tower.games.shogun2 import Game
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.table import Table, _bot
from shogun_tower.table.console import Console, QuitRequested


def scripted(answers: list[str]) -> Console:
    it = iter(answers)
    return Console(read=lambda prompt: next(it), out=io.StringIO())


def test_the_move_that_ended_the_game_can_be_taken_back() -> None:
    journal = Shogun2Journal.new(Game(seed=5))
    while not journal.state.result:
        state = journal.state
        journal.apply({"move": str(_bot("random", state, state.to_move).choose(state))})
    moves = [c["move"] for c in journal.commands]
    result = journal.state.result
    console = scripted(["undo", moves[-1], ""])
    state = Table(journal, {}, console, narrate=True).run()
    assert state.result == result
    assert [c["move"] for c in journal.commands] == moves
    out = console.out.getvalue()
    assert f"undone: {moves[-1]}" in out
    assert out.count("the game is over: ") == 2  # as resumed, and again after the replay


def test_against_a_bot_undo_goes_back_to_the_persons_move() -> None:
    journal = Shogun2Journal.new(Game(seed=6))
    first = str(journal.state.legal_moves()[0])
    console = scripted([first, "undo", "quit"])
    table = Table(journal, {"red": "random"}, console)
    with pytest.raises(QuitRequested):
        table.run()
    assert journal.commands == []
    assert "undone: " in console.out.getvalue() and f", {first}; white to move" in \
        console.out.getvalue()
