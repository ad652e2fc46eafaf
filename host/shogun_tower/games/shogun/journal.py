"""Shogun's journal: the journal of ``shogun_tower.journal`` with Shogun's game and state.

Version 2 hashes the command and a small checkpoint of the result (phase, year, season, coins,
rice, victory points), never the whole ``State.to_json()``: a state field added later (an
expansion's) cannot make a saved game look edited. Its header records the engine version and
the expansions. Version 1 journals (the whole state hashed) still load: their digests are
checked against the state as it was then, the fields of ``V1_FIELDS`` only.
"""

from __future__ import annotations

import os

from shogun_tower.errors import JournalError
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.i18n import _
from shogun_tower.journal import files
from shogun_tower.journal.chain import VERSION, canon

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
    """A game of Shogun with its history. ``state`` is always the replay of ``commands``.

    A throw is final, as at a real table: a throw taken back (undo) keeps its outcome in the
    journal, and ``thrown_before`` gives it back when the same throw comes again (the same
    cubes into the same tower at the same point of the game), so undo never changes what fell.
    Loading a journal replays its undo lines, so the outcomes survive a resume."""

    game_type = Game
    state_type = State
    state: State
    game: Game

    def __init__(self, game: Game, path: str | os.PathLike | None = None,
                 version: int = VERSION, table: dict | None = None) -> None:
        self._thrown: dict[str, dict[str, int]] = {}
        super().__init__(game, path, version, table)

    def checkpoint(self, state: State, version: int) -> object:
        return _checkpoint(state, version)

    def undo(self) -> dict:
        undone = super().undo()
        if undone.get("type") == "tray" and isinstance(undone.get("counts"), dict):
            self._thrown[self._throw_key()] = dict(undone["counts"])
        return undone

    def thrown_before(self) -> dict[str, int] | None:
        """What fell out when the pending throw was thrown before and taken back, or None (a
        throw never thrown, or another one: other cubes, another tower)."""
        if self.state.pending()["kind"] != "throw":
            return None
        return self._thrown.get(self._throw_key())

    def _throw_key(self) -> str:
        return canon([len(self.commands), self.state.pending()])

    @classmethod
    def check_header(cls, header: dict, name: str) -> None:
        other = header["game"].get("name") if isinstance(header.get("game"), dict) else None
        if other not in (None, "shogun"):
            raise JournalError(_("{name}: line 1: a journal of {other}, not of Shogun; "
                                 "continue it with `shogun-tower play --resume {name}`").format(
                name=name, other=other))
