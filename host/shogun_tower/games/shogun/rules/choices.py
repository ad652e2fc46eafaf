"""Decisions among a few named options (decision kind ``choose``), declared once.

Every "may" of the rules that is not a move on the board is one of these: use a special card or
not (rules P3-P5), and the expansions' questions (which favour, which bonus, ...). A step says
``what`` is asked, of whom, and lists its options as ``{"value", "text"}``; the answer is
``{"type": "choose", "player", "what", "option": value}``. The module that asks registers the
resolver for its ``what``; the assistant, the page and the bots read the step alone, so a new
question needs no new code outside the module that asks it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from shogun_tower.games.shogun.rules.errors import RulesError

if TYPE_CHECKING:
    from shogun_tower.games.shogun.rules.state import State

Resolver = Callable[["State", dict, Any, list[dict]], None]
RESOLVERS: dict[str, Resolver] = {}
YES_NO = ((True, "yes"), (False, "no"))


def register(what: str, resolver: Resolver) -> None:
    if RESOLVERS.get(what, resolver) is not resolver:
        raise AssertionError(f"decision {what!r} is declared twice")
    RESOLVERS[what] = resolver


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
    RESOLVERS[st["what"]](s, st, option, ev)


def legal(s: State) -> list[dict]:
    st = s.step
    assert st is not None
    return [{"type": "choose", "player": st["player"], "what": st["what"], "option": o["value"]}
            for o in st["options"]]
