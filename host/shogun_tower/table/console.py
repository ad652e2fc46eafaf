"""The table's terminal: questions to the players, answers typed back, and the words that work
at every question (undo, quit, show, page, help, hint).

One reader of answers for every question (``match``): a name is taken exactly, by a unique
start, or word by word ("theatre" for "Nō theatre"), in any case and without its accents
("No"); the names a prompt prints for an option ("place 1") are names of it too. Lines are
wrapped at word boundaries to the terminal's width.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import threading
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TextIO

from shogun_tower import i18n, lines, words
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _

CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H"  # the scrollback too: a plan must not stay scrollable
EVERYWHERE = ("undo", "quit", "show", "page", "help", "hint")
REDRAW = "\x0c"  # Ctrl-L: the line editor hands it back as the answer (see terminal_reader)
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
QUIT_CODE_CTRL_C = 130  # a shell's code for a program stopped by Ctrl-C (128 + SIGINT)


class UndoRequested(Exception):
    """A player typed ``undo``: take back the last command."""


class QuitRequested(Exception):
    """A player typed ``quit`` (or the input ended): the journal already holds everything."""

    @property
    def by_ctrl_c(self) -> bool:
        return str(self) == "Ctrl-C"


class Console:
    """Asks the players. ``read`` returns one typed line (by default: a line editor with Tab
    completion on a terminal, plain ``input`` when the input is a pipe or a file); ``show`` is
    called for ``show``; ``page_url`` answers ``page``; ``redraw`` (when set, e.g. while a plan
    is typed) answers ``plan`` and Ctrl-L."""

    def __init__(self, read: Callable[[str], str] | None = None, out: TextIO | None = None,
                 colour: bool = False, clear_screen: bool = True) -> None:
        self.out = out or sys.stdout
        self._read = _Lines(terminal_reader() if read is None
                            else lambda prompt, words: read(prompt), self.out)
        self.colour = colour
        self.clear_screen = clear_screen
        self.show: Callable[[], None] = lambda: None
        # "show NAME" (e.g. an expansion's board, when `show` leaves it out to fit the screen)
        self.show_part: Callable[[str], None] | None = None
        self.page_url = ""
        self.seat_links: Callable[[], None] | None = None
        self.redraw: Callable[[], None] | None = None
        self.phone_code: Callable[[str], None] | None = None  # `phone COLOUR` (--phones)
        # what `help` prints: Shogun's words, or another game's
        self.help_text = _("At any question: undo (take back the last command), show (the "
                           "state as tables), page (the board page's address and, with "
                           "--phones, the seats' links), quit (stop; resume later with "
                           "--resume).")
        # The words that work at every question, each with what it does given the rest of the
        # line ("show leaders"): one table, so another word (help's own page, a hint) is one
        # more entry. ``undo`` and ``quit`` end the question; the others answer and ask again.
        # `help TOPIC` (also `?`, `h`) and `hint` are the coach's (table/coach.py).
        self.words: dict[str, Callable[[str], None]] = {
            "show": self._show,
            "page": lambda rest: self._page(),
            "help": self._help,
            "?": self._help,
            "h": self._help,
            "hint": lambda rest: self._hint(),
        }
        # answers `help` and `hint` with the game's help book and hints (table/coach.py)
        self.coach: Any = None
        self._pausing = False  # the question only waits for Enter (passing the laptop, a hold)
        self.held_for: object = None  # the season whose results were last held on the screen

    # ---- output ---------------------------------------------------------------------------
    def say(self, text: str = "") -> None:
        width = self.width()
        lines = text.split("\n")
        if width:
            lines = [part for line in lines for part in wrap(line, width)]
        print("\n".join(lines), file=self.out, flush=True)

    def width(self) -> int:
        """The terminal's width, or 0 when the output is not a terminal (a log, a pipe, a
        test): then lines are left whole."""
        try:
            if not self.out.isatty():
                return 0
            return os.get_terminal_size(self.out.fileno()).columns
        except (AttributeError, OSError, ValueError):
            return 0

    def height(self) -> int:
        """The terminal's height in lines, or 0 when the output is not a terminal."""
        try:
            if not self.out.isatty():
                return 0
            return os.get_terminal_size(self.out.fileno()).lines
        except (AttributeError, OSError, ValueError):
            return 0

    def wipe(self) -> None:
        if self.clear_screen:
            self.out.write(CLEAR_SCREEN)
            self.out.flush()
        else:
            self.say("-" * 60)

    # ---- questions ------------------------------------------------------------------------
    def ask(self, prompt: str, allow_undo: bool = True, words: Sequence[str] = ()) -> str:
        """One answer, stripped. The words of ``self.words`` (and undo, quit) are handled here;
        ``words`` complete with Tab where the terminal allows it."""
        width = self.width()
        if width:  # a long question wraps at words; its last line is the prompt itself
            lines = wrap(prompt.rstrip(" "), width)
            for line in lines[:-1]:
                print(line, file=self.out, flush=True)
            prompt = lines[-1] + (" " if prompt.endswith(" ") else "")
        while True:
            try:
                line = self._read(prompt, words)
            except EOFError:
                raise QuitRequested(_("the input ended")) from None
            except KeyboardInterrupt:
                raise QuitRequested("Ctrl-C") from None
            word = line.strip()
            low = word.lower()
            if low in (REDRAW, "plan") and self.redraw is not None:
                self.redraw()
                continue
            if low == REDRAW:
                continue
            if low == "quit":
                raise QuitRequested("quit")
            if low == "undo":
                if allow_undo:
                    raise UndoRequested()
                self.say(_("nothing to undo here: finish this entry first"))
                continue
            head, _sep, rest = low.partition(" ")
            if head in self.words:  # "show leaders", "help court", "? actions"
                self.words[head](rest.strip())
                continue
            if self._phone(low):
                continue
            return word

    def _phone(self, low: str) -> bool:
        """``phone COLOUR`` (with --phones): that seat's code, for its player's eyes only."""
        said = low.split()
        if self.phone_code is None or not said or said[0] != "phone":
            return False
        self.phone_code(" ".join(said[1:]))
        return True

    def ask_until(self, prompt: str, ready: Callable[[], bool]) -> str | None:
        """``ask``, given up (None) as soon as ``ready()`` holds before a line is typed: the
        laptop takes words while it waits for something else (the phones' plans)."""
        lines = self._read
        lines.ready = ready
        try:
            return self.ask(prompt)
        except _Ready:
            return None
        finally:
            lines.ready = None

    @contextlib.contextmanager
    def undisturbed(self) -> Iterator[None]:
        """Questions asked inside wait for their answer, even during ``ask_until`` (a code on
        the screen must stay until its player says it may be cleared)."""
        lines = self._read
        ready, lines.ready = lines.ready, None
        try:
            yield
        finally:
            lines.ready = ready

    def enter(self, prompt: str) -> None:
        """A question that only waits for Enter: anything else typed is refused in one line
        (never taken as an answer), except the words that work at every question (`help` and
        `hint` say there is nothing to decide)."""
        self._pausing = True
        try:
            while True:
                answer = self.ask(prompt)
                if not answer:
                    return
                self.say(_("{answer!r} is not taken here: press Enter alone to go on (or type "
                           "undo, show, page, help or quit)").format(answer=answer))
        finally:
            self._pausing = False

    def choose(self, prompt: str, options: Sequence[str], default: str | None = None,
               names: Mapping[str, Sequence[str]] | None = None) -> str:
        """One of ``options``, by its name or another name of it (``names``), read by
        ``match``. Enter gives ``default`` when there is one."""
        while True:
            answer = self.ask(prompt, words=[*options, *(n for ns in (names or {}).values()
                                                         for n in ns)])
            if not answer and default is not None:
                return default
            try:
                return match(answer, options, names)
            except ShogunError as err:
                self.say(str(err))

    def number(self, prompt: str, low: int, high: int, default: int | None = None) -> int:
        """A whole number from ``low`` to ``high``; a word after it is allowed ("3 armies")."""
        while True:
            answer = self.ask(prompt)
            if not answer and default is not None:
                return default
            found = re.fullmatch(r"(\d+)(\s+[^\d\s].*)?", answer)
            if found and low <= int(found.group(1)) <= high:
                return int(found.group(1))
            self.say(_("type a whole number from {low} to {high}").format(low=low, high=high))

    def confirm(self, prompt: str, default: bool | None = True) -> bool:
        """Yes or no; Enter gives ``default`` (None: Enter is no answer)."""
        while True:
            answer = self.ask(prompt).lower()
            if not answer and default is not None:
                return default
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.say(_("type y or n"))

    def private(self, player: str, note: str = "") -> None:
        """Hand the laptop to one player: the screen is cleared (nothing of the game before
        stays readable), ``note`` says what the table may know (who has planned), and the
        others look away."""
        self.wipe()
        if note:
            self.say(note)
        who = words.colour_word(player)
        self.say(_("Pass the laptop to {player}. Only {player} looks at the screen.").format(
            player=who))
        self.enter(_("{player}, press Enter when ready (or undo): ").format(player=who))

    def hold(self, why: str) -> None:
        """Keep what is on the screen until someone presses Enter (before it is cleared)."""
        if self.clear_screen:
            self.enter(_("{why} Press Enter to go on: ").format(why=why))

    def _show(self, part: str) -> None:
        if part and self.show_part is not None:
            self.show_part(part)
        else:
            self.show()

    def _page(self) -> None:
        self.say(_("the board page: {url}").format(url=self.page_url) if self.page_url
                 else _("no board page in this game (--no-page)"))
        if self.seat_links is not None:
            self.seat_links()  # the phones' links and codes again (--phones)

    def _help(self, topic: str) -> None:
        """`help [TOPIC]`, `?`, `h`: the coach's help, or the game's words without one."""
        if self.coach is None:
            self.say(self.help_text)
            return
        for line in self.coach.help(topic, self._pausing, self._coach_width()):
            self.say(line)

    def _hint(self) -> None:
        if self.coach is None:
            self.say(_("no hint in this game"))
            return
        for line in self.coach.hint(self._pausing, self._coach_width()):
            self.say(line)

    def _coach_width(self) -> int:
        """The coach's lines fit the terminal as it is now (a resized window too); without a
        terminal, COLUMNS or 80."""
        return max(40, (self.width() or shutil.get_terminal_size((80, 24)).columns) - 1)


