"""What must hold after every command of a game with any expansions: every component of the box
is conserved — cubes (rule S3), buildings and revolt markers (C4, V4), action and special cards
(T1, T2), courtiers and favour cards (X1.1), Samurai stacks (X2.1), leaders and statues (X3.1),
chamber tiles and markers (X4.1). Shared by the tests and the bench of many bot games."""

from __future__ import annotations

from shogun_tower.games.shogun.rules.core.cards import SPECIAL_CARD_IDS
from shogun_tower.games.shogun.rules.core.constants import (
    ARMIES_PER_PLAYER,
    BUILDING_SUPPLY,
    FARMER_CUBES,
    FARMERS,
    REVOLT_MARKERS,
    RICE_TRACK_MAX,
)
from shogun_tower.games.shogun.rules.core.state import State


def problems(s: State) -> list[str]:
    """Every broken invariant, in words; [] when the table is consistent."""
    out = []
    for colour, where in s.cube_count().items():
        total = FARMER_CUBES if colour == FARMERS else ARMIES_PER_PLAYER
        if sum(where.values()) != total or min(where.values()) < 0:
            out.append(f"{colour} cubes {where} do not add up to {total}")
    throwing = s.step is not None and s.step["kind"] == "throw"
    for prov, n in s.armies.items():
        if n < 0 or (not throwing and (n > 0) != (s.owner[prov] is not None)):
            out.append(f"{prov}: {n} armies, owner {s.owner[prov]}")
    for p in s.game.players:
        if s.coins[p] < 0 or not 0 <= s.rice[p] <= RICE_TRACK_MAX or s.vp[p] < 0:
            out.append(f"{p}: coins {s.coins[p]}, rice {s.rice[p]}, VP {s.vp[p]}")
    out += _board_components(s)
    for e in s.game.rules.expansions:  # what each chosen expansion keeps (its own rules)
        if e.invariants is not None:
            out += e.invariants(s)
    return out


def _board_components(s: State) -> list[str]:
    """Rules C4, V4, T1, T2: buildings in supply or on the board (one of a type a province,
    within its slots), revolt markers within the box's 42, the action and special cards once."""
    out = []
    built = dict.fromkeys(BUILDING_SUPPLY, 0)
    for prov, b in s.buildings.items():
        if not b:
            continue
        for kind in b:
            built[kind] += 1
        if len(set(b)) != len(b) or len(b) > s.map.provinces[prov].building_slots:
            out.append(f"{prov} holds buildings {b}")
    for kind, total in BUILDING_SUPPLY.items():
        if built[kind] + s.building_supply[kind] != total or s.building_supply[kind] < 0:
            out.append(f"{kind}s: {built[kind]} built + {s.building_supply[kind]} in supply is "
                       f"not {total}")
    markers = sum(s.markers.values())
    if min(s.markers.values()) < 0 or markers > REVOLT_MARKERS:
        out.append(f"{markers} revolt markers on the board (the box has {REVOLT_MARKERS})")
    if len(set(s.action_cards)) != len(s.action_cards) or len(s.action_cards) > 10:
        out.append(f"action cards {s.action_cards}")
    if s.specials and sorted(s.specials) != sorted(SPECIAL_CARD_IDS):
        out.append(f"special cards {s.specials}")
    return out
