"""The table's terminal: questions to the players, answers typed back, and the words that work
at every question (undo, quit, show, page, help)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from shogun_tower.errors import ShogunError

CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"  # the scrollback too: a plan must not stay scrollable
EVERYWHERE = ("undo", "quit", "show", "page", "help")


class UndoRequested(Exception):
    """A player typed ``undo``: take back the last command."""


class QuitRequested(Exception):
    """A player typed ``quit`` (or the input ended): the journal already holds everything."""


class Console:
    """Asks the players. ``read`` returns one typed line (by default: a line editor with Tab
    completion on a terminal, plain ``input`` when the input is a pipe or a file); ``show`` is
    called for ``show``; ``page_url`` answers ``page``."""

    def __init__(self, read: Callable[[str], str] | None = None, out: TextIO | None = None,
                 colour: bool = False, clear_screen: bool = True) -> None:
        if read is not None:
            self._read: Callable[[str, Sequence[str]], str] = lambda prompt, words: read(prompt)
        else:
            self._read = terminal_reader()
        self.out = out or sys.stdout
        self.colour = colour
        self.clear_screen = clear_screen
        self.show: Callable[[], None] = lambda: None
        self.page_url = ""
        self.seat_links: Callable[[], None] | None = None
        # what `help` prints: Shogun's words, or another game's
        self.help_text = ("At any question: undo (take back the last command), show (the state "
                          "as tables), page (the board page's address and, with --phones, the "
                          "seats' links), quit (stop; resume later with --resume).")
        self.held_for: object = None  # the season whose results were last held on the screen
        # the last plan's screen was cleared and only public lines came after it: the next
        # player can take the laptop without another clear ("red has planned" stays readable)
        self._plan_cleared = False
        self._in_private = False

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str, allow_undo: bool = True, words: Sequence[str] = ()) -> str:
        """One answer, stripped. The words of EVERYWHERE are handled here; ``words`` complete
        with Tab where the terminal allows it."""
        while True:
            try:
                line = self._read(prompt, words)
            except EOFError:
                raise QuitRequested("the input ended") from None
            except KeyboardInterrupt:
                raise QuitRequested("Ctrl-C") from None
            word = line.strip()
            low = word.lower()
            if low == "quit":
                raise QuitRequested("quit")
            if low == "undo":
                if allow_undo:
                    raise UndoRequested()
                self.say("nothing to undo here: finish this entry first")
                continue
            if low == "show":
                self.show()
                continue
            if low == "page":
                self.say(f"the board page: {self.page_url}" if self.page_url
                         else "no board page in this game (--no-page)")
                if self.seat_links is not None:
                    self.seat_links()  # the phones' links and codes again (--phones)
                continue
            if low == "help":
                self.say(self.help_text)
                continue
            return word

    def choose(self, prompt: str, options: list[str], default: str | None = None) -> str:
        """One of ``options``, by its name or a unique start of it (any case)."""
        while True:
            answer = self.ask(prompt, words=options)
            if not answer and default is not None:
                return default
            try:
                return match(answer, options)
            except ShogunError as err:
                self.say(str(err))

    def number(self, prompt: str, low: int, high: int, default: int | None = None) -> int:
        while True:
            answer = self.ask(prompt)
            if not answer and default is not None:
                return default
            if answer.isdigit() and low <= int(answer) <= high:
                return int(answer)
            self.say(f"type a whole number from {low} to {high}")

    def confirm(self, prompt: str) -> bool:
        while True:
            answer = self.ask(prompt).lower()
            if answer in ("y", "yes", ""):
                return True
            if answer in ("n", "no"):
                return False
            self.say("type y or n")

    def private(self, player: str) -> None:
        """Hand the laptop to one player: the others look away until the screen is cleared."""
        if not self._plan_cleared:
            self.wipe()
        self._plan_cleared = False
        self._in_private = True
        self.ask(f"Pass the laptop to {player}. Only {player} looks at the screen. "
                 f"{player}, press Enter when ready (or undo): ")

    def hold(self, why: str) -> None:
        """Keep what is on the screen until someone presses Enter (before it is cleared)."""
        if self.clear_screen:
            self.ask(f"{why} Press Enter to go on: ")

    def wipe(self) -> None:
        if self.clear_screen:
            self.out.write(CLEAR_SCREEN)
            self.out.flush()
        else:
            self.say("-" * 60)
        self._plan_cleared = self._in_private
        self._in_private = False


def terminal_reader() -> Callable[[str, Sequence[str]], str]:
    """On a terminal: prompt_toolkit's line editor (arrows, history, Tab completes a name).
    Elsewhere (a pipe, a file, a test): plain ``input``, which reads lines as they come."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return lambda prompt, words: input(prompt)
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter
    from prompt_toolkit.formatted_text import ANSI

    session: PromptSession[str] = PromptSession()

    def read(prompt: str, words: Sequence[str]) -> str:
        completer = WordCompleter(list(words), ignore_case=True) if words else None
        return session.prompt(ANSI(prompt), completer=completer, complete_while_typing=False)

    return read


def match(answer: str, options: list[str]) -> str:
    """``answer`` names one option: exactly or by a unique start (any case). A number is taken
    as the value it says, never as a position in the list."""
    low = answer.lower()
    exact = [o for o in options if o.lower() == low]
    if exact:
        return exact[0]
    starts = [o for o in options if o.lower().startswith(low)] if low and not low.isdigit() \
        else []
    if len(starts) == 1:
        return starts[0]
    shown = ", ".join(options) if len(options) <= 20 else ", ".join(options[:20]) + ", …"
    if len(starts) > 1:
        raise ShogunError(f"{answer!r} could be {', '.join(starts)}: type more of the name")
    raise ShogunError(f"{answer!r} is not one of: {shown}")


def resume_command(path: str | os.PathLike) -> str:
    return f"shogun-tower play --resume {path}"


def until_stopped(run: Callable[[], Any], console: Any, path: str | os.PathLike) -> Any:
    """``run()``'s result, or None when a person stopped the game (quit, the input ended,
    Ctrl-C): then one line says where it is saved and how to continue."""
    try:
        return run()
    except QuitRequested as why:
        stop = str(why)
    except KeyboardInterrupt:
        stop = "Ctrl-C"
    console.say(f"\nstopped: {stop}. The game is saved in {path}: continue with "
                f"`{resume_command(path)}`")
    return None