def wrap(line: str, width: int, hang: int | None = None) -> list[str]:
    """``line`` cut into lines of at most ``width`` columns, at spaces (and between Japanese
    characters, which have none); the following lines indented ``hang`` (by default two more
    than the first). A word longer than the width stays whole (``shogun_tower.lines``)."""
    return lines.wrap(line, width, hang)


def visible(text: str) -> int:
    """The columns of ``text`` a terminal shows (colour codes take none, a kanji two)."""
    return lines.cells(text)


def terminal_reader() -> Callable[[str, Sequence[str]], str]:
    """On a terminal: prompt_toolkit's line editor (arrows, history, Tab completes a name,
    Ctrl-L hands back REDRAW). Elsewhere (a pipe, a file, a test): plain ``input``."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return lambda prompt, words: input(prompt)
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter
    from prompt_toolkit.formatted_text import ANSI as ANSIText
    from prompt_toolkit.key_binding import KeyBindings

    keys = KeyBindings()

    @keys.add("c-l")
    def _redraw(event: Any) -> None:
        event.app.exit(result=REDRAW)

    session: PromptSession[str] = PromptSession(key_bindings=keys)

    def read(prompt: str, words: Sequence[str]) -> str:
        completer = WordCompleter(list(words), ignore_case=True) if words else None
        return session.prompt(ANSIText(prompt), completer=completer,
                              complete_while_typing=False)

    def cancel(finished: threading.Event) -> None:
        # the line editor runs its own loop: it is told to stop there, once it has started
        while not finished.is_set():
            app = session.app
            if app.is_running and app.loop is not None:
                app.loop.call_soon_threadsafe(_stop_prompt, app)
            finished.wait(0.05)

    read.cancel = cancel  # type: ignore[attr-defined]
    return read


class _Ready(Exception):
    """What ``Console.ask_until`` waits for came before a typed line."""


class _Cancelled(Exception):
    """A question of the line editor taken back (``Console.ask_until``)."""


def _stop_prompt(app: Any) -> None:
    if app.is_running and not app.future.done():
        app.exit(exception=_Cancelled)


class _Lines:
    """The console's reader, able to give up on a question (``ready`` set): the line is then
    read in a thread, and the wait ends when ``ready()`` holds. The line editor's question is
    taken back; a plain input cannot be, so the line typed next answers the next question (its
    prompt said again), never lost and never read twice."""

    def __init__(self, read: Callable[[str, Sequence[str]], str], out: TextIO) -> None:
        self._read = read
        self._cancel: Callable[[threading.Event], None] | None = getattr(read, "cancel", None)
        self._out = out
        self.ready: Callable[[], bool] | None = None
        self._pending: _PendingLine | None = None

    def __call__(self, prompt: str, words: Sequence[str]) -> str:
        if self._pending is None and self.ready is None:
            return self._read(prompt, words)
        if self._pending is None:
            self._pending = _PendingLine(self._read, prompt, words)
        else:
            self._out.write(prompt)
            self._out.flush()
        pending = self._pending
        while not pending.finished.wait(0.1):
            if self.ready is not None and self.ready():
                if self._cancel is None:
                    self._out.write("\n")  # what follows starts below the open question
                    raise _Ready
                self._cancel(pending.finished)
                break  # a line typed meanwhile is still taken, below
        self._pending = None
        if isinstance(pending.error, _Cancelled):
            raise _Ready
        if pending.error is not None:
            raise pending.error
        return pending.line


class _PendingLine:
    """One line read in a thread of its own."""

    def __init__(self, read: Callable[[str, Sequence[str]], str], prompt: str,
                 words: Sequence[str]) -> None:
        self.line = ""
        self.error: BaseException | None = None
        self.finished = threading.Event()
        threading.Thread(target=self._run, args=(read, prompt, words), name="console-line",
                         daemon=True).start()

    def _run(self, read: Callable[[str, Sequence[str]], str], prompt: str,
             words: Sequence[str]) -> None:
        try:
            self.line = read(prompt, words)
        except BaseException as err:  # noqa: BLE001 - handed to the asking thread as it came
            self.error = err
        finally:
            self.finished.set()


def normal(text: str) -> str:
    """A name as it is compared: no accents, no case, words of letters and digits (of any
    script: a Japanese player types the kanji he reads, 伊予)."""
    plain = unicodedata.normalize("NFKC", "".join(  # kana keep their voicing marks (ど)
        c for c in unicodedata.normalize("NFKD", text)
        if not unicodedata.combining(c) or c in "\u3099\u309a"))
    return " ".join(re.sub(r"[\W_]+", " ", plain.casefold()).split())


def _word_start(typed: list[str], name: list[str]) -> bool:
    """Each typed word starts a word of the name, in order ("move a" in "battle move a"); a
    number must be the whole word ("1" is not "14")."""
    i = 0
    for w in typed:
        while i < len(name) and not (name[i] == w or (not w.isdigit()
                                                      and name[i].startswith(w))):
            i += 1
        if i == len(name):
            return False
        i += 1
    return True


def match(answer: str, options: Sequence[str],
          names: Mapping[str, Sequence[str]] | None = None) -> str:
    """The option ``answer`` names: by one of its names (the option itself, ``names``) exactly,
    without its spaces ("deploy5"), by a unique start, or word by word ("theatre" for "Nō
    theatre"); any case, accents ignored. A number is taken as the value it says, never as a
    position in the list nor as the start of a longer number."""
    low = normal(answer)
    every = {o: [normal(o), *(normal(n) for n in (names or {}).get(o, ()))] for o in options}
    tests: list[Callable[[str], bool]] = [
        lambda n: n == low,
        lambda n: n.replace(" ", "") == low.replace(" ", ""),
    ]
    if low and not low.isdigit():
        tests.append(lambda n: n.startswith(low))
    if low:
        tests.append(lambda n: _word_start(low.split(), n.split()))
    for test in tests:
        found = [o for o in options if any(test(n) for n in every[o] if n)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise ShogunError(_("{answer!r} could be {options}: type more of the name").format(
                answer=answer, options=or_list(found)))
    shown = or_list(list(options)) if len(options) <= 20 else \
        ", ".join(options[:20]) + ", …"
    if not answer.strip():
        raise ShogunError(_("type one of: {options}").format(options=shown))
    raise ShogunError(_("{answer!r} is not one of: {options}").format(answer=answer,
                                                                      options=shown))


def or_list(items: Sequence[str]) -> str:
    """``a, b or c``."""
    return i18n.or_list(list(items))


def refusal(err: Exception | str) -> str:
    """A refused answer in one line, as players read it: without the rule's ID (docs cite
    rules; the table says the card's or the action's words)."""
    text = getattr(err, "message", None) or str(err)
    return _("refused: {error}").format(error=re.sub(r"^rule [A-Z][0-9.]*: ", "", text))


def resume_command(path: str | os.PathLike) -> str:
    return f"shogun-tower play --resume {path}"


def until_stopped(run: Callable[[], Any], console: Any, path: str | os.PathLike) -> Any:
    """``run()``'s result, or None when a person stopped the game (quit, the input ended,
    Ctrl-C): then one line says where it is saved and how to continue. After Ctrl-C the
    console's ``stopped_by_ctrl_c`` is set (the command then exits with 130)."""
    try:
        return run()
    except QuitRequested as why:
        stop = str(why)
    except KeyboardInterrupt:
        stop = "Ctrl-C"
    console.stopped_by_ctrl_c = stop == "Ctrl-C"
    console.say("\n" + _("stopped: {why}. The game is saved in {path}: continue with "
                       "`{command}`").format(why=stop, path=path,
                                            command=resume_command(path)))
    return None

