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
from shogun_tower.games.shogun.rules.core.state import State

YES_NO = ((True, "yes"), (False, "no"))


def ask(player: str, what: str, rule: str, question: str,
        options: list[tuple[Any, str]] | tuple[tuple[Any, str], ...], **context: Any) -> dict:
    """A ``choose`` step; ``context`` is what the resolver needs to carry on (JSON only)."""
    step = {"kind": "choose", "player": player, "what": what, "rule": rule,
            "question": question, "options": [{"value": v, "text": t} for v, t in options]}
    step.update(context)
    return step


def handle(s: State, cmd: dict, ev: list[dict]) -> None:
    st = s.step
    assert st is not None
    if cmd.get("what") != st["what"]:
        raise RulesError(st["rule"], f"the game asks {st['player']}: {st['question']}; the "
                                     f"answer names what={st['what']!r}, not "
                                     f"{cmd.get('what')!r}")
    values = [o["value"] for o in st["options"]]
    option = cmd.get("option")
    if not any(type(option) is type(v) and option == v for v in values):  # True is not 1
        raise RulesError(st["rule"], f"{st['question']} answer one of "
                                     f"{', '.join(map(json.dumps, values))}, not {option!r}")
    s.step = None
    s.game.rules.questions[st["what"]].resolve(s, st, option, ev)


def legal(s: State) -> list[dict]:
    st = s.step
    assert st is not None
    return [{"type": "choose", "player": st["player"], "what": st["what"], "option": o["value"]}
            for o in st["options"]]


def describe(s: State, st: dict) -> str:
    return f"{st.get('player', '')}: {st.get('question') or 'a choice'}"


def waits_for(st: dict) -> str:
    return f"{st['player']}'s answer to: {st['question']} (command 'choose')"
