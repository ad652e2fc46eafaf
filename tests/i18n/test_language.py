"""The language is chosen by --lang on any subcommand, or else by the system locale, English
the fallback; the shared words (colours, counts, errors, provinces) speak it."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

from shogun_tower import i18n, words
from shogun_tower.counts import parse_counts
from shogun_tower.errors import RulesError, ShogunError

# The map facts, kept beside the project where a checkout has them (skipped where it has not)
REFERENCE = pathlib.Path(__file__).resolve().parents[3] / "shared" / "reference"
DATA = pathlib.Path(words.__file__).parent / "games/shogun/data"



@pytest.mark.parametrize(("environ", "lang"), [
    ({}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "fr"),
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "ja_JP.UTF-8", "LANG": "fr_FR.UTF-8"}, "ja"),
    ({"LC_MESSAGES": "fr_CA", "LANG": "ja_JP.UTF-8"}, "fr"),
    ({"LANGUAGE": "de:fr:en", "LANG": "ja_JP.UTF-8"}, "fr"),
    ({"LANGUAGE": "", "LC_ALL": "", "LANG": "fr_BE@euro"}, "fr"),
])
def test_the_system_locale_chooses(environ: dict, lang: str) -> None:
    assert i18n.system_language(environ) == lang


def _run(*args: str, env_lang: str = "C.UTF-8") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env["LANG"] = env_lang
    return subprocess.run([sys.executable, "-m", "shogun_tower.cli", *args], env=env,
                          capture_output=True, text=True, timeout=60)


def test_lang_is_taken_before_and_after_the_subcommand() -> None:
    for args in (["--lang", "fr", "referee", "--help"], ["referee", "--help", "--lang=fr"],
                 ["knizia-samurai", "winner", "--lang", "fr", "--help"]):
        out = _run(*args).stdout
        assert "la langue de tout ce qui est affiché" in out, args
    assert "表示する言語" in _run("play", "--lang", "ja", "--help").stdout


def test_the_system_locale_is_the_default_and_lang_wins() -> None:
    assert "表示する言語" in _run("referee", "--help", env_lang="ja_JP.UTF-8").stdout
    assert "the language of everything" in _run("referee", "--help", "--lang", "en",
                                                env_lang="ja_JP.UTF-8").stdout


def test_an_unknown_language_is_one_line() -> None:
    proc = _run("referee", "--lang", "de")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "--lang" in proc.stderr


def test_colours_and_counts_in_each_language(speak) -> None:
    counts = {"red": 3, "green": 1, "blue": 2}
    assert words.cubes_text(counts) == "red 3, blue 2, farmers 1"
    speak("fr")
    assert words.cubes_text(counts) == "rouge 3, bleu 2 et fermiers 1"
    assert parse_counts("rouge 3, bleu 2, fermiers 1")["red"] == 3
    assert parse_counts("vert 2")["green"] == 2
    speak("ja")
    assert words.cubes_text(counts) == "赤3 青2 農民1"
    assert parse_counts("赤3、青2、農民1") == dict(parse_counts("r3 b2 f1"))
    with pytest.raises(ShogunError, match="キューブの色ではありません"):
        parse_counts("金 3")
    assert words.cubes_text({}) == "なし"


def test_a_region_is_named_by_its_colour_agreeing_with_region(speak) -> None:
    """French agrees a region's colour with «région» (la région verte), not as the cube's
    colour (vert); brown, a region's colour no cube has, is a word too."""
    assert [words.region_word(r) for r in ("green", "purple", "brown")] == \
        ["green", "purple", "brown"]
    speak("fr")
    assert [words.region_word(r) for r in ("green", "purple", "brown")] == \
        ["verte", "violette", "marron"]
    assert words.colour_word("green") == "vert" and words.colour_word("brown") == "marron"
    speak("ja")
    assert words.region_word("green") == "緑" and words.region_word("brown") == "茶"


def test_a_refusal_speaks_the_language(speak) -> None:
    speak("fr")
    assert str(RulesError("B7", "x")) == "règle B7 : x"


def test_provinces_keep_their_names_and_take_their_kanji_in_japanese(speak) -> None:
    kanji = json.loads((DATA / "province_names.json").read_text(encoding="utf-8"))["ja"]
    sources = [DATA / "map_sun.json", DATA / "map_moon.json"]
    sources += [p for p in (REFERENCE / "shogun_map_sun.json", REFERENCE / "shogun_map_moon.json")
                if p.is_file()]
    for path in sources:
        regions = json.loads(path.read_text(encoding="utf-8"))["regions"]
        named = {p for provinces in regions.values() for p in provinces}
        assert named == set(kanji), path.name
    # every name is two characters of the CJK block, and no two provinces share one
    assert all(len(k) == 2 and all("\u4e00" <= c <= "\u9fff" for c in k) for k in kanji.values())
    assert len(set(kanji.values())) == len(kanji)
    assert words.province_word("Owari") == "Owari"
    speak("fr")
    assert words.province_word("Owari") == "Owari"
    speak("ja")
    assert words.province_word("Owari") == "尾張"
    assert words.province_word("Awa-Boso") == "安房"
    assert words.province_word("Awa-Shikoku") == "阿波"
