"""The State of one game: every counter on the table, serialisable to JSON and back.

``State.apply(command)`` is the only way the state changes; it validates the whole command
before touching anything (a refused command leaves the state as it was) and returns the events
it caused. Chance is an explicit player: in "auto" mode the engine resolves chance nodes itself
with the Rng kept in the state; in "physical" mode ``pending()`` asks for the card drawn.
"""

from __future__ import annotations

import copy
from typing import Any

from shogun_common.rng import Rng
from shogun_tower.games.shogun.expansions import chosen, hook
from shogun_tower.games.shogun.rules import actions, chance, choices, season, setup, winter
from shogun_tower.games.shogun.rules.constants import (
    ARMIES_PER_PLAYER,
    BUILDING_SUPPLY,
    CUBE_COLOURS,
    FARMER_CUBES,
    FARMERS,
    START_COINS,
)
from shogun_tower.games.shogun.rules.errors import RulesError
from shogun_tower.games.shogun.rules.game import Game

_FIELDS = ("phase", "year", "season", "coins", "rice", "vp", "supply", "tower", "tray", "owner",
           "armies", "buildings", "markers", "building_supply", "event_deck", "events_up",
           "event", "action_cards", "specials", "plans", "bid_groups", "bid_index",
           "pick_queue", "special_of", "turn_order", "cursor", "step", "draft", "winter",
           "result", "bids_paid", "scores", "setup_thrown", "expansions")


