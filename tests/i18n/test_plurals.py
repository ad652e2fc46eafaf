"""Plurals come from the catalogues' plural rules (ngettext), never from code that adds an
"s": words.sentence, the coach's and the narration's counts, follow French's rule (0 and 1
singular) and Japanese's (one form), and no hand-made plural is left in the host."""

from __future__ import annotations

import pathlib
import re

import pytest

from shogun_tower import i18n
from shogun_tower.words import sentence

HOST = pathlib.Path(i18n.__file__).parent
# "army" if n == 1 else "armies"; 's' * (n != 1); word + "s" when the count is not 1
HAND_MADE = re.compile(r"""["'][a-z ]+["'] if [^\n]*[!=]= 1 else ["'][a-z ]+["']"""
                       r"""|["']s["'] \*|["']s["'] if |else word \+ ["']s["']""")


@pytest.mark.parametrize(("lang", "forms"), [
    ("en", ["0 armies", "1 army", "2 armies"]),
    ("fr", ["0 armée", "1 armée", "2 armées"]),  # French: 0 takes the singular
    ("ja", ["軍隊0", "軍隊1", "軍隊2"]),
])
def test_sentence_follows_the_languages_plural_rule(lang: str, forms: list[str]) -> None:
    i18n.use(lang)
    try:
        assert [sentence(n, "{n} army", "{n} armies") for n in (0, 1, 2)] == forms
    finally:
        i18n.use("en")


def test_no_plural_is_made_by_hand() -> None:
    found = []
    for path in sorted(HOST.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HAND_MADE.search(line):
                found.append(f"{path.relative_to(HOST)}:{number}: {line.strip()}")
    assert not found, "use ngettext or words.sentence:\n" + "\n".join(found)


def test_the_check_sees_a_hand_made_plural() -> None:
    assert HAND_MADE.search("""f"{n} {'army' if n == 1 else 'armies'}" """)
    assert HAND_MADE.search("""f"square{'s' * (dial > 1)}" """)
    assert not HAND_MADE.search("""_("one") if n == 1 else _("other")""")
