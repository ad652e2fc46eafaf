"""Planning at the laptop with the board in view, at an 80×24 terminal (tmux): the hand with
each province's armies and neighbours, what the court's spaces do, a suggestion that wastes no
conversion, show that fits the screen, plan to draw the planning screen again, spaces named as
people type them, the rules' forecast of skipped actions, undo that takes back an entry, then a
season played through: a place taken as the prompt prints it, an empty answer told what to
type, and the screen cleared before the next season's secret planning."""

from __future__ import annotations

import pathlib
import re

from .tmux import PLAY, Terminal


def _season(term: Terminal) -> str:
    """Answer every question of red's until the next season's hand-over; returns its screen."""
    empty_target_told = False
    for _ in range(300):
        question = term.wait_prompt(timeout=120)
        screen = term.screen()
        if "red, press Enter when ready" in question:
            return screen
        if "Press Enter to go on" in question:
            term.send("")
        elif "which place?" in question:
            place = re.findall(r"place (\d):", screen)[0]
            term.send(f"place {place}")  # (8) as the prompt prints it
            term.wait_for("red takes special card")
        elif "into which province?" in question:
            if not empty_target_told:
                term.send("")  # (4) an empty answer: what to type, in one line
                term.wait_for("type one of: ")
                assert "'' is not one of" not in term.screen()
                empty_target_told = True
                continue
            term.send(re.findall(r"It can enter: ([^ ,]+)", " ".join(screen.split()))[-1])
        elif "how many armies" in question:
            term.send(re.findall(r"\(1-(\d+)\)\?", question)[-1])
        elif question.endswith("?") and " / " in question:
            term.send(question.rsplit("?", 1)[0].split(" / ")[0].strip())
        elif question == "which?":  # options listed one a line: the last one
            term.send([ln for ln in screen.splitlines() if ln.startswith("  ")][-1].strip())
        elif "Enter: no move" in question or "Enter: as listed" in question:
            term.send("")
        else:
            raise AssertionError(f"an unexpected question: {question!r}\n{screen}")
    raise AssertionError("the next season's planning never came")


def test_planning_with_the_board_in_view_at_80_by_24(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "plan.jsonl"
    term = Terminal([*PLAY, "--players", "3", "--bots", "black,yellow", "--seed", "6",
                     "--expansions", "court", "--journal", str(journal), "--no-page"],
                    str(tmp_path), width=80, height=24)
    try:
        assert "Press Enter to go on" in term.wait_prompt(timeout=90)
        term.send("")
        assert "red, press Enter when ready" in term.wait_prompt()
        assert "Pass the laptop to red. Only red looks at the screen." in term.screen()
        term.send("")
        assert "take the suggestion" in term.wait_prompt()
        screen = term.screen()
        # (2) each province with its armies and its neighbours: own *, others' by letter
        assert re.search(r"^  Yamato \d+ +(\w+\*?(, )?)*Ise\*", screen, re.M), screen
        assert re.search(r"^  Kaga \d+ +.*Etchu Y\d", screen, re.M), screen
        assert "next to them: * yours, K4 black's 4, plain neutral" in screen
        # (6) what the court's spaces do, and no conversion suggested that would be skipped
        assert "Convert 3, 2, 1 (before the actions)" in " ".join(screen.split())
        assert "is skipped" not in screen
        # (2) show fits the screen, and plan draws the planning screen again
        term.send("show")
        term.wait_for("Inside the tower:")
        shown = term.screen()
        assert "player" in shown and "red" in shown and "neutral:" in shown
        term.send("plan")
        term.wait_gone("Inside the tower:")  # the tables are gone
        term.wait_for("take the suggestion")
        assert "Yamato" in term.screen()
        term.send("y")
        assert "Enter: this is my plan" in term.wait_prompt()
        # (2) spaces named loosely; the rules' forecast of what will be skipped
        term.send("convert 3")
        assert "Convert 3 [chest" in term.wait_prompt()
        term.send("tower")
        term.wait_for("! Convert 3 from the tray is skipped: red has only 0 courtiers left")
        # (1) undo takes back the last entry of the plan, and keeps the plan
        term.send("undo")
        term.wait_for("taken back: the entry Convert 3 of your plan (the rest is kept)")
        assert "Enter: this is my plan" in term.wait_prompt()
        term.send("No")
        assert "Nō theatre [" in term.wait_prompt()
        term.send("")  # Enter keeps it
        for name in ("no theatre", "theatre", "deploy5", "DEPLOY 3"):
            assert "Enter: this is my plan" in term.wait_prompt()
            term.send(name)
            assert "[" in term.wait_prompt()
            term.send("")
        assert "Enter: this is my plan" in term.wait_prompt()
        term.send("")
        # a season played through; (10) the screen cleared before the next secret planning
        screen = _season(term)
        history = term.history()
        assert "Battle for" not in history and "turn order:" not in history
        assert "of year 1 begins" not in history and "Planned already:" in screen
        term.send("quit")
        term.wait_for("The game is saved in")
    finally:
        term.close()
