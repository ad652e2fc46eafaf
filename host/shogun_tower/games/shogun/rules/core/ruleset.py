"""The rule set of one game: every phase, decision kind, chance node, question and hook point,
declared by the phase modules and the chosen expansions and put together when the game is
created (``engine.build_rule_set``). The engine, the bots, the seats, the narration and the page
look a thing up here; nothing fills these tables as a side effect of an import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# Where the base calls out, with what it passes and what it takes back:
HOOK_POINTS = {
    # rule S3: after the set-up throw's tray is counted, before its cubes go back to supply.
    "setup_throw": "(s, tray: dict[colour, n], ev) -> None",
    # rule T3: extra plan spaces and cards: {"spaces": [...], "cards": {kind: count},
    # "bid_as_chest": {kind: value}, "texts": {space or kind: what it does, in words}}; a card
    # kind on a base space acts as a chest card.
    "plan_spaces": "(s, player) -> dict",
    # rule T6 ahead of time: the expansion's planned spaces that will be skipped, in words.
    "plan_forecast": "(s, player, plan command) -> list[str]",
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

Handler = Callable[..., None]  # (s, command, events): validates fully, then changes the state


@dataclass(frozen=True)
class Phase:
    """A phase of the season: ``run(s, ev)`` returns a decision step, or None when done. A base
    phase has no anchor; an expansion's goes ``after`` or ``before`` a named phase."""

    name: str
    run: Callable[..., dict | None]
    after: str | None = None
    before: str | None = None


@dataclass(frozen=True)
class DecisionKind:
    """A kind of decision point (``step["kind"]``) and the command that answers it.

    ``legal(s)`` lists the legal commands where they are few ([] where too many to list);
    ``waits_for(st)`` says which command the game waits for (a refusal says it);
    ``describe(s, st)`` says in the table's words who must decide what, without secrets (the
    page's "next" line). ``player_bound``: the command must name the step's player.
    """

    kind: str
    command: str
    handle: Handler
    legal: Callable[..., list[dict]] = lambda s: []  # noqa: E731
    waits_for: Callable[[dict], str] | None = None
    describe: Callable[..., str] | None = None
    player_bound: bool = True
    rule: str = ""
    # The coach's words (table/coach.py): ``help`` is one sentence about this question for a
    # player; ``hint(s, player, turn) -> [lines]`` is what the best bot would answer and why
    # (None: the base game's bots say it).
    help: str = ""
    hint: Callable[..., list[str]] | None = None


@dataclass(frozen=True)
class ChanceKind:
    """A chance node (``step["what"]`` of a ``chance`` step): what can be drawn, and what the
    draw does. ``several``: a list of cards is drawn (an order or a hand; ``count`` in the step
    says how many, else all); otherwise one card. ``name``: what is drawn, in words."""

    options: Callable[..., list]  # (s, st) -> options
    resolve: Callable[..., None]  # (s, st, outcome, ev)
    several: bool = False
    name: str = ""


@dataclass(frozen=True)
class Question:
    """A ``choose`` question (``step["what"]``): ``resolve(s, st, option, ev)`` carries on with
    the answer; ``bot(s, player, st, values, rng)`` is the bots' answer (None: a random one)."""

    resolve: Callable[..., None]
    bot: Callable[..., Any] | None = None
    # ``why(s, player, st, option) -> str``: the bot's answer ``option`` and its reason, in one
    # sentence for a player (the coach's `hint`); ``help``: one sentence about the question.
    why: Callable[..., str] | None = None
    help: str = ""


