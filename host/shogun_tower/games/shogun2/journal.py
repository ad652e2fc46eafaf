"""The journal of a game of Ravensburger's Shogun: Shogun's own journal (rules/journal.py) with
this game's Game and State, so saving, undo, resume and the digest chain are the same."""

from __future__ import annotations

from shogun_tower.games.shogun2.game import Game, State
from shogun_tower.journal.files import Journal


class Shogun2Journal(Journal):
    game_type = Game
    state_type = State

    def checkpoint(self, state: State, version: int) -> object:  # type: ignore[override]
        """The position (with its dials), the moves played and the result: an edited move
        no longer replays to the recorded digest."""
        s = state.to_json()
        return {k: s[k] for k in ("position", "plies", "since_capture", "result")}
