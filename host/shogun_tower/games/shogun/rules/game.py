"""A Game: the rules configuration that never changes during play (map, players, modes)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from shogun_tower.games.shogun.rules.constants import PLAYER_COLOURS
from shogun_tower.games.shogun.rules.errors import RulesError
from shogun_tower.games.shogun.rules.map import SIDES, GameMap, load_map

# The season as data (rule T): the base phases in order; the expansions insert theirs
# (rules/expansions). The last season phase hands over to the year's end after autumn; the
# year's end hands back to the first season phase, or ends the game once a result is known.
BASE_SEASON = ("season_start", "plan", "bids", "specials", "actions", "season_end")
BASE_YEAR_END = ("winter",)
CHANCE_MODES = ("auto", "physical")
SETUP_MODES = ("fixed", "draft")
# The rules engine's version, recorded in every game and journal. 1 = the engine before issue 16
# (no expansions, the old S2/E3/P3-P5/B8 rulings, which ``legacy.py`` keeps so that games saved
# then replay to the same end); 2 = today's rules.
ENGINE = 2


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
    expansions: tuple[str, ...] = ()  # in the order the season runs them (rules/expansions)
    expansion_data: Any = None  # {name: validated data document}, embedded in the journal

    @staticmethod
    def create(players: int | list[str] = 4, map: str | dict | Any = "sun",
               chance: str = "auto", setup: str = "fixed", seed: int = 0,
               expansions: Any = (), engine: int = ENGINE,
               expansion_data: dict | None = None) -> Game:
        """``expansion_data``: {name: path or document} to play with a corrected data file
        instead of the packaged one (validated as the maps are)."""
        if isinstance(players, int):
            if players not in (3, 4, 5):
                raise RulesError("C1", f"Shogun is for 3 to 5 players, not {players}")
            colours = PLAYER_COLOURS[:players]
        else:
            colours = tuple(players)
            if not 3 <= len(colours) <= 5:
                raise RulesError("C1", f"Shogun is for 3 to 5 players, not {len(colours)}")
            bad = [c for c in colours if c not in PLAYER_COLOURS]
            if bad or len(set(colours)) != len(colours):
                raise RulesError("C1", f"players must be distinct colours among "
                                       f"{', '.join(PLAYER_COLOURS)}; got {list(colours)}")
        if chance not in CHANCE_MODES:
            raise RulesError("", f"chance mode must be one of {CHANCE_MODES}, not {chance!r}")
        if setup not in SETUP_MODES:
            raise RulesError("S2", f"set-up must be one of {SETUP_MODES}, not {setup!r}")
        if isinstance(map, GameMap):
            gm = map
            ref: Any = map.side if map.side in SIDES and map.source == load_map(
                map.side).source else map.source
        else:
            gm = load_map(map)
            ref = map if map in SIDES else gm.source
        if setup == "fixed" and len(colours) not in gm.fixed_setups:
            raise RulesError("S2", f"the {gm.side} map has no fixed set-up for {len(colours)} "
                                   f"players; use the draft (setup='draft')")
        if isinstance(engine, bool) or engine not in range(1, ENGINE + 1):
            raise RulesError("", f"this game was saved by another shogun-tower (engine "
                                 f"{engine!r}); this one plays engines 1-{ENGINE}: update "
                                 f"shogun-tower")
        chosen = _expansions(expansions, engine)
        from shogun_tower.games.shogun.expansions import get

        given = expansion_data if isinstance(expansion_data, dict) else {}
        docs = {n: get(n).load_data(given.get(n)) for n in chosen if get(n).load_data}
        return Game(gm, colours, chance, setup, int(seed), ref, engine, chosen, docs)

    @cached_property
    def season_phases(self) -> tuple[str, ...]:
        from shogun_tower.games.shogun.expansions import phase_order

        return phase_order(self, BASE_SEASON)

    @cached_property
    def year_end_phases(self) -> tuple[str, ...]:
        from shogun_tower.games.shogun.expansions import phase_order

        return phase_order(self, BASE_YEAR_END)

    def to_json(self) -> dict:
        d = {"players": list(self.players), "map": self.map_ref, "chance": self.chance,
             "setup": self.setup, "seed": self.seed}
        if self.engine != 1:  # an engine-1 game keeps the exact form its journals hashed
            d["engine"] = self.engine
            d["expansions"] = list(self.expansions)
            d["expansion_data"] = dict(self.expansion_data or {})
        return d

    @staticmethod
    def from_json(d: dict) -> Game:
        return Game.create(list(d["players"]), d["map"], d["chance"], d["setup"], d["seed"],
                           d.get("expansions", ()), d.get("engine", 1),
                           d.get("expansion_data"))


def _expansions(names: Any, engine: int) -> tuple[str, ...]:
    """Check the chosen expansions; returned in the one order the season runs them."""
    from shogun_tower.games.shogun.expansions import EXPANSION_NAMES

    if isinstance(names, str):
        names = [n for n in names.split(",") if n.strip()]
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise RulesError("X", f"expansions must be a list of names among "
                              f"{', '.join(EXPANSION_NAMES)}; got {names!r}")
    names = [n.strip() for n in names]
    bad = [n for n in names if n not in EXPANSION_NAMES]
    if bad:
        raise RulesError("X", f"unknown expansion {bad[0]!r}; expansions are "
                              f"{', '.join(EXPANSION_NAMES) or 'none yet'}")
    if names and engine < 2:
        raise RulesError("X", "engine 1 games have no expansions")
    return tuple(n for n in EXPANSION_NAMES if n in names)
