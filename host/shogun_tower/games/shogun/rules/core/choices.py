"""Decisions among a few named options (decision kind ``choose``), declared once.

Every "may" of the rules that is not a move on the board is one of these: use a special card or
not (rules P3-P5), and the expansions' questions (which favour, which bonus, ...). A step says
``what`` is asked, of whom, and lists its options as ``{"value", "text"}``; the answer is
``{"type": "choose", "player", "what", "option": value}``. The module that asks declares the
resolver for its ``what`` (a ``Question`` in its rule set); the assistant, the page and the bots
read the step alone, so a new question needs no new code outside the module that asks it.
"""

from __future__ import annotations

import json
from typing import Any

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.rules.core.phrases import english, is_phrase, say
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.i18n import N_, _, join

YES_NO = ((True, N_("yes")), (False, N_("no")))


def ask(player: str, what: str, rule: str, question: str | dict,
        options: list[tuple[Any, str | dict]] | tuple[tuple[Any, str | dict], ...],
        **context: Any) -> dict:
    """A ``choose`` step; ``context`` is what the resolver needs to carry on (JSON only).

    The question and each option's text are kept in English (the state is the same in every
    language); given as a phrase (``phrases.py``), it is kept too (``"words"``), so that
    ``question_text`` and ``option_text`` say it in the players' language where it is shown.
    """
    step = {"kind": "choose", "player": player, "what": what, "rule": rule,
            "question": english(question), "options": []}
    if is_phrase(question):
        step["words"] = question
    for v, t in options:
        option = {"value": v, "text": english(t)}
        if is_phrase(t):
            option["words"] = t
        step["options"].append(option)
    step.update(context)
    return step


def question_text(st: dict) -> str:
    """A ``choose`` step's question in the players' language."""
    if "words" in st:
        return say(st["words"])
    question = st["question"]
    return _(question)


def option_text(option: dict) -> str:
    """An option of a ``choose`` step in the players' language."""
    if "words" in option:
        return say(option["words"])
    text = option["text"]
    return _(text)


def handle(s: State, cmd: dict, ev: list[dict]) -> None:
    st = s.step
    assert st is not None
    if cmd.get("what") != st["what"]:
        raise RulesError(st["rule"], _("the game asks {player}: {question}; the answer names "
                                       "what={what!r}, not {answer!r}").format(
            player=say({"colour": st["player"]}), question=question_text(st), what=st["what"],
            answer=cmd.get("what")))
    values = [o["value"] for o in st["options"]]
    option = cmd.get("option")
    if not any(type(option) is type(v) and option == v for v in values):  # True is not 1
        raise RulesError(st["rule"], _("{question} answer one of {options}, not {option!r}")
                         .format(question=question_text(st),
                                 options=join(list(map(json.dumps, values))), option=option))
    s.step = None
    s.game.rules.questions[st["what"]].resolve(s, st, option, ev)


def legal(s: State) -> list[dict]:
    st = s.step
    assert st is not None
    return [{"type": "choose", "player": st["player"], "what": st["what"], "option": o["value"]}
            for o in st["options"]]


def describe(s: State, st: dict) -> str:
    if not st.get("question"):
        return _("{player}: a choice").format(player=say({"colour": st.get("player", "")}))
    return _("{player}: {question}").format(player=say({"colour": st.get("player", "")}),
                                             question=question_text(st))


def waits_for(st: dict) -> str:
    return _("{player}'s answer to: {question} (command 'choose')").format(
        player=say({"colour": st["player"]}), question=question_text(st))
