"""`play --game shogun2` in tmux, typed and read off the screen: a person against the bot, a
refused move with its reason, the piece's new number after each move, undo, quit and resume."""

from __future__ import annotations

import json
import pathlib

from terminal.tmux import PLAY, Terminal

from shogun_tower.games.shogun2.journal import Shogun2Journal

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
