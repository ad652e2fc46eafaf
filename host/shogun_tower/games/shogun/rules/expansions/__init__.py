"""The expansions of the second rulebook, one module each, plugged into named points of the base
season: the catalogue the engine builds a game's rule set from.

An expansion declares, in one ``Expansion`` object (``rules/core/ruleset.py``; see
``court.py``, ``samurai.py``): its phases and where each goes in the season, the ``choose``
questions it asks (with the bots' answers), its chance nodes, its state (kept under
``state.expansions[name]``), its answers at the hook points where the base calls out
(``HOOK_POINTS``), its validated data file, what the page and the terminal show of it, the
invariants it keeps and the words of its events. An expansion module imports only the rules'
core. Its terminal board and page panel are declared under its name beside the console
(``table/boards.py``) and the page (``web/panels/``).
"""

from __future__ import annotations

import itertools

from shogun_tower.games.shogun.rules.core.ruleset import Expansion
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.games.shogun.rules.expansions import chambers, court, leaders, samurai

# The one list of expansions, in the order their additions run when several are chosen.
EXPANSIONS: dict[str, Expansion] = {e.name: e for e in (court.EXPANSION, samurai.EXPANSION,
                                                        leaders.EXPANSION, chambers.EXPANSION)}
EXPANSION_NAMES: tuple[str, ...] = tuple(EXPANSIONS)


def subsets() -> list[tuple[str, ...]]:
    """Every combination of the expansions, the base game first (for tests and benches)."""
    return [c for n in range(len(EXPANSION_NAMES) + 1)
            for c in itertools.combinations(EXPANSION_NAMES, n)]


def views(s: State) -> dict[str, dict]:
    """What each chosen expansion shows on the page and the terminal (JSON, no secrets)."""
    return {e.name: e.view(s) for e in s.game.rules.expansions if e.view is not None}
