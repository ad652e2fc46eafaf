"""A game of Samurai as the scoring console keeps it: who has captured which figures, which
left the board on a tie, and whether the game has ended. The hex map is not modelled (the seed
has no map): the players tell the console each capture or tie removal, or the tiles next to a
surrounded figure and the console adjudicates.

Pure: no I/O, no clock, no randomness. ``SamuraiState.apply(command)`` checks the whole command
before it changes anything and returns the events, as Shogun's ``State.apply`` does, so the
journal (``SamuraiJournal``) gives undo, resume and replay.

Commands (JSON):
- ``{"capture": "helmet", "player": "blue"}``: blue takes a helmet;
- ``{"tie": "buddha"}``: a Buddha leaves the board on a tie;
- ``{"surrounded": "rice", "tiles": [["green", "rice", 3], ["blue", "samurai", 2]]}``: the
  console adjudicates (``capture.adjudicate``) and records the capture or the tie.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from shogun_tower.errors import RulesError, ShogunError
from shogun_tower.games.knizia_samurai.capture import adjudicate, make_tile
from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.ranking import rank
from shogun_tower.journal.files import Journal

NAME = "samurai"  # the game's name in its journals' header (their format: never change it)
ENGINE = 1  # this engine's version, in every game and journal


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
                raise ShogunError(f"--players {players}: Samurai is for {cat.fewest} to "
                                  f"{cat.most} players")
            return SamuraiGame(cat.colours[:players])
        colours = tuple(players)
        bad = [c for c in colours if c not in cat.colours]
        if bad:
            raise ShogunError(f"--players: {', '.join(bad)} is not a Samurai colour; use "
                              f"{', '.join(cat.colours)} or a number {cat.fewest}-{cat.most}")
        if len(set(colours)) != len(colours):
            raise ShogunError("--players: a colour is named twice; name each player once")
        if not cat.fewest <= len(colours) <= cat.most:
            raise ShogunError(f"--players: Samurai is for {cat.fewest} to {cat.most} players, "
                              f"not {len(colours)}")
        return SamuraiGame(colours)

    @property
    def figures_per_type(self) -> int:
        return catalogue().figures_per_type[len(self.players)]

    def to_json(self) -> dict:
        return {"name": NAME, "players": list(self.players), "engine": self.engine}

    @staticmethod
    def from_json(d: dict) -> SamuraiGame:
        if not isinstance(d, dict) or d.get("name") != NAME:
            raise ShogunError("not a Samurai game")
        if d.get("engine") != ENGINE:
            raise ShogunError(f"Samurai engine {d.get('engine')!r}; this console plays engine "
                              f"{ENGINE}: update shogun-tower")
        return SamuraiGame.create(list(d.get("players", [])))


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
        """Apply one command; RulesError (nothing changed) if it is refused."""
        cat = catalogue()
        if self.over is not None:
            raise RulesError("", f"the game is over ({self.over['text']}); undo the last entry "
                                 f"if it was wrong")
        if not isinstance(command, dict):
            raise RulesError("", "a command is a JSON object")
        kinds = [k for k in ("capture", "tie", "surrounded") if k in command]
        if len(kinds) != 1:
            raise RulesError("", "a command is one of capture, tie or surrounded")
        figure = command[kinds[0]]
        if figure not in cat.types:
            raise RulesError("", f"no figure type {figure!r}; the types are "
                                 f"{', '.join(cat.types)}")
        title = cat.figure(figure).title
        if self.on_board()[figure] <= 0:
            raise RulesError("", f"no {title} is left on the board")
        verdict = None
        if kinds[0] == "capture":
            player = command.get("player")
            if player not in self.game.players:
                raise RulesError("", f"{player!r} is not at this table; players are "
                                     f"{', '.join(self.game.players)}")
            winner: str | None = player
        elif kinds[0] == "tie":
            winner = None
        else:
            raw = command.get("tiles")
            if not isinstance(raw, list) or not all(isinstance(t, list) and len(t) == 3
                                                    for t in raw):
                raise RulesError("", "tiles: a list of [player, kind, value]")
            try:
                tiles = [make_tile(p, k, v, self.game.players) for p, k, v in raw]
                verdict = adjudicate(tiles, figure)
            except ShogunError as err:
                raise RulesError("", str(err)) from None
            winner = verdict.winner
        # checked: now the state changes
        self.entries += 1
        if winner is None:
            self.removed[figure] += 1
            event = {"event": "removed", "figure": figure}
        else:
            self.captured[winner][figure] += 1
            event = {"event": "captured", "figure": figure, "player": winner}
        if verdict is not None:
            event["influence"] = verdict.influence
            event["text"] = verdict.text(title)
        events = [event]
        end = end_reason(self.on_board(), self.ties(), figure)
        if end is not None:
            self.over = end
            self.result = rank(self.captured).to_json()
            events.append({"event": "game_over", **end, "result": self.result})
        return events


def end_reason(on_board: dict[str, int], ties: int, last_figure: str | None = None
               ) -> dict | None:
    """Why the game has ended (rulebook 004, "Fin du jeu"), or None: the last figure of a type has
    left the board, or the 4th figure has left it on a tie. ``last_figure``: the type of the
    figure that just left, named first when both hold."""
    cat = catalogue()
    gone = [t for t in cat.types if on_board[t] <= 0]
    if last_figure in gone:
        gone.remove(last_figure)
        gone.insert(0, last_figure)
    if gone:
        f = cat.figure(gone[0])
        return {"rule": "last", "figure": f.name,
                "text": f"the last {f.title} has left the board"}
    if ties >= cat.ties_that_end:
        return {"rule": "ties", "figure": last_figure,
                "text": f"a {_ordinal(cat.ties_that_end)} figure has left the board on a tie"}
    return None


def _ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")


class SamuraiJournal(Journal):
    """Samurai's journal: Shogun's format, digests, undo and resume, this game's state."""

    game_type = SamuraiGame
    state_type = SamuraiState

    def checkpoint(self, state: SamuraiState, version: int) -> object:  # type: ignore[override]
        return {"captured": state.captured, "removed": state.removed, "over": state.over}
