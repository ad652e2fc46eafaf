"""Revolts (rules V1-V4): farmers rise in a player's province; the player defends alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import FARMERS

if TYPE_CHECKING:
    from .state import State


def start_revolt(s: State, player: str, prov: str, farmers: int, ctx: dict,
                 ev: list[dict]) -> dict:
    """Rule V2: every army in the province, one farmer per marker (plus the winter bonus W3),
    plus every cube in the tray go into the tower."""
    from .actions import start_throw

    armies = s.armies[prov]
    s.armies[prov] = 0
    # Decision: the farmer supply is finite (rule C1); a revolt throws only the farmers left.
    farmers = min(farmers, s.supply[FARMERS])
    s.supply[FARMERS] -= farmers
    ev.append({"event": "revolt", "player": player, "province": prov, "armies": armies,
               "farmers": farmers})
    ctx = dict(ctx, reason="revolt", player=player, province=prov, rule="V2")
    return start_throw(s, {player: armies, FARMERS: farmers}, ctx, ev)
