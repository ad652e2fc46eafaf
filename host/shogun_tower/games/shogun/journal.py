"""Shogun's journal: the journal of ``shogun_tower.journal`` with Shogun's game and state.

Version 2 hashes the command and a small checkpoint of the result (phase, year, season, coins,
rice, victory points), never the whole ``State.to_json()``: a state field added later (an
expansion's) cannot make a saved game look edited. Its header records the engine version and
the expansions. Version 1 journals (the whole state hashed) still load: their digests are
checked against the state as it was then, the fields of ``V1_FIELDS`` only.
"""

from __future__ import annotations

from shogun_tower.errors import JournalError
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.journal import files

# The state fields a version-1 digest covered (the state's fields of engine 1): never change it.
V1_FIELDS = ("phase", "year", "season", "coins", "rice", "vp", "supply", "tower", "tray", "owner",
             "armies", "buildings", "markers", "building_supply", "event_deck", "events_up",
             "event", "action_cards", "specials", "plans", "bid_groups", "bid_index",
             "pick_queue", "special_of", "turn_order", "cursor", "step", "draft", "winter",
             "result", "bids_paid", "scores", "setup_thrown")


def _checkpoint(state: State, version: int) -> object:
    if version == 1:
        full = state.to_json()
        return {k: full[k] for k in ("game", "rng", *V1_FIELDS)}
    return {"phase": state.phase, "year": state.year, "season": state.season,
            "coins": state.coins, "rice": state.rice, "vp": state.vp}


class Journal(files.Journal):
    """A game of Shogun with its history. ``state`` is always the replay of ``commands``."""

    game_type = Game
    state_type = State
    state: State
    game: Game

    def checkpoint(self, state: State, version: int) -> object:
        return _checkpoint(state, version)

    @classmethod
    def check_header(cls, header: dict, name: str) -> None:
        other = header["game"].get("name") if isinstance(header.get("game"), dict) else None
        if other not in (None, "shogun"):
            raise JournalError(f"{name}: line 1: a journal of {other}, not of Shogun; continue "
                               f"it with `shogun-tower play --resume {name}`")
