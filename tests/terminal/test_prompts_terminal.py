"""The prompts as a person meets them (tmux): a question with one possible answer is not asked
but said, an option is taken by a word of what the prompt prints, and the draft says when
"refresh" is possible."""

from __future__ import annotations

import pathlib

from shogun_tower.cli.commands.play import TABLE_DEFAULTS
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.runner import TowerDriver

from .bot_table import bot_command
from .tmux import PLAY, Terminal


def _until(path: pathlib.Path, seed: int, found, **game: object) -> Journal:  # noqa: ANN001
    """A 3-player game (red a person, the tray typed) played by bots up to red's first step
    that ``found(step)`` accepts."""
    g = Game.create(3, seed=seed, **game)  # type: ignore[arg-type]
    table = dict(TABLE_DEFAULTS, bots=["black", "yellow"], tower="manual", page=False)
    j = Journal.new(g, path, table=table)
    bots = {p: HeuristicBot(i) for i, p in enumerate(g.players)}
    tower = TowerDriver(seed)
    while j.state.step is not None:
        st = j.state.step
        if st.get("player") == "red" and found(st):
            return j
        j.apply(bot_command(j.state, bots, tower))
    raise AssertionError("red never came to that question")


def test_a_question_with_one_answer_is_said_not_asked(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "move.jsonl"
    j = _until(journal, 2, lambda st: st["kind"] == "move" and st["max_armies"] == 1,
               expansions=["samurai"])
    to = j.state.step["targets"][0]
    term = Terminal([*PLAY, "--resume", str(journal)], str(tmp_path), width=80, height=24)
    try:
        assert "move into which province (Enter: no move)?" in term.wait_prompt()
        term.send(to.lower())
        term.wait_for(f"1 army moves into {to} (the only choice)")
        term.wait_for("red moves 1 army from")
        assert "(1-1)" not in term.history()
        term.wait_prompt()
        term.send("quit")
        term.wait_for("The game is saved in")
    finally:
        term.close()


def test_an_option_is_taken_by_a_word_of_what_the_prompt_prints(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "bonus.jsonl"
    _until(journal, 0, lambda st: st.get("what") == "samurai_bonus", expansions=["samurai"])
    term = Terminal([*PLAY, "--resume", str(journal)], str(tmp_path), width=80, height=24)
    try:
        question = term.wait_prompt()
        assert question == "2 coins / 1 army into the tray / none: leave the stack as it is?"
        assert "turn your Samurai card 1 and take one of its bonuses?" in \
            " ".join(term.screen().split())
        term.send("armies")  # a word the prompt prints ("1 a" and "1" would do too)
        term.wait_for("red takes the Samurai bonus: 1 army into the tray")
        term.wait_prompt()
        term.send("quit")
        term.wait_for("The game is saved in")
    finally:
        term.close()


def test_the_draft_says_when_refresh_is_possible(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "draft.jsonl"
    j = _until(journal, 3, lambda st: st["kind"] == "draft", setup="draft")
    st = j.state.step
    term = Terminal([*PLAY, "--resume", str(journal)], str(tmp_path), width=80, height=24)
    try:
        question = term.wait_prompt()
        assert not st["can_refresh"] and "refresh" not in question
        term.send("refresh")  # not possible at a first pick: said why, in one line
        term.wait_for("refresh is not possible now: a player may put the two face-up cards")
        assert "only when he faces the same two as at his last pick" in \
            " ".join(term.screen().split())
        term.send("the pile")
        assert "place which army group there" in term.wait_prompt()
        group = max(st["groups"])
        term.send(f"{group} armies")  # as the question says it
        term.wait_for("red starts in")
        term.wait_prompt()
        term.send("quit")
        term.wait_for("The game is saved in")
    finally:
        term.close()
    taken = Journal.load(journal).commands[len(j.commands)]
    assert taken == {"type": "draft", "player": "red", "take": "pile", "group": group}
