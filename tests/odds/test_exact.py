"""The exact odds: against an exhaustive walk of the engine's own tower model,
against a seeded Monte Carlo slice (the 10^6-throw table is in bench/bench_odds.py), and the
outcome names of `referee battle --json`."""

from __future__ import annotations

import pytest

from shogun_common.tower_model import TowerModel
from shogun_tower.games.shogun.odds import (
    TowerParams,
    battle_cubes,
    battle_odds,
    exit_law,
    revolt_odds,
)
from shogun_tower.games.shogun.odds.exits import split_prior
from shogun_tower.games.shogun.odds.montecarlo import battle_frequencies, worst_gap


class _Walk:
    """An Rng stand-in that walks every branch of the model: each random() answers one of three
    values, one per interval cut by the two thresholds the model compares with."""

    def __init__(self, prefix: list[int], params: TowerParams) -> None:
        self.prefix, self.pos, self.weight = prefix, 0, 1.0
        k, p = params.knock_p, params.pass_p[0]
        self.values = [(k / 2, k), ((k + p) / 2, p - k), ((1 + p) / 2, 1 - p)]

    def random(self) -> float:
        if self.pos == len(self.prefix):
            self.prefix.append(0)
        v, w = self.values[self.prefix[self.pos]]
        self.pos += 1
        self.weight *= w
        return v


def _walk_exits(thrown: int, inside: int, params: TowerParams) -> dict[tuple[int, int], float]:
    law: dict[tuple[int, int], float] = {}
    for on1, w_split in enumerate(split_prior(inside, params)):
        prefix: list[int] = []
        while True:
            rng = _Walk(prefix, params)
            tower = TowerModel(2, list(params.pass_p), params.knock_p)
            tower.restore([[1] * on1, [1] * (inside - on1)])
            out = tower.throw([0] * thrown, rng)
            key = (out.count(0), out.count(1))
            law[key] = law.get(key, 0.0) + w_split * rng.weight
            del prefix[rng.pos:]
            while prefix and prefix[-1] == 2:
                prefix.pop()
            if not prefix:
                break
            prefix[-1] += 1
    return law


@pytest.mark.parametrize(("thrown", "inside"), [(1, 0), (3, 0), (2, 2), (1, 4)])
def test_exit_law_equals_every_branch_of_the_tower_model(thrown: int, inside: int) -> None:
    params = TowerParams((0.85, 0.85), 0.2)  # a large knock probability makes knocks matter
    walked = _walk_exits(thrown, inside, params)
    law = exit_law(thrown, inside, params)
    for t in range(thrown + 1):
        for i in range(inside + 1):
            assert law.p[t, i] == pytest.approx(walked.get((t, i), 0.0), abs=1e-9)


def test_exit_law_sums_to_one_and_reports_its_truncation() -> None:
    law = exit_law(20, 30)
    assert law.p.sum() == pytest.approx(1.0, abs=1e-9)
    assert (law.p >= 0).all()
    assert law.dropped < 1e-9


def test_split_must_match_the_cubes_inside() -> None:
    with pytest.raises(ValueError, match="split"):
        exit_law(3, 2, TowerParams(), (0.5, 0.5))


# (attacker, defender, armies, defender armies, markers, tray before, tower inside)
CASES = [
    ("red", None, 3, 0, 0, {}, {}),
    ("red", "blue", 5, 3, 0, {"green": 1}, {"green": 4, "red": 2, "black": 3}),
    ("black", "yellow", 7, 5, 2, {"green": 2, "purple": 1}, {"green": 6, "yellow": 3}),
]


@pytest.mark.parametrize("case", CASES)
def test_battle_odds_match_a_seeded_monte_carlo_slice(case: tuple) -> None:
    att, dfd, armies, d_armies, markers, before, tower = case
    into = battle_cubes(att, armies, dfd, d_armies)
    odds = battle_odds(att, dfd, into, before, tower, farmers_fight=markers == 0)
    samples = 12_000  # a seeded slice; bench/bench_odds.py runs 10^6 throws per case
    sampled = battle_frequencies(att, dfd, into, before, tower, markers == 0, samples, seed=11)
    gap, z = worst_gap(odds.joint(), sampled, samples)
    # 12 000 throws: one standard deviation is at most 0.0046; 4.5 of them over ~50 cells
    assert z < 4.5, (gap, z)


