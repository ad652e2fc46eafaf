"""Revolts (rules V1-V4): farmers rise in a player's province; the player defends alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shogun_tower.games.shogun.rules import legacy
from shogun_tower.games.shogun.rules.constants import FARMERS

if TYPE_CHECKING:
    from shogun_tower.games.shogun.rules.state import State


def start_revolt(s: State, player: str, prov: str, farmers: int, ctx: dict,
                 ev: list[dict]) -> dict:
    """Rule V2: every army in the province, one farmer per marker (plus the winter bonus W3),
    plus every cube in the tray go into the tower."""
    from shogun_tower.games.shogun.rules.actions import castle_defends, start_throw

    armies = s.armies[prov]
    s.armies[prov] = 0
    # Decision: the farmer supply is finite (rule C1); a revolt throws only the farmers left.
    farmers = min(farmers, s.supply[FARMERS])
    s.supply[FARMERS] -= farmers
    ev.append({"event": "revolt", "player": player, "province": prov, "armies": armies,
               "farmers": farmers})
    into = {player: armies, FARMERS: farmers}
    # rules E3/E4 (revised): in a revolt the player is the defender, so a castle helps him too
    if legacy.castle_defends_in_revolts(s.game) and castle_defends(s, player, prov):
        into[player] += 1
        ev.append({"event": "castle_defends", "player": player, "province": prov,
                   "rule": "E3"})
    ctx = dict(ctx, reason="revolt", player=player, province=prov, rule="V2")
    return start_throw(s, into, ctx, ev)
