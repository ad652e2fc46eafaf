"""`hint` and `help` (and `?`, `h`) typed at the questions of the three games in tmux, read off
the screen: a battle plan with its odds, a throw's odds, an expansion's choice with what it
gains, a plan with the spaces it fills; what each question is and the words that work there;
a topic of the rules; at 80 columns nothing is cut inside a word."""

from __future__ import annotations

import pathlib
import re
from collections.abc import Callable

from shogun_tower.cli.commands.play import TABLE_DEFAULTS
from shogun_tower.games.knizia_samurai.state import SamuraiGame, SamuraiJournal
from shogun_tower.games.shogun import hints
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.help import book
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.runner import TowerDriver
from shogun_tower.games.shogun2 import hints as shogun2_hints
from shogun_tower.games.shogun2.journal import Shogun2Journal
from shogun_tower.helpbook import topic_lines

from .bot_table import bot_command
from .tmux import PLAY, Terminal


def flat(text: str) -> str:
    """The words on the screen, whatever line they were cut onto."""
    return re.sub(r"\s+", " ", text).strip()


def shown(term: Terminal, lines: list[str]) -> None:
    """Every line of ``lines`` is on the screen (cut between words where it is long)."""
    screen = flat(term.screen())
    for line in lines:
        assert flat(line) in screen, f"{line!r} not on the screen:\n{term.screen()}"


def until(path: pathlib.Path, stop: Callable[[dict], bool], expansions: tuple[str, ...] = (),
          seed: int = 4) -> Journal:
    """A 3-player game at the table (red a person, black and yellow bots, tray counts typed),
    played by bots up to the first step ``stop`` accepts."""
    game = Game.create(3, seed=seed, expansions=list(expansions))
    table = dict(TABLE_DEFAULTS, bots=["black", "yellow"], tower="manual", page=False)
    j = Journal.new(game, path, table=table)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
    tower = TowerDriver(seed)
    while j.state.step is not None:
        if stop(j.state.pending()):
            return j
        j.apply(bot_command(j.state, bots, tower))
    raise AssertionError("the game never came to that question")


