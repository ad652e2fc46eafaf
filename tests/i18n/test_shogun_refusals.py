"""Shogun's refusals in French and Japanese: real illegal commands on real games, one in each
phase of the rules and one in each expansion, are refused in the players' language, with no
English piece left and the rule they break still named; the game is unchanged and keeps its
questions in English (a game replays the same whatever the language)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from i18n.seen import english_words, untranslated
from shogun_tower import i18n
from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.choices import option_text, question_text
from shogun_tower.games.shogun.runner import TowerDriver


def reach(game: Game, found: Callable[[State], bool], seed: int = 1,
          limit: int = 3000) -> State:
    """The game played by bots (and the simulated tower) until ``found`` says so."""
    s = State.new(game)
    bots = {p: HeuristicBot(seed + i) for i, p in enumerate(game.players)}
    tower = TowerDriver(seed)
    for _ in range(limit):
        if found(s):
            return s
        st = s.step
        assert st is not None, "the game ended before the step looked for"
        if st["kind"] == "throw":
            s.apply({"type": "tray", "counts": tower.throw(st["into_tower"])})
        elif st["kind"] == "plan":
            p = next(p for p in game.players if p not in s.plans)
            s.apply(bots[p].decide(s, p))
        else:
            s.apply(bots[st["player"]].decide(s, st["player"]))
    raise AssertionError("the step looked for never came")


def kind(name: str, what: str | None = None) -> Callable[[State], bool]:
    return lambda s: s.step is not None and s.step["kind"] == name \
        and (what is None or s.step.get("what") == what)


def _draft(s: State) -> dict:
    return {"type": "draft", "player": s.step["player"], "group": s.step["groups"][0],
            "take": "Atlantis"}


def _plan(s: State) -> dict:
    p = next(p for p in s.game.players if p not in s.plans)
    return {"type": "plan", "player": p, "actions": {}, "bid": 9}


def _march(s: State) -> dict:
    st = s.step
    far = next(x for x in s.owner if x not in s.map.provinces[st["from"]].neighbours
               and x != st["from"])
    return {"type": "march", "player": st["player"], "to": far, "armies": 1}


def _order(s: State) -> dict:
    return {"type": "revolt_order", "player": s.step["player"], "order": ["Atlantis"]}


def _choose(s: State) -> dict:
    st = s.step
    return {"type": "choose", "player": st["player"], "what": st["what"], "option": "nowhere"}


# (name, game, the step to reach, the illegal command there, the rule it breaks)
CASES = {
    "setup": (dict(players=4, setup="draft"), kind("draft"), _draft, "S2"),
    "season": (dict(players=4), kind("plan"), _plan, "T3"),
    "actions": (dict(players=4), kind("march"), _march, "A9"),
    "winter": (dict(players=3), kind("revolt_order"), _order, "W3"),
    "court": (dict(players=4, expansions=["court"]), kind("choose", "court_favour"), _choose,
              "X1.8"),
    "leaders": (dict(players=4, expansions=["leaders"]), kind("choose", "leader_place"),
                _choose, "X3.2"),
    "chambers": (dict(players=4, expansions=["chambers"]), kind("choose", "chamber_tile"),
                 _choose, "X4.4"),
    "samurai": (dict(players=4, expansions=["samurai"]), kind("choose", "samurai_bonus"),
                _choose, "X2.3"),
}


@pytest.fixture
def language():
    yield i18n.use
    i18n.use("en")


@pytest.mark.parametrize("lang", ["fr", "ja"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_refusal_speaks_the_players_language(case: str, lang: str, language) -> None:
    options, found, command, rule = CASES[case]
    seed = next(seed for seed in range(1, 40) if _reaches(options, found, seed))
    s = reach(Game.create(seed=seed, **options), found, seed)
    before = s.to_json()
    cmd = command(s)
    with pytest.raises(RulesError) as english:
        s.copy().apply(cmd)
    language(lang)
    with pytest.raises(RulesError) as refused:
        s.apply(cmd)
    said = str(refused.value)
    assert refused.value.rule == rule
    assert rule in said, said
    assert said != str(english.value)
    assert not untranslated(said, lang), (said, untranslated(said, lang))
    assert not english_words(said), (said, english_words(said))
    assert s.to_json() == before  # refused: nothing changed, the question kept in English
    if s.step["kind"] == "choose":  # the question and its options, as the table shows them
        shown = " ".join([question_text(s.step), *map(option_text, s.step["options"])])
        assert not untranslated(shown, lang), (shown, untranslated(shown, lang))
        assert not english_words(shown), (shown, english_words(shown))


def _reaches(options: dict, found: Callable[[State], bool], seed: int) -> bool:
    try:
        reach(Game.create(seed=seed, **options), found, seed)
    except AssertionError:
        return False
    return True
