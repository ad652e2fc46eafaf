"""Rules-engine benchmark: full 5-player games between heuristic bots per second on one core,
tower throws from the tower model. Target: at least 20 games per second."""

from __future__ import annotations

import sys
import time

from shogun_tower.rules import Game
from shogun_tower.rules.bots import HeuristicBot, RandomBot
from shogun_tower.rules.runner import play_game

TARGET = 20.0


def run(players: int, bot, games: int) -> tuple[float, int]:  # noqa: ANN001
    commands = 0
    t0 = time.perf_counter()
    for seed in range(games):
        game = Game.create(players, seed=seed)
        record: list[dict] = []
        play_game(game, {p: bot(seed * 10 + i) for i, p in enumerate(game.players)},
                  tower_seed=seed, record=record)
        commands += len(record)
    return games / (time.perf_counter() - t0), commands // games


def main() -> int:
    rows = [("5 players, heuristic bots", *run(5, HeuristicBot, 200)),
            ("4 players, heuristic bots", *run(4, HeuristicBot, 100)),
            ("3 players, random bots", *run(3, RandomBot, 100))]
    print(f"{'benchmark':32} {'games/s':>9} {'commands/game':>14}")
    for name, rate, cmds in rows:
        print(f"{name:32} {rate:9.1f} {cmds:14d}")
    ok = rows[0][1] >= TARGET
    print(f"target: >= {TARGET:.0f} games/s (5 players, heuristic): {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
