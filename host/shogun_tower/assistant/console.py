"""The table's terminal: questions to the players, answers typed back, and the words that work
at every question (undo, quit, show, page, help)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from shogun_tower.errors import ShogunError

CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"  # the scrollback too: a plan must not stay scrollable
EVERYWHERE = ("undo", "quit", "show", "page", "help")


class UndoRequested(Exception):
    """A player typed ``undo``: take back the last command."""


class QuitRequested(Exception):
    """A player typed ``quit`` (or the input ended): the journal already holds everything."""


class Console:
    """Asks the players. ``read`` returns one typed line (``input`` by default); ``show`` is
    called for ``show``; ``page_url`` answers ``page``."""

    def __init__(self, read: Callable[[str], str] | None = None, out: TextIO | None = None,
                 colour: bool = False, clear_screen: bool = True) -> None:
        self._read = read or input
        self.out = out or sys.stdout
        self.colour = colour
        self.clear_screen = clear_screen
        self.show: Callable[[], None] = lambda: None
        self.page_url = ""

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str, allow_undo: bool = True) -> str:
        """One answer, stripped. The words of EVERYWHERE are handled here."""
        while True:
            try:
                line = self._read(prompt)
            except EOFError:
                raise QuitRequested("the input ended") from None
            except KeyboardInterrupt:
                raise QuitRequested("interrupted") from None
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
                continue
            if low == "help":
                self.say("At any question: undo (take back the last command), show (the state "
                         "as tables), page (the board page's address), quit (stop; resume "
                         "later with --resume).")
                continue
            return word

    def choose(self, prompt: str, options: list[str], default: str | None = None) -> str:
        """One of ``options``, by its name, a unique start of it (any case), or its number."""
        while True:
            answer = self.ask(prompt)
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
        self.wipe()
        self.ask(f"Pass the laptop to {player}. Only {player} looks at the screen. "
                 f"{player}, press Enter when ready: ", allow_undo=False)

    def wipe(self) -> None:
        if self.clear_screen:
            self.out.write(CLEAR_SCREEN)
            self.out.flush()
        else:
            self.say("-" * 60)


def match(answer: str, options: list[str]) -> str:
    """``answer`` names one option: exactly, by number (1-based), or by a unique start."""
    if answer.isdigit() and 1 <= int(answer) <= len(options) and answer not in options:
        return options[int(answer) - 1]
    low = answer.lower()
    exact = [o for o in options if o.lower() == low]
    if exact:
        return exact[0]
    starts = [o for o in options if o.lower().startswith(low)] if low else []
    if len(starts) == 1:
        return starts[0]
    shown = ", ".join(options) if len(options) <= 20 else ", ".join(options[:20]) + ", …"
    if len(starts) > 1:
        raise ShogunError(f"{answer!r} could be {', '.join(starts)}: type more of the name")
    raise ShogunError(f"{answer!r} is not one of: {shown}")
