"""Shogun in French and Japanese as its players read it: a seeded bot game with all four
expansions, narrated line by line and viewed at every command; the help book, every topic;
three hints (a plan, a Battle/Move, a battle's throw). No English message is left in them
(``untranslated``) and no English word (``english_words``)."""

from __future__ import annotations

import functools
import json
import re

import pytest

from i18n.seen import english_words, untranslated
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.help import book, question_help
from shogun_tower.games.shogun.hints import hint
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.runner import play_game
from shogun_tower.games.shogun.view import Chronicle
from shogun_tower.helpbook import topic_lines
from shogun_tower.words import PROVINCE_NAMES

EXPANSIONS = ("court", "samurai", "leaders", "chambers")
LANGUAGES = ("fr", "ja")



@functools.cache
def _game() -> tuple[Game, tuple[dict, ...]]:
    """A whole 4-player game of bots with every expansion, as its commands."""
    game = Game.create(4, seed=5, setup="draft", expansions=list(EXPANSIONS))
    bots = {p: HeuristicBot(50 + i) for i, p in enumerate(game.players)}
    record: list[dict] = []
    end = play_game(game, bots, tower_seed=5, record=record)
    assert end.phase == "over"
    return game, tuple(record)


def _view_texts(view: dict) -> list[str]:
    """The sentences a view holds for people (its data, colours and ids, aside)."""
    texts = [view["when"], view["next"], *view["log"][:12]]
    texts += [a["name"] for a in view["action_track"]]
    texts += [c["text"] for c in [view["event"], *view["events_up"]] if c]
    texts += [s["text"] for s in view["specials"]]
    if view["last_throw"]:
        texts += [view["last_throw"]["verdict"], view["last_throw"]["title"]]
    if view["odds"]:
        texts.append(view["odds"]["text"])
    return texts


def _english(texts: list[str], lang: str) -> dict[str, list[str]]:
    """The English pieces and words the texts show, each with a line that shows it (the
    texts read as one screen: the catalogue's pieces are read once)."""
    texts = list(dict.fromkeys(texts))
    screen = "\n".join(texts)
    found = {}
    for piece in untranslated(screen, lang) + english_words(screen):
        found[piece] = next((t for t in texts if piece in t), "")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_whole_game_is_told_and_viewed_in_the_language(lang: str, speak) -> None:
    game, commands = _game()
    speak(lang)
    state, chronicle = State.new(game), Chronicle()
    lines: list[str] = []
    views: list[str] = []
    questions: list[str] = []
    for command in commands:
        step = state.step
        lines += chronicle.record(step, state.apply(command))
        views += _view_texts(chronicle.view(state))
        if state.step:
            questions.append(question_help(game, state.step))
    assert len(lines) > 300 and state.phase == "over"
    kinds = " ".join(lines)
    assert "Owari" in kinds or "尾張" in kinds or any(w in kinds for w in ("Ise", "伊勢"))
    assert _english(lines, lang) == {}
    assert _english(views, lang) == {}
    assert _english(questions, lang) == {}
    if lang == "fr":
        assert _not_elided(lines + views + questions) == []
        assert re.search(r"\bd'" + _VOWEL_PROVINCE, kinds)  # the game did say one


# The provinces whose name starts with a vowel, from the game's own list (Echigo, Iyo, Owari...)
_VOWEL_PROVINCE = "(?:" + "|".join(sorted(
    name for name in json.loads(PROVINCE_NAMES.read_text(encoding="utf-8"))["ja"]
    if name[0] in "AEIOU")) + r")\b"


def _not_elided(texts: list[str]) -> list[str]:
    """French lines that write "de", "le", "la" or "que" whole before a province that starts
    with a vowel ("va de Etchu" for "va d'Etchu")."""
    wrong = re.compile(r"\b(?:de|le|la|que) " + _VOWEL_PROVINCE, re.IGNORECASE)
    return sorted({t for t in texts if wrong.search(t)})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_topic_of_the_help_book_is_in_the_language(lang: str, speak) -> None:
    game, _commands = _game()
    speak(lang)
    help_book = book(game)
    assert len(help_book.topics) >= 12  # seven of the rules, four expansions, the table
    texts = [help_book.intro]
    for topic in help_book.topics:
        texts.append("\n".join(topic_lines(topic, 80)))
    assert _english(texts, lang) == {}


def _three_questions() -> list[State]:
    """The first plan, the first Battle/Move and the first battle's throw of the game."""
    game, commands = _game()
    state, found = State.new(game), {}
    for command in commands:
        st = state.pending()
        kind = "battle" if st["kind"] == "throw" and st.get("reason") == "battle" else st["kind"]
        if kind in ("plan", "march", "battle") and kind not in found:
            found[kind] = state.copy()
        if len(found) == 3:
            break
        state.apply(command)
    assert set(found) == {"plan", "march", "battle"}
    return [found["plan"], found["march"], found["battle"]]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_three_hints_are_in_the_language(lang: str, speak) -> None:
    positions = _three_questions()
    speak(lang)
    hints = ["\n".join(hint(s, seed=7)) for s in positions]
    assert all(hints)
    assert _english(hints, lang) == {}
    if lang == "fr":
        assert "%" in hints[2] and " : " in hints[2]
    else:
        assert "確率ボット" in hints[0]
