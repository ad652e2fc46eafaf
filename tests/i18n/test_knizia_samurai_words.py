"""Knizia's Samurai's referee and refusals in French and Japanese, as a person reads them
from the command line: the catalogue's words, no English message left."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from i18n.seen import untranslated

CAPTURE = ["knizia-samurai", "capture", "--figure", "helmet", "blue:helmet:3", "red:samurai:2"]
TIE = ["knizia-samurai", "capture", "--figure", "buddha", "blue:buddha:2", "red:samurai:2",
       "green:rice:3"]


def shogun_tower(*args: str, lang: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, LANG="C.UTF-8")
    return subprocess.run([sys.executable, "-m", "shogun_tower.cli", *args, "--lang", lang],
                          capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.parametrize(("lang", "capture", "tie"), [
    ("en", "blue captures the helmet: blue 3, red 2",
     "the Buddha leaves the board: blue and red tie at 2 (blue 2, red 2, green 0)"),
    ("fr", "bleu capture le heaume : bleu 3 et rouge 2",
     "le bouddha quitte le plateau : bleu et rouge sont à égalité à 2 (bleu 2, rouge 2 et "
     "vert 0)"),
    ("ja", "青が兜を獲得：青3 赤2", "仏像は盤を離れます：青、赤が 2 で同点（青2 赤2 緑0）"),
])
def test_the_verdict_speaks_the_language(lang: str, capture: str, tie: str) -> None:
    out = shogun_tower(*CAPTURE, lang=lang)
    assert out.returncode == 0, out.stderr
    assert capture in out.stdout
    out = shogun_tower(*TIE, lang=lang)
    assert tie in out.stdout
    if lang != "en":
        assert not untranslated(out.stdout)


@pytest.mark.parametrize(("lang", "refusal"), [
    ("fr", "erreur : --players 5 : Samurai se joue de 2 à 4 joueurs"),
    ("ja", "エラー：--players 5：Samurai は 2～4 人用です"),
])
def test_a_refusal_is_one_line_in_the_language(lang: str, refusal: str) -> None:
    out = shogun_tower("play", "--game", "knizia-samurai", "--players", "5",
                       lang=lang)
    lines = out.stderr.strip().splitlines()
    assert out.returncode == 2 and len(lines) == 1, out.stderr
    assert refusal in lines[0] and not untranslated(lines[0]), lines[0]


def test_the_check_finds_english() -> None:
    assert untranslated("x: the game is over (y); undo the last entry if it was wrong")
