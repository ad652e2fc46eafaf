"""The expansions of seed 002, one module each, plugged into named points of the base season.

An expansion declares, in one ``Expansion`` object (see ``court.py``, ``samurai.py``):
- ``phases``: its phases and where each goes in the season (``after``/``before`` a phase name);
- ``choices``: the resolvers of the ``choose`` questions it asks (``rules/choices.py``);
- ``chance``: the chance nodes it adds (``rules/chance.py``);
- ``new_state``: its state, kept under ``state.expansions[name]`` and serialised with the rest;
- ``hooks``: its answers at the named points where the base calls out (``HOOK_POINTS``);
- ``data``: its validated data file (favour cards, bonus stacks), embedded in the game.
The base modules call ``hook(s, point, ...)`` and know nothing of who answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shogun_tower.games.shogun.rules.game import Game
    from shogun_tower.games.shogun.rules.state import State

# The one list of expansions, in the order their additions run when several are chosen.
EXPANSION_NAMES: tuple[str, ...] = ("court", "samurai", "leaders", "chambers")



def subsets() -> list[tuple[str, ...]]:
    """Every combination of the expansions, the base game first (for tests and benches)."""
    import itertools

    return [c for n in range(len(EXPANSION_NAMES) + 1)
            for c in itertools.combinations(EXPANSION_NAMES, n)]


# Where the base calls out, with what it passes and what it takes back:
HOOK_POINTS = {
    # rule S3: after the set-up throw's tray is counted, before its cubes go back to supply.
    "setup_throw": "(s, tray: dict[colour, n], ev) -> None",
    # rule T3: extra plan spaces and cards: {"spaces": [...], "cards": {kind: count},
    # "bid_as_chest": {kind: value}}; a card kind on a base space acts as a chest card.
    "plan_spaces": "(s, player) -> dict",
    # rules A9/A10/B7: a reason why ``attacker`` may not enter ``target`` with ``action``.
    "march_blocked": "(s, attacker, action, target) -> str | None",
    # rule V4: a revolt marker is about to be placed; True = it is not placed.
    "marker_placed": "(s, player, province, ev) -> bool",
    # rule S2 (draft): called before each draft step; an expansion's question, or None.
    "setup_step": "(s, ev) -> dict | None",
    # rule T7: a province card changed hands (``old``/``new`` may be None = neutral).
    "province_changed": "(s, province, old, new, ev) -> None",
    # rules A1-A8: added to the action's cost and amount (income or armies) after the event
    # and the special card: {"cost": -1, "amount": +1, "rule": "X3.3"}.
    "action_terms": "(s, player, action, province) -> dict",
    # rule W6: VP scored at the game's end, after the last winter's W4, before the ranking:
    # {player: {term: vp}}.
    "final_scoring": "(s, ev) -> dict[player, dict[str, int]]",
}


@dataclass(frozen=True)
class Phase:
    name: str
    run: Callable[..., dict | None]  # (s, ev) -> a decision step, or None when done
    after: str | None = None
    before: str | None = None


@dataclass(frozen=True)
class ChanceKind:
    """A chance node: what can be drawn, and what the draw does. ``count`` in the step means a
    list of that many different cards is drawn."""

    options: Callable[..., list]  # (s, st) -> options
    resolve: Callable[..., None]  # (s, st, outcome, ev)


@dataclass(frozen=True)
class Expansion:
    name: str
    rule: str
    title: str
    phases: tuple[Phase, ...] = ()
    choices: dict[str, Callable[..., None]] = field(default_factory=dict)
    chance: dict[str, ChanceKind] = field(default_factory=dict)
    new_state: Callable[..., dict] = lambda s: {}  # noqa: E731 - (s) -> state sub-dict
    hooks: dict[str, Callable[..., Any]] = field(default_factory=dict)
    load_data: Callable[[Any], Any] | None = None  # (doc or None) -> validated data
    view: Callable[..., dict] | None = None  # (s) -> what the page and terminal show


_REGISTRY: dict[str, Expansion] = {}


def get(name: str) -> Expansion:
    if not _REGISTRY:
        _load()
    return _REGISTRY[name]


def _load() -> None:
    import importlib

    from shogun_tower.games.shogun.rules import chance, choices

    for name in EXPANSION_NAMES:
        mod = importlib.import_module(f"{__name__}.{name}")
        exp: Expansion = mod.EXPANSION
        assert exp.name in EXPANSION_NAMES and set(exp.hooks) <= set(HOOK_POINTS), exp.name
        _REGISTRY[exp.name] = exp
        for what, resolver in exp.choices.items():
            choices.register(what, resolver)
        for what, kind in exp.chance.items():
            chance.register(what, kind)


def chosen(game: Game) -> list[Expansion]:
    return [get(n) for n in game.expansions]


def hook(s: State, point: str, *args: Any) -> list[Any]:
    """Call every chosen expansion's answer at ``point``; their results, in expansion order."""
    assert point in HOOK_POINTS, point
    return [e.hooks[point](s, *args) for e in chosen(s.game) if point in e.hooks]


def views(s: State) -> dict[str, dict]:
    """What each chosen expansion shows on the page and the terminal (JSON, no secrets)."""
    return {e.name: e.view(s) for e in chosen(s.game) if e.view is not None}


def phase_order(game: Game, base: tuple[str, ...]) -> tuple[str, ...]:
    """The base phase list plus what each chosen expansion inserts, in expansion order."""
    order = list(base)
    for e in chosen(game):
        for ph in e.phases:
            anchor = ph.after or ph.before
            if anchor not in order:
                continue  # this list is not where the phase goes (season vs year end)
            i = order.index(anchor) + (1 if ph.after else 0)
            order.insert(i, ph.name)
    return tuple(order)


def phase_functions(game: Game) -> dict[str, Callable[..., dict | None]]:
    return {ph.name: ph.run for e in chosen(game) for ph in e.phases}
