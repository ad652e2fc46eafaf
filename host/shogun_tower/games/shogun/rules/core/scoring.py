"""Winter scoring (rule W4) and the end of the game (rule W6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from shogun_tower.games.shogun.rules.core.constants import BUILDINGS, MAJORITY_VP
from shogun_tower.games.shogun.rules.core.map import GameMap


def score(game_map: GameMap, players: Iterable[str], owner: Mapping[str, str | None],
          buildings: Mapping[str, list[str]]) -> dict[str, dict[str, int]]:
    """VP per player: 1 per province, 1 per building, region majorities (rule W4)."""
    players = list(players)
    out = {p: {"provinces": 0, "buildings": 0, "majorities": 0, "total": 0} for p in players}
    for prov, p in owner.items():
        if p in out:
            out[p]["provinces"] += 1
            out[p]["buildings"] += len(buildings.get(prov, ()))
    for members in game_map.regions.values():
        for kind in BUILDINGS:
            count = dict.fromkeys(players, 0)
            for prov in members:
                p = owner.get(prov)
                if p in count and kind in buildings.get(prov, ()):
                    count[p] += 1
            best = max(count.values(), default=0)
            if best == 0:  # at least one building needed
                continue
            leaders = [p for p, c in count.items() if c == best]
            value = MAJORITY_VP[kind] - (1 if len(leaders) > 1 else 0)  # tied: value - 1
            for p in leaders:
                out[p]["majorities"] += value
    for p in players:
        o = out[p]
        o["total"] = o["provinces"] + o["buildings"] + o["majorities"]
    return out


def ranking(vp: Mapping[str, int], coins: Mapping[str, int]) -> dict:
    """Rule W6: most VP, then most coins; still tied = shared victory."""
    order = sorted(vp, key=lambda p: (-vp[p], -coins[p]))
    top = (vp[order[0]], coins[order[0]])
    winners = [p for p in order if (vp[p], coins[p]) == top]
    return {"ranking": order, "winners": winners,
            "vp": dict(vp), "coins": dict(coins)}
