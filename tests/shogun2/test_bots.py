"""The bots: a short seeded slice of the benchmark (bench/bench_shogun2.py plays 200 games),
and the bots' moves are always legal."""

from __future__ import annotations

from shogun_tower.games.shogun2 import Game, State
from shogun_tower.games.shogun2.bots import AlphaBetaBot, RandomBot, play_match
from shogun_tower.games.shogun2.game import load_position


def test_alphabeta_beats_random_on_a_seeded_slice() -> None:
    won = 0
    for seed in range(1, 7):
        searcher = "white" if seed % 2 == 0 else "red"
        white, red = ("alphabeta", "random") if searcher == "white" else ("random", "alphabeta")
        state = play_match(seed, white, red)
        won += state.result["winner"] == searcher
    assert won == 6


def test_the_same_seeds_play_the_same_game() -> None:
    a, b = play_match(3, "random", "random"), play_match(3, "random", "random")
    assert a.to_json() == b.to_json() and a.result is not None


def test_alphabeta_takes_the_piece_that_ends_the_game() -> None:
    # white's 2 on g5 can take red's piece on g7: red is left with its Shogun and one piece
    s = load_position(Game(seed=1), "7s1/6p1p1/8/6P21/8/8/8/P1P12S1P12 w")
    move = AlphaBetaBot(seed=4).choose(s)
    assert str(move) == "g5xg7"


def test_bots_play_only_legal_moves() -> None:
    s = State.new(Game(seed=8))
    bots = {"white": AlphaBetaBot(seed=1), "red": RandomBot(seed=2)}
    while not s.result and s.plies < 40:
        move = bots[s.to_move].choose(s)
        assert move in s.legal_moves()
        s.apply({"move": str(move)})
