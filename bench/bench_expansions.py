"""Many bot games with every subset of the four expansions: after every command
every component of the box is conserved (``rules/expansions/invariants.py``: cubes, buildings,
revolt markers, cards, courtiers, favours, Samurai stacks, leaders and statues, chamber tiles and
markers); a table of games, commands and CPU time per subset. ``--games N`` per subset (default
200: 3 200 games over the 16 subsets) and ``--all-four N`` more games with all four expansions on
(default 2 000)."""

from __future__ import annotations

import argparse
import sys
import time

from shogun_tower.games.shogun.bots import HeuristicBot, RandomBot
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.invariants import problems
from shogun_tower.games.shogun.rules.expansions import EXPANSION_NAMES, subsets
from shogun_tower.games.shogun.runner import play_game


def run(expansions: tuple[str, ...], games: int) -> tuple[int, int, float, list[str]]:
    failures: list[str] = []
    commands = 0
    t0 = time.process_time()  # CPU time of this process: the machine is shared
    for seed in range(games):
        game = Game.create(3 + seed % 3, seed=seed, setup="draft" if seed % 2 else "fixed",
                           expansions=expansions)
        kinds = (HeuristicBot, RandomBot)
        bots = {p: kinds[(i + seed) % 2](seed * 10 + i) for i, p in enumerate(game.players)}
        count = [0]

        def check(s: State, cmd: dict, seed: int = seed, count: list[int] = count) -> None:
            count[0] += 1
            bad = problems(s)
            if bad:
                raise AssertionError(f"seed {seed}, command {count[0]} {cmd}: {bad[0]}")

        try:
            end = play_game(game, bots, tower_seed=seed, on_command=check)
            if end.phase != "over":
                failures.append(f"seed {seed}: stopped in phase {end.phase}")
        except AssertionError as err:
            failures.append(str(err))
        commands += count[0]
    return games, commands, time.process_time() - t0, failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200, help="games per subset (default: 200)")
    ap.add_argument("--all-four", type=int, default=2000,
                    help="games with all four expansions on, after the subsets (default: 2000)")
    args = ap.parse_args(argv)
    print(f"{'expansions':31} {'games':>6} {'commands':>9} {'CPU s':>7} {'games/s':>8} "
          f"{'broken':>7}")
    broken = 0
    runs = [(subset, args.games) for subset in subsets()]
    if args.all_four:
        runs.append((EXPANSION_NAMES, args.all_four))
    total = 0
    for subset, n in runs:
        games, commands, cpu, failures = run(subset, n)
        total += games
        broken += len(failures)
        print(f"{'+'.join(subset) or 'base':31} {games:6d} {commands:9d} {cpu:7.1f} "
              f"{games / cpu:8.1f} {len(failures):7d}")
        for f in failures[:3]:
            print(f"  {f}")
    print(f"conservation after every command in {total} games:",
          "held" if not broken else f"{broken} BROKEN")
    return 0 if not broken else 1


if __name__ == "__main__":
    sys.exit(main())
