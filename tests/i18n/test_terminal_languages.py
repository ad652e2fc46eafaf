"""Knizia's Samurai and the two-player Shogun played in French and in Japanese on an 80x24
terminal (tmux: send-keys, capture-pane), typed in the players' own words: nothing on the
screen is English (no marked message left untranslated, no unmarked English sentence), and
every line the console writes fits the 80 columns (a Japanese line, which has no spaces, is
cut between its characters by the console, not broken anywhere by the terminal)."""

from __future__ import annotations

import os
import pathlib
import sys
import time

import pytest
from shogun2.test_terminal import with_exit_status
from terminal.tmux import PLAY, Terminal

from i18n.seen import english_words, said, too_wide, untranslated

LANGUAGES = ["fr", "ja"]
SHOTS = os.environ.get("SHOGUN_SHOTS")  # a folder: keep each screen seen as text there




def wait_last_line(term: Terminal, start: str, timeout: float = 60, answers: int = 0) -> str:
    """The screen once its last line starts with ``start`` (a prompt), stays still, and the
    whole history shows that prompt more than ``answers`` times (the question was asked
    again after the last answer)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        screen = term.screen()
        lines = [ln for ln in screen.splitlines() if ln.strip()]
        if lines and lines[-1].startswith(start.rstrip()) and screen == last \
                and asked(term, start) > answers:
            return screen
        if term.dead():
            break
        last = screen
        time.sleep(0.2)
    raise AssertionError(f"no line starting {start!r}; the screen shows:\n{term.screen()}")


def asked(term: Terminal, prompt: str) -> int:
    """How many times the history shows ``prompt``."""
    return term.history(joined=False).count(prompt.rstrip())


def answer(term: Terminal, text: str, prompt: str) -> str:
    """Type ``text`` at ``prompt``; the screen once the prompt is asked again."""
    before = asked(term, prompt)
    term.send(text)
    return wait_last_line(term, prompt, answers=before)


def press_enter_until_it_ends(term: Terminal) -> None:
    """Enter at the end of the game; pressed again, as a person would, if the first one came
    while the line editor was still starting (a busy machine)."""
    for attempt in range(3):
        term.send("")
        try:
            term.wait_for("[exit status 0]", timeout=20)
            return
        except AssertionError:
            if attempt == 2:
                raise


def keep(name: str, text: str) -> None:
    if SHOTS:
        pathlib.Path(SHOTS, f"{name}.txt").write_text(text, encoding="utf-8")


def check_screen(history_joined: str, history_rows: str, lang: str) -> None:
    # tmux's note once the program has ended, and the exit status, are not the program's
    history_joined = "\n".join(ln for ln in history_joined.splitlines()
                               if not ln.startswith(("Pane is dead", "[exit status")))
    assert not untranslated(history_joined, lang), untranslated(history_joined, lang)
    assert not english_words(history_joined), english_words(history_joined)
    assert not too_wide(history_joined.splitlines(), 80), too_wide(
        history_joined.splitlines(), 80)
    assert history_rows  # what the 80x24 screen showed, row by row


@pytest.mark.parametrize("lang", LANGUAGES)
def test_knizia_samurai_scored_in_the_players_language(tmp_path: pathlib.Path,
                                                       lang: str) -> None:
    red, yellow = said(lang, "red"), said(lang, "yellow")
    helmet, rice, samurai = said(lang, "helmet"), said(lang, "rice"), said(lang, "samurai")
    tie = said(lang, "tie")

    def entry(n: int) -> str:
        return said(lang, "entry {n}> ", n=n)

    term = Terminal(with_exit_status([*PLAY, "--lang", lang, "--game", "knizia-samurai",
                                      "--players", "2", "--tower", "sim", "--no-page",
                                      "--journal", "j.jsonl"]), str(tmp_path), width=80,
                    height=24)
    try:
        wait_last_line(term, entry(1))
        keep(f"samurai-{lang}-help", answer(term, "help", entry(1)))
        term.send(f"{red} {helmet}")  # a capture, typed in the players' words
        shown = wait_last_line(term, entry(2))
        assert said(lang, "{player} captures a {figure}", player=red,
                    figure=said(lang, "helmet")) in shown
        term.send(f"{helmet}: {red}:{helmet}:3 {yellow}:{samurai}:2")  # the console decides
        shown = wait_last_line(term, entry(3))
        assert said(lang, "{player} captures the {figure}: {counts}", player=red,
                    figure=said(lang, "helmet"), counts="").rstrip(" :：") in shown
        term.send(f"{tie} {rice}")
        wait_last_line(term, entry(4))
        # blue does not play: refused, in words
        shown = answer(term, f"{said(lang, 'blue')} {helmet}", entry(4))
        assert said(lang, "not recorded: {error}", error="").strip(" :：") in shown
        keep(f"samurai-{lang}-hint", answer(term, "hint", entry(4)))
        answer(term, "show", entry(4))
        term.send(", ".join([f"{red} {helmet}"] * 5))  # the last helmet leaves: the end
        end = said(lang, "the game is over: undo takes back the last entry, Enter ends: ")
        shown = wait_last_line(term, end)
        assert said(lang, "The game is over: {reason}.", reason=said(
            lang, "the last {figure} has left the board", figure=said(lang, "helmet"))) \
            in " ".join(shown.split())
        keep(f"samurai-{lang}-end", shown)
        press_enter_until_it_ends(term)
        check_screen(term.history(), term.history(joined=False), lang)
    finally:
        term.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_player_shogun_played_in_the_players_language(tmp_path: pathlib.Path,
                                                          lang: str) -> None:
    white = said(lang, "white")
    to_move = said(lang, "{side} to move (e.g. {example}; 'moves' lists them): ",
                   side=white, example="@").split("@")[0]
    term = Terminal(with_exit_status([*PLAY, "--lang", lang, "--game", "shogun2", "--seed",
                                      "5", "--bots", "red", "--no-page", "--journal",
                                      "j.jsonl"]), str(tmp_path), width=80, height=24)
    try:
        wait_last_line(term, to_move)
        keep(f"shogun2-{lang}-help", answer(term, "help", to_move))
        answer(term, "hint", to_move)
        shown = answer(term, "a1-a9", to_move)
        assert said(lang, "refused: {error}", error="").strip(" :：") in shown
        shown = answer(term, "e1-e2", to_move)  # the bot answers "Shogun!" on this board
        assert said(lang, "Shogun! {side}'s Shogun is threatened from {square}: {side} must "
                          "save it", side=white, square="e6") in " ".join(shown.split())
        keep(f"shogun2-{lang}-shogun", shown)
        answer(term, "moves", to_move)
        answer(term, "undo", to_move)
        term.send("quit")
        term.wait_for("[exit status 0]")
        check_screen(term.history(), term.history(joined=False), lang)
    finally:
        term.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_two_player_game_ends_in_the_players_language(tmp_path: pathlib.Path,
                                                               lang: str) -> None:
    """Two bots play a whole game to its end: every move line, "Shogun!" and the result."""
    term = Terminal(with_exit_status([sys.executable, "-m", "shogun_tower.cli", "demo",
                                      "--lang", lang, "--game", "shogun2", "--bot", "random",
                                      "--seed", "37", "--no-page"]), str(tmp_path), width=80,
                    height=24)
    try:
        term.wait_for("[exit status 0]", timeout=120)
        history = term.history()
        assert said(lang, "the game is over: {reason} — {side} wins", reason="@",
                    side="@").split("@")[0] in history
        keep(f"shogun2-{lang}-demo-end", term.screen())
        check_screen(history, term.history(joined=False), lang)
    finally:
        term.close()
