"""Knizia's Samurai's `hint` at the scoring console. The console asks nobody to decide: it
records what happened at the table. Its hint is the standing, from the counts the console
already shows (`show`, the strip, the page): who would win if the game ended now, which one
capture would change that, and how near the end is. The ranking is the rules' own
(``ranking.rank``), never a second reading."""

from __future__ import annotations

from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.ranking import rank
from shogun_tower.games.knizia_samurai.state import SamuraiState


def _who(players: tuple[str, ...] | list[str]) -> str:
    return " and ".join(players)


def hint(state: SamuraiState) -> list[str]:
    cat = catalogue()
    if state.over is not None and state.result is not None:
        return [f"The game is over: {_who(state.result['winners'])} won, because "
                f"{state.result['reason']}."]
    now = rank(state.captured)
    lines = ["Nothing to decide at the console: type what happened at the table.",
             f"If the game ended now, {_who(now.winners)} would win, because {now.reason}."]
    on_board = state.on_board()
    for p in state.game.players:  # the one capture that makes a player the only winner
        wins = []
        for f in cat.figures:
            if on_board[f.name] <= 0:
                continue
            counts = {q: dict(c) for q, c in state.captured.items()}
            counts[p][f.name] += 1
            if rank(counts).winners == (p,) and now.winners != (p,):
                wins.append(f.title)
        if wins:
            lines.append(f"{p.capitalize()} would be the only winner with one more "
                         f"{' or '.join(wins)}.")
    left = ", ".join(f"{f.plural} {on_board[f.name]}" for f in cat.figures)
    lines.append(f"The game ends when a type runs out (still on the board: {left}) or at the "
                 f"{cat.ties_that_end}th tie (ties so far: {state.ties()}).")
    return lines
