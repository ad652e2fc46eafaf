"""Exact odds benchmark.

1. Accuracy: every case of a table (cubes inside, revolt markers, specials, events, a revolt)
   against a Monte Carlo of the same model, 10^6 throws per case (two worker processes):
   every (outcome, armies) probability within 0.003.
2. Speed: CPU time (time.process_time, this process only; BLAS on one thread) of battle_odds
   over 210 battles, 2-20 cubes thrown x 0-30 inside, random colours, trays and cubes inside.
   - model table: the exit law of every throw up to 20 thrown x 30 inside, computed once per
     tower model (one DP per count inside: a DP over n cubes gives every smaller throw too).
   - cold: a new battle situation. Every cache of the situation is emptied before the query
     (its colour laws); what stays is what does not depend on it: the model's table and the
     rules' verdict tables. Target: p95 < 20 ms.
   - from scratch: nothing computed for the model either (the exit law DP runs for this throw).
   - cached: the same battle asked again.
3. Exact vs Monte Carlo time at equal accuracy: the Monte Carlo needs the samples that bring the
   99% interval of the most uncertain outcome down to +-0.003; the ratio is its CPU time over the
   exact computation's (from scratch).

Exits 1 when a target is missed. `python bench/bench_odds.py --quick` runs 10^5 throws per case
(a smoke run, not the figure).
"""

from __future__ import annotations

import random
import sys
import time
from multiprocessing import Pool

from shogun_tower.games.shogun.odds import throws
from shogun_tower.games.shogun.odds.exits import clear_cache, exit_table
from shogun_tower.games.shogun.odds.montecarlo import (
    battle_frequencies,
    revolt_frequencies,
    worst_gap,
)
from shogun_tower.games.shogun.odds.throws import battle_cubes, battle_odds, revolt_odds

TOLERANCE = 0.003
P95_TARGET_MS = 20.0

# name, kind, arguments (battle: attacker, armies, defender, defender armies, markers, extras)
CASES = [
    ("neutral, 3 armies, empty tower", "battle", ("red", 3, None, 0, 0, {}), {}, {}),
    ("neutral under E9, 5 armies", "battle", ("red", 5, None, 0, 0, {"event": "E9"}), {},
     {"green": 6, "red": 2}),
    ("5 v 3, tray + 9 inside", "battle", ("red", 5, "blue", 3, 0, {}), {"green": 1},
     {"green": 4, "red": 2, "black": 3}),
    ("7 v 5, 2 revolt markers", "battle", ("black", 7, "yellow", 5, 2, {}),
     {"green": 2, "purple": 1}, {"green": 6, "yellow": 3}),
    ("6 v 4, P4+P5+castle E3, 20 inside", "battle",
     ("blue", 6, "red", 4, 0, {"attack_card": True, "defence_card": True, "event": "E3",
                               "castle": True}),
     {}, {"green": 8, "red": 4, "blue": 3, "black": 3, "yellow": 2}),
    ("revolt 4 armies v 3 farmers", "revolt", ("purple", 4, 3), {"green": 1},
     {"green": 5, "purple": 2}),
]


def _exact(case: tuple):  # noqa: ANN202
    _, kind, a, before, tower = case
    if kind == "revolt":
        return revolt_odds(a[0], a[1], a[2], before, tower)
    att, armies, dfd, d_armies, markers, extra = a
    into = battle_cubes(att, armies, dfd, d_armies, **extra)
    return battle_odds(att, dfd, into, before, tower, farmers_fight=markers == 0)


def _sampled(job: tuple) -> dict:
    case, samples, seed = job
    _, kind, a, before, tower = case
    if kind == "revolt":
        return revolt_frequencies(a[0], a[1], a[2], before, tower, samples, seed)
    att, armies, dfd, d_armies, markers, extra = a
    into = battle_cubes(att, armies, dfd, d_armies, **extra)
    return battle_frequencies(att, dfd, into, before, tower, markers == 0, samples, seed)


