"""The errors a user sees, shared by every game: one line saying what was wrong and what to do."""

from __future__ import annotations

from shogun_tower.i18n import _


class ShogunError(Exception):
    """A user-facing error. ``str(err)`` is one line: what was wrong and what to do."""


class RulesError(ShogunError):
    """A refused command or file. ``rule`` is the rule ID it breaks (e.g. "B7",
    docs/rules.md)."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = " ".join(message.split())  # without the rule's ID: what players read
        text = _("rule {rule}: {message}").format(rule=rule, message=message) if rule \
            else message
        super().__init__(" ".join(text.split()))


class MapError(ShogunError):
    """A map file that cannot be played on; the message names the province or field."""


class JournalError(ShogunError):
    """A journal that cannot be replayed; the message gives the line number and the reason."""


class DataError(ShogunError):
    """An expansion's data file (favour cards, bonus stacks) that cannot be played with; the
    message names the file, the entry and the field."""
