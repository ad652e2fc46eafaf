from __future__ import annotations

from dataclasses import dataclass, field

from shogun_tower.games.shogun.rules.core.constants import FARMERS
from shogun_tower.games.shogun.rules.core.phrases import (
    colour,
    english,
    phrase,
    phrase_n,
    say,
)
from shogun_tower.i18n import N_, N_plural


@dataclass
class Verdict:
    """What a counted tray means. ``to_supply``: cubes per colour leaving the tray for supplies;
    ``to_province``: cubes of ``holder`` going from the tray into the contested province.
    ``words``: what it means as a phrase (``phrases.py``), said where it is shown; ``text``:
    the same in English, as the events keep it."""

    # battles: "attacker", "defender", "undecided", "neutral_holds"; revolts: "player", "farmers"
    outcome: str
    counted: dict[str, int]
    to_supply: dict[str, int] = field(default_factory=dict)
    holder: str | None = None  # who owns the province afterwards (None: neutral)
    to_province: int = 0
    clear_province: bool = False  # buildings and revolt markers removed (B4, V3)
    words: dict = field(default_factory=dict)

    @property
    def text(self) -> str:
        return english(self.words) if self.words else ""

    def said(self) -> str:
        """What it means in the players' language."""
        return say(self.words) if self.words else ""


def battle_verdict(attacker: str, defender: str | None, tray: dict[str, int],
                   farmers_fight: bool) -> Verdict:
    """Rules B2-B5. ``defender`` None = neutral province; ``farmers_fight``: the province holds no
    revolt marker (always true for a neutral province)."""
    a = tray.get(attacker, 0)
    g = tray.get(FARMERS, 0)
    who = colour(attacker)
    if defender is None:
        # rule B4 (neutral): attacker must beat the farmers strictly; rule B5 farmers go home
        counted = {attacker: a, FARMERS: g}
        if a > g:
            words = (phrase(N_("{attacker} {a} beats farmers {g}: {moved}, {back}"),
                            attacker=who, a=a, g=g, moved=_move_in(a - g), back=_back(g)) if g
                     else phrase(N_("{attacker} {a} beats farmers {g}: {moved}"), attacker=who,
                                 a=a, g=g, moved=_move_in(a - g)))
            return Verdict("attacker", counted, {attacker: g, FARMERS: g}, attacker, a - g,
                           words=words)
        words = (phrase(N_("{attacker} {a} does not beat farmers {g}: the province stays "
                           "neutral, {back}"), attacker=who, a=a, g=g, back=_back(a)) if a
                 else phrase(N_("{attacker} {a} does not beat farmers {g}: the province stays "
                                "neutral"), attacker=who, a=a, g=g))
        return Verdict("neutral_holds", counted, {attacker: a, FARMERS: g}, None, 0,
                       words=words)
    d = tray.get(defender, 0)
    f = g if farmers_fight else 0  # rule B2: farmers side with a defender without markers
    counted = {attacker: a, defender: d}
    if farmers_fight:
        counted[FARMERS] = f
    back_green = g if farmers_fight else 0  # rule B5
    total_def = d + f
    them = colour(defender)
    if a > total_def:  # rule B3
        sup = {attacker: total_def, defender: d, FARMERS: back_green}
        moved = _move_in(a - total_def)
        words = (phrase(N_("{attacker} {a} beats {defender} {d} + farmers {f}: {moved}, the "
                           "province is {attacker}'s"), attacker=who, a=a, defender=them, d=d,
                        f=f, moved=moved) if farmers_fight
                 else phrase(N_("{attacker} {a} beats {defender} {d}: {moved}, the province is "
                                "{attacker}'s"), attacker=who, a=a, defender=them, d=d,
                             moved=moved))
        return Verdict("attacker", counted, sup, attacker, a - total_def, words=words)
    if total_def > a and d > 0:
        # rule B3 Decision: farmers absorb the defender's losses first
        lost_f = min(f, a)
        lost_d = a - lost_f
        sup = {attacker: a, defender: lost_d, FARMERS: back_green}
        stay = _stay(d - lost_d)
        words = (phrase(N_("{defender} {d} + farmers {f} beats {attacker} {a}: {stay} in the "
                           "province"), defender=them, d=d, f=f, attacker=who, a=a, stay=stay)
                 if farmers_fight
                 else phrase(N_("{defender} {d} beats {attacker} {a}: {stay} in the province"),
                             defender=them, d=d, attacker=who, a=a, stay=stay))
        return Verdict("defender", counted, sup, defender, d - lost_d, words=words)
    # rule B4: tie, or a defender "win" with only farmers in the tray
    sup = {attacker: a, defender: d, FARMERS: back_green}
    words = (phrase(N_("undecided ({attacker} {a}, {defender} {d}, farmers {f}): the province "
                       "is emptied and becomes neutral"), attacker=who, a=a, defender=them,
                    d=d, f=f) if farmers_fight
             else phrase(N_("undecided ({attacker} {a}, {defender} {d}): the province is "
                            "emptied and becomes neutral"), attacker=who, a=a, defender=them,
                         d=d))
    return Verdict("undecided", counted, sup, None, 0, clear_province=True, words=words)


def revolt_verdict(player: str, tray: dict[str, int]) -> Verdict:
    """Rule V3: the player must beat the farmers strictly; farmers go home either way (B5)."""
    a = tray.get(player, 0)
    g = tray.get(FARMERS, 0)
    counted = {player: a, FARMERS: g}
    if a > g:
        return Verdict("player", counted, {player: g, FARMERS: g}, player, a - g,
                       words=phrase(N_("{player} {a} puts down the revolt (farmers {g}): "
                                       "{returns} to the province"), player=colour(player),
                                    a=a, g=g, returns=phrase_n(N_plural(
                                        "{n} army returns", "{n} armies return"), a - g)))
    return Verdict("farmers", counted, {player: a, FARMERS: g}, None, 0, clear_province=True,
                   words=phrase(N_("farmers {g} win against {player} {a}: the province loses "
                                   "its buildings and markers and becomes neutral"), g=g,
                                player=colour(player), a=a))


def _move_in(n: int) -> dict:
    return phrase_n(N_plural("{n} army moves in", "{n} armies move in"), n)


def _back(n: int) -> dict:
    return phrase_n(N_plural("{n} goes back to the supply", "{n} go back to the supply"), n)


def _stay(n: int) -> dict:
    return phrase_n(N_plural("{n} army stays", "{n} armies stay"), n)
