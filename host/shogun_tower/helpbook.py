"""A game's help as one book of topics, which the console's `help` and the board page's help
page both read (``table/coach.py``, ``web/help.html``): nothing is written twice.

Each game builds its book from its own catalogues (Shogun: ``games/shogun/help.py``, from the
cards, the constants and the expansions' declarations and data files). A topic is a title, an
optional sentence or two and entries, each a name and what it does in players' words.
"""

from __future__ import annotations

from dataclasses import dataclass

from shogun_tower import lines
from shogun_tower.i18n import N_, _

# The words that work at every question of every game, and what each does (the console
# handles them: ``table/console.py``); a game adds its own (Shogun's odds, shogun2's moves).
TABLE_COMMANDS = (
    ("hint", N_("what the strongest bot would answer here, and why")),
    ("help", N_("what this question is and the commands that work here; help TOPIC for a "
                "topic of the rules (? and h say help too)")),
    ("undo", N_("take back the last answer")),
    ("show", N_("the game's state again")),
    ("page", N_("the board page's address")),
    ("quit", N_("stop here; continue later with play --resume FILE")),
)


@dataclass(frozen=True)
class Topic:
    key: str  # the word `help KEY` takes at the console, and the page's anchor
    title: str
    intro: str = ""
    entries: tuple[tuple[str, str], ...] = ()
    in_game: bool = True  # an expansion not chosen for this game is still explained

    def to_json(self) -> dict:
        return {"key": self.key, "title": self.title, "intro": self.intro,
                "entries": [{"name": n, "text": t} for n, t in self.entries],
                "in_game": self.in_game}


@dataclass(frozen=True)
class HelpBook:
    game: str  # the game's name in the catalogue of games
    title: str
    intro: str
    topics: tuple[Topic, ...]

    def find(self, word: str) -> Topic | None:
        """The topic ``word`` names: its key or title, or a unique start of one (any case)."""
        low = word.strip().lower()
        for t in self.topics:
            if low in (t.key, t.title.lower()):
                return t
        starts = [t for t in self.topics if t.key.startswith(low) or t.title.lower()
                  .startswith(low)]
        return starts[0] if len(starts) == 1 else None

    def to_json(self) -> dict:
        return {"game": self.game, "title": self.title, "intro": self.intro,
                "topics": [t.to_json() for t in self.topics]}


def table_topic(extra: tuple[tuple[str, str], ...] = (), hint: str = "") -> Topic:
    """The words of the table as a topic: every game's (``hint``: what the game's hint says,
    if not the bot's answer), then its own (``extra``), each with what it does."""
    words = tuple((n, hint if n == "hint" and hint else _(w)) for n, w in TABLE_COMMANDS)
    return Topic("table", _("At the table"), _("Type an answer, or one of these words at any "
                 "question. A name may be typed by a unique start of it, and Tab completes "
                 "it."), words + tuple(extra))


EVERY_QUESTION = tuple(n for n, _ in TABLE_COMMANDS)


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """A paragraph cut into lines between words, never inside one (at 80 columns too), and
    between Japanese characters, which have no spaces (``shogun_tower.lines``)."""
    text = " ".join(text.split())
    return lines.wrap(indent + text, max(20, width), len(indent) + 2) if text else [indent]


def topic_lines(topic: Topic, width: int) -> list[str]:
    """A topic as the console prints it: its title, its sentences, one paragraph an entry."""
    out = [topic.title]
    if topic.intro:
        out += wrap(topic.intro, width, "  ")
    for name, text in topic.entries:
        # Translators: an entry of the help, its name and what it does ("Tax: take the coins")
        entry = _("{name}: {text}").format(name=name, text=text) if name and text else \
            name or text
        out += wrap(entry, width, "  ")
    return out
