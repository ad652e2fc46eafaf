"""Rules-engine benchmark: full 5-player games between heuristic bots per second on one core,
tower throws from the tower model. Target: at least 20 games per second.

Tournament: 500 seeded 5-player games, 1 OddsBot against 4 HeuristicBot, the
OddsBot's seat rotated (seat = game number mod 5). Goals: OddsBot wins >= 40% of the games
(shared victories count as a win for each winner), the winner's VP >= 50 on average, >= 20
games/s. CPU time (time.process_time). `--games N` plays fewer.
"""

from __future__ import annotations

import sys
import time

from shogun_tower.games.shogun.bots import HeuristicBot, OddsBot, RandomBot
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.runner import play_game

TARGET = 20.0


def run(players: int, bot, games: int) -> tuple[float, int]:  # noqa: ANN001
    commands = 0
    t0 = time.process_time()
    for seed in range(games):
        game = Game.create(players, seed=seed)
        record: list[dict] = []
        play_game(game, {p: bot(seed * 10 + i) for i, p in enumerate(game.players)},
                  tower_seed=seed, record=record)
        commands += len(record)
    return games / (time.process_time() - t0), commands // games


def tournament(games: int) -> dict:
    wins = 0
    winner_vp: list[int] = []
    odds_vp: list[int] = []
    heur_vp: list[int] = []
    buildings = {"odds": 0, "heuristic": 0}
    t0 = time.process_time()
    for seed in range(games):
        game = Game.create(5, seed=1000 + seed)
        seat = seed % 5
        bots = {p: (OddsBot if i == seat else HeuristicBot)(seed * 10 + i)
                for i, p in enumerate(game.players)}
        s = play_game(game, bots, tower_seed=1000 + seed)
        result = s.result
        assert result is not None
        me = game.players[seat]
        wins += me in result["winners"]
        winner_vp.append(result["vp"][result["winners"][0]])
        odds_vp.append(result["vp"][me])
        heur_vp += [v for p, v in result["vp"].items() if p != me]
        for prov, owner in s.owner.items():
            if owner is not None:
                buildings["odds" if owner == me else "heuristic"] += len(s.buildings[prov])
    rate = games / (time.process_time() - t0)
    return {"games": games, "win_share": wins / games, "winner_vp": sum(winner_vp) / games,
            "odds_vp": sum(odds_vp) / games, "heuristic_vp": sum(heur_vp) / len(heur_vp),
            "odds_buildings": buildings["odds"] / games,
            "heuristic_buildings": buildings["heuristic"] / (4 * games), "games_per_s": rate}


def main() -> int:
    games = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else 500
    rows = [("5 players, heuristic bots", *run(5, HeuristicBot, 200)),
            ("4 players, heuristic bots", *run(4, HeuristicBot, 100)),
            ("3 players, random bots", *run(3, RandomBot, 100))]
    print(f"{'benchmark':32} {'games/s':>9} {'commands/game':>14}")
    for name, rate, cmds in rows:
        print(f"{name:32} {rate:9.1f} {cmds:14d}")
    ok = rows[0][1] >= TARGET
    print(f"target: >= {TARGET:.0f} games/s (5 players, heuristic): {'met' if ok else 'MISSED'}")
    t = tournament(games)
    print(f"\ntournament: {t['games']} seeded 5-player games, 1 OddsBot v 4 HeuristicBot, "
          f"seat rotated")
    print(f"{'OddsBot wins':34} {100 * t['win_share']:7.1f} %   (goal >= 40; fair share 20)")
    print(f"{'winner VP, mean':34} {t['winner_vp']:7.1f}     (goal >= 50)")
    print(f"{'OddsBot VP, mean':34} {t['odds_vp']:7.1f}")
    print(f"{'HeuristicBot VP, mean':34} {t['heuristic_vp']:7.1f}")
    print(f"{'buildings at the end: OddsBot':34} {t['odds_buildings']:7.1f}")
    print(f"{'buildings at the end: HeuristicBot':34} {t['heuristic_buildings']:7.1f}")
    print(f"{'games/s (CPU)':34} {t['games_per_s']:7.1f}     (goal >= 20)")
    goals = (t["win_share"] >= 0.4, t["winner_vp"] >= 50, t["games_per_s"] >= 20)
    print("goals: " + ", ".join(f"{name} {'met' if g else 'MISSED'}" for name, g in
                                zip(("wins", "winner VP", "games/s"), goals, strict=True)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
