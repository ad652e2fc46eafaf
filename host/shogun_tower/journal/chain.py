"""The journal as a chain of digests, for any game: every command and its outcome as JSON
lines, each line's digest chained from the previous one, so an edited or corrupted journal is
refused with the line number where replay stops matching. Loading is replaying; undo appends an
``undo`` line and replays without the undone command.

Pure: the lines are kept in memory; ``files.py`` writes them to disk as they are made.

The seam for each game: a journal class sets ``game_type`` (``to_json``/``from_json``),
``state_type`` (``new(game)``, ``apply(command)`` returning the events) and ``checkpoint`` (the
small part of the state each digest covers). Such a game's header "game" carries its "name",
which ``games.journal_game`` reads.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, ClassVar

from shogun_tower.errors import JournalError, RulesError, ShogunError
from shogun_tower.i18n import _, or_list

MAGIC = "shogun-tower-journal"
VERSION = 2
READABLE = (1, 2)


def canon(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


class Journal:
    """A game with its history. ``state`` is always the replay of ``commands``."""

    game_type: ClassVar[Any]
    state_type: ClassVar[Any]

    def checkpoint(self, state: Any, version: int) -> object:
        """What a digest covers of the state after a command (besides the command)."""
        raise NotImplementedError

    @classmethod
    def check_header(cls, header: dict, name: str) -> None:
        """Refuse a header this journal class cannot read (before its game is built)."""

    def __init__(self, game: Any, version: int = VERSION, table: dict | None = None) -> None:
        self.game = game
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
        self.lines: list[str] = [canon(header)]
        self._last = header["digest"]

    def apply(self, command: dict) -> list[dict]:
        """Apply and record; a refused command raises and leaves state and journal unchanged."""
        events = self.state.apply(command)  # State.apply validates before it changes anything
        self.commands.append(command)
        self._record({"n": len(self.lines), "command": command, "events": len(events)}, command)
        return events

    def undo(self) -> dict:
        """Take back the last command; returns it."""
        if not self.commands:
            raise JournalError(_("nothing to undo: the journal has no command yet"))
        undone = self.commands.pop()
        self.state = self._replay(self.commands)
        self._record({"n": len(self.lines), "undo": True}, {"undo": undone})
        return undone

    def _record(self, line: dict, what: object) -> None:
        line["digest"] = self._digest(self._last, what)
        self._last = line["digest"]
        text = canon(line)
        self.lines.append(text)
        self.written(text)

    def written(self, line: str) -> None:
        """A new line was recorded (``files.py`` appends it to the file)."""

    def _digest(self, prev: str, what: object) -> str:
        h = hashlib.sha256()
        h.update(prev.encode())
        h.update(canon(what).encode())
        h.update(canon(self.checkpoint(self.state, self.version)).encode())
        return h.hexdigest()[:32]

    def _replay(self, commands: list[dict]) -> Any:
        s = self.state_type.new(self.game)
        for c in commands:
            s.apply(c)
        return s

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    @classmethod
    def loads(cls, text: str, name: str = "journal") -> Journal:
        raw = text.splitlines()
        if not raw:
            raise JournalError(_("{file}: line 1: empty file, not a journal").format(file=name))
        header = parse(raw[0], 1, name)
        version = header.get("version")
        if header.get("journal") != MAGIC or version not in READABLE:
            raise JournalError(_("{file}: line 1: not a shogun-tower journal of version "
                                 "{versions}").format(file=name,
                                                      versions=or_list(list(map(str, READABLE)))))
        cls.check_header(header, name)
        try:
            game = cls.game_type.from_json(header["game"])
        except (KeyError, TypeError, ShogunError) as err:
            raise JournalError(_("{file}: line 1: bad game description ({error})").format(
                file=name, error=err)) from None
        if version >= 2 and (header.get("engine") != game.engine
                             or header.get("expansions")
                             != list(getattr(game, "expansions", ()))):
            raise JournalError(_("{file}: line 1: the header's engine/expansions disagree with "
                                 "its game; the header was edited").format(file=name))
        table = header.get("table")
        if table is not None and not isinstance(table, dict):
            raise JournalError(_("{file}: line 1: 'table' must be a JSON object").format(
                file=name))
        j = cls(game, version=version, table=table)
        if header.get("digest") != j._last:
            raise JournalError(_("{file}: line 1: digest mismatch; the header was edited").format(
                file=name))
        for i, line in enumerate(raw[1:], start=2):
            if not line.strip():
                raise JournalError(_("{file}: line {n}: empty line; the journal is "
                                     "damaged").format(file=name, n=i))
            rec = parse(line, i, name)
            if rec.get("n") != i - 1:
                raise JournalError(_("{file}: line {n}: expected entry {entry}, found {found}; "
                                     "lines were removed or reordered").format(
                                         file=name, n=i, entry=i - 1, found=repr(rec.get("n"))))
            try:
                if rec.get("undo"):
                    j.undo()
                elif isinstance(rec.get("command"), dict):
                    j.apply(rec["command"])
                else:
                    raise JournalError(_("neither a command nor an undo"))
            except RulesError as err:
                raise JournalError(_("{file}: line {n}: command refused on replay "
                                     "({error})").format(file=name, n=i, error=err)) from None
            except ShogunError as err:
                raise JournalError(_("{file}: line {n}: {error}").format(
                    file=name, n=i, error=err)) from None
            if json.loads(j.lines[-1])["digest"] != rec.get("digest"):
                raise JournalError(_("{file}: line {n}: digest mismatch; the journal was "
                                     "edited or does not replay to the recorded state").format(
                                         file=name, n=i))
        return j


def parse(line: str, i: int, name: str) -> dict:
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as err:
        raise JournalError(_("{file}: line {n}: not valid JSON ({error})").format(
            file=name, n=i, error=err.msg)) from None
    if not isinstance(rec, dict):
        raise JournalError(_("{file}: line {n}: not a JSON object").format(file=name, n=i))
    return rec
