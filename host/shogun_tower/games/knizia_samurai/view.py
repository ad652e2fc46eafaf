"""What the board page shows of a game of Samurai: a JSON-ready view, rebuilt from the state
after every entry (the page never computes a rule)."""

from __future__ import annotations

from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.state import SamuraiState


def view(state: SamuraiState, last: str = "", strip: dict | None = None,
         bands: dict | None = None, waiting: str = "") -> dict:
    """``last``: the last entry's words; ``strip``: the LED bands as read back from the tower
    (player -> type -> figures shown), or None without a tower; ``bands``: each player's three
    segments LED by LED as read back (``·`` dark, ``W`` white, else the player's letter)."""
    cat = catalogue()
    return {
        "game": "samurai",
        "players": list(state.game.players),
        "types": [{"name": f.name, "title": f.title, "plural": f.plural} for f in cat.figures],
        "figures_per_type": state.game.figures_per_type,
        "captured": state.captured,
        "removed": state.removed,
        "on_board": state.on_board(),
        "ties": state.ties(),
        "ties_that_end": cat.ties_that_end,
        "entries": state.entries,
        "last": last,
        "over": state.over,
        "result": state.result,
        "strip": strip,
        "bands": bands,
        "waiting": waiting,
    }