@dataclass(frozen=True)
class Expansion:
    """An expansion, declared in one object by its module (``expansions/court.py`` ...):
    its rules (phases, questions, chance nodes, state, hooks, data) and what the table shows of
    it and does with it (its page view, invariants, bot policy for its plan spaces, the words
    of its events). The presentation plug-ins (terminal board, page panel) are declared beside
    the page and the console (``table/boards.py``, ``web/panels/``) under the same name."""

    name: str
    rule: str
    title: str
    phases: tuple[Phase, ...] = ()
    questions: dict[str, Question] = field(default_factory=dict)
    chance: dict[str, ChanceKind] = field(default_factory=dict)
    new_state: Callable[..., dict] = lambda s: {}  # noqa: E731 - (s) -> state sub-dict
    hooks: dict[str, Callable[..., Any]] = field(default_factory=dict)
    load_data: Callable[[Any], Any] | None = None  # (doc or None) -> validated data
    view: Callable[..., dict] | None = None  # (s) -> what the page and terminal show
    invariants: Callable[..., list[str]] | None = None  # (s) -> broken invariants, in words
    bot_plan: Callable[..., dict] | None = None  # (s, player, plan command, rng) -> command
    narration: dict[str, Callable[[dict], str | None]] = field(default_factory=dict)
    decisions: tuple[DecisionKind, ...] = ()  # its own kinds of decision point, if any
    # The coach's words: ``plan_why(s, player, command) -> {space: sentence}`` says why
    # ``bot_plan`` filled its spaces so; ``help(data) -> [(name, text)]`` what each of its
    # pieces does, with the numbers of its data file (the help page and the console's help).
    plan_why: Callable[..., dict[str, str]] | None = None
    help: Callable[[Any], list[tuple[str, str]]] | None = None


@dataclass(frozen=True)
class BaseRules:
    """What the base game declares: its phases in order, its decision kinds, the commands the
    table may give at any decision point, its chance nodes and its questions."""

    season: tuple[Phase, ...]
    year_end: tuple[Phase, ...]
    setup: Phase
    decisions: tuple[DecisionKind, ...]
    anytime: dict[str, Handler]
    chance: dict[str, ChanceKind]
    questions: dict[str, Question]


@dataclass(frozen=True)
class RuleSet:
    """The base game plus the chosen expansions, in the order the season runs them."""

    phases: dict[str, Callable[..., dict | None]]
    season: tuple[str, ...]
    year_end: tuple[str, ...]
    decisions: dict[str, DecisionKind]  # by step kind
    commands: dict[str, Handler]  # by command type (answers and anytime reports)
    anytime: frozenset[str]
    chance: dict[str, ChanceKind]
    questions: dict[str, Question]
    expansions: tuple[Expansion, ...]
    hooks: dict[str, tuple[Callable[..., Any], ...]]

    @staticmethod
    def build(base: BaseRules, expansions: tuple[Expansion, ...]) -> RuleSet:
        season = [p.name for p in base.season]
        year_end = [p.name for p in base.year_end]
        phases = {p.name: p.run for p in (base.setup, *base.season, *base.year_end)}
        chance, questions = dict(base.chance), dict(base.questions)
        hooks: dict[str, list] = {point: [] for point in HOOK_POINTS}
        for e in expansions:
            unknown = set(e.hooks) - set(HOOK_POINTS)
            assert not unknown, f"{e.name}: unknown hook points {unknown}"
            for ph in e.phases:
                _insert(season, year_end, ph)
                phases[ph.name] = ph.run
            for table, more in ((chance, e.chance), (questions, e.questions)):
                twice = set(table) & set(more)
                assert not twice, f"{e.name} declares {twice} again"
                table.update(more)
            for point, fn in e.hooks.items():
                hooks[point].append(fn)
        kinds = (*base.decisions, *(d for e in expansions for d in e.decisions))
        decisions = {d.kind: d for d in kinds}
        commands = {d.command: d.handle for d in kinds}
        assert len(decisions) == len(commands) == len(kinds), "a decision kind declared twice"
        commands.update(base.anytime)
        return RuleSet(phases, tuple(season), tuple(year_end), decisions, commands,
                       frozenset(base.anytime), chance, questions, tuple(expansions),
                       {k: tuple(v) for k, v in hooks.items()})

    def hook(self, s: Any, point: str, *args: Any) -> list[Any]:
        """Call every chosen expansion's answer at ``point``; their results, in order."""
        return [fn(s, *args) for fn in self.hooks[point]]

    def expansion(self, name: str) -> Expansion | None:
        return next((e for e in self.expansions if e.name == name), None)


def _insert(season: list[str], year_end: list[str], ph: Phase) -> None:
    anchor = ph.after or ph.before
    for order in (season, year_end):
        if anchor in order:  # this list is where the phase goes (season vs year end)
            order.insert(order.index(anchor) + (1 if ph.after else 0), ph.name)
            return
