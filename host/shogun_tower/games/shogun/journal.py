"""The journal: every command and its outcome as JSON lines, chained by digests.

Loading is replaying; undo appends an ``undo`` line and replays without the undone command.
Each line carries a digest chained from the previous one, so an edited or corrupted journal is
refused with the line number where replay stops matching.

Version 2 (issue 16) hashes the command and a small checkpoint of the result (phase, year,
season, coins, rice, victory points), never the whole ``State.to_json()``: a state field added
later (an expansion's) cannot make a saved game look edited. Its header records the engine
version and the expansions. Version 1 journals (the whole state hashed) still load: their
digests are checked against the state as it was then, the fields of ``V1_FIELDS`` only.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib

from shogun_tower.games.shogun.rules.errors import JournalError, RulesError, ShogunError
from shogun_tower.games.shogun.rules.game import Game
from shogun_tower.games.shogun.rules.state import State

MAGIC = "shogun-tower-journal"
VERSION = 2
READABLE = (1, 2)
# The state fields a version-1 digest covered (State._FIELDS before issue 16): never change it.
V1_FIELDS = ("phase", "year", "season", "coins", "rice", "vp", "supply", "tower", "tray", "owner",
             "armies", "buildings", "markers", "building_supply", "event_deck", "events_up",
             "event", "action_cards", "specials", "plans", "bid_groups", "bid_index",
             "pick_queue", "special_of", "turn_order", "cursor", "step", "draft", "winter",
             "result", "bids_paid", "scores", "setup_thrown")


def _canon(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _checkpoint(state: State, version: int) -> object:
    if version == 1:
        full = state.to_json()
        return {k: full[k] for k in ("game", "rng", *V1_FIELDS)}
    return {"phase": state.phase, "year": state.year, "season": state.season,
            "coins": state.coins, "rice": state.rice, "vp": state.vp}


class Journal:
    """A game with its history. ``state`` is always the replay of ``commands``.

    The seam for the other games of the seeds (issue 18): a game subclasses Journal and sets
    ``game_type`` (``to_json``/``from_json``), ``state_type`` (``new(game)``, ``apply(command)``
    returning the events) and ``checkpoint`` (the small part of the state each digest covers).
    Such a game's header "game" carries its "name", which ``games.journal_game`` reads."""

    game_type = Game
    state_type = State

    def checkpoint(self, state: State, version: int) -> object:
        """What a digest covers of the state after a command (besides the command)."""
        return _checkpoint(state, version)

    def __init__(self, game: Game, path: str | os.PathLike | None = None,
                 version: int = VERSION, table: dict | None = None) -> None:
        self.game = game
        self.path = pathlib.Path(path) if path else None
        self.torn: pathlib.Path | None = None  # where load() kept a torn last line
        self.version = version  # a loaded version-1 journal goes on with version-1 digests
        self.state = self.state_type.new(game)
        self.commands: list[dict] = []  # effective commands (undone ones removed)
        header: dict = {"journal": MAGIC, "version": version}
        if version >= 2:
            header.update(engine=game.engine, expansions=list(getattr(game, "expansions", ())))
        header["game"] = game.to_json()
        # what the table plays with (seats, bots, tower, page), for --resume: not rules
        self.table = dict(table) if table else None
        if self.table:
            header["table"] = self.table
        header["digest"] = self._digest("", header)
        self.lines: list[str] = [_canon(header)]
        self._last = header["digest"]

    @classmethod
    def new(cls, game: Game, path: str | os.PathLike | None = None,
            table: dict | None = None) -> Journal:  # game: cls.game_type
        j = cls(game, path, table=table)
        if j.path:
            if j.path.exists():
                raise JournalError(f"journal {j.path} already exists; load it or choose "
                                   f"another file")
            j.path.write_text(j.lines[0] + "\n", encoding="utf-8")
        return j

    def apply(self, command: dict) -> list[dict]:
        """Apply and record; a refused command raises and leaves state and journal unchanged."""
        events = self.state.apply(command)  # State.apply validates before it changes anything
        self.commands.append(command)
        self._record({"n": len(self.lines), "command": command, "events": len(events)}, command)
        return events

    def undo(self) -> dict:
        """Take back the last command; returns it."""
        if not self.commands:
            raise JournalError("nothing to undo: the journal has no command yet")
        undone = self.commands.pop()
        self.state = self._replay(self.commands)
        self._record({"n": len(self.lines), "undo": True}, {"undo": undone})
        return undone

    def _record(self, line: dict, what: object) -> None:
        line["digest"] = self._digest(self._last, what)
        self._last = line["digest"]
        text = _canon(line)
        self.lines.append(text)
        if self.path:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(text + "\n")
                f.flush()
                os.fsync(f.fileno())  # a closed laptop or a power cut keeps every command

    def _digest(self, prev: str, what: object) -> str:
        h = hashlib.sha256()
        h.update(prev.encode())
        h.update(_canon(what).encode())
        h.update(_canon(self.checkpoint(self.state, self.version)).encode())
        return h.hexdigest()[:32]

    def _replay(self, commands: list[dict]) -> State:
        s = self.state_type.new(self.game)
        for c in commands:
            s.apply(c)
        return s

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    def save(self, path: str | os.PathLike) -> None:
        pathlib.Path(path).write_text(self.text(), encoding="utf-8")

    @classmethod
    def load(cls, path: str | os.PathLike, mend_torn_line: bool = False) -> Journal:
        """Load and replay. ``mend_torn_line``: a last line without its newline (a crash while
        it was written) is cut off and kept in FILE.torn (``torn`` names it), but only once the
        complete lines have loaded: a journal that cannot be read is never modified."""
        p = pathlib.Path(path)
        if not p.is_file():
            raise JournalError(f"no journal file {p}")
        data = p.read_bytes()
        cut = len(data)
        if mend_torn_line and data and not data.endswith(b"\n"):
            cut = data.rfind(b"\n") + 1
        text = _decode(data[:cut], str(p))
        if cut == len(data) and data and not data.endswith(b"\n"):
            _refuse_torn_line(text, p)
        j = cls.loads(text, str(p))
        j.path = p
        if cut < len(data):
            j.torn = p.with_name(p.name + ".torn")
            j.torn.write_bytes(data[cut:])
            with p.open("r+b") as f:
                f.truncate(cut)
        return j

    @classmethod
    def loads(cls, text: str, name: str = "journal") -> Journal:
        raw = text.splitlines()
        if not raw:
            raise JournalError(f"{name}: line 1: empty file, not a journal")
        header = _parse(raw[0], 1, name)
        version = header.get("version")
        if header.get("journal") != MAGIC or version not in READABLE:
            raise JournalError(f"{name}: line 1: not a shogun-tower journal of version "
                               f"{' or '.join(map(str, READABLE))}")
        other = header["game"].get("name") if isinstance(header.get("game"), dict) else None
        if cls.game_type is Game and other not in (None, "shogun"):
            raise JournalError(f"{name}: line 1: a journal of {other}, not of Shogun; continue "
                               f"it with `shogun-tower play --resume {name}`")
        try:
            game = cls.game_type.from_json(header["game"])
        except (KeyError, TypeError, ShogunError) as err:
            raise JournalError(f"{name}: line 1: bad game description ({err})") from None
        if version >= 2 and (header.get("engine") != game.engine
                             or header.get("expansions")
                             != list(getattr(game, "expansions", ()))):
            raise JournalError(f"{name}: line 1: the header's engine/expansions disagree with "
                               f"its game; the header was edited")
        table = header.get("table")
        if table is not None and not isinstance(table, dict):
            raise JournalError(f"{name}: line 1: 'table' must be a JSON object")
        j = cls(game, version=version, table=table)
        if header.get("digest") != j._last:
            raise JournalError(f"{name}: line 1: digest mismatch; the header was edited")
        for i, line in enumerate(raw[1:], start=2):
            if not line.strip():
                raise JournalError(f"{name}: line {i}: empty line; the journal is damaged")
            rec = _parse(line, i, name)
            if rec.get("n") != i - 1:
                raise JournalError(f"{name}: line {i}: expected entry {i - 1}, found "
                                   f"{rec.get('n')!r}; lines were removed or reordered")
            try:
                if rec.get("undo"):
                    j.undo()
                elif isinstance(rec.get("command"), dict):
                    j.apply(rec["command"])
                else:
                    raise JournalError("neither a command nor an undo")
            except RulesError as err:
                raise JournalError(f"{name}: line {i}: command refused on replay ({err})") \
                    from None
            except ShogunError as err:
                raise JournalError(f"{name}: line {i}: {err}") from None
            if json.loads(j.lines[-1])["digest"] != rec.get("digest"):
                raise JournalError(f"{name}: line {i}: digest mismatch; the journal was "
                                   f"edited or does not replay to the recorded state")
        return j


def _refuse_torn_line(text: str, path: pathlib.Path) -> None:
    first, _, _ = text.partition("\n")
    last = text.rsplit("\n", 1)[-1]
    try:
        json.loads(last)
    except json.JSONDecodeError:
        line = text.count("\n") + 1
        if line > 1 and f'"journal":"{MAGIC}"' in first:  # a journal's, not any file's end
            raise JournalError(f"{path}: line {line}: cut off, as by a crash while it was "
                               f"written; `shogun-tower play --resume {path}` keeps it aside "
                               f"in {path.name}.torn and continues") from None


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise JournalError(f"{name}: line {line}: not UTF-8 text, so not a shogun-tower journal "
                           f"(a binary file?); give the .jsonl file the game wrote") from None


def _parse(line: str, i: int, name: str) -> dict:
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as err:
        raise JournalError(f"{name}: line {i}: not valid JSON ({err.msg})") from None
    if not isinstance(rec, dict):
        raise JournalError(f"{name}: line {i}: not a JSON object")
    return rec
