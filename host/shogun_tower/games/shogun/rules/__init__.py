"""The rules engine of Shogun (Queen Games 2006), after docs/rules.md: the base game and the
expansions of the second rulebook (``games/shogun/expansions/``, chosen with
``Game.create(expansions=...)``).

In layers, each importing only those below it (``tests/rules/test_layers.py`` checks it):
``core/`` (the game and the state as data, the cards, the map, the rule set's registries, what
goes into the tower), ``phases/`` and the expansions (what each part of the season does),
``engine.py`` (creates a game with its rule set, applies commands, moves between phases).

Pure: no I/O, no clock; chance only from the Rng kept in the state (or reported by players).
Start with ``State.new(Game.create(players=4))`` and follow ``state.pending()``.
"""

from shogun_tower.errors import JournalError, MapError, RulesError
from shogun_tower.games.shogun.rules.core.map import GameMap, load_map
from shogun_tower.games.shogun.rules.engine import Game, State

__all__ = ["Game", "GameMap", "JournalError", "MapError", "RulesError", "State", "load_map"]
