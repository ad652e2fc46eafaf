"""A Game: the rules configuration that never changes during play (map, players, modes, the
chosen expansions and the rule set they make). Built by ``engine.Game.create``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shogun_tower.games.shogun.rules.core.map import GameMap
from shogun_tower.games.shogun.rules.core.ruleset import RuleSet

CHANCE_MODES = ("auto", "physical")
SETUP_MODES = ("fixed", "draft")
# The rules engine's version, recorded in every game and journal. 1 = the first engine (no
# expansions, the old S2/E3/P3-P5/B8 rulings, which ``legacy.py`` keeps so that games saved
# then replay to the same end); 2 = the expansions as first ruled (leaders move only after
# spring, summer and autumn, statues and Samurai cards without a question, no calm from a
# favour's Nō theatre); 3 = today's rules.
ENGINE = 3


@dataclass(frozen=True)
class Game:
    """``chance``: "auto" = the engine draws cards with its seeded Rng; "physical" = players
    shuffle real cards and report what was drawn. ``setup``: "fixed" or "draft" (rule S2)."""

    game_map: GameMap
    players: tuple[str, ...]
    chance: str = "auto"
    setup: str = "fixed"
    seed: int = 0
    map_ref: Any = "sun"  # "sun"/"moon" or the map document itself (a corrected file)
    engine: int = ENGINE
    expansions: tuple[str, ...] = ()  # in the order the season runs them
    expansion_data: Any = None  # {name: validated data document}, embedded in the journal
    rules: RuleSet = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    @property
    def season_phases(self) -> tuple[str, ...]:
        return self.rules.season

    @property
    def year_end_phases(self) -> tuple[str, ...]:
        return self.rules.year_end

    def to_json(self) -> dict:
        d = {"players": list(self.players), "map": self.map_ref, "chance": self.chance,
             "setup": self.setup, "seed": self.seed}
        if self.engine != 1:  # an engine-1 game keeps the exact form its journals hashed
            d["engine"] = self.engine
            d["expansions"] = list(self.expansions)
            d["expansion_data"] = dict(self.expansion_data or {})
        return d
