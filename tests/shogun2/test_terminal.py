"""`play --game shogun2` in tmux, typed and read off the screen: a person against the bot, a
refused move with its reason, the piece's new number after each move, undo, quit and resume."""

from __future__ import annotations

import json
import pathlib

from terminal.tmux import PLAY, Terminal, with_exit_status

from shogun_tower.games.shogun2 import Game, State
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.games.shogun2.table import _bot

PROMPT = "white to move"


def test_a_person_against_the_bot_undo_quit_and_resume(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "game.jsonl"
    term = Terminal([*PLAY, "--game", "shogun2", "--seed", "21", "--bots", "red",
                     "--bot", "random", "--no-page", "--journal", str(journal)],
                    cwd=str(tmp_path))
    try:
        term.wait_for(PROMPT)
        assert "P/S: a white piece/Shogun" in term.screen()
        term.send("help")
        term.wait_for("A move is the square of a piece and the square it goes to")
        term.send("e1-e4")
        screen = term.wait_for("refused:")
        assert "the white Shogun on e1 shows" in screen and "it goes exactly" in screen
        term.send("moves")
        screen = term.wait_for("white can play:")
        first = screen.split("white can play:", 1)[1].split(",")[0].strip()
        term.send(first)
        screen = term.wait_for("red (bot):")
        mine = [ln for ln in screen.splitlines() if ln.startswith(f"white: {first}")]
        assert mine and "now shows" in mine[0]
        bot_line = next(ln for ln in screen.splitlines() if ln.startswith("red (bot):"))
        assert "now shows" in bot_line
        term.wait_prompt()
        assert len(Shogun2Journal.load(journal).commands) == 2
        term.send("undo")
        term.wait_for("undone:")
        term.wait_prompt()
        assert Shogun2Journal.load(journal).commands == []
        term.send(first)
        term.wait_for("red (bot):")
        term.wait_prompt()
        term.send("quit")
        term.wait_for("continue with")
    finally:
        term.close()
    saved = Shogun2Journal.load(journal)
    assert len(saved.commands) == 2
    header = json.loads(journal.read_text().splitlines()[0])
    assert header["game"]["name"] == "shogun2" and header["table"]["bots"] == ["red"]

    term = Terminal([*PLAY, "--resume", str(journal)], cwd=str(tmp_path))
    try:
        screen = term.wait_for(PROMPT)
        assert "resumed" in screen and "2 moves replayed" in screen
        legal = [str(m) for m in saved.state.legal_moves()]
        term.send(legal[0])
        term.wait_for("red (bot):")
        term.wait_prompt()
        term.send("quit")
        term.wait_for("continue with")
    finally:
        term.close()
    again = Shogun2Journal.load(journal)
    assert len(again.commands) == 4
    assert again.commands[2]["move"] == legal[0]


def _seed_whose_shogun_shows_1() -> int:
    return next(seed for seed in range(100)
                if State.new(Game(seed=seed)).position.dials[4] == 1)  # e1


def test_the_example_is_a_legal_move_and_ctrl_c_exits_130_after_saving(
        tmp_path: pathlib.Path) -> None:
    """With the white Shogun showing 1, e1-e3 is no move: the prompt's example comes from the
    position. `a1a4x` is no notation; Ctrl-C saves and exits 130, as any interrupted program."""
    seed = _seed_whose_shogun_shows_1()
    start = State.new(Game(seed=seed))
    journal = tmp_path / "game.jsonl"
    term = Terminal(with_exit_status([*PLAY, "--game", "shogun2", "--seed", str(seed),
                                      "--no-page", "--journal", str(journal)]),
                    cwd=str(tmp_path), width=80, height=24)
    try:
        prompt = term.wait_prompt()
        example = prompt.split("(e.g. ", 1)[1].split(";", 1)[0]
        assert example in {str(m) for m in start.legal_moves()} and example != "e1-e3"
        term.send("a1a4x")
        term.wait_for("refused: 'a1a4x' is not a move: type the square of a piece and the "
                      f"square it goes to, e.g. {example}")
        term.send(example)
        term.wait_for(f"white: {example}")
        term.wait_prompt()
        term.key("C-c")
        term.wait_for("stopped: Ctrl-C. The game is saved in")
        term.wait_for("[exit status 130]")
    finally:
        term.close()
    assert [c["move"] for c in Shogun2Journal.load(journal).commands] == [example]


def test_a_finished_game_waits_for_enter_and_says_what_else_it_takes(
        tmp_path: pathlib.Path) -> None:
    """The end of the game stays on the screen (and the page) until Enter; a word typed there
    is not taken silently."""
    journal = tmp_path / "over.jsonl"
    saved = Shogun2Journal.new(Game(seed=5), journal,
                               table={"bots": [], "bot": "random", "page": False})
    while not saved.state.result:
        state = saved.state
        saved.apply({"move": str(_bot("random", state, state.to_move).choose(state))})
    term = Terminal(with_exit_status([*PLAY, "--resume", str(journal)]), cwd=str(tmp_path),
                    width=80, height=24)
    try:
        term.wait_for("the game is over: undo takes back the last move, Enter ends:")
        term.send("yes")
        term.wait_for("the game is over: type undo to take back the last move, or press Enter "
                      "to end")
        assert "[exit status" not in term.screen()
        term.send("")
        term.wait_for("the same board again: shogun-tower play --game shogun2 --seed 5")
        term.wait_for("[exit status 0]")
    finally:
        term.close()
