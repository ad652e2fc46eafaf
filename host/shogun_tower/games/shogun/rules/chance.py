"""Chance as an explicit player: what can be drawn, drawing it with the state's Rng (auto mode),
checking a reported draw (physical mode), and applying the outcome either way."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shogun_tower.games.shogun.rules import setup, winter
from shogun_tower.games.shogun.rules.constants import ACTIONS, EVENT_IDS, EVENTS, SPECIAL_IDS
from shogun_tower.games.shogun.rules.errors import RulesError

if TYPE_CHECKING:
    from shogun_tower.games.shogun.rules.state import State

__all__ = ["EVENT_IDS", "EVENTS", "options", "draw", "validate", "resolve", "legal",
           "draws_several", "register"]

_SEVERAL = ("year_events", "specials", "bid_tie", "revolt_draw")
_KINDS: dict[str, Any] = {}  # the expansions' chance nodes (rules/expansions ChanceKind)


def register(what: str, kind: Any) -> None:
    assert what not in _KINDS or _KINDS[what] is kind, what
    _KINDS[what] = kind


def draws_several(st: dict) -> bool:
    """Whether this chance node draws a list of cards (an order or a hand) rather than one."""
    return st["what"] in _SEVERAL or (st["what"] in _KINDS and "count" in st)


def options(s: State, st: dict) -> list[str]:
    what = st["what"]
    if what in _KINDS:
        return _KINDS[what].options(s, st)
    if what in ("draft_faceup", "draft_pile"):
        d = s.draft
        assert d is not None
        return sorted(d["pile"]) if d["pile"] else d["bottom"][:1]  # rule S2: "under the pile"
    if what == "year_events":
        return list(s.event_deck)
    if what == "action_card":
        return [a for a in ACTIONS if a not in s.action_cards]
    if what == "specials":
        return list(SPECIAL_IDS)
    if what == "event":
        return list(s.events_up)
    if what == "bid_tie":
        return list(st["players"])
    if what == "revolt_draw":
        return sorted(p for p, o in s.owner.items() if o == st["player"])
    raise AssertionError(what)


def draw(s: State, st: dict) -> Any:
    """Auto mode: the engine shuffles/draws with the Rng kept in the state."""
    opts = options(s, st)
    if draws_several(st):
        s.rng.shuffle(opts)
        return opts[: st["count"]] if "count" in st else opts
    return opts[s.rng.randbelow(len(opts))]


def validate(s: State, st: dict, outcome: Any) -> Any:
    """Physical mode: check a reported draw against what could have been drawn."""
    opts = options(s, st)
    what = st["what"]
    rule = st.get("rule", "")
    if draws_several(st):
        n = st.get("count", len(opts))
        if (not isinstance(outcome, list) or len(outcome) != n
                or len(set(map(str, outcome))) != n or any(o not in opts for o in outcome)):
            raise RulesError(rule, f"{what}: report a list of {n} different cards among "
                                   f"{', '.join(map(str, opts))}; got {outcome!r}")
        return list(outcome)
    if outcome not in opts:
        raise RulesError(rule, f"{what}: {outcome!r} cannot have been drawn; it must be one of "
                               f"{', '.join(map(str, opts))}")
    return outcome


def legal(s: State) -> list[dict]:
    st = s.step
    assert st is not None
    opts = options(s, st)
    if draws_several(st):
        return []  # orders/combinations: too many to list, use validate
    return [{"type": "chance", "what": st["what"], "outcome": o} for o in opts]


def resolve(s: State, st: dict, outcome: Any, ev: list[dict]) -> None:
    what = st["what"]
    ev.append({"event": "drawn", "what": what, "outcome": outcome})
    if what in _KINDS:
        _KINDS[what].resolve(s, st, outcome, ev)
    elif what == "draft_faceup":
        setup.turn_up(s, outcome)
    elif what == "draft_pile":
        setup.take_from_pile(s, st, outcome, ev)
    elif what == "year_events":  # rules S4, W5
        s.events_up = list(outcome)
        s.event_deck = [e for e in s.event_deck if e not in outcome]
    elif what == "action_card":  # rule T1
        s.action_cards.append(outcome)
    elif what == "specials":  # rule T2
        s.specials = list(outcome)
    elif what == "event":  # rule T4
        s.event = outcome
        s.events_up.remove(outcome)
    elif what == "bid_tie":  # rule T5
        s.pick_queue.extend(outcome)
        s.bid_index += 1
    elif what == "revolt_draw":  # rule W3
        winter.after_draw(s, outcome, ev)
