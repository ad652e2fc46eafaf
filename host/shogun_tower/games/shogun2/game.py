"""The engine of Ravensburger's Shogun: a Game (the board's seed, how it is turned, who begins)
and its State, changed only by commands that return events (the journal records them).

Pure: no I/O and no clock; the one chance in the game, the magnets under the squares, is drawn
from the seeded generator kept in the state when the game begins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shogun_common.rng import Rng
from shogun_tower.errors import RulesError
from shogun_tower.games.shogun2.board import (
    PIECE,
    RED,
    SHOGUN,
    SHOGUN_START,
    SIDE_NAMES,
    SIDES,
    SIZE,
    WAYS,
    WHITE,
    Move,
    Position,
    name,
)
from shogun_tower.games.shogun2.dials import TURNS, DialTable
from shogun_tower.games.shogun2.notation import (
    KIND_NAMES,
    PositionError,
    format_position,
    parse_move,
    parse_position,
    piece_word,
    side_word,
)
from shogun_tower.i18n import _, ngettext

NAME = "shogun2"
ENGINE = 1
# Decision (the rulebook has no draw): 50 moves of each side in a row without a capture end the
# game drawn, so that no game between bots, or people, goes on for ever.
DRAW_PLIES = 100


class MoveRefused(RulesError):
    """A move the rules do not allow; the message says why and what to do instead."""

    def __init__(self, message: str) -> None:
        super().__init__("", message)


@dataclass(frozen=True)
class Game:
    """``seed`` draws the board's magnets (the same seed: the same board); ``turned`` the board
    turned 0, 90, 180 or 270° clockwise; ``first`` the side that begins (the players agree)."""

    seed: int = 0
    turned: int = 0
    first: str = "white"
    engine: int = ENGINE
    expansions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.turned not in TURNS:
            raise PositionError(_("the board turns by 0, 90, 180 or 270 degrees, not "
                                  "{turned}").format(turned=self.turned))
        if self.first not in SIDES:
            raise PositionError(_("the first player is white or red, not {side!r}").format(
                side=self.first))
        if self.engine != ENGINE:
            raise PositionError(_("this is engine {engine} of {game}; the game needs engine "
                                  "{needed}: update shogun-tower").format(
                engine=ENGINE, game=NAME, needed=self.engine))

    def to_json(self) -> dict:
        return {"name": NAME, "seed": self.seed, "turned": self.turned, "first": self.first,
                "engine": self.engine}

    @staticmethod
    def from_json(d: dict) -> Game:
        if not isinstance(d, dict) or d.get("name") != NAME:
            raise PositionError(_("not a game of {game}").format(game=NAME))
        seed = d.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PositionError(_("the game's seed must be a whole number"))
        return Game(seed=seed, turned=d.get("turned", 0), first=d.get("first", "white"),
                    engine=d.get("engine", ENGINE))


def start_position(table: DialTable, first: int) -> Position:
    """Each side's 8 pieces on its first row, the Shogun on the 4th square from its right."""
    board, dials = [0] * SIZE * SIZE, [0] * SIZE * SIZE
    for side, rank in ((WHITE, 0), (RED, SIZE - 1)):
        for f in range(SIZE):
            sq = rank * SIZE + f
            board[sq] = side * (SHOGUN if sq == SHOGUN_START[side] else PIECE)
            dials[sq] = table.shows(board[sq], sq)
    return Position(board, dials, first)


