"""A game of Samurai as the scoring console keeps it: who has captured which figures, which
left the board on a tie, and whether the game has ended. The hex map is not modelled (the seed
has no map): the players tell the console each capture or tie removal, or the tiles next to a
surrounded figure and the console adjudicates.

Pure: no I/O, no clock, no randomness. ``SamuraiState.apply(command)`` checks the whole command
before it changes anything and returns the events, as Shogun's ``State.apply`` does, so the
journal (``SamuraiJournal``) gives undo, resume and replay.

Commands (JSON), one per entry at the table:
- ``{"capture": "helmet", "player": "blue"}``: blue takes a helmet;
- ``{"tie": "buddha"}``: a Buddha leaves the board on a tie;
- ``{"surrounded": "rice", "tiles": [["green", "rice", 3], ["blue", "samurai", 2]]}``: the
  console adjudicates (``capture.adjudicate``) and records the capture or the tie;
- ``{"figures": [command, command, ...]}`` (engine 2): the figures one tile surrounds at once,
  each one of the three commands above (the two figures of a city, or figures of several
  places). They leave the board together, and the end is checked once all have left (rule K11).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from shogun_tower.errors import RulesError, ShogunError
from shogun_tower.games.knizia_samurai.capture import Verdict, adjudicate, make_tile
from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.ranking import rank
from shogun_tower.i18n import _, and_list, language
from shogun_tower.journal.files import Journal

NAME = "samurai"  # the game's name in its journals' header (their format: never change it)
# This engine's version, in every new game and journal. 2: an entry may hold every figure one
# tile surrounds (``figures``), and nobody wins when nobody has a strict most (rule K12).
# Journals of engine 1 load and go on with today's rules (their entries are all engine 2's).
ENGINE = 2
ENGINES = (1, 2)
KINDS = ("capture", "tie", "surrounded")


@dataclass(frozen=True)
class SamuraiGame:
    """What never changes during a game: the players, in their order at the table."""

    players: tuple[str, ...]
    engine: int = ENGINE
    name: str = NAME

    @staticmethod
    def create(players: int | str | list[str] | tuple[str, ...] = 4) -> SamuraiGame:
        cat = catalogue()
        if isinstance(players, str):
            players = int(players) if players.strip().isdigit() else \
                [c.strip().lower() for c in players.split(",") if c.strip()]
        if isinstance(players, int):
            if not cat.fewest <= players <= cat.most:
                raise ShogunError(_("--players {players}: Samurai is for {fewest} to {most} "
                                    "players").format(players=players, fewest=cat.fewest,
                                                      most=cat.most))
            return SamuraiGame(cat.colours[:players])
        colours = tuple(players)
        bad = [c for c in colours if c not in cat.colours]
        if bad:
            raise ShogunError(_("--players: {bad} is not a Samurai colour; use {colours} or "
                                "a number {fewest}-{most}").format(
                bad=", ".join(bad), colours=", ".join(cat.colours), fewest=cat.fewest,
                most=cat.most))
        if len(set(colours)) != len(colours):
            raise ShogunError(_("--players: a colour is named twice; name each player once"))
        if not cat.fewest <= len(colours) <= cat.most:
            raise ShogunError(_("--players: Samurai is for {fewest} to {most} players, not "
                                "{count}").format(fewest=cat.fewest, most=cat.most,
                                                  count=len(colours)))
        return SamuraiGame(colours)

    @property
    def figures_per_type(self) -> int:
        return catalogue().figures_per_type[len(self.players)]

    def to_json(self) -> dict:
        return {"name": NAME, "players": list(self.players), "engine": self.engine}

    @staticmethod
    def from_json(d: dict) -> SamuraiGame:
        if not isinstance(d, dict) or d.get("name") != NAME:
            raise ShogunError(_("not a Samurai game"))
        if d.get("engine") not in ENGINES:
            raise ShogunError(_("Samurai engine {engine!r}; this console plays engines "
                                "{engines}: update shogun-tower").format(
                engine=d.get("engine"), engines=", ".join(map(str, ENGINES))))
        game = SamuraiGame.create(list(d.get("players", [])))
        return SamuraiGame(game.players, engine=d["engine"])


class SamuraiState:
    """The figures on and off the board. Change it only through ``apply``."""

    def __init__(self, game: SamuraiGame) -> None:
        types = catalogue().types
        self.game = game
        self.captured = {p: dict.fromkeys(types, 0) for p in game.players}
        self.removed = dict.fromkeys(types, 0)  # left the board on a tie
        self.over: dict | None = None   # why the game ended: {"rule", "figure", "text"}
        self.result: dict | None = None  # the ranking, once over (ranking.Result.to_json)
        self.entries = 0                 # captures and tie removals so far

    @staticmethod
    def new(game: SamuraiGame) -> SamuraiState:
        return SamuraiState(game)

    def on_board(self) -> dict[str, int]:
        n = self.game.figures_per_type
        return {t: n - self.removed[t] - sum(c[t] for c in self.captured.values())
                for t in self.removed}

    def ties(self) -> int:
        return sum(self.removed.values())

    def to_json(self) -> dict:
        return {"game": self.game.to_json(), "captured": copy.deepcopy(self.captured),
                "removed": dict(self.removed), "on_board": self.on_board(),
                "ties": self.ties(), "over": self.over, "result": self.result,
                "entries": self.entries}

    def apply(self, command: dict) -> list[dict]:
        """Apply one entry; RulesError (nothing changed) if it is refused."""
        if self.over is not None:
            raise RulesError("", _("the game is over ({reason}); undo the last entry if it "
                                   "was wrong").format(reason=self.over["text"]))
        if not isinstance(command, dict):
            raise RulesError("", "a command is a JSON object")
        if "figures" in command:
            parts = command["figures"]
            if len(command) != 1 or not isinstance(parts, list) or not parts:
                raise RulesError("", _("figures: a list of capture, tie or surrounded "
                                       "commands, the figures one tile surrounds"))
        else:
            parts = [command]
        # every figure is checked, against the figures still on the board once the ones
        # before it in the same entry have left, before anything changes
        left = self.on_board()
        outcomes = []
        for part in parts:
            figure, winner, verdict = self._outcome(part, left)
            left[figure] -= 1
            outcomes.append((figure, winner, verdict))
        self.entries += 1
        events = []
        for figure, winner, verdict in outcomes:
            if winner is None:
                self.removed[figure] += 1
                event = {"event": "removed", "figure": figure}
            else:
                self.captured[winner][figure] += 1
                event = {"event": "captured", "figure": figure, "player": winner}
            if verdict is not None:
                event["influence"] = verdict.influence
                event["text"] = verdict.text(catalogue().figure(figure).said)
            events.append(event)
        # rule K11: the figures of one tile leave together; the end is checked after them all
        end = end_reason(self.on_board(), self.ties(), [f for f, _, _ in outcomes])
        if end is not None:
            self.over = end
            self.result = rank(self.captured).to_json()
            events.append({"event": "game_over", **end, "result": self.result})
        return events

    def _outcome(self, command: object, left: dict[str, int]
                 ) -> tuple[str, str | None, Verdict | None]:
        """One figure leaving the board: its type, who takes it (None: a tie) and the verdict
        when the console adjudicated; RulesError if it cannot be."""
        cat = catalogue()
        if not isinstance(command, dict):
            raise RulesError("", "a command is a JSON object")
        kinds = [k for k in KINDS if k in command]
        if len(kinds) != 1:
            raise RulesError("", _("a command is one of capture, tie or surrounded"))
        figure = command[kinds[0]]
        if figure not in cat.types:
            raise RulesError("", _("no figure type {figure!r}; the types are {types}").format(
                figure=figure, types=", ".join(cat.types)))
        if left[figure] <= 0:
            f = cat.figure(figure)
            raise RulesError("", _("no {figure} is left on the board").format(figure=f.said)
                             if left[figure] == self.on_board()[figure] else
                             _("this entry takes more {figures} than are left on the board "
                               "({count})").format(figures=f.said_plural,
                                                   count=self.on_board()[figure]))
        if kinds[0] == "capture":
            player = command.get("player")
            if player not in self.game.players:
                raise RulesError("", _("{player!r} is not at this table; players are "
                                       "{players}").format(player=player,
                                                           players=", ".join(self.game.players)))
            return figure, player, None
        if kinds[0] == "tie":
            return figure, None, None
        raw = command.get("tiles")
        if not isinstance(raw, list) or not all(isinstance(t, list) and len(t) == 3
                                                for t in raw):
            raise RulesError("", _("tiles: a list of [player, kind, value]"))
        try:
            tiles = [make_tile(p, k, v, self.game.players) for p, k, v in raw]
            verdict = adjudicate(tiles, figure)
        except ShogunError as err:
            raise RulesError("", str(err)) from None
        return figure, verdict.winner, verdict


def end_reason(on_board: dict[str, int], ties: int,
               last_figures: str | list[str] | None = None) -> dict | None:
    """Why the game has ended (rule K11, rulebook 004 "Fin du jeu"), or None: the last figure of a
    type has left the board, or a 4th figure has left it on a tie. ``last_figures``: the types
    of the figures that just left (one tile may take several at once): the types they emptied
    are named, else every type that is gone."""
    cat = catalogue()
    if isinstance(last_figures, str):
        last_figures = [last_figures]
    last = list(dict.fromkeys(last_figures or ()))
    gone = [t for t in cat.types if on_board[t] <= 0]
    if gone:
        # the types this entry emptied (they left together: named in the box's order)
        emptied = [t for t in gone if t in last] or gone
        f = cat.figure(emptied[0])
        if len(emptied) == 1:
            return {"rule": "last", "figure": f.name,
                    "text": _("the last {figure} has left the board").format(figure=f.said)}
        lasts = [_("the last {figure}").format(figure=cat.figure(t).said) for t in emptied]
        # Translators: {figures} is a list, "the last helmet and the last Buddha"
        return {"rule": "last", "figure": f.name, "figures": emptied,
                "text": _("{figures} have left the board").format(figures=and_list(lasts))}
    if ties >= cat.ties_that_end:
        return {"rule": "ties", "figure": last[-1] if last else None,
                "text": _("a {ordinal} figure has left the board on a tie").format(
                    ordinal=ordinal(cat.ties_that_end))}
    return None


def ordinal(n: int) -> str:
    """``4th`` in the players' language (CLDR's ordinal rule, through Babel)."""
    from babel import Locale
    rule = Locale.parse(language()).ordinal_form(n)
    # Translators: an ordinal by its CLDR category: one (1st), two (2nd), few (3rd), other (4th)
    forms = {"one": _("{n}st"), "two": _("{n}nd"), "few": _("{n}rd"), "other": _("{n}th")}
    return forms.get(rule, forms["other"]).format(n=n)


class SamuraiJournal(Journal):
    """Samurai's journal: Shogun's format, digests, undo and resume, this game's state."""

    game_type = SamuraiGame
    state_type = SamuraiState

    def checkpoint(self, state: SamuraiState, version: int) -> object:  # type: ignore[override]
        return {"captured": state.captured, "removed": state.removed, "over": state.over}
