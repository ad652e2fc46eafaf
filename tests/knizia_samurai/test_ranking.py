"""The end rules (rulebook 004, "Les points"): the rulebook's two examples with their full ranking,
each rule step, and a property test that the ranking is total and consistent."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from shogun_tower.games.knizia_samurai.ranking import rank

TYPES = ("helmet", "buddha", "rice")


def counts(**players: tuple[int, int, int]) -> dict[str, dict[str, int]]:
    return {p: dict(zip(TYPES, c, strict=True)) for p, c in players.items()}


def places(result) -> list[tuple[str, int, int]]:
    return [(s.player, s.place, s.others) for s in result.ranking]


def test_example_1_green_6_blue_5_red_4_and_yellow_lost() -> None:
    r = rank(counts(green=(3, 3, 4), blue=(5, 3, 2), red=(1, 4, 3), yellow=(4, 3, 3)))
    assert r.winners == ("green",)
    assert r.rule == 3
    assert places(r) == [("green", 1, 6), ("blue", 2, 5), ("red", 3, 4), ("yellow", 4, 10)]
    assert [s.most_of for s in r.ranking] == [("rice",), ("helmet",), ("buddha",), ()]
    assert "6 (against blue 5, red 4)" in r.reason


def test_example_2_red_9_against_yellow_8_blue_and_green_lost() -> None:
    r = rank(counts(green=(2, 4, 4), blue=(4, 3, 4), red=(6, 1, 2), yellow=(0, 5, 3)))
    assert r.winners == ("red",)
    assert r.rule == 4
    assert [(s.player, s.place, s.others, s.total) for s in r.ranking] == [
        ("red", 1, 3, 9), ("yellow", 2, 3, 8), ("blue", 3, 11, 11), ("green", 4, 10, 10)]
    # blue and green have more figures than both, and still lost: no strict most of a type
    assert all(s.tier == 0 for s in r.ranking[2:])
    assert "in all red has 9 against yellow 8" in r.reason


def test_rule_1_the_most_of_two_types_wins_at_once() -> None:
    r = rank(counts(red=(5, 5, 0), blue=(1, 1, 9)))
    assert r.winners == ("red",) and r.rule == 1
    assert r.ranking[0].most_of == ("helmet", "buddha")


def test_rule_2_the_only_player_with_a_strict_most_wins() -> None:
    # rice and Buddhas tied at the top: only blue holds a strict most (helmets)
    r = rank(counts(red=(1, 4, 4), blue=(3, 1, 1), green=(0, 4, 4)))
    assert r.winners == ("blue",) and r.rule == 2


def test_rule_5_a_shared_victory() -> None:
    r = rank(counts(red=(4, 1, 2), yellow=(1, 4, 2), blue=(0, 0, 3)))
    # red: most helmets, 3 others, 7 in all; yellow: most Buddhas, 3 others, 7 in all;
    # blue: most rice fields, 0 others
    assert r.winners == ("red", "yellow") and r.rule == 5
    assert [s.place for s in r.ranking] == [1, 1, 3]


def test_nobody_with_a_strict_most_nobody_wins() -> None:
    """Rule K12: "Les joueurs qui n'ont aucun plus fort total ont déjà perdu" -- with every type
    tied at the top that is every player, so nobody wins, however many figures each has."""
    r = rank(counts(red=(2, 2, 2), blue=(2, 2, 2), green=(1, 1, 1)))
    assert r.winners == () and r.rule == 0
    assert "a player without a most has already lost" in r.reason
    assert [s.place for s in r.ranking] == [1, 1, 3]  # still ordered, by all their figures
    r = rank(counts(red=(3, 3, 0), blue=(3, 0, 3), green=(0, 3, 3)))
    assert r.winners == () and r.rule == 0


figures = st.tuples(*[st.integers(0, 13)] * 3)


@settings(max_examples=300, deadline=None)
@given(st.lists(figures, min_size=2, max_size=4))
def test_the_ranking_is_total_and_consistent(rows: list[tuple[int, int, int]]) -> None:
    players = ["red", "yellow", "blue", "green"][:len(rows)]
    c = {p: dict(zip(TYPES, row, strict=True)) for p, row in zip(players, rows, strict=True)}
    r = rank(c)
    # total: every player once, places from 1, a place n means n-1 players ahead
    assert sorted(s.player for s in r.ranking) == sorted(players)
    for i, s in enumerate(r.ranking):
        assert s.place == 1 + sum(t.key() > s.key() for t in r.ranking)
        assert s.place <= i + 1
    # consistent: the winners are exactly the first place, unless nobody has a strict most
    # (then nobody wins: rule K12); the order follows the keys
    if any(s.most_of for s in r.ranking):
        assert set(r.winners) == {s.player for s in r.ranking if s.place == 1} and r.winners
    else:
        assert r.winners == () and r.rule == 0
    for a, b in itertools.pairwise(r.ranking):
        assert a.key() >= b.key()
        assert (a.place == b.place) == (a.key() == b.key())
    # the rules' own claims: a strict most of 2+ types wins alone; a player without a strict
    # most never finishes ahead of one who has one
    for s in r.ranking:
        if len(s.most_of) >= 2:
            assert r.winners == (s.player,)
        for t in r.ranking:
            if s.most_of and not t.most_of:
                assert s.place < t.place
    # the order of the players as given changes nothing
    again = rank(dict(reversed(list(c.items()))))
    assert {s.player: s.place for s in again.ranking} == {s.player: s.place for s in r.ranking}
    assert set(again.winners) == set(r.winners) and again.rule == r.rule
