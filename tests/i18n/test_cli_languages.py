"""The shogun-tower commands run as a user runs them, with --lang fr and --lang ja: the odds of
a battle, a battle's situation and a winter before the referee, refused arguments (argparse's
and ours), a bad save file, and a demo game through the simulated tower stopped by Ctrl-C.
What each prints shows no English piece of a message (``untranslated``) and no English word
(``english_words``), and says what the catalogue says in that language."""

from __future__ import annotations

import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from i18n.seen import english_words, said, untranslated

LANGUAGES = ["fr", "ja"]


def run(lang: str, *argv: str, cwd: pathlib.Path | None = None
        ) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1", LANG="C.UTF-8", LANGUAGE="", LC_ALL="")
    return subprocess.run([sys.executable, "-m", "shogun_tower.cli", "--lang", lang, *argv],
                          capture_output=True, text=True, timeout=120, env=env, cwd=cwd)


def assert_in_language(text: str, lang: str) -> None:
    assert not untranslated(text, lang), (untranslated(text, lang), text)
    assert not english_words(text), (english_words(text), text)


def assert_one_line_error(line: str, lang: str) -> None:
    """The shared error line in the language's own punctuation: Japanese puts a full-width
    colon after a label ("shogun-tower play：エラー：…"), never the half-width one."""
    if lang == "ja":
        assert "：エラー：" in line and ": " not in line, line


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_referee_speaks_the_language(lang: str) -> None:
    odds = run(lang, "referee", "odds", "--attacker", "red", "--armies", "5", "--defender",
               "blue", "--defender-armies", "3", "--tower", "farmers=4,red=2")
    assert odds.returncode == 0, odds.stderr
    assert said(lang, "expected to stay inside the tower: {cubes}", cubes="") in odds.stdout
    assert said(lang, "farmers") in odds.stdout  # the cubes inside, by their own word
    situation = run(lang, "referee", "battle", "--attacker", "blue", "--armies", "4",
                    "--origin-armies", "5", "--defender", "yellow", "--defender-armies", "3")
    assert situation.returncode == 0, situation.stderr
    head, tail = said(lang, "put into the tower: {cubes}; then give --tray with what fell out",
                      cubes="\0").split("\0")
    assert situation.stdout.startswith(head) and situation.stdout.rstrip().endswith(tail)
    winter = run(lang, "referee", "winter", "--provinces", "9", "--rice", "6", "--event", "E3")
    assert winter.returncode == 0, winter.stderr
    score = run(lang, "referee", "score", "--province", "Mikawa=black:castle",
                "--province", "Owari=red:theatre")
    assert score.returncode == 0, score.stderr
    assert said(lang, "black") in score.stdout and said(lang, "red") in score.stdout
    for shown in (odds, situation, winter, score):
        assert_in_language(shown.stdout + shown.stderr, lang)


@pytest.mark.parametrize(("lang", "into", "stays"), [
    ("fr", "dans la tour : 2 noirs et 1 fermier ;", "0.5 noir et 0.3 fermier"),
    ("ja", "タワーへ：黒2 農民1。", "黒0.5 農民0.3"),
    ("en", "into the tower: 2 black, 1 farmer;", "0.5 black, 0.3 farmers"),
])
def test_the_odds_count_cubes_in_the_languages_plural(lang: str, into: str, stays: str) -> None:
    """One farmer is "1 fermier", two black cubes "2 noirs"; a mean takes the form CLDR
    gives a decimal (French: 0.3 fermier; English: 0.3 farmers)."""
    odds = run(lang, "referee", "odds", "--attacker", "black", "--armies", "2", "--markers", "1")
    assert odds.returncode == 0, odds.stderr
    first, *_rest, last = odds.stdout.splitlines()
    assert first.startswith(into), odds.stdout
    assert last.endswith(stays), odds.stdout


