"""`shogun-tower play` in tmux, read off the screen: a planning round at one laptop, battles
with typed tray counts, a winter whose scoring stays readable, an undo, and a resume after the
laptop dies (SIGKILL) with the bots and the tower as they were."""

from __future__ import annotations

import json
import os
import pathlib
import re
import signal
import time

from shogun_tower.games.shogun.rules import Game, State

from .tmux import PLAY, Terminal

TRAY_PROMPT = "cubes in the tray"


def _thrown(screen: str) -> str:
    """The cubes the screen asks to throw, typed back as the tray's count (all fell out)."""
    lines = [ln for ln in screen.splitlines() if "Throw into your tower:" in ln]
    return lines[-1].split("Throw into your tower:", 1)[1].strip()


def test_a_planning_round_at_one_laptop(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "planning.jsonl"
    term = Terminal([*PLAY, "--players", "3", "--bots", "yellow", "--tower", "manual",
                     "--seed", "2", "--journal", str(journal), "--no-page"], str(tmp_path))
    try:
        assert TRAY_PROMPT in term.wait_prompt()
        term.send("black 6, red 5, yellow 7, green 8")
        # the set-up throw's result stays on the screen until a key is pressed
        assert "Press Enter to go on" in term.wait_prompt()
        assert "out of the tower into the tray: black 6, red 5, yellow 7, farmers 8" \
            in term.screen()
        term.send("")
        term.wait_for("Pass the laptop to black")
        assert "out of the tower" not in term.history(), "cleared, scrollback included"
        term.send("")
        assert "take the suggestion" in term.wait_prompt()
        black_hand = term.screen()
        assert "black plans in secret: 18 coins" in black_hand
        term.send("y")
        assert "Enter: this is my plan" in term.wait_prompt()
        term.send("")
        term.wait_for("Pass the laptop to red")
        shown = term.history()
        assert "Planned already: black." in term.screen()  # told, and nothing else
        assert "The assistant's suggestion" not in shown and "black plans in secret" not in shown

        # red types a plan: Tab completes a province, each entry is checked at once
        state = State.new(Game.create(3, seed=2))
        provinces = sorted(p for p, o in state.owner.items() if o == "red")
        first = provinces[0]
        prefix = next(first[:n] for n in range(1, len(first) + 1)
                      if sum(p.lower().startswith(first[:n].lower()) for p in provinces) == 1)
        term.send("")
        term.wait_prompt()
        term.send("n")
        assert "Castle" in term.wait_prompt()
        term.send(prefix, enter=False)
        term.key("Tab")
        term.wait_for(f"Castle: {first}")
        term.send("")
        assert "Temple" in term.wait_prompt()
        term.send(first)  # the same card again: refused at once, rule T3
        term.wait_for(f"refused: red: card {first} is planned")
        cards = (provinces[1:] + ["1", "2", "3", "4"])[:9]
        for card in cards:
            term.wait_prompt()
            term.send(card)
        assert "Bid" in term.wait_prompt()
        term.send("7")  # not a card: refused, never taken as the 7th card
        term.wait_for("'7' is not one of")
        term.send("0")
        assert "Enter: this is my plan" in term.wait_prompt()
        term.send("")
        term.wait_for("red has planned")
        assert first not in term.history().split("red has planned")[-1].split("\n", 1)[0]
        term.wait_prompt()
        term.send("quit")
        term.wait_for("The game is saved in")
    finally:
        term.close()
    plans = [c for c in _commands(journal) if c["type"] == "plan"]
    red = next(c for c in plans if c["player"] == "red")
    assert red["actions"]["castle"] == first and red["bid"] == 0


def _commands(path: pathlib.Path) -> list[dict]:
    from shogun_tower.games.shogun.journal import Journal

    return Journal.load(path).commands


class Player:
    """Answers every question of `play` for the person at black, as a player would."""

    def __init__(self, term: Terminal) -> None:
        self.term = term
        self.battles_typed = 0
        self.undone = False
        self.winter_seen = ""

    def answer(self) -> str:
        """Answer the question on the screen; returns the question."""
        t = self.term
        question = t.wait_prompt()
        screen = t.screen()
        if TRAY_PROMPT in question:
            headline = [ln for ln in screen.splitlines() if ln.startswith(("Battle for",
                                                                          "Revolt in",
                                                                          "The set-up"))]
            if headline and headline[-1].startswith("Battle for"):
                if self.battles_typed == 1 and not self.undone:
                    t.send("undo")
                    t.wait_for("taken back:")
                    self.undone = True
                    return question
                self.battles_typed += 1
            t.send(_thrown(screen))
        elif "Press Enter to go on" in question:
            if "winter scoring, year 1" in screen:
                self.winter_seen = screen
            t.send("")
        elif "press Enter when ready" in question or "Enter: this is my plan" in question:
            t.send("")
        elif "take the suggestion" in question:
            t.send("y")
        elif "which place?" in question:
            t.send(re.findall(r"place (\d):", screen)[0])
        elif "into which province?" in question:
            t.send(re.findall(r"It can enter: ([^ ,\n]+)", screen)[-1].strip())
        elif "how many armies" in question:
            t.send(re.findall(r"\(1-(\d+)\)\?", question)[-1])
        elif "Enter: no move" in question or "Enter: as listed" in question:
            t.send("")
        elif " / " in question:
            t.send(question.rsplit("?", 1)[0].split(" / ")[0].strip())
        else:
            raise AssertionError(f"an unexpected question: {question!r}\n{screen}")
        return question


def test_battles_a_readable_winter_undo_and_a_resume_after_sigkill(tmp_path: pathlib.Path
                                                                   ) -> None:
    journal = tmp_path / "year.jsonl"
    term = Terminal([*PLAY, "--players", "3", "--bots", "red,yellow", "--tower", "manual",
                     "--seed", "4", "--journal", str(journal), "--no-page"], str(tmp_path))
    try:
        player = Player(term)
        for _ in range(400):
            player.answer()
            if player.winter_seen:
                break
        assert player.battles_typed >= 2, "battles were thrown and counted by hand"
        assert player.undone
        # the winter's scoring and the season's table stay readable until Enter is pressed
        winter = player.winter_seen
        assert "winter scoring, year 1:" in winter
        assert re.search(r"After Year 1 · (autumn and )?winter", winter)
        assert winter.index("winter scoring, year 1:") < winter.index("After Year 1")
        assert re.search(r"│ black\s+│\s+\d+ │", winter), winter
        assert "Press Enter to go on" in winter.strip().splitlines()[-1]
        killed_at = term.wait_prompt()  # Enter was pressed: the hand-over to black comes
        assert "black, press Enter when ready" in killed_at
        # the laptop dies: no clean-up of any kind
        os.kill(term.pid(), signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not term.dead() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert term.dead()
    finally:
        term.close()
    header = json.loads(journal.read_text().splitlines()[0])
    assert header["table"]["bots"] == ["red", "yellow"] and header["table"]["tower"] == "manual"
    before = len(_commands(journal))

    again = Terminal([*PLAY, "--resume", str(journal)], str(tmp_path))
    try:
        shown = again.wait_for("players:")
        assert f"resumed {journal}: {before} commands replayed" in shown
        assert "the players count the tray (--tower manual)" in shown
        assert "black, red (bot), yellow (bot)" in shown
        # the game goes on where it stopped: the results are held, then black's hand-over
        assert "Press Enter to go on" in again.wait_prompt()
        again.send("")
        assert again.wait_prompt() == killed_at
        again.send("quit")
        again.wait_for("The game is saved in")
    finally:
        again.close()
    assert len(_commands(journal)) >= before
