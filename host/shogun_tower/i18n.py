"""The players' language: English, French or Japanese, from gettext catalogues.

Every player-facing string goes through this module: ``_("...")`` for a sentence,
``ngettext("one army", "{n} armies", n)`` where a number decides the form (the catalogue's
plural rule, written by Babel from CLDR, picks the form: never a table of our own), ``N_`` to
mark a word kept in a table and translated where it is shown. Placeholders are named
(``{province}``), so a translation may put them in any order.

The catalogues are ``locale/{fr,ja}/LC_MESSAGES/shogun_tower.po`` beside this module (the
template is ``locale/shogun_tower.pot``; ``make catalogues`` extracts and updates them). They are
compiled in memory the first time a language is used, so no binary is kept in the repository
and an edited .po is read as it is.

The language is chosen once per process: ``--lang`` on the command line, or else the system
locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them), or else
English. The pages get the same catalogue as JSON (:func:`page_words`), read by ``web/i18n.js``.
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import pathlib
import re
import string
from collections.abc import Mapping, Sequence

DOMAIN = "shogun_tower"
LANGUAGES = ("en", "fr", "ja")  # English is the source language: its catalogue is the code
DEFAULT = "en"
LOCALE_DIR = pathlib.Path(__file__).parent / "locale"
_ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")  # gettext's order

_current = DEFAULT


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the system locale asks for, as gettext reads it (the first of LANGUAGE,
    LC_ALL, LC_MESSAGES, LANG that is set; LANGUAGE may list several, ``fr:en``), among the
    ones we have; English when none is."""
    env = os.environ if environ is None else environ
    for name in _ENVIRONMENT:
        value = env.get(name)
        if not value:
            continue
        for entry in value.split(":"):
            code = re.split(r"[_.@-]", entry.strip(), maxsplit=1)[0].lower()
            if code in LANGUAGES:
                return code
        if name != "LANGUAGE":  # the first locale set decides, as in gettext
            break
    return DEFAULT


def use(lang: str | None = None) -> str:
    """Speak ``lang`` from now on (``None``: the system locale's). Returns the language."""
    global _current
    if lang is None:
        lang = system_language()
    if lang not in LANGUAGES:  # the command line refuses it first (--lang's choices)
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(LANGUAGES)}")
    _current = lang
    return lang


def language() -> str:
    """The language in use: ``en``, ``fr`` or ``ja``."""
    return _current


