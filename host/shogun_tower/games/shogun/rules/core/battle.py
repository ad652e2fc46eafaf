"""Battles with the tower (rules B1-B7): who throws what, and the verdict from the tray counts.

The verdict functions are pure (counts in, movements out) so the referee CLI and the engine
share one reading of the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shogun_tower.games.shogun.rules.core.constants import FARMERS
from shogun_tower.words import sentence


@dataclass
class Verdict:
    """What a counted tray means. ``to_supply``: cubes per colour leaving the tray for supplies;
    ``to_province``: cubes of ``holder`` going from the tray into the contested province."""

    # battles: "attacker", "defender", "undecided", "neutral_holds"; revolts: "player", "farmers"
    outcome: str
    counted: dict[str, int]
    to_supply: dict[str, int] = field(default_factory=dict)
    holder: str | None = None  # who owns the province afterwards (None: neutral)
    to_province: int = 0
    clear_province: bool = False  # buildings and revolt markers removed (B4, V3)
    text: str = ""


def battle_verdict(attacker: str, defender: str | None, tray: dict[str, int],
                   farmers_fight: bool) -> Verdict:
    """Rules B2-B5. ``defender`` None = neutral province; ``farmers_fight``: the province holds no
    revolt marker (always true for a neutral province)."""
    a = tray.get(attacker, 0)
    g = tray.get(FARMERS, 0)
    if defender is None:
        # rule B4 (neutral): attacker must beat the farmers strictly; rule B5 farmers go home
        counted = {attacker: a, FARMERS: g}
        if a > g:
            return Verdict("attacker", counted, {attacker: g, FARMERS: g}, attacker, a - g,
                           text=f"{attacker} {a} beats farmers {g}: {_move_in(a - g)}"
                                + (f", {_back(g)}" if g else ""))
        return Verdict("neutral_holds", counted, {attacker: a, FARMERS: g}, None, 0,
                       text=f"{attacker} {a} does not beat farmers {g}: the province stays "
                            f"neutral" + (f", {_back(a)}" if a else ""))
    d = tray.get(defender, 0)
    f = g if farmers_fight else 0  # rule B2: farmers side with a defender without markers
    counted = {attacker: a, defender: d}
    if farmers_fight:
        counted[FARMERS] = f
    back_green = g if farmers_fight else 0  # rule B5
    total_def = d + f
    if a > total_def:  # rule B3
        sup = {attacker: total_def, defender: d, FARMERS: back_green}
        return Verdict("attacker", counted, sup, attacker, a - total_def,
                       text=f"{attacker} {a} beats {defender} {d}"
                            + (f" + farmers {f}" if farmers_fight else "")
                            + f": {_move_in(a - total_def)}, the province is {attacker}'s")
    if total_def > a and d > 0:
        # rule B3 Decision: farmers absorb the defender's losses first
        lost_f = min(f, a)
        lost_d = a - lost_f
        sup = {attacker: a, defender: lost_d, FARMERS: back_green}
        return Verdict("defender", counted, sup, defender, d - lost_d,
                       text=f"{defender} {d}" + (f" + farmers {f}" if farmers_fight else "")
                            + f" beats {attacker} {a}: {_stay(d - lost_d)} in the province")
    # rule B4: tie, or a defender "win" with only farmers in the tray
    sup = {attacker: a, defender: d, FARMERS: back_green}
    return Verdict("undecided", counted, sup, None, 0, clear_province=True,
                   text=f"undecided ({attacker} {a}, {defender} {d}"
                        + (f", farmers {f}" if farmers_fight else "")
                        + "): the province is emptied and becomes neutral")


def revolt_verdict(player: str, tray: dict[str, int]) -> Verdict:
    """Rule V3: the player must beat the farmers strictly; farmers go home either way (B5)."""
    a = tray.get(player, 0)
    g = tray.get(FARMERS, 0)
    counted = {player: a, FARMERS: g}
    if a > g:
        return Verdict("player", counted, {player: g, FARMERS: g}, player, a - g,
                       text=f"{player} {a} puts down the revolt (farmers {g}): "
                            + sentence(a - g, "{n} army returns", "{n} armies return")
                            + " to the province")
    return Verdict("farmers", counted, {player: a, FARMERS: g}, None, 0, clear_province=True,
                   text=f"farmers {g} win against {player} {a}: the province loses its "
                        f"buildings and markers and becomes neutral")


def _move_in(n: int) -> str:
    return sentence(n, "{n} army moves in", "{n} armies move in")


def _back(n: int) -> str:
    return sentence(n, "{n} goes back to the supply", "{n} go back to the supply")


def _stay(n: int) -> str:
    return sentence(n, "{n} army stays", "{n} armies stay")
