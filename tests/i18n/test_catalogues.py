"""The catalogues are complete and up to date: the kept template is what `make pot` extracts
today, every message of it is translated in French and Japanese (no fuzzy entry, none missing,
none left over), and every translation keeps its message's placeholders."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po

from shogun_tower import i18n

ROOT = pathlib.Path(__file__).parents[2]
POT = i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot"
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]
# {name}, {name!r}, {n:>3}; %s, %(name)s; a doubled brace is a brace, not a placeholder
_PLACEHOLDER = re.compile(r"(?<!\{)\{[^{}]*\}(?!\})|%(?:\(\w+\))?[sdif]")


def _read(path: pathlib.Path, lang: str | None = None):
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _ids(catalog) -> set:
    return {(m.id, m.context) for m in catalog if m.id}


def placeholders(text: str) -> list[str]:
    return sorted(_PLACEHOLDER.findall(text))


@pytest.fixture(scope="module")
def fresh_pot(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("pot") / "fresh.pot"
    subprocess.run(["make", "--no-print-directory", "-s", "pot", f"POT={out}",
                    f"BIN={pathlib.Path(sys.executable).parent}"],
                   cwd=ROOT, check=True, capture_output=True, text=True)
    return out


def test_the_kept_template_is_what_the_code_marks_today(fresh_pot: pathlib.Path) -> None:
    kept, fresh = _ids(_read(POT)), _ids(_read(fresh_pot))
    assert not fresh - kept, f"run `make catalogues`: new messages {sorted(fresh - kept)[:5]}"
    assert not kept - fresh, f"run `make catalogues`: gone messages {sorted(kept - fresh)[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str) -> None:
    catalog = _read(i18n.catalogue_path(lang), lang)
    template = _ids(_read(POT))
    assert _ids(catalog) == template, f"run `make catalogues` ({lang} differs from the template)"
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert not fuzzy, f"{lang}: fuzzy entries to check and unmark: {fuzzy[:5]}"
    empty = [m.id for m in catalog if m.id and not (
        all(m.string) if isinstance(m.id, tuple) else m.string)]
    assert not empty, f"{lang}: {len(empty)} messages untranslated, e.g. {empty[:5]}"
    assert catalog.num_plurals == len(next(
        (m.string for m in catalog if isinstance(m.id, tuple)), [None] * catalog.num_plurals))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang: str) -> None:
    wrong = []
    for m in _read(i18n.catalogue_path(lang), lang):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = [placeholders(i) for i in ids]
        for s in strings:
            if placeholders(s) not in wanted:
                wrong.append((ids[0], s))
    assert not wrong, f"{lang}: placeholders differ: {wrong[:3]}"


def test_the_placeholder_check_sees_a_difference() -> None:
    assert placeholders("{province} has {n} armies") != placeholders("{province} a {m} armées")
    assert placeholders("{a} {b}") == placeholders("{b}{a}")
    assert placeholders("{{literal}} {x}") == ["{x}"]


def test_plural_forms_come_from_the_catalogues() -> None:
    try:
        i18n.use("fr")
        assert i18n.page_words()["plural"].replace(" ", "") == "(n>1)"
        i18n.use("ja")
        assert i18n.page_words()["nplurals"] == 1
    finally:
        i18n.use("en")
