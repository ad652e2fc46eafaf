"""Lines cut for an 80-column terminal in every language: a kanji takes two columns, Japanese
breaks between its characters but never before 。、」 nor after 「, colour codes take no room;
and the checks the language tests lean on see what they are meant to."""

from __future__ import annotations

from i18n.seen import english_words, too_wide, untranslated
from shogun_tower.lines import cells, pieces, wrap

JA = ("卓で起きたとおりに入力してください。プレイヤーが駒を獲得したら プレイヤー 駒（赤 兜）。"
      "駒が同点で盤を離れたら 同点 駒（同点 田）。")


def test_a_kanji_takes_two_columns_and_a_colour_code_none() -> None:
    assert cells("赤3") == 3
    assert cells("\x1b[38;2;230;40;40m赤\x1b[0m") == 2


def test_japanese_breaks_between_characters_within_the_width() -> None:
    lines = wrap(JA, 40)
    assert len(lines) > 2 and all(cells(line) <= 40 for line in lines)
    assert "".join(line.strip() for line in lines).replace(" ", "") == JA.replace(" ", "")
    for line in lines[1:]:
        assert line.startswith("  ") and line.strip()[0] not in "、。）」：:"
    for line in lines[:-1]:
        assert line[-1] not in "（「"


def test_a_closing_mark_stays_with_the_character_before_it() -> None:
    assert pieces("止まる。次") == ["止", "ま", "る。", "次"]
    assert pieces("（赤") == ["（赤"]
    assert pieces("e2-e5") == ["e2-e5"]


def test_english_and_french_still_break_at_spaces_only() -> None:
    assert wrap("the quick brown fox jumps over the lazy dog", 20) == [
        "the quick brown fox", "  jumps over the", "  lazy dog"]
    assert wrap("une-très-longue-adresse-sans-espace", 10) == [
        "une-très-longue-adresse-sans-espace"]


def test_the_checks_see_english_and_lines_too_wide() -> None:
    assert english_words("le journal : /tmp/pytest-of-root/j.jsonl `undo` the end") == ["the"]
    assert not english_words("tapez undo, show, page ou quit ; help en dit plus")
    assert untranslated("x: the game is over (y); undo the last entry if it was wrong", "fr")
    assert not untranslated("Shogun (Ravensburger), plateau 5", "fr")  # a name kept in French
    assert too_wide(["赤" * 41], 80) == ["赤" * 41] and not too_wide(["赤" * 40], 80)
