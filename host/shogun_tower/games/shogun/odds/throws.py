"""The odds of one battle or revolt: colours on top of the exact exit law, verdicts by the engine.

Given the joint law of (thrown cubes out, inside cubes out) from :mod:`.exits`, the colours that
fall are two independent multivariate hypergeometric draws: the thrown cubes are shuffled, so
the thrown cubes that leave are a uniformly random subset of them; the cubes inside are placed
on the ledges at random (their positions are unknown), so the inside cubes that leave are a
uniformly random subset of those. Every possible tray is then judged by
``rules.battle.battle_verdict`` / ``revolt_verdict`` — the engine's own reading of the rules.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from math import comb

import numpy as np

from shogun_tower.games.shogun.odds.exits import exit_law
from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams
from shogun_tower.games.shogun.rules.core.battle import battle_verdict, revolt_verdict
from shogun_tower.games.shogun.rules.core.constants import CUBE_COLOURS, FARMERS
from shogun_tower.games.shogun.rules.core.tower import battle_cubes  # noqa: F401 - the odds' API

BATTLE_OUTCOMES = ("attacker", "defender", "undecided")
NEUTRAL_OUTCOMES = ("attacker", "neutral_holds")
REVOLT_OUTCOMES = ("player", "farmers")
REVOLT = ("revolt",)


@dataclass
class Odds:
    """The exact odds of one throw. ``armies[outcome][n]``: P(outcome and its winner's n armies
    go into / stay in the province); ``stays_inside``: expected cubes per colour left inside."""

    outcomes: dict[str, float]
    armies: dict[str, dict[int, float]]
    stays_inside: dict[str, float]
    into_tower: dict[str, int]
    tower: dict[str, int]
    params: TowerParams = DEFAULT
    dropped: float = 0.0

    def to_json(self) -> dict:
        return {"outcomes": self.outcomes,
                "armies": {o: {str(n): p for n, p in sorted(d.items())}
                           for o, d in self.armies.items()},
                "expected_armies": {o: self.expected_armies(o) for o in self.armies},
                "stays_inside": self.stays_inside,
                "expected_inside": sum(self.stays_inside.values()),
                "into_tower": self.into_tower, "tower": self.tower,
                "model": {"pass_p": list(self.params.pass_p), "knock_p": self.params.knock_p},
                "truncated_mass": self.dropped}

    def joint(self) -> dict[tuple[str, int], float]:
        """P(outcome, armies of the winner in the province), armies 0 for no-winner outcomes."""
        out = {(o, 0): p for o, p in self.outcomes.items()
               if p and o not in self.armies}
        out.update({(o, k): p for o, d in self.armies.items() for k, p in d.items()})
        return out

    def expected_armies(self, outcome: str) -> float:
        """Mean armies of the winner in the province, given that ``outcome`` happens."""
        d = self.armies.get(outcome, {})
        total = sum(d.values())
        return sum(n * p for n, p in d.items()) / total if total else 0.0


def battle_odds(attacker: str, defender: str | None, into: dict[str, int],
                tray_before: dict[str, int] | None = None, tower: dict[str, int] | None = None,
                farmers_fight: bool = True, params: TowerParams = DEFAULT,
                split: tuple[float, ...] | None = None) -> Odds:
    """Odds of a battle: ``into`` the cubes it throws (see :func:`battle_cubes`), ``tower`` the
    cubes inside before the throw, ``farmers_fight``: the province holds no revolt marker."""
    fight = farmers_fight or defender is None
    relevant = (attacker, FARMERS) if defender is None else (attacker, defender, FARMERS)
    names = NEUTRAL_OUTCOMES if defender is None else BATTLE_OUTCOMES
    return throw_odds(into, tray_before, tower, relevant, ("battle", defender is None, fight),
                      names, params, split)


def revolt_odds(player: str, armies: int, farmers: int, tray_before: dict[str, int] | None = None,
                tower: dict[str, int] | None = None, params: TowerParams = DEFAULT,
                split: tuple[float, ...] | None = None) -> Odds:
    """Odds of a revolt (rules V2, V3): the player's armies against the farmers."""
    return throw_odds({player: armies, FARMERS: farmers}, tray_before, tower, (player, FARMERS),
                      REVOLT, REVOLT_OUTCOMES, params, split)


def _judge(kind: tuple, counts: tuple[int, ...]) -> tuple[str, int]:
    """The engine's verdict on a tray given as counts of the relevant colours. ``kind``:
    ("battle", neutral province, farmers fight) or ("revolt",)."""
    if kind[0] == "revolt":
        v = revolt_verdict("P", {"P": counts[0], FARMERS: counts[1]})
        return v.outcome, v.to_province
    _, neutral, fight = kind
    if neutral:
        a, g = counts
        v = battle_verdict("A", None, {"A": a, FARMERS: g}, True)
    else:
        a, d, g = counts
        v = battle_verdict("A", "D", {"A": a, "D": d, FARMERS: g}, fight)
    return v.outcome, v.to_province


