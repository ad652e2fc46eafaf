"""Knizia's Samurai's `hint` at the scoring console. The console asks nobody to decide: it
records what happened at the table. Its hint is the standing, from the counts the console
already shows (`show`, the strip, the page): who would win if the game ended now, which one
capture would change that, and how near the end is. The ranking is the rules' own
(``ranking.rank``), never a second reading."""

from __future__ import annotations

from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.ranking import rank
from shogun_tower.games.knizia_samurai.state import SamuraiState, ordinal
from shogun_tower.i18n import _, and_list, join, or_list
from shogun_tower.words import capital, colour_word


def _who(players: tuple[str, ...] | list[str]) -> str:
    return and_list([colour_word(p) for p in players])


def hint(state: SamuraiState) -> list[str]:
    cat = catalogue()
    if state.over is not None and state.result is not None:
        if not state.result["winners"]:
            return [_("The game is over and nobody won, because {reason}.").format(
                reason=state.result["reason"])]
        return [_("The game is over: {players} won, because {reason}.").format(
            players=_who(state.result["winners"]), reason=state.result["reason"])]
    now = rank(state.captured)
    lines = [_("Nothing to decide at the console: type what happened at the table.")]
    if now.winners:
        lines.append(_("If the game ended now, {players} would win, because {reason}.").format(
            players=_who(now.winners), reason=now.reason))
    else:
        lines.append(_("If the game ended now, nobody would win, because {reason}.").format(
            reason=now.reason))
    on_board = state.on_board()
    for p in state.game.players:  # the one capture that makes a player the only winner
        wins = []
        for f in cat.figures:
            if on_board[f.name] <= 0:
                continue
            counts = {q: dict(c) for q, c in state.captured.items()}
            counts[p][f.name] += 1
            if rank(counts).winners == (p,) and now.winners != (p,):
                wins.append(f.said)
        if wins:
            line = _("{player} would be the only winner with one more {figures}.").format(
                player=colour_word(p), figures=or_list(wins))
            lines.append(capital(line))
    # Translators: one figure type's count in a list, e.g. "helmets 3"
    left = join([_("{figures} {n}").format(figures=f.said_plural, n=on_board[f.name])
                 for f in cat.figures])
    lines.append(_("The game ends when a type runs out (still on the board: {left}) or at the "
                   "{ordinal} tie (ties so far: {ties}).").format(
        left=left, ordinal=ordinal(cat.ties_that_end), ties=state.ties()))
    return lines