class State:
    """A game in progress. ``apply`` checks a command completely before it changes anything."""

    def __init__(self, game: Game, rng: Rng, table: DialTable, position: Position) -> None:
        self.game = game
        self.rng = rng
        self.table = table  # hidden from the players: the console tells the numbers
        self.position = position
        self.plies = 0
        self.since_capture = 0
        self.result: dict | None = None  # {"winner": "white"/"red"/None, "reason": ...}
        self.last: dict | None = None  # the last move's "moved" event
        # every move played, in order: its "moved" event with what it took ("took") and the
        # side that must now save its Shogun ("shogun"), so a page opened after a resume shows
        # them all
        self.moves: list[dict] = []

    @staticmethod
    def new(game: Game) -> State:
        rng = Rng(seed=game.seed)
        table = DialTable.draw(rng).turned(game.turned)
        return State(game, rng, table, start_position(table, SIDES[game.first]))

    @staticmethod
    def from_position(game: Game, position: Position) -> State:
        """A state from a position read as text (its dials as given); later moves take their
        new numbers from the game's table."""
        s = State.new(game)
        s.position = position.copy()
        s._judge(-position.to_move)  # a position already over says so
        return s

    # -- reading -------------------------------------------------------------------------

    @property
    def to_move(self) -> str:
        return SIDE_NAMES[self.position.to_move]

    def legal_moves(self) -> list[Move]:
        return [] if self.result else self.position.legal_moves()

    def example(self) -> str:
        """A legal move of this position to show as an example (``e1-e3`` once none is)."""
        moves = self.legal_moves()
        plain = [m for m in moves if not m.captured]
        return str((plain or moves)[0]) if moves else "e1-e3"

    def pending(self) -> dict:
        """What the game waits for: a move of one side, or nothing (it ended)."""
        if self.result:
            return {"kind": "over"}
        return {"kind": "move", "side": self.to_move}

    def to_json(self) -> dict:
        return {"game": self.game.to_json(), "rng": self.rng.state,
                "position": format_position(self.position), "plies": self.plies,
                "since_capture": self.since_capture, "result": self.result, "last": self.last,
                "moves": self.moves}

    # -- changing ------------------------------------------------------------------------

    def apply(self, command: dict[str, Any]) -> list[dict]:
        """``{"move": "e2-e5"}`` → the events. A refused move raises MoveRefused."""
        if not isinstance(command, dict) or not isinstance(command.get("move"), str):
            raise MoveRefused(_("a command is {example}, not {command}").format(
                example="{'move': 'e1-e3'}", command=repr(command)[:60]))
        if self.result:
            raise MoveRefused(_("the game is over ({reason}); undo or begin a new "
                                "game").format(reason=self.result["reason"]))
        try:
            start, end, takes = parse_move(command["move"], self.example())
        except PositionError as err:
            raise MoveRefused(str(err)) from None
        move = self.check(start, end)
        if takes and not move.captured:
            # an "x" says the player means to take a piece: a move that takes none is not it
            raise MoveRefused(_("{typed} takes nothing: {square} is empty; to move there, type "
                                "{move}").format(typed=command["move"].strip(),
                                                 square=name(end), move=move))
        return self._play(move)

    def check(self, start: int, end: int) -> Move:
        """The move from ``start`` to ``end`` if the rules allow it, else MoveRefused with why."""
        pos = self.position
        side = pos.to_move
        word = side_word(SIDE_NAMES[side])
        piece = pos.board[start]
        if piece * side <= 0:
            where = ", ".join(name(sq) for sq in pos.pieces(side))
            raise MoveRefused(_("there is no {side} piece on {square}; it is {side}'s turn and "
                                "{side}'s pieces are on {squares}").format(
                square=name(start), side=word, squares=where))
        dial = pos.dials[start]
        distance = abs(start % SIZE - end % SIZE) + abs(start // SIZE - end // SIZE)
        if distance != dial:
            raise MoveRefused(ngettext(
                "{piece} on {square} shows {n}: it goes exactly {n} square (straight or with "
                "one right-angle turn), and {target} is {distance} away",
                "{piece} on {square} shows {n}: it goes exactly {n} squares (straight or with "
                "one right-angle turn), and {target} is {distance} away", dial).format(
                piece=piece_word(piece), square=name(start), n=dial, target=name(end),
                distance=distance))
        if pos.board[end] * side > 0:
            raise MoveRefused(_("{square} holds {piece}: a piece lands only on an empty square "
                                "or on an opposing piece").format(
                square=name(end), piece=piece_word(pos.board[end])))
        path = pos.free_way(start, end)
        if path is None:
            blockers = sorted({name(s) for p in WAYS[start][dial][end] for s in p[:-1]
                               if pos.board[s]})
            raise MoveRefused(ngettext(
                "the way from {start} to {end} is blocked by the piece on {squares}: a piece "
                "never jumps over another",
                "the way from {start} to {end} is blocked by the pieces on {squares}: a piece "
                "never jumps over another", len(blockers)).format(
                start=name(start), end=name(end), squares=", ".join(blockers)))
        move = Move(start, end, path, pos.board[end])
        by = pos.leaves_shogun_capturable(move)
        if by is not None:
            own = pos.shogun(side)
            shogun_after = end if piece == SHOGUN * side else own
            if pos.threatened(side) is not None:
                raise MoveRefused(_("Shogun! {side}'s Shogun is threatened and {move} leaves "
                                    "it capturable by {piece} on {square}: move the Shogun to "
                                    "a safe square, take the threatening piece or put a piece "
                                    "in between").format(side=word, move=move,
                                                         piece=piece_word(pos.board[by]),
                                                         square=name(by)))
            raise MoveRefused(_("{move} would leave {side}'s Shogun on {shogun} capturable by "
                                "{piece} on {square}; choose another move").format(
                move=move, side=word, shogun=name(shogun_after),
                piece=piece_word(pos.board[by]), square=name(by)))
        return move

    def _play(self, move: Move) -> list[dict]:
        pos = self.position
        side = pos.to_move
        piece = pos.board[move.start]
        dial_before = pos.dials[move.start]
        dial_after = self.table.shows(piece, move.end)
        pos.play(move, dial_after)
        self.plies += 1
        self.since_capture = 0 if move.captured else self.since_capture + 1
        moved = {"event": "moved", "side": SIDE_NAMES[side], "kind": KIND_NAMES[abs(piece)],
                 "from": name(move.start), "to": name(move.end),
                 "path": [name(s) for s in move.path], "dial": dial_before,
                 "new_dial": dial_after}
        events = [moved]
        if move.captured:
            events.append({"event": "captured", "side": SIDE_NAMES[-side],
                           "kind": KIND_NAMES[abs(move.captured)], "square": name(move.end)})
        self.last = moved
        events += self._judge(side)
        # "Shogun!" asks the other side to save its Shogun: only while the game goes on
        threat = next((e for e in events if e["event"] == "shogun"), None)
        self.moves.append(dict(moved, took=KIND_NAMES[abs(move.captured)] if move.captured
                               else None,
                               shogun=threat["side"] if threat and not self.result else None))
        return events

    def _judge(self, mover: int) -> list[dict]:
        """After ``mover``'s move: the answer the other side now owes ("Shogun!"), or the end
        of the game."""
        pos = self.position
        other = -mover
        events: list[dict] = []
        by = pos.threatened(other)
        if by is not None:
            events.append({"event": "shogun", "side": SIDE_NAMES[other], "by": name(by)})
        left = len(pos.pieces(other))
        reason = None
        loser = side_word(SIDE_NAMES[other])
        if left <= 2:
            reason = _("{side} has only its Shogun and one piece left").format(side=loser)
        elif not pos.legal_moves():
            reason = (_("{side}'s Shogun cannot be saved").format(side=loser) if by is not None
                      else _("{side} cannot move without leaving its Shogun capturable").format(
                          side=loser))
        if reason:
            self.result = {"winner": SIDE_NAMES[mover], "reason": reason}
        elif self.since_capture >= DRAW_PLIES:
            self.result = {"winner": None, "reason": _(
                "{n} moves of each side without a capture: a draw").format(n=DRAW_PLIES // 2)}
        if self.result:
            events.append(dict(self.result, event="ended"))
        return events


def load_position(game: Game, text: str) -> State:
    return State.from_position(game, parse_position(text))


__all__ = ["Game", "State", "MoveRefused", "NAME", "DRAW_PLIES", "RED", "WHITE", "load_position"]
