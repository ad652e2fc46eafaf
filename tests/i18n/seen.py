"""What a person sees, checked for English left in a French or Japanese screen: any piece of
an English message (its text between placeholders: two words or more, 12 characters or more)
found on the screen is a string that was not translated."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from shogun_tower import i18n

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def english_pieces(lang: str | None = None) -> set[str]:
    """The pieces of the English messages; with ``lang``, those its translation does not keep
    as they are (a name such as "Shogun (Ravensburger)" is the same in French)."""
    with (i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot").open("rb") as f:
        catalog = read_po(f)
    kept: dict = {}
    if lang and lang != i18n.DEFAULT:
        with i18n.catalogue_path(lang).open("rb") as f:
            kept = {m.id: m.string for m in read_po(f, locale=lang) if m.id}
    pieces: set[str] = set()
    for m in catalog:
        translated = kept.get(m.id, "")
        translated = " ".join(translated) if isinstance(translated, tuple) else translated
        for msgid in (m.id if isinstance(m.id, tuple) else (m.id,)):
            pieces.update(p.strip() for p in _PLACEHOLDER.split(msgid or "")
                          if len(p.strip()) >= 12 and " " in p.strip()
                          and p.strip() not in translated)
    return pieces


def said(lang: str, message: str, **values: object) -> str:
    """``message`` as the product says it in ``lang`` (with ``values`` put in)."""
    before = i18n.language()
    i18n.use(lang)
    try:
        return i18n._(message).format(**values) if values else i18n._(message)
    finally:
        i18n.use(before)


def untranslated(screen: str, lang: str | None = None) -> list[str]:
    """The English pieces a screen shows (joined lines: a wrapped sentence is found too);
    ``lang``: the screen's language, whose translations may keep a name as it is."""
    flat = " ".join(screen.split())
    return sorted(p for p in english_pieces(lang) if p in flat)


# English words no French or Japanese sentence has: a screen in fr or ja that shows one has a
# sentence nobody marked for translation (untranslated() only knows the marked ones). Commands
# typed at the console (undo, show, help, moves...) are not among them.
ENGLISH = frozenset("""the and is are was with your you this that from which would could
there here when will must has have not for of to by into then than its it's isn't can't
cannot don't nothing nobody something what who why how after before already only
""".split())
_NOT_WORDS = re.compile(r"\S*[/\\]\S*|`[^`]*`|https?://\S+")  # paths, commands, addresses


def english_words(screen: str) -> list[str]:
    """The English words a French or Japanese screen shows (paths and `commands` aside)."""
    text = _NOT_WORDS.sub(" ", screen)
    return sorted({w for w in re.findall(r"[A-Za-z']+", text) if w.lower() in ENGLISH})


def too_wide(lines: list[str], width: int) -> list[str]:
    """The lines that take more than ``width`` columns (a kanji takes two): lines the console
    did not cut, which the terminal then breaks anywhere."""
    from shogun_tower.lines import cells
    return [line for line in lines if cells(line) > width]