def accuracy(samples: int) -> bool:
    print(f"accuracy: exact vs Monte Carlo of the same model, {samples:,} throws per case")
    print(f"{'case':38} {'P(attacker/player)':>19} {'worst |gap|':>12} {'max z':>7} {'ok':>4}")
    ok = True
    with Pool(2) as pool:
        for case in CASES:
            exact = _exact(case)
            halves = pool.map(_sampled, [(case, samples // 2, 101), (case, samples // 2, 202)])
            merged: dict = {}
            for h in halves:
                for key, f in h.items():
                    merged[key] = merged.get(key, 0.0) + f / 2
            gap, z = worst_gap(exact.joint(), merged, samples)
            first = next(iter(exact.outcomes.values()))
            good = gap <= TOLERANCE
            ok &= good
            print(f"{case[0]:38} {first:19.4f} {gap:12.5f} {z:7.2f} {'yes' if good else 'NO':>4}")
    return ok


def _random_battle(rng: random.Random, thrown: int, inside: int) -> tuple:
    colours = ["black", "red", "yellow", "purple", "blue", "green"]
    att, dfd = rng.sample(colours[:5], 2)
    armies = max(1, thrown * 3 // 5)
    d_armies = max(1, thrown - armies - 1)
    into = battle_cubes(att, armies, dfd, d_armies)
    before = {"green": thrown - armies - d_armies} if thrown - armies - d_armies > 0 else {}
    tower: dict[str, int] = {}
    for _ in range(inside):
        c = rng.choice(colours)
        tower[c] = tower.get(c, 0) + 1
    return att, dfd, into, before, tower


def _forget_situation() -> None:
    """Empty every cache that depends on the battle asked (its colour laws)."""
    throws._hypergeometric.cache_clear()
    throws._sum_index.cache_clear()


def _p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return 1000 * xs[int(0.95 * (len(xs) - 1))]


def speed() -> dict[str, list[float]]:
    """CPU seconds per battle_odds call, per condition (see the module's docstring)."""
    rng = random.Random(5)
    battles = [_random_battle(rng, thrown, inside)
               for thrown in (2, 4, 6, 8, 10, 12, 14, 16, 18, 20)
               for inside in (0, 5, 10, 15, 20, 25, 30) for _ in range(3)]
    times: dict[str, list[float]] = {"model table": [], "cold": [], "from scratch": [],
                                     "cached": []}
    for args in battles:  # the rules' verdict tables, grown to every tray of the table
        battle_odds(*args)
    for args in battles:
        clear_cache()
        _forget_situation()
        t0 = time.process_time()
        battle_odds(*args)
        times["from scratch"].append(time.process_time() - t0)
    clear_cache()
    t0 = time.process_time()
    exit_table()
    times["model table"].append(time.process_time() - t0)
    for args in battles:
        _forget_situation()
        t0 = time.process_time()
        battle_odds(*args)
        times["cold"].append(time.process_time() - t0)
        t0 = time.process_time()
        battle_odds(*args)
        times["cached"].append(time.process_time() - t0)
    return times


def ratio() -> list[tuple[str, float, float, float]]:
    rows = []
    for case in CASES[2:5]:
        clear_cache()
        _forget_situation()
        t0 = time.process_time()
        exact = _exact(case)
        t_exact = time.process_time() - t0
        n = 20_000
        t0 = time.process_time()
        _sampled((case, n, 7))
        per_throw = (time.process_time() - t0) / n
        p = max(min(exact.outcomes.values(), key=lambda q: abs(q - 0.5)), 1e-9)
        need = int((2.576 * (p * (1 - p)) ** 0.5 / TOLERANCE) ** 2) + 1
        rows.append((case[0], 1000 * t_exact, per_throw * need, per_throw * need / t_exact))
    return rows


def main() -> int:
    quick = "--quick" in sys.argv
    ok = accuracy(100_000 if quick else 1_000_000)
    times = speed()
    print("\nspeed: battle_odds, 2-20 cubes thrown x 0-30 inside, 210 battles, CPU time")
    print(f"{'':34} {'p95 ms':>8} {'slowest ms':>11}")
    for name in ("cold", "from scratch", "cached"):
        print(f"{name:34} {_p95(times[name]):8.1f} {1000 * max(times[name]):11.1f}")
    print(f"{'model table (once per tower model)':34} {'':8} "
          f"{1000 * times['model table'][0]:11.0f}")
    print(f"\nexact vs Monte Carlo at equal accuracy (99% interval +-{TOLERANCE})")
    print(f"{'case':38} {'exact ms':>9} {'MC s':>8} {'MC/exact':>9}")
    for name, t_exact, t_mc, r in ratio():
        print(f"{name:38} {t_exact:9.1f} {t_mc:8.1f} {r:9.0f}x")
    p95_cold = _p95(times["cold"])
    met = p95_cold < P95_TARGET_MS
    print(f"\nexact odds: accuracy within {TOLERANCE}: {'met' if ok else 'MISSED'}; "
          f"p95 cold {p95_cold:.1f} ms < {P95_TARGET_MS:.0f} ms: {'met' if met else 'MISSED'} "
          f"(from scratch {_p95(times['from scratch']):.0f} ms, model table "
          f"{times['model table'][0]:.1f} s once)")
    return 0 if ok and met else 1


if __name__ == "__main__":
    sys.exit(main())
