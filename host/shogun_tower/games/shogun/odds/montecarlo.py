"""Monte Carlo of the same tower model, to check the exact odds (and to time against them).

Each sample is a throw of the engine's own ``TowerModel``: the cubes inside are put on the
ledges as the odds assume (a ledge-1 count drawn from the same split law, colours placed at
random), the thrown cubes are shuffled as the simulated tower shuffles them, and the tray is
judged by the engine's verdict functions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from shogun_common.rng import Rng
from shogun_common.tower_model import TowerModel
from shogun_tower.games.shogun.odds.exits import split_prior
from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams


def sample_exits(thrown: int, inside: int, samples: int, seed: int = 1,
                 params: TowerParams = DEFAULT) -> Counter:
    """Counts of (thrown out, inside out) over ``samples`` throws (codes 0 = thrown, 1 = inside)."""
    rng = Rng(seed)
    cdf = _cdf(list(split_prior(inside, params)))
    tower = TowerModel(params.ledges, list(params.pass_p), params.knock_p)
    seen: Counter = Counter()
    cubes = [0] * thrown
    for _ in range(samples):
        on1 = _draw(cdf, rng)
        tower.restore([[1] * on1, [1] * (inside - on1)])
        out = tower.throw(cubes, rng)
        t = out.count(0)
        seen[(t, len(out) - t)] += 1
    return seen


def sample_trays(thrown: dict[str, int], inside: dict[str, int], samples: int, seed: int = 1,
                 params: TowerParams = DEFAULT) -> Iterator[dict[str, int]]:
    """``samples`` trays of one throw, cube colours by name (one at a time)."""
    rng = Rng(seed)
    names = sorted(set(thrown) | set(inside))
    code = {c: i for i, c in enumerate(names)}
    n_in = sum(inside.values())
    cdf = _cdf(list(split_prior(n_in, params)))
    tower = TowerModel(params.ledges, list(params.pass_p), params.knock_p)
    base_in = [code[c] for c, n in inside.items() for _ in range(n)]
    base_th = [code[c] for c, n in thrown.items() for _ in range(n)]
    for _ in range(samples):
        pos = list(base_in)
        rng.shuffle(pos)  # colours placed at random over the positions inside
        on1 = _draw(cdf, rng)
        tower.restore([pos[:on1], pos[on1:]])
        cubes = list(base_th)
        rng.shuffle(cubes)
        out = tower.throw(cubes, rng)
        tray = dict.fromkeys(names, 0)
        for c in out:
            tray[names[c]] += 1
        yield tray


def _cdf(weights: list[float]) -> list[float]:
    out, acc = [], 0.0
    for w in weights:
        acc += w
        out.append(acc)
    return out


def _draw(cdf: list[float], rng: Rng) -> int:
    u = rng.random() * cdf[-1]
    for i, c in enumerate(cdf):
        if u < c:
            return i
    return len(cdf) - 1


def battle_frequencies(attacker: str, defender: str | None, into: dict[str, int],
                       tray_before: dict[str, int] | None, tower: dict[str, int] | None,
                       farmers_fight: bool, samples: int, seed: int = 1,
                       params: TowerParams = DEFAULT) -> dict[tuple[str, int], float]:
    """Frequencies of (outcome, armies of the winner in the province) over sampled throws,
    each tray judged by the engine's ``battle_verdict``."""
    from shogun_tower.games.shogun.rules.core.battle import battle_verdict

    def judge(tray: dict[str, int]) -> tuple[str, int]:
        v = battle_verdict(attacker, defender, tray, farmers_fight or defender is None)
        return v.outcome, v.to_province

    return frequencies(_thrown(into, tray_before), tower, judge, samples, seed, params)


def revolt_frequencies(player: str, armies: int, farmers: int,
                       tray_before: dict[str, int] | None, tower: dict[str, int] | None,
                       samples: int, seed: int = 1,
                       params: TowerParams = DEFAULT) -> dict[tuple[str, int], float]:
    """The same for a revolt, judged by the engine's ``revolt_verdict``."""
    from shogun_tower.games.shogun.rules.core.battle import revolt_verdict
    from shogun_tower.games.shogun.rules.core.constants import FARMERS

    def judge(tray: dict[str, int]) -> tuple[str, int]:
        v = revolt_verdict(player, tray)
        return v.outcome, v.to_province

    into = {player: armies, FARMERS: farmers}
    return frequencies(_thrown(into, tray_before), tower, judge, samples, seed, params)


def frequencies(thrown: dict[str, int], tower: dict[str, int] | None, judge, samples: int,  # noqa: ANN001
                seed: int, params: TowerParams) -> dict[tuple[str, int], float]:
    seen: Counter = Counter()
    for tray in sample_trays(thrown, dict(tower or {}), samples, seed, params):
        seen[judge(tray)] += 1
    return {key: n / samples for key, n in seen.items()}


def _thrown(into: dict[str, int], before: dict[str, int] | None) -> dict[str, int]:
    before = before or {}
    return {c: into.get(c, 0) + before.get(c, 0) for c in set(into) | set(before)}


def worst_gap(exact: dict[tuple[str, int], float], sampled: dict[tuple[str, int], float],
              samples: int) -> tuple[float, float]:
    """(largest |exact - sampled| over every outcome and army count, largest z-score)."""
    gap = zmax = 0.0
    for key in set(exact) | set(sampled):
        p, f = exact.get(key, 0.0), sampled.get(key, 0.0)
        gap = max(gap, abs(p - f))
        sd = max(p * (1 - p), 1.0 / samples) ** 0.5 / samples ** 0.5
        zmax = max(zmax, abs(p - f) / sd)
    return gap, zmax
