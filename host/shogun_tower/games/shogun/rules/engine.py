"""The engine: creates a game with its rule set, applies commands and moves between phases.

``Game.create`` checks the configuration and builds the rule set from what the base phases
(``phases/``) and the chosen expansions (``games/shogun/expansions``) declare. ``State`` adds
the decision interface to the state's data (``core/state.py``): ``pending()`` says who must
decide what, ``apply(command)`` validates the whole command before touching anything (a refused
command leaves the state as it was) and returns the events it caused, then the engine runs the
automatic steps until someone must decide. Chance is an explicit player: in "auto" mode the
engine resolves chance nodes itself with the Rng kept in the state; in "physical" mode
``pending()`` asks for the card drawn.
"""

from __future__ import annotations

from typing import Any

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.rules.core import chance, choices
from shogun_tower.games.shogun.rules.core import game as core_game
from shogun_tower.games.shogun.rules.core import state as core_state
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARD_IDS
from shogun_tower.games.shogun.rules.core.constants import PLAYER_COLOURS
from shogun_tower.games.shogun.rules.core.game import CHANCE_MODES, ENGINE, SETUP_MODES
from shogun_tower.games.shogun.rules.core.map import SIDES, GameMap, load_map
from shogun_tower.games.shogun.rules.core.ruleset import BaseRules, DecisionKind, RuleSet
from shogun_tower.games.shogun.rules.expansions import EXPANSION_NAMES, EXPANSIONS
from shogun_tower.games.shogun.rules.phases import actions, season, setup, winter
from shogun_tower.i18n import _, join
from shogun_tower.words import colour_word

# The base game as data (rule T): its phases in order, its decision kinds, chance nodes and
# questions. The last season phase hands over to the year's end after autumn; the year's end
# hands back to the first season phase, or ends the game once a result is known.
BASE = BaseRules(
    setup=setup.PHASE,
    season=(*season.PHASES, actions.PHASE, season.END),
    year_end=winter.PHASES,
    decisions=(*setup.DECISIONS, *season.DECISIONS, *actions.DECISIONS, *winter.DECISIONS,
               DecisionKind("chance", "chance", chance.handle, chance.legal,
                            waits_for=chance.waits_for, describe=chance.describe,
                            player_bound=False),
               DecisionKind("choose", "choose", choices.handle, choices.legal,
                            waits_for=choices.waits_for, describe=choices.describe)),
    anytime=actions.ANYTIME,
    chance={**setup.CHANCE, **season.CHANCE, **winter.CHANCE},
    questions=actions.QUESTIONS,
)


def build_rule_set(expansions: tuple[str, ...]) -> RuleSet:
    """The base game plus these expansions (already checked, in the season's order)."""
    return RuleSet.build(BASE, tuple(EXPANSIONS[n] for n in expansions))


class Game(core_game.Game):
    """The rules configuration, created with its rule set."""

    @staticmethod
    def create(players: int | list[str] = 4, map: str | dict | Any = "sun",
               chance: str = "auto", setup: str = "fixed", seed: int = 0,
               expansions: Any = (), engine: int = ENGINE,
               expansion_data: dict | None = None) -> Game:
        """``expansion_data``: {name: path or document} to play with a corrected data file
        instead of the packaged one (validated as the maps are)."""
        if isinstance(players, int):
            if players not in (3, 4, 5):
                raise RulesError("C1", _("Shogun is for 3 to 5 players, not {n}").format(
                    n=players))
            colours = PLAYER_COLOURS[:players]
        else:
            colours = tuple(players)
            if not 3 <= len(colours) <= 5:
                raise RulesError("C1", _("Shogun is for 3 to 5 players, not {n}").format(
                    n=len(colours)))
            bad = [c for c in colours if c not in PLAYER_COLOURS]
            if bad or len(set(colours)) != len(colours):
                raise RulesError("C1", _("players must be distinct colours among {colours}; "
                                         "got {players}").format(colours=join(PLAYER_COLOURS),
                                                                 players=list(colours)))
        if chance not in CHANCE_MODES:
            raise RulesError("", _("chance mode must be one of {modes}, not {chance!r}").format(
                modes=CHANCE_MODES, chance=chance))
        if setup not in SETUP_MODES:
            raise RulesError("S2", _("set-up must be one of {modes}, not {setup!r}").format(
                modes=SETUP_MODES, setup=setup))
        if isinstance(map, GameMap):
            gm = map
            ref: Any = map.side if map.side in SIDES and map.source == load_map(
                map.side).source else map.source
        else:
            gm = load_map(map)
            ref = map if map in SIDES else gm.source
        if setup == "fixed" and len(colours) not in gm.fixed_setups:
            raise RulesError("S2", _("the {side} map has no fixed set-up for {n} players; use "
                                     "the draft (setup='draft')").format(side=gm.side,
                                                                         n=len(colours)))
        if isinstance(engine, bool) or engine not in range(1, ENGINE + 1):
            raise RulesError("", _("this game was saved by another shogun-tower (engine "
                                   "{engine!r}); this one plays engines 1-{newest}: update "
                                   "shogun-tower").format(engine=engine, newest=ENGINE))
        chosen = _expansions(expansions, engine)
        given = expansion_data if isinstance(expansion_data, dict) else {}
        docs = {n: EXPANSIONS[n].load_data(given.get(n)) for n in chosen
                if EXPANSIONS[n].load_data}
        return Game(gm, colours, chance, setup, int(seed), ref, engine, chosen, docs,
                    build_rule_set(chosen))

    @staticmethod
    def from_json(d: dict) -> Game:
        return Game.create(list(d["players"]), d["map"], d["chance"], d["setup"], d["seed"],
                           d.get("expansions", ()), d.get("engine", 1),
                           d.get("expansion_data"))


