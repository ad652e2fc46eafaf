"""Ravensburger's Shogun (seed 003): the alpha-beta bot against the random bot.

200 seeded games (boards 1..200), the alpha-beta bot white on the even boards and red on the
odd ones, so neither the board nor the first move favours it. Target: it wins at least 95% of
them. Also random against random, for the speed of the bare engine. Speed is CPU time of this
process (time.process_time), not wall-clock: the machine is shared. Exits 1 when a target is
missed. `--games N` for a shorter run (not the figure).
"""

from __future__ import annotations

import argparse
import sys
import time

from shogun_tower.games.shogun2.bots import play_match

WIN_TARGET = 0.95


def run(games: int, kind: str) -> dict:
    wins = draws = plies = 0
    reasons: dict[str, int] = {}
    start = time.process_time()
    for seed in range(1, games + 1):
        searcher = "white" if seed % 2 == 0 else "red"
        other = "red" if searcher == "white" else "white"
        white, red = (kind, "random") if searcher == "white" else ("random", kind)
        state = play_match(seed, white, red)
        result = state.result or {}
        plies += state.plies
        if result.get("winner") == searcher:
            wins += 1
        elif result.get("winner") is None:
            draws += 1
        why = (result.get("reason") or "").replace(searcher, "SEARCHER").replace(other, "OTHER")
        reasons[why] = reasons.get(why, 0) + 1
    cpu = time.process_time() - start
    return {"games": games, "wins": wins, "draws": draws, "losses": games - wins - draws,
            "plies": plies, "cpu": cpu, "reasons": reasons}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per row (default: 200)")
    args = parser.parse_args()
    rows = [("alphabeta (depth 2) v random", run(args.games, "alphabeta")),
            ("random v random (the engine)", run(args.games, "random"))]
    print(f"{'match':32} {'games':>6} {'wins':>5} {'draws':>6} {'losses':>7} {'win rate':>9} "
          f"{'games/s':>8} {'moves/s':>8} {'moves/game':>10}")
    for label, r in rows:
        print(f"{label:32} {r['games']:6d} {r['wins']:5d} {r['draws']:6d} {r['losses']:7d} "
              f"{r['wins'] / r['games']:9.1%} {r['games'] / r['cpu']:8.2f} "
              f"{r['plies'] / r['cpu']:8.0f} {r['plies'] / r['games']:10.1f}")
    searcher = rows[0][1]
    print("how the alpha-beta games ended: " + "; ".join(
        f"{why} ×{n}" for why, n in sorted(searcher["reasons"].items(), key=lambda x: -x[1])))
    rate = searcher["wins"] / searcher["games"]
    ok = rate >= WIN_TARGET
    print(f"shogun2 alpha-beta against random: {rate:.1%} of {searcher['games']} games won "
          f"(target >= {WIN_TARGET:.0%}), {searcher['games'] / searcher['cpu']:.2f} games/s CPU "
          f"— {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
