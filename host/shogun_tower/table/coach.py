"""The coach at every question of every game: `help` (what this question is, the words that work
here, the rules by topic) and `hint` (what the strongest bot would answer, and why).

The console (``table/console.py``) hands both words to the game's ``Coach``; the coach reads the
game's one help book (``helpbook.py``: Shogun's ``games/shogun/help.py``, Samurai's and
shogun2's beside their engines) and its hints (``games/<game>/hints.py``). The same book is
served as the board page's help page (``/help``), so the console and the page never disagree.
Shogun's coach is built here (``shogun``); the other games' beside their tables
(``games/knizia_samurai/coach.py``, ``games/shogun2/coach.py``), which the table never imports.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shogun_tower.helpbook import EVERY_QUESTION, HelpBook, Topic, topic_lines, wrap
from shogun_tower.i18n import N_, _, language

PAUSE_HELP = N_("Nothing is decided here: press Enter when ready (or type undo).")
PAUSE_HINT = N_("Nothing to decide here: press Enter when ready.")


@dataclass
class Coach:
    """``question()``: one sentence about the question being asked; ``hint_lines()``: the
    hint; ``extra()``: the game's own words that work at this question (its book's table
    topic says what each does)."""

    book: HelpBook
    question: Callable[[], str]
    hint_lines: Callable[[], list[str]]
    extra: Callable[[], tuple[str, ...]] = lambda: ()  # noqa: E731
    page_url: str = ""

    def help(self, topic: str, pausing: bool, width: int) -> list[str]:
        """`help` (``topic`` ""), or `help TOPIC`: lines cut to ``width`` between words."""
        if topic:
            found = self.book.find(topic)
            if found is None:
                keys = ", ".join(t.key for t in self.book.topics)
                return wrap(_("There is no help topic {topic!r}; the topics are: {keys}.").format(
                    topic=topic, keys=keys), width)
            return topic_lines(found, width)
        out = wrap(_("This question: {question}").format(
            question=_(PAUSE_HELP) if pausing else self.question()), width)
        out.append(_("Words that work here:"))
        here = EVERY_QUESTION + (() if pausing else self.extra())
        table = self.book.find("table")
        for name, what in table.entries if table is not None else ():
            if name in here:
                out += wrap(f"{name}: {what}", width, "  ")
        playing = ", ".join(_topic(t) for t in self.book.topics if t.in_game)
        others = ", ".join(_topic(t) for t in self.book.topics if not t.in_game)
        out += wrap(_("The rules by topic (type help and the topic): {topics}.").format(
            topics=playing) + (" " + _("Expansions not in this game: {topics}.").format(
                topics=others) if others else ""), width)
        if self.page_url:
            out += wrap(_("All of it on the board page's help: {url}").format(
                url=f"{self.page_url}help"), width)
        return out

    def hint(self, pausing: bool, width: int) -> list[str]:
        """`hint`: the game's answer for this question, each line cut to ``width``."""
        if pausing:
            return wrap(_(PAUSE_HINT), width)
        try:
            lines = self.hint_lines()
        except Exception as err:  # a hint must never stop the game; the table goes on
            return wrap(_("No hint here ({error}); answer as you see fit.").format(
                error=f"{type(err).__name__}: {err}"), width)
        out = []
        for line in lines:
            indent = line[:len(line) - len(line.lstrip())]
            out += wrap(line.strip(), width, indent)
        return out


def _topic(topic: Topic) -> str:
    """A topic as `help` lists it: the word to type, and its title where the players'
    language is not the typed word's (``game (ゲーム)``)."""
    return topic.key if language() == "en" else f"{topic.key} ({topic.title})"


def attach(console: Any, coach: Coach, page: Any = None) -> Coach:
    """The coach answers `help` and `hint` at every question of ``console``; the page (if
    any) serves the same help book as its help page."""
    console.coach = coach
    if page is not None:
        coach.page_url = page.url
        page.serve_help(coach.book.to_json())
    return coach


# ---- Shogun's coach ------------------------------------------------------------------------
def shogun(table: Any) -> Coach:
    """Shogun at the table (``conductor.TableGame``): its help book with the game's expansions,
    the line of each question's declaration, the odds bot's hint."""
    from shogun_tower.games.shogun import help as shogun_help
    from shogun_tower.games.shogun import hints
    from shogun_tower.games.shogun.odds.model import TowerParams

    odds = next((getattr(seat, "odds", None) for seat in table.seats.values()
                 if getattr(seat, "human", False)), None)
    params = odds if isinstance(odds, TowerParams) else None

    def extra() -> tuple[str, ...]:
        console = table.console
        return (("odds",) if table.state.pending()["kind"] == "march" and odds else ()) \
            + (("plan",) if console.redraw is not None else ()) \
            + (("phone COLOUR",) if console.phone_code is not None else ())

    return Coach(shogun_help.book(table.state.game),
                 lambda: shogun_help.question_help(table.state.game, table.state.pending()),
                 lambda: hints.hint(table.state, len(table.journal.commands), params), extra)
