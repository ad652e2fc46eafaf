"""Exact battle and revolt odds under the tower model, and fitting the model to a real tower
(issue 15; docs/odds.md)."""

from .exits import Exits, exits, split_prior
from .model import DEFAULT, TowerParams, load_tower_profile
from .throws import Odds, battle_cubes, battle_odds, revolt_odds, throw_odds

__all__ = ["DEFAULT", "Exits", "Odds", "TowerParams", "battle_cubes", "battle_odds", "exits",
           "load_tower_profile", "revolt_odds", "split_prior", "throw_odds"]
