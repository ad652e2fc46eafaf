"""Chance as an explicit player: drawing a chance node's outcome with the state's Rng (auto
mode), checking a reported draw (physical mode), and applying it either way. What each node can
draw and what its draw does is declared where it is asked (``ChanceKind`` in the rule set)."""

from __future__ import annotations

from typing import Any

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.rules.core.ruleset import ChanceKind
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.i18n import _, join


def kind(s: State, st: dict) -> ChanceKind:
    return s.game.rules.chance[st["what"]]


def draws_several(s: State, st: dict) -> bool:
    """Whether this chance node draws a list of cards (an order or a hand) rather than one."""
    return kind(s, st).several or "count" in st


def options(s: State, st: dict) -> list:
    return kind(s, st).options(s, st)


def draw(s: State, st: dict) -> Any:
    """Auto mode: the engine shuffles/draws with the Rng kept in the state."""
    opts = options(s, st)
    if draws_several(s, st):
        s.rng.shuffle(opts)
        return opts[: st["count"]] if "count" in st else opts
    return opts[s.rng.randbelow(len(opts))]


def validate(s: State, st: dict, outcome: Any) -> Any:
    """Physical mode: check a reported draw against what could have been drawn."""
    opts = options(s, st)
    what = st["what"]
    rule = st.get("rule", "")
    if draws_several(s, st):
        n = st.get("count", len(opts))
        if (not isinstance(outcome, list) or len(outcome) != n
                or len(set(map(str, outcome))) != n or any(o not in opts for o in outcome)):
            raise RulesError(rule, _("{what}: report a list of {n} different cards among "
                                     "{options}; got {outcome!r}").format(
                what=what, n=n, options=join(list(map(str, opts))), outcome=outcome))
        return list(outcome)
    if outcome not in opts:
        raise RulesError(rule, _("{what}: {outcome!r} cannot have been drawn; it must be one "
                                 "of {options}").format(what=what, outcome=outcome,
                                                        options=join(list(map(str, opts)))))
    return outcome


def legal(s: State) -> list[dict]:
    st = s.step
    assert st is not None
    if s.game.chance != "physical" or draws_several(s, st):
        return []  # auto mode draws itself; orders/combinations: too many to list
    return [{"type": "chance", "what": st["what"], "outcome": o} for o in options(s, st)]


def resolve(s: State, st: dict, outcome: Any, ev: list[dict]) -> None:
    ev.append({"event": "drawn", "what": st["what"], "outcome": outcome})
    kind(s, st).resolve(s, st, outcome, ev)


def handle(s: State, cmd: dict, ev: list[dict]) -> None:
    """The command ``chance``: a draw reported by the table (physical mode)."""
    if s.game.chance == "auto":
        raise RulesError("", _("the engine draws the cards itself in auto mode; start the "
                               "game with chance='physical' to report real draws"))
    st = s.step
    assert st is not None
    if cmd.get("what") != st["what"]:
        raise RulesError(st.get("rule", ""), _("the game waits for the {what} drawn, not "
                                               "{answer!r}").format(what=st["what"],
                                                                    answer=cmd.get("what")))
    outcome = validate(s, st, cmd.get("outcome"))
    s.step = None
    resolve(s, st, outcome, ev)


def waits_for(st: dict) -> str:
    return _("the {what} drawn (command 'chance')").format(what=st["what"])


def describe(s: State, st: dict) -> str:
    known = s.game.rules.chance.get(st.get("what"))
    what = _(known.name) if known is not None and known.name else \
        str(st.get("what", "a card")).replace("_", " ")
    return _("draw {what}").format(what=what)
