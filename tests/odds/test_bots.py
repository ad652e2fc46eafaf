"""OddsBot: a short seeded slice of the tournament in bench/bench_rules.py."""

from __future__ import annotations

from shogun_tower.games.shogun.bots import BOTS, HeuristicBot, OddsBot
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.rules.core.constants import ARMIES_PER_PLAYER, FARMER_CUBES
from shogun_tower.games.shogun.runner import play_game


def test_odds_bot_beats_its_fair_share_over_a_seeded_slice() -> None:
    wins = 0
    for seed in range(20):
        game = Game.create(5, seed=2000 + seed)
        seat = seed % 5
        bots = {p: (OddsBot if i == seat else HeuristicBot)(seed * 10 + i)
                for i, p in enumerate(game.players)}
        s = play_game(game, bots, tower_seed=2000 + seed)
        assert s.result is not None
        wins += game.players[seat] in s.result["winners"]
        for colour, where in s.cube_count().items():  # every cube still accounted for
            assert sum(where.values()) == (FARMER_CUBES if colour == "green"
                                           else ARMIES_PER_PLAYER)
    assert wins >= 8  # a fair share is 4 of 20 (500 games in bench/bench_rules.py: 55%)


def test_heuristic_bots_build() -> None:
    game = Game.create(5, seed=3)
    s = play_game(game, {p: HeuristicBot(i) for i, p in enumerate(game.players)}, tower_seed=3)
    built = sum(len(b) for p, b in s.buildings.items() if s.owner[p] is not None)
    assert built >= 5 * 8  # they used to keep about 6 each


def test_odds_bot_is_listed() -> None:
    assert BOTS["odds"] is OddsBot