def catalogue_path(lang: str) -> pathlib.Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def _catalog(lang: str):  # -> babel.messages.Catalog
    from babel.messages.pofile import read_po
    with catalogue_path(lang).open("rb") as po:
        return read_po(po, locale=lang, domain=DOMAIN)


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English: the messages as written). Fuzzy entries
    are left out, as msgfmt does: a guess is never shown to players."""
    if lang == DEFAULT or not catalogue_path(lang).is_file():
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    mo = io.BytesIO()
    write_mo(mo, _catalog(lang), use_fuzzy=False)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


# French elides "de", "le", "la" and "que" before a vowel (d'Etchu, l'Iyo, qu'Owari). A
# translator cannot write it into a message whose word after them is a value put in later (a
# province, a colour), so a French message fills its values through French.format, which
# elides there; the page's fmt() does the same (web/i18n.js).
_ELIDED = re.compile(r"\b(de|le|la|que) $", re.IGNORECASE)
_VOWEL = re.compile(r"(?:\x1b\[[0-9;]*[A-Za-z])*[aeiouâéèêëîïôœûùAEIOUÂÉÈÊËÎÏÔŒÛÙ]")
_FORMATTER = string.Formatter()


def elide(before: str, value: str) -> str:
    """French text ``before`` a value, its last word elided if ``value`` starts with a vowel
    ("va de " + "Etchu" -> "va d'"); any other text as it is ("à" is a word of its own:
    "de à" is left to the message)."""
    found = _ELIDED.search(before)
    if not found or not _VOWEL.match(value):
        return before
    return before[:found.start()] + found.group(1)[:-1] + "'"


class French(str):
    """A French message: ``format`` fills its values as ``str.format`` does, and elides the
    word before a value that starts with a vowel."""

    __slots__ = ()

    def format(self, *args: object, **kwargs: object) -> str:  # noqa: A003 - str's own name
        done = ""
        for literal, field, spec, conversion in _FORMATTER.parse(self):
            done += literal
            if field is None:
                continue
            value, _key = _FORMATTER.get_field(field, args, kwargs)
            value = _FORMATTER.convert_field(value, conversion)
            text = _FORMATTER.format_field(value, _FORMATTER.vformat(spec or "", args, kwargs))
            done = elide(done, text) + text
        return done


def _said(text: str) -> str:
    return French(text) if _current == "fr" else text


def _(message: str) -> str:
    """``message`` in the language in use."""
    return _said(translations(_current).gettext(message))


def ngettext(singular: str, plural: str, n: float) -> str:
    """The form of ``singular``/``plural`` that ``n`` takes in the language in use (a decimal,
    such as a mean, the form CLDR gives it: "1 fermier", "0.5 fermier", "1.5 farmers")."""
    if not isinstance(n, int):  # gettext's plural rules are for whole numbers only
        from babel import Locale
        n = 1 if Locale.parse(_current).plural_form(n) == "one" else 2
    return _said(translations(_current).ngettext(singular, plural, n))


def N_plural(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - as N_
    """Mark a pair of forms for the catalogue without translating it now (the forms kept in a
    table, chosen by ``ngettext`` or ``words.sentence`` where the count is known)."""
    return singular, plural


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for a marker
    """Mark ``message`` for the catalogue without translating it now (a word kept in a table,
    translated with ``_`` where it is shown)."""
    return message


def _list_locale() -> str:
    # British English joins lists without the serial comma ("a, b and c"), as the
    # console always has
    return "en_GB" if _current == DEFAULT else _current


def join(items: Sequence[str]) -> str:
    """Items as a list of the language in use, without "and" ("red 3, blue 2";
    "赤3、青2"): CLDR's list pattern through Babel."""
    from babel.lists import format_list
    return format_list(list(items), style="unit-short", locale=_list_locale()) if items else ""


def localise_page(page: str, lang: str | None = None) -> str:
    """A page's HTML made to speak ``lang``: its ``lang`` attribute, the catalogue as JSON
    and ``/i18n.js`` put where the page keeps its first data (``<!--INITIAL-->``), before the
    page's own scripts (or before its first script where it keeps no data). The one hook the
    page server calls for every page."""
    import json
    words = page_words(lang)
    text = json.dumps(words, ensure_ascii=False).replace("</", "<\\/")
    head = (f'<script id="page-words" type="application/json">{text}</script>\n'
            f'<script src="/i18n.js"></script>\n')
    code = words["lang"]
    page = re.sub(r'<html lang="[^"]*"', f'<html lang="{code}"', page, count=1)
    mark = "<!--INITIAL-->" if "<!--INITIAL-->" in page else "<script"
    return page.replace(mark, head + mark, 1)


def and_list(items: Sequence[str]) -> str:
    """Items joined as the language says "a, b and c" ("a, b et c"; "a、b、c"): CLDR's list
    pattern through Babel."""
    from babel.lists import format_list
    return format_list(list(items), style="standard", locale=_list_locale()) if items else ""


def or_list(items: Sequence[str]) -> str:
    """Items joined as the language says "a, b or c" ("a, b ou c"; "a、b、またはc"): CLDR's
    list pattern through Babel."""
    from babel.lists import format_list
    return format_list(list(items), style="or", locale=_list_locale()) if items else ""


def page_words(lang: str | None = None) -> dict:
    """What a page needs to speak ``lang``: its code, the catalogue's plural rule (a C
    expression of ``n``, valid JavaScript too) and every translated message, ``{msgid:
    msgstr}`` or ``{msgid: [forms]}`` for a plural, keyed by the singular."""
    lang = lang or _current
    if lang == DEFAULT or not catalogue_path(lang).is_file():
        return {"lang": lang, "nplurals": 2, "plural": "(n != 1)", "messages": {}}
    catalog = _catalog(lang)
    messages: dict[str, str | list[str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        if isinstance(message.id, tuple):
            if all(message.string):
                messages[message.id[0]] = list(message.string)
        else:
            messages[message.id] = message.string
    return {"lang": lang, "nplurals": catalog.num_plurals, "plural": catalog.plural_expr,
            "messages": messages}
