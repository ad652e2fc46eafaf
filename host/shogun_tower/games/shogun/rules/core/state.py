"""The State of one game as data: every counter on the table, serialisable to JSON and back,
with the few queries and changes every phase shares (who owns what, where the cubes are).

The decision interface (``pending``, ``apply``, ``legal_commands``) is the engine's
(``rules/engine.py``), whose ``State`` adds it to this data.
"""

from __future__ import annotations

import copy
from typing import Any

from shogun_common.rng import Rng
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARDS
from shogun_tower.games.shogun.rules.core.constants import (
    ARMIES_PER_PLAYER,
    BUILDING_SUPPLY,
    CUBE_COLOURS,
    FARMER_CUBES,
    FARMERS,
    START_COINS,
)
from shogun_tower.games.shogun.rules.core.game import Game

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

    # ---- serialisation ------------------------------------------------------------------
    def to_json(self) -> dict:
        d: dict[str, Any] = {"game": self.game.to_json(), "rng": self.rng.state}
        for f in _FIELDS:
            d[f] = copy.deepcopy(getattr(self, f))
        return d

    @classmethod
    def from_json(cls, d: dict, game: Game) -> State:  # type: ignore[override]
        s = cls(game)
        s.rng = Rng(state=d["rng"])
        for f in _FIELDS:
            if f in d:  # a state saved before a field existed keeps that field's start value
                setattr(s, f, copy.deepcopy(d[f]))
        return s

    def copy(self) -> State:
        return type(self).from_json(self.to_json(), self.game)

    # ---- what every phase shares ------------------------------------------------------
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
        self.hook("province_changed", prov, old, new, events)

    def hook(self, point: str, *args: object) -> list:
        """Every chosen expansion's answer at a hook point (``ruleset.HOOK_POINTS``)."""
        return self.game.rules.hook(self, point, *args)

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

    def event_card_effect(self) -> str | None:
        return EVENT_CARDS[self.event]["effect"] if self.event else None

    def special(self, player: str) -> str | None:
        pos = self.special_of.get(player)
        return self.specials[pos - 1] if pos else None