class State:
    """Everything on the table. Read attributes freely; change it only through ``apply``."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.map = game.game_map
        self.rng = Rng(seed=game.seed)
        players = game.players
        n = len(players)
        self.phase = "setup"
        self.year = 1
        self.season = 0
        self.coins = dict.fromkeys(players, START_COINS[n])  # rule C3
        self.rice = dict.fromkeys(players, 0)  # rule S4
        self.vp = dict.fromkeys(players, 0)
        self.supply = dict.fromkeys(players, ARMIES_PER_PLAYER)
        self.supply[FARMERS] = FARMER_CUBES
        self.tower = dict.fromkeys(CUBE_COLOURS, 0)
        self.tray = dict.fromkeys(CUBE_COLOURS, 0)
        provs = self.map.in_play(n)  # rule S1: excluded provinces do not exist for this game
        self.owner: dict[str, str | None] = dict.fromkeys(provs)
        self.armies = dict.fromkeys(provs, 0)
        self.buildings: dict[str, list[str]] = {p: [] for p in provs}
        self.markers = dict.fromkeys(provs, 0)
        self.building_supply = dict(BUILDING_SUPPLY)
        self.event_deck: list[str] = []
        self.events_up: list[str] = []
        self.event: str | None = None
        self.action_cards: list[str] = []
        self.specials: list[str] = []
        self.plans: dict[str, dict] = {}
        self.bid_groups: list[list[str]] = []
        self.bid_index = 0
        self.bids_paid = False
        self.pick_queue: list[str] = []
        self.special_of: dict[str, int] = {}
        self.turn_order: list[str] = list(players)
        self.cursor = [0, 0]
        self.step: dict | None = None
        self.draft: dict | None = None
        self.winter: dict | None = None
        self.result: dict | None = None
        self.scores: list[dict] = []
        self.setup_thrown = False
        self.expansions: dict[str, dict] = {}  # each chosen expansion's state, by its name

    # ---- construction and serialisation -------------------------------------------------
    @staticmethod
    def new(game: Game) -> State:
        """A new game at its first decision point (set-up done as far as chance allows)."""
        s = State(game)
        s.event_deck = list(chance.EVENT_IDS)
        for e in chosen(game):
            s.expansions[e.name] = e.new_state(s)
        events: list[dict] = []
        setup.begin(s, events)
        s.advance(events)
        return s

    def to_json(self) -> dict:
        d: dict[str, Any] = {"game": self.game.to_json(), "rng": self.rng.state}
        for f in _FIELDS:
            d[f] = copy.deepcopy(getattr(self, f))
        return d

    @staticmethod
    def from_json(d: dict, game: Game | None = None) -> State:
        s = State(game or Game.from_json(d["game"]))
        s.rng = Rng(state=d["rng"])
        for f in _FIELDS:
            if f in d:  # a state saved before a field existed keeps that field's start value
                setattr(s, f, copy.deepcopy(d[f]))
        return s

    def copy(self) -> State:
        return State.from_json(self.to_json(), self.game)

    # ---- the decision interface --------------------------------------------------------
    def pending(self) -> dict:
        """The current decision point: ``kind`` and who must decide (see docs/rules-engine.md).

        kinds: draft, plan, special, march, move, revolt_order, throw, chance, choose, over.
        """
        st = self.step
        if st is None:
            return {"kind": "over", "result": self.result}
        out = dict(st)
        if st["kind"] == "plan":
            out["players"] = [p for p in self.game.players if p not in self.plans]
            out["hands"] = {p: season.hand(self, p) for p in out["players"]}
        return out

    def legal_commands(self, player: str | None = None) -> list[dict]:
        """Every legal command at this point, where the choices are few enough to list.

        Plans and tray counts are too many to list: for them this returns [] and
        ``check(command)`` (or ``apply``) validates a proposal.
        """
        st = self.step
        if st is None:
            return []
        kind = st["kind"]
        if kind == "draft":
            return setup.legal(self)
        if kind == "choose":
            return choices.legal(self)
        if kind in ("special", "march", "move", "revolt_order"):
            return actions.legal(self) if kind in ("march", "move") else season.legal(self)
        if kind == "chance" and self.game.chance == "physical":
            return chance.legal(self)
        return []

    def check(self, command: dict) -> None:
        """Raise RulesError if ``command`` would be refused; never changes the state."""
        self.copy().apply(command)

    def apply(self, command: dict) -> list[dict]:
        """Apply one command; returns the events it caused. Refused: RulesError, no change."""
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise RulesError("", "a command is a JSON object with a 'type' field")
        st = self.step
        if st is None:
            raise RulesError("W6", "the game is over; no more commands")
        kind = command["type"]
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise RulesError("", f"unknown command type {kind!r}; expected one of "
                                 f"{', '.join(sorted(_HANDLERS))}")
        if kind in _ANYTIME:  # reports of the table (rule B8), not answers to the step
            events: list[dict] = []
            handler(self, command, events)
            return events
        expected = _COMMAND_FOR_STEP.get(st["kind"])
        if kind != expected:
            raise RulesError(st.get("rule", ""),
                             f"the game waits for {_describe(st)}, not a {kind!r} command")
        if st["kind"] not in ("chance", "throw") and "player" in st \
                and command.get("player") != st["player"]:
            raise RulesError(st.get("rule", ""), f"it is {st['player']}'s turn to "
                                                 f"{st['kind']}, not {command.get('player')}'s")
        events = []
        handler(self, command, events)  # validates fully before changing anything
        self.advance(events)
        return events

    # ---- engine internals shared by the phase modules -----------------------------------
    def advance(self, events: list[dict]) -> None:
        """Run automatic steps (and chance in auto mode) until someone must decide."""
        while True:
            if self.step is None:
                if self.phase == "over":
                    return
                self.step = _phase_function(self.game, self.phase)(self, events)
                if self.step is None:  # the phase is done; the season's list says what next
                    self.phase = self.next_phase()
                continue
            if self.step["kind"] == "chance" and self.game.chance == "auto":
                st = self.step
                outcome = chance.draw(self, st)
                self.step = None
                chance.resolve(self, st, outcome, events)
                continue
            return

    def next_phase(self) -> str:
        """The phase after the current one, from the game's phase lists (rule T, W5, W6)."""
        season, year_end = self.game.season_phases, self.game.year_end_phases
        ph = self.phase
        if ph == "setup":
            return season[0]
        if ph in season:
            i = season.index(ph) + 1
            if i < len(season):
                return season[i]
            return year_end[0] if self.season == 3 else season[0]
        i = year_end.index(ph) + 1
        if i < len(year_end):
            return year_end[i]
        return "over" if self.result is not None else season[0]

    def set_owner(self, prov: str, new: str | None, events: list[dict]) -> None:
        """Rule T7: the card changes hands at once; the old owner's planned actions there lapse."""
        old = self.owner[prov]
        if old == new:
            return
        self.owner[prov] = new
        plan = self.plans.get(old) if old else None
        if plan:
            for action, target in plan["actions"].items():
                if target == prov and action not in plan["void"]:
                    plan["void"].append(action)
        events.append({"event": "province_card", "province": prov, "from": old, "to": new})
        hook(self, "province_changed", prov, old, new, events)

    def clear_province(self, prov: str) -> None:
        """Buildings back to their supply, revolt markers removed (rules B4, V3)."""
        for b in self.buildings[prov]:
            self.building_supply[b] += 1
        self.buildings[prov] = []
        self.markers[prov] = 0

    def cube_count(self) -> dict[str, dict[str, int]]:
        """Where every cube is: supply, board, tower, tray, per colour (rule S3 bookkeeping)."""
        out = {}
        for c in list(self.game.players) + [FARMERS]:
            board = sum(a for p, a in self.armies.items() if self.owner[p] == c)
            out[c] = {"supply": self.supply[c], "board": board, "tower": self.tower[c],
                      "tray": self.tray[c]}
        return out

    def event_effect(self) -> str | None:
        return chance.EVENTS[self.event]["effect"] if self.event else None

    def special(self, player: str) -> str | None:
        pos = self.special_of.get(player)
        return self.specials[pos - 1] if pos else None


