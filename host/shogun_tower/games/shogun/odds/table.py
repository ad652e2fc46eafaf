"""The odds at the table: for the Battle/Move question and for the throw about to happen.

Both read the game as the engine holds it; the cubes a battle would throw come from the engine
itself (a copy of the state is asked to march), so the odds never use a second reading of the
rules B1, B6, E3/E4 or E9.
"""

from __future__ import annotations

from dataclasses import dataclass

from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams
from shogun_tower.games.shogun.odds.outcomes import outcome_word
from shogun_tower.games.shogun.odds.throws import (
    REVOLT,
    REVOLT_OUTCOMES,
    Odds,
    battle_odds,
    throw_odds,
)
from shogun_tower.games.shogun.rules import State
from shogun_tower.games.shogun.rules.core.constants import CUBE_COLOURS, FARMERS
from shogun_tower.i18n import _
from shogun_tower.words import colour_word, province_word


@dataclass
class MarchOdds:
    """The odds of marching ``armies`` into ``target`` (a battle: not an own province)."""

    target: str
    armies: int
    defender: str | None
    odds: Odds

    def to_json(self) -> dict:
        return {"target": self.target, "armies": self.armies, "defender": self.defender,
                **self.odds.to_json()}


def throw_odds_of(s: State, params: TowerParams = DEFAULT) -> Odds | None:
    """Odds of the pending throw when it is a battle or a revolt (None otherwise).

    At a throw the engine has already put the thrown cubes (with the tray's) into its tower
    count, so the cubes inside before the throw are the tower minus ``into_tower``.
    """
    st = s.step
    if not st or st.get("kind") != "throw" or st.get("reason") not in ("battle", "revolt"):
        return None
    into = {c: n for c, n in st["into_tower"].items() if n}
    inside = {c: s.tower[c] - into.get(c, 0) for c in CUBE_COLOURS}
    if st["reason"] == "battle":
        return battle_odds(st["attacker"], st["defender"], into, None, inside,
                           st["farmers_fight"], params)
    return throw_odds(into, None, inside, (st["player"], FARMERS), REVOLT, REVOLT_OUTCOMES,
                      params)


def march_odds(s: State, params: TowerParams = DEFAULT, use_specials: bool = True,
               armies: list[int] | None = None) -> list[MarchOdds]:
    """At a pending Battle/Move question: the odds of every battle target and army count.

    ``use_specials``: the holders play their +1 attack / +1 defence cards when asked (P4/P5).
    ``armies``: the army counts to try (default 1..max_armies).
    """
    st = s.step
    if not st or st.get("kind") != "march":
        return []
    player = st["player"]
    out = []
    for target in st["targets"]:
        if s.owner[target] == player:
            continue  # a move, not a battle
        rows = []
        # most armies first: the exit-law DP of the largest throw gives every smaller one
        for n in sorted(armies or range(1, st["max_armies"] + 1), reverse=True):
            if not 1 <= n <= st["max_armies"]:
                continue
            trial = s.copy()
            trial.apply({"type": "march", "player": player, "to": target, "armies": n})
            while trial.step and trial.step["kind"] == "choose" \
                    and trial.step["what"] == "use_special":
                trial.apply({"type": "choose", "player": trial.step["player"],
                             "what": "use_special", "option": use_specials})
            odds = throw_odds_of(trial, params)
            if odds is not None:
                rows.append(MarchOdds(target, n, s.owner[target], odds))
        out += rows[::-1]
    return out


def march_odds_lines(found: list[MarchOdds]) -> list[str]:
    """One line per battle target: the chance to take it with each army count (the terminal's
    answer to 'odds' at the Battle/Move question)."""
    lines = []
    for target in dict.fromkeys(m.target for m in found):
        rows = [m for m in found if m.target == target]
        # Translators: an army count and its chance to take the province ("3: 53%")
        cells = "  ".join(_("{armies}: {percent}%").format(
            armies=m.armies, percent=f"{100 * m.odds.outcomes['attacker']:.0f}") for m in rows)
        values = {"province": province_word(target), "most": rows[-1].armies, "cells": cells}
        if rows[0].defender:
            lines.append(_("{province} ({player}): chance to take it with 1-{most} armies  "
                           "{cells}").format(player=colour_word(rows[0].defender), **values))
        else:
            lines.append(_("{province} (neutral): chance to take it with 1-{most} armies  "
                           "{cells}").format(**values))
    return lines or [_("no battle among these targets: every one is your own province")]


def page_odds(s: State, params: TowerParams = DEFAULT) -> dict | None:
    """The board page's odds of the battle (or revolt) being thrown: outcomes and one line."""

    odds = throw_odds_of(s, params)
    if odds is None:
        return None
    # Translators: an outcome and its chance in a list of them ("attacker wins 62%")
    text = " · ".join(_("{outcome} {percent}%").format(outcome=outcome_word(o),
                                                       percent=f"{100 * p:.0f}")
                      for o, p in odds.outcomes.items())
    return {"outcomes": odds.outcomes, "text": _("odds of this throw: {odds}").format(odds=text)}
