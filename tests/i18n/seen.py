"""What a person sees, checked for English left in a French or Japanese screen: any piece of
an English message (its text between placeholders: two words or more, 12 characters or more)
found on the screen is a string that was not translated."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from shogun_tower import i18n

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def english_pieces() -> set[str]:
    with (i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot").open("rb") as f:
        catalog = read_po(f)
    pieces: set[str] = set()
    for m in catalog:
        for msgid in (m.id if isinstance(m.id, tuple) else (m.id,)):
            pieces.update(p.strip() for p in _PLACEHOLDER.split(msgid or "")
                          if len(p.strip()) >= 12 and " " in p.strip())
    return pieces


def untranslated(screen: str) -> list[str]:
    """The English pieces a screen shows (joined lines: a wrapped sentence is found too)."""
    flat = " ".join(screen.split())
    return sorted(p for p in english_pieces() if p in flat)
