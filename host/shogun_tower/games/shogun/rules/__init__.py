"""The rules engine of Shogun (Queen Games 2006), after /work/shared/RULES.md: the base game and
the expansions of seed 002 (``rules/expansions/``, chosen with ``Game.create(expansions=...)``).

Pure: no I/O, no clock; chance only from the Rng kept in the state (or reported by players).
Start with ``State.new(Game.create(players=4))`` and follow ``state.pending()``.
"""

from shogun_tower.games.shogun.rules.errors import JournalError, MapError, RulesError
from shogun_tower.games.shogun.rules.game import Game
from shogun_tower.games.shogun.rules.map import GameMap, load_map
from shogun_tower.games.shogun.rules.state import State

__all__ = ["Game", "GameMap", "JournalError", "MapError", "RulesError", "State", "load_map"]