REFUSED = [
    ("referee", "odds", "--attacker", "pink", "--armies", "2"),  # argparse: not a choice
    ("referee", "odds", "--attacker", "red", "--armies", "x"),  # our count type
    ("referee", "odds", "--attacker", "red"),  # argparse: a required option missing
    ("referee", "odds", "--attacker", "red", "--armies", "70"),  # more than the box holds
    ("referee", "battle", "--attacker", "red", "--armies", "2", "--defender", "red",
     "--defender-armies", "1"),  # ours: a battle against oneself
    ("referee", "winter", "--provinces", "9", "--rice", "6"),  # neither --event nor --loss
    ("demo", "--games", "0"),
    ("play", "--players", "red,pink"),
    ("referee", "odds", "--attacker", "red", "--armies", "2", "--bogus"),  # argparse: unknown
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refused_argument_is_one_line_in_the_language(lang: str) -> None:
    error = {"fr": "erreur", "ja": "エラー"}[lang]
    for argv in REFUSED:
        shown = run(lang, *argv)
        lines = shown.stderr.strip().splitlines()
        assert shown.returncode == 2 and len(lines) == 1 and error in lines[0], (argv, shown)
        assert not shown.stdout, (argv, shown.stdout)
        assert_in_language(shown.stderr, lang)
        assert_one_line_error(lines[0], lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_bad_save_file_is_refused_in_the_language_and_kept(lang: str,
                                                           tmp_path: pathlib.Path) -> None:
    files = {"binary.jsonl": b"\x89PNG\r\n\x1a\n\xff\xfe",
             "notes.jsonl": b"my notes about last game\n",
             "empty.jsonl": b""}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        for argv in (("play", "--resume", name, "--no-page"), ("replay", name)):
            shown = run(lang, *argv, cwd=tmp_path)
            lines = shown.stderr.strip().splitlines()
            assert shown.returncode == 2 and len(lines) == 1, (argv, shown)
            assert name in lines[0]
            assert_in_language(shown.stderr, lang)
            assert_one_line_error(lines[0], lang)
            assert (tmp_path / name).read_bytes() == data  # a refused file is never changed
    gone = run(lang, "play", "--resume", "gone.jsonl", "--no-page", cwd=tmp_path)
    assert said(lang, "no journal file {path}", path="gone.jsonl") in gone.stderr, gone.stderr


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_demo_game_stopped_by_ctrl_c(lang: str, tmp_path: pathlib.Path) -> None:
    """A demo game through the simulated tower, watched until its first season is told, then
    stopped as a person stops it: what it printed is in the language, and so is why it
    stopped."""
    env = dict(os.environ, NO_COLOR="1", PYTHONUNBUFFERED="1", LANGUAGE="", LC_ALL="")
    proc = subprocess.Popen([sys.executable, "-m", "shogun_tower.cli", "--lang", lang, "demo",
                             "--quiet", "--no-page", "--seed", "2"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    game = said(lang, "Game {n}: {players} on the {map} side", n=1, players="\0", map="\0")
    seen: list[str] = []
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            # the game's first line and the first season's after it: the game is under way
            if any(ln.startswith(game.split("\0")[0]) for ln in seen[:-1]):
                break
        assert any(ln.startswith(game.split("\0")[0]) for ln in seen), "".join(seen)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    shown = "".join(seen) + out + err
    assert proc.returncode == 2, shown
    assert said(lang, "game {n} stopped by Ctrl-C", n=1) in err, shown
    assert_in_language(shown, lang)


COMMANDS = [(), ("play",), ("demo",), ("referee",), ("referee", "battle"),
            ("referee", "revolt"), ("referee", "winter"), ("referee", "score"),
            ("referee", "odds"), ("measure",), ("calibrate",), ("tower", "fit"),
            ("tower", "plot"), ("sim",), ("romfs",), ("repl",), ("replay",)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_help_is_in_the_language(lang: str) -> None:
    """--help of every command: our words translated (argparse's own "usage:", "options:" and
    "show this help message and exit" are argparse's, left as they are)."""
    for argv in COMMANDS:
        shown = run(lang, *argv, "--help")
        assert shown.returncode == 0, (argv, shown.stderr)
        assert not untranslated(shown.stdout, lang), (argv, untranslated(shown.stdout, lang))