def _expansions(names: Any, engine: int) -> tuple[str, ...]:
    """Check the chosen expansions; returned in the one order the season runs them."""
    if isinstance(names, str):
        names = [n for n in names.split(",") if n.strip()]
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise RulesError("X", _("expansions must be a list of names among {expansions}; got "
                                "{names!r}").format(expansions=join(EXPANSION_NAMES),
                                                    names=names))
    names = [n.strip() for n in names]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise RulesError("X", _("expansion {name!r} is named twice; name each expansion once, "
                                "e.g. court,leaders").format(name=twice[0]))
    bad = [n for n in names if n not in EXPANSION_NAMES]
    if bad:
        raise RulesError("X", _("unknown expansion {name!r}; expansions are {expansions}")
                         .format(name=bad[0], expansions=join(EXPANSION_NAMES)))
    if names and engine < 2:
        raise RulesError("X", _("engine 1 games have no expansions"))
    return tuple(n for n in EXPANSION_NAMES if n in names)


class State(core_state.State):
    """Everything on the table, with the decision interface. Read attributes freely; change
    it only through ``apply``."""

    game: Game

    @staticmethod
    def new(game: Game) -> State:
        """A new game at its first decision point (set-up done as far as chance allows)."""
        s = State(game)
        s.event_deck = list(EVENT_CARD_IDS)
        for e in game.rules.expansions:
            s.expansions[e.name] = e.new_state(s)
        events: list[dict] = []
        setup.begin(s, events)
        s.advance(events)
        return s

    @classmethod
    def from_json(cls, d: dict, game: Game | None = None) -> State:  # type: ignore[override]
        return super().from_json(d, game or Game.from_json(d["game"]))

    def pending(self) -> dict:
        """The current decision point: ``kind`` and who must decide (docs/rules-engine.md).

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
        return self.game.rules.decisions[st["kind"]].legal(self)

    def check(self, command: dict) -> None:
        """Raise RulesError if ``command`` would be refused; never changes the state."""
        self.copy().apply(command)

    def apply(self, command: dict) -> list[dict]:
        """Apply one command; returns the events it caused. Refused: RulesError, no change."""
        if not isinstance(command, dict) or not isinstance(command.get("type"), str):
            raise RulesError("", _("a command is a JSON object with a 'type' field"))
        st = self.step
        if st is None:
            raise RulesError("W6", _("the game is over; no more commands"))
        rules = self.game.rules
        kind = command["type"]
        handler = rules.commands.get(kind)
        if handler is None:
            raise RulesError("", _("unknown command type {kind!r}; expected one of "
                                   "{commands}").format(kind=kind,
                                                        commands=join(sorted(rules.commands))))
        events: list[dict] = []
        if kind in rules.anytime:  # reports of the table (rule B8), not answers to the step
            handler(self, command, events)
            return events
        decision = rules.decisions[st["kind"]]
        if kind != decision.command:
            raise RulesError(st.get("rule", ""),
                             _("the game waits for {what}, not a {kind!r} command").format(
                                 what=waits_for(self.game, st), kind=kind))
        if decision.player_bound and "player" in st and command.get("player") != st["player"]:
            raise RulesError(st.get("rule", ""), _("it is {player}'s turn to {kind}, not "
                                                   "{other}'s").format(
                player=colour_word(st["player"]), kind=st["kind"],
                other=colour_word(str(command.get("player")))))
        handler(self, command, events)  # validates fully before changing anything
        self.advance(events)
        return events

    def advance(self, events: list[dict]) -> None:
        """Run automatic steps (and chance in auto mode) until someone must decide."""
        rules = self.game.rules
        while True:
            if self.step is None:
                if self.phase == "over":
                    return
                self.step = rules.phases[self.phase](self, events)
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
        season_list, year_end = self.game.season_phases, self.game.year_end_phases
        ph = self.phase
        if ph == "setup":
            return season_list[0]
        if ph in season_list:
            i = season_list.index(ph) + 1
            if i < len(season_list):
                return season_list[i]
            return year_end[0] if self.season == 3 else season_list[0]
        i = year_end.index(ph) + 1
        if i < len(year_end):
            return year_end[i]
        return "over" if self.result is not None else season_list[0]


def describe(s: core_state.State) -> str:
    """Who must decide what, in the table's words, without secrets (a plan's hand is not
    shown): each decision kind says it (``DecisionKind.describe``)."""
    st = s.step
    if st is None:
        return _("game over")
    decision = s.game.rules.decisions.get(st["kind"])
    if decision is None or decision.describe is None:
        return st["kind"]
    return decision.describe(s, st)


def waits_for(game: core_game.Game, st: dict) -> str:
    """What the game waits for, in words (the refusals, the console and the page say it)."""
    decision = game.rules.decisions.get(st["kind"])
    if decision is not None and decision.waits_for is not None:
        return decision.waits_for(st)
    who = st.get("player")
    return _("{player} to {kind}").format(player=colour_word(who), kind=st["kind"]) if who \
        else st["kind"]