def test_a_battle_plan_with_its_odds_and_the_help_of_the_battle_question(
        tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "march.jsonl"
    j = until(journal, lambda st: st["kind"] == "march" and st["player"] == "red")
    expected = hints.hint(j.state, len(j.commands))
    assert "% to take it" in " ".join(expected) or "move" in " ".join(expected)
    term = Terminal([*PLAY, "--resume", str(journal), "--no-clear"], str(tmp_path), width=80,
                    height=40)
    try:
        assert term.wait_prompt().startswith("into which province?")
        term.send("hint")
        term.wait_for(expected[0].split(":")[0])
        shown(term, expected)
        term.send("?")
        term.wait_for("This question: Battle/Move")
        shown(term, ["This question: Battle/Move: move armies into a neighbouring province",
                     "odds: at a Battle/Move question: the chance to take each target"])
        # the coach cuts its lines between words to fit the 80 columns (tmux joins none)
        help_lines = term.screen().split("This question:", 1)[1].splitlines()[:-1]
        assert help_lines and all(len(line) < 80 for line in help_lines), help_lines
        term.send("h battles")
        term.wait_for("Battles in the tower")
        shown(term, topic_lines(book(j.game).find("battles"), 79))
        term.send("quit")
        term.wait_for("continue with")
    finally:
        term.close()
    assert len(Journal.load(journal).commands) == len(j.commands), "help and hint change nothing"


def test_a_throws_odds_at_the_tray_question(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "throw.jsonl"
    j = until(journal, lambda st: st["kind"] == "throw" and st.get("reason") == "battle")
    expected = hints.hint(j.state, len(j.commands))
    term = Terminal([*PLAY, "--resume", str(journal), "--no-clear"], str(tmp_path))
    try:
        assert "cubes in the tray" in term.wait_prompt()
        term.send("hint")
        term.wait_for("Nothing to decide but the count.")
        shown(term, expected)
        term.send("help")
        term.wait_for("This question: Throw the cubes")
        shown(term, ["This question: Throw the cubes named into the tower with every cube "
                     "lying in the tray, then tell what fell into the tray."])
        term.send("quit")
    finally:
        term.close()


def test_an_expansion_choice_with_what_it_gains(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "leader.jsonl"
    j = until(journal, lambda st: st.get("what") == "leader_place" and st["player"] == "red",
              expansions=("court", "leaders"))
    expected = hints.hint(j.state, len(j.commands))
    assert "where the leader's improved actions pay most" in expected[0]
    term = Terminal([*PLAY, "--resume", str(journal), "--no-clear"], str(tmp_path))
    try:
        term.wait_prompt()
        term.send("hint")
        term.wait_for(expected[0].split(":")[0] + ": tax")
        shown(term, expected)
        term.send("help")
        term.wait_for("This question: Your military leader")
        shown(term, ["This question: Your military leader makes the actions in its province "
                     "cheaper or stronger"])
        term.send("help leaders")
        term.wait_for("Military leaders (expansion)")
        shown(term, topic_lines(book(j.game).find("leaders"), 119))
        term.send("quit")
    finally:
        term.close()


def test_a_plan_with_the_spaces_it_fills_and_nothing_at_the_pauses(
        tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "plan.jsonl"
    j = until(journal, lambda st: st["kind"] == "plan" and st["players"][0] == "red",
              expansions=("court",))
    expected = hints.hint(j.state, len(j.commands))
    assert expected[0] == "The odds bot would plan this for red:"
    assert any(line.strip().startswith("Convert 3 — ") for line in expected)
    term = Terminal([*PLAY, "--resume", str(journal)], str(tmp_path), height=60)
    try:
        assert "Press Enter to go on" in term.wait_prompt()
        term.send("hint")  # the results held before the screen is cleared: nothing to decide
        term.wait_for("Nothing to decide here: press Enter when ready.")
        term.send("")
        assert "red, press Enter when ready" in term.wait_prompt()
        term.wait_for("Pass the laptop to red")
        term.send("h")
        term.wait_for("Nothing is decided here: press Enter when ready")
        term.send("")
        assert "take the suggestion" in term.wait_prompt()
        term.send("hint")
        term.wait_for("The odds bot would plan this for red:")
        shown(term, expected)
        term.send("help")
        term.wait_for("This question: Lay one card")
        shown(term, ["This question: Lay one card on each space, in secret"])
        term.send("quit")
    finally:
        term.close()


def test_samurai_hint_and_help_at_the_entry(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "samurai.jsonl"
    j = SamuraiJournal.new(SamuraiGame.create(3), journal, table={"tower": "manual",
                                                                  "page": False})
    j.apply({"capture": "helmet", "player": "red"})
    term = Terminal([*PLAY, "--resume", str(journal)], str(tmp_path), width=80)
    try:
        term.wait_for("entry 2>")
        term.send("hint")
        term.wait_for("If the game ended now, red would win")
        term.send("?")
        term.wait_for("Words that work here:")
        shown(term, ["hint: who would win if the game ended now, and which one capture would "
                     "change it"])
        term.send("help tiles")
        term.wait_for("Samurai tile: Counts for every figure")
        term.send("yellow buddha")
        term.wait_for("yellow captures a Buddha")
        term.send("hint")
        term.wait_for("red and yellow would win")
        term.send("quit")
    finally:
        term.close()
    assert len(SamuraiJournal.load(journal).commands) == 2


def test_two_player_hint_and_help_at_a_move(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "shogun2.jsonl"
    term = Terminal([*PLAY, "--game", "shogun2", "--seed", "21", "--bots", "red", "--bot",
                     "random", "--no-page", "--journal", str(journal)], str(tmp_path))
    try:
        term.wait_for("white to move")
        term.send("hint")
        term.wait_for("The alpha-beta bot would play")
        saved = Shogun2Journal.load(journal)
        shown(term, shogun2_hints.hint(saved.state, saved.commands))
        term.send("help")
        term.wait_for("Words that work here:")
        shown(term, ["A move is the square of a piece and the square it goes to",
                     "moves: the legal moves of the side to move"])
        term.send("h end")
        term.wait_for("50 moves of each side without a capture: a draw.")
        term.send("quit")
    finally:
        term.close()