def throw_odds(into: dict[str, int], tray_before: dict[str, int] | None,
               tower: dict[str, int] | None, relevant: tuple[str, ...], kind: tuple,
               names: tuple[str, ...],
               params: TowerParams = DEFAULT, split: tuple[float, ...] | None = None) -> Odds:
    """Odds of any throw whose verdict depends on the tray counts of ``relevant`` colours
    (``kind``: see :func:`_judge`)."""
    tray_before = tray_before or {}
    tower = tower or {}
    thrown = {c: into.get(c, 0) + tray_before.get(c, 0) for c in CUBE_COLOURS}
    inside = {c: tower.get(c, 0) for c in CUBE_COLOURS}
    n, m = sum(thrown.values()), sum(inside.values())
    law = exit_law(n, m, params, split)
    tray = tray_law(law.p, [thrown[c] for c in relevant], n, [inside[c] for c in relevant], m)
    verdicts, moved = _verdict_grid(kind, names, tray.shape)
    outcomes = {}
    armies: dict[str, dict[int, float]] = {}
    for index, outcome in enumerate(names):
        mask = verdicts == index
        outcomes[outcome] = float(tray[mask].sum())
        sizes = np.bincount(moved[mask], weights=tray[mask])
        by_n = {int(k): float(p) for k, p in enumerate(sizes) if p > 0}
        if any(by_n):  # outcomes with no winner (undecided, neutral_holds, farmers) move none
            armies[outcome] = by_n
    out_t = float((law.p.sum(axis=1) * np.arange(n + 1)).sum())
    out_i = float((law.p.sum(axis=0) * np.arange(m + 1)).sum())
    stays = {c: thrown[c] * (1 - out_t / n if n else 0) + inside[c] * (1 - out_i / m if m else 0)
             for c in CUBE_COLOURS if thrown[c] or inside[c]}
    return Odds(outcomes, armies, stays, {c: k for c, k in thrown.items() if k},
                {c: k for c, k in inside.items() if k}, params, law.dropped)


_VERDICTS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}  # (kind, names) -> the rules' table


def _verdict_grid(kind: tuple, names: tuple[str, ...],
                  shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The engine's verdict for every tray of a grid: outcome index and armies moved, per cell.

    A table of the rules, not of one battle: kept per kind of throw, grown (in steps of 16 cubes
    a colour) when a larger tray is asked for, and sliced for each battle."""
    table = _VERDICTS.get((kind, names))
    if table is None or any(a > b for a, b in zip(shape, table[0].shape, strict=True)):
        have = table[0].shape if table is not None else shape
        box = tuple(-(-max(a, b) // 16) * 16 for a, b in zip(shape, have, strict=True))
        table = _VERDICTS[(kind, names)] = _judge_grid(kind, names, box)
    cells = tuple(slice(0, k) for k in shape)
    return table[0][cells], table[1][cells]


def _judge_grid(kind: tuple, names: tuple[str, ...],
                shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    verdicts = np.zeros(shape, dtype=np.int8)
    moved = np.zeros(shape, dtype=np.int64)
    for idx in itertools.product(*(range(k) for k in shape)):
        outcome, n = _judge(kind, idx)
        verdicts[idx] = names.index(outcome)
        moved[idx] = n
    return verdicts, moved


@lru_cache(maxsize=256)
def _hypergeometric(groups: tuple[int, ...], total: int) -> np.ndarray:
    """H[x, g1, ..., gk]: P(the x drawn of ``total`` hold g_j of group j), the rest 'other'."""
    other = total - sum(groups)
    ways = np.ones([g + 1 for g in groups])
    drawn = np.zeros([g + 1 for g in groups], dtype=np.int64)
    for axis, g in enumerate(groups):
        shape = [1] * len(groups)
        shape[axis] = g + 1
        ways = ways * np.array([comb(g, x) for x in range(g + 1)], dtype=float).reshape(shape)
        drawn = drawn + np.arange(g + 1).reshape(shape)
    h = np.zeros([total + 1] + [g + 1 for g in groups])
    for o in range(other + 1):
        x = drawn + o
        w = ways * comb(other, o) / np.array([comb(total, v) for v in range(total + 1)])[x]
        _scatter(h, x, w)
    return h


def _scatter(h: np.ndarray, x: np.ndarray, w: np.ndarray) -> None:
    rest = np.indices(x.shape)
    h[(x, *rest)] += w


def tray_law(joint: np.ndarray, thrown: list[int], n: int, inside: list[int],
             m: int) -> np.ndarray:
    """P(tray holds c_j cubes of relevant colour j), from the joint exit law and the colours:
    sum over (x thrown out, y inside out) of P(x, y) H_thrown[x] * H_inside[y] (a convolution
    of the two colour laws, done as one matrix product and one scatter-add)."""
    ht = _hypergeometric(tuple(thrown), n).reshape(n + 1, -1)
    hi = _hypergeometric(tuple(inside), m).reshape(m + 1, -1)
    pairs = ht.T @ joint @ hi  # [thrown colour counts, inside colour counts]
    shape = tuple(a + b + 1 for a, b in zip(thrown, inside, strict=True))
    cells = np.bincount(_sum_index(tuple(thrown), tuple(inside)), weights=pairs.ravel(),
                        minlength=int(np.prod(shape)))
    return cells.reshape(shape)


@lru_cache(maxsize=256)
def _sum_index(thrown: tuple[int, ...], inside: tuple[int, ...]) -> np.ndarray:
    """For every (thrown counts, inside counts) pair, the flat index of their sum."""
    shape = tuple(a + b + 1 for a, b in zip(thrown, inside, strict=True))
    xs = np.indices([g + 1 for g in thrown]).reshape(len(thrown), -1)
    ys = np.indices([g + 1 for g in inside]).reshape(len(inside), -1)
    total = xs[:, :, None] + ys[:, None, :]
    return np.ravel_multi_index(tuple(total), shape).ravel()
