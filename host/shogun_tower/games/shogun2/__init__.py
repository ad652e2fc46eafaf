"""Ravensburger's two-player Shogun (rulebook 003): the engine (board, dial model, game), its
journal, bots, and the table that plays it in the terminal and on the board page."""

from shogun_tower.games.shogun2.game import Game, MoveRefused, State

__all__ = ["Game", "MoveRefused", "State"]
