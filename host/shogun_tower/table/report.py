"""The game report between seasons: victory points, coins and provinces of every player when a
season ends (after the winter's scoring, for a winter), as a table or one line."""

from __future__ import annotations

import io

from rich.console import Console as RichConsole
from rich.table import Table

from shogun_tower.games.shogun.narrate import season_word
from shogun_tower.games.shogun.rules import State
from shogun_tower.i18n import _, and_list, ngettext
from shogun_tower.table.console import Console
from shogun_tower.table.terminal import ANSI_RGB
from shogun_tower.words import colour_word


def season_label(state: State) -> str:
    return _("Year {year} · {season}").format(year=state.year,
                                              season=season_word(min(state.season, 3)))


def standing(state: State) -> list[dict]:
    """Each player's counters now, in the order of the victory points (most first)."""
    rows = []
    for p in state.game.players:
        owned = [x for x, o in state.owner.items() if o == p]
        rows.append({"player": p, "vp": state.vp[p], "coins": state.coins[p],
                     "rice": state.rice[p], "provinces": len(owned),
                     "armies": sum(state.armies[x] for x in owned)})
    return sorted(rows, key=lambda r: -r["vp"])


class SeasonReport:
    """Sums up each season as it ends (``season_ended``, a TableGame's ``on_season_end``) and
    the game when it is over (``finish``): a table, or one line with ``one_line``."""

    def __init__(self, console: Console, one_line: bool = False) -> None:
        self.console = console
        self.one_line = one_line
        self.lines: list[str] = []

    def season_ended(self, state: State, seasons: list[tuple[int, int]]) -> None:
        """``seasons``: those that closed in one command (autumn and winter may close
        together; the counters are then those after both)."""
        year = seasons[-1][0]
        names = and_list([season_word(min(n, 3)) for _y, n in seasons])
        self.report(state, _("Year {year} · {season}").format(year=year, season=names))

    def finish(self, state: State) -> None:
        self.report(state, _("{when} · game over").format(when=season_label(state)))

    def report(self, state: State, label: str) -> None:
        rows = standing(state)
        if self.one_line:
            text = _("{when}: {players}").format(when=label, players=" · ".join(
                # Translators: a player's standing, e.g. "red 24 VP 3 coins 10 provinces"
                _("{player} {vp} VP {coins} {provinces}").format(
                    player=colour_word(r["player"]), vp=r["vp"],
                    coins=ngettext("{n} coin", "{n} coins", r["coins"]).format(n=r["coins"]),
                    provinces=ngettext("{n} province", "{n} provinces",
                                       r["provinces"]).format(n=r["provinces"]))
                for r in rows))
            self.lines.append(text)
            self.console.say(text)
            return
        self.console.say(render_table(_("After {when}").format(when=label), rows,
                                      self.console.colour))


def render_table(title: str, rows: list[dict], colour: bool) -> str:
    """A players' table drawn by rich (colour only when the terminal has it and NO_COLOR is
    not set: the caller's ``colour`` already says so)."""
    table = Table(title=title, title_justify="left", title_style="bold")
    table.add_column(_("player"))
    # Translators: the headings of the players' table between seasons (short: 80 columns)
    for name in (_("VP"), _("coins"), _("Rice"), _("provinces"), _("armies")):
        table.add_column(name, justify="right")
    for r in rows:
        r_, g, b = ANSI_RGB.get(r["player"], (200, 200, 200))
        who = colour_word(r["player"])
        table.add_row(f"[rgb({r_},{g},{b})]{who}[/]" if colour else who,
                      str(r["vp"]), str(r["coins"]), str(r["rice"]), str(r["provinces"]),
                      str(r["armies"]))
    out = io.StringIO()
    RichConsole(file=out, width=80, color_system="truecolor" if colour else None,
                force_terminal=colour, no_color=not colour).print(table)
    return "\n".join(line.rstrip() for line in out.getvalue().rstrip("\n").splitlines())