def test_the_monte_carlo_check_catches_a_wrong_model() -> None:
    att, dfd, armies, d_armies, _, before, tower = CASES[1]
    into = battle_cubes(att, armies, dfd, d_armies)
    wrong = battle_odds(att, dfd, into, before, tower, params=TowerParams((0.75, 0.75)))
    sampled = battle_frequencies(att, dfd, into, before, tower, True, 30_000, seed=11)
    _, z = worst_gap(wrong.joint(), sampled, 30_000)
    assert z > 4.5


def test_outcomes_are_the_referee_s_names_and_sum_to_one() -> None:
    odds = battle_odds("red", "blue", battle_cubes("red", 4, "blue", 2), tower={"green": 3})
    assert set(odds.outcomes) == {"attacker", "defender", "undecided"}
    assert sum(odds.outcomes.values()) == pytest.approx(1.0)
    neutral = battle_odds("red", None, battle_cubes("red", 4))
    assert set(neutral.outcomes) == {"attacker", "neutral_holds"}
    revolt = revolt_odds("red", 3, 2, tower={"green": 2})
    assert set(revolt.outcomes) == {"player", "farmers"}
    # the armies law of each winner sums to the probability of its outcome
    for o, by_n in odds.armies.items():
        assert sum(by_n.values()) == pytest.approx(odds.outcomes[o])


def test_cubes_left_inside_are_conserved_in_expectation() -> None:
    into = battle_cubes("red", 6, "blue", 3)
    odds = battle_odds("red", "blue", into, tower={"green": 5, "red": 1})
    law = exit_law(9, 6)
    out = sum(t * law.p[t].sum() for t in range(10)) + sum(i * law.p[:, i].sum()
                                                            for i in range(7))
    assert sum(odds.stays_inside.values()) == pytest.approx(15 - out)


def test_a_full_tower_keeps_its_digits() -> None:
    # ledge 2 as counts (used above MOMENTS_UP_TO cubes inside) agrees with the moment basis
    assert abs(exit_law(8, 14, stable=True).p - exit_law(8, 14, stable=False).p).max() < 1e-10
    for inside in (50, 70):
        law = exit_law(5, inside)
        assert law.dropped < 1e-9 and (law.p >= 0).all()
    walked = _walk_exits(2, 2, TowerParams((0.85, 0.85), 0.2))  # (2, 3) walks 12 s of branches
    law = exit_law(2, 2, TowerParams((0.85, 0.85), 0.2), stable=True)
    for (t, i), p in walked.items():
        assert law.p[t, i] == pytest.approx(p, abs=1e-9)


def test_one_dp_gives_every_smaller_throw_and_the_model_table_fills_each_row() -> None:
    from shogun_tower.games.shogun.odds import exits

    params = TowerParams((0.8, 0.9), 0.1)
    exits.clear_cache()
    small = [exit_law(t, 9, params).p for t in range(6)]  # each its own DP, row grown each time
    exits.clear_cache()
    exit_law(12, 9, params)  # one DP of 12 cubes
    for t in range(6):
        assert abs(exit_law(t, 9, params).p - small[t]).max() < 1e-14
    exits.clear_cache()
    exits.exit_table(params, thrown=6, inside=4)
    assert {key[0]: len(row) for key, row in exits._ROWS.items() if key[1] == params} == {
        m: 7 for m in range(5)}
    # a law the table already holds is the same object, not a new DP
    assert exit_law(3, 4, params) is exits._ROWS[(4, params, None)][3]


def test_the_rules_verdict_table_grows_and_slices_to_the_engine_s_verdicts() -> None:
    from shogun_tower.games.shogun.odds import throws

    kind, names = ("battle", False, False), throws.BATTLE_OUTCOMES
    throws._VERDICTS.pop((kind, names), None)
    for shape in [(3, 2, 4), (20, 5, 3), (6, 17, 2), (3, 2, 4)]:
        verdicts, moved = throws._verdict_grid(kind, names, shape)
        direct_v, direct_m = throws._judge_grid(kind, names, shape)
        assert verdicts.shape == shape
        assert (verdicts == direct_v).all() and (moved == direct_m).all()
    assert throws._VERDICTS[(kind, names)][0].shape == (32, 32, 16)