def _describe(st: dict) -> str:
    if st["kind"] == "throw":
        return "the tray counts of a throw (command 'tray')"
    if st["kind"] == "chance":
        return f"the {st['what']} drawn (command 'chance')"
    if st["kind"] == "plan":
        return "the players' plans (command 'plan')"
    if st["kind"] == "choose":
        return f"{st['player']}'s answer to: {st['question']} (command 'choose')"
    who = st.get("player")
    return f"{who} to {st['kind']}" if who else st["kind"]


_COMMAND_FOR_STEP = {"draft": "draft", "plan": "plan", "special": "special", "march": "march",
                     "move": "move", "revolt_order": "revolt_order", "throw": "tray",
                     "chance": "chance", "choose": "choose"}
_ANYTIME = frozenset({"spilled"})


def _draft_or_refresh(s: State, cmd: dict, ev: list[dict]) -> None:
    if cmd.get("take") == "refresh":
        setup.refresh(s, cmd, ev)
    else:
        setup.pick(s, cmd, ev)


def _chance_cmd(s: State, cmd: dict, ev: list[dict]) -> None:
    if s.game.chance == "auto":
        raise RulesError("", "the engine draws the cards itself in auto mode; start the game "
                             "with chance='physical' to report real draws")
    st = s.step
    assert st is not None
    if cmd.get("what") != st["what"]:
        raise RulesError(st.get("rule", ""), f"the game waits for the {st['what']} drawn, not "
                                             f"{cmd.get('what')!r}")
    outcome = chance.validate(s, st, cmd.get("outcome"))
    s.step = None
    chance.resolve(s, st, outcome, ev)


_HANDLERS = {
    "draft": _draft_or_refresh,
    "plan": season.plan,
    "special": season.pick_special,
    "march": actions.march,
    "move": actions.move,
    "revolt_order": winter.revolt_order,
    "tray": actions.tray,
    "chance": _chance_cmd,
    "choose": choices.handle,
    "spilled": actions.spilled,
}

_NEXT = {
    "setup": setup.next_step,
    "season_start": season.next_start,
    "plan": season.next_plan,
    "bids": season.next_bids,
    "specials": season.next_special,
    "actions": actions.next_step,
    "season_end": season.end_season,
    "winter": winter.next_step,
}


def _phase_function(game: Game, name: str):  # noqa: ANN202
    fn = _NEXT.get(name)
    if fn is None:
        from shogun_tower.games.shogun.expansions import phase_functions

        fn = phase_functions(game)[name]
    return fn
