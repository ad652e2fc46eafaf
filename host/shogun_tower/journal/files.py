"""The journal on disk: each line appended and flushed to the file as it is recorded (a closed
laptop or a power cut keeps every command), a new journal never overwrites a file, and a file
is read back by replaying it (``chain.py``)."""

from __future__ import annotations

import json
import os
import pathlib

from shogun_tower.errors import JournalError
from shogun_tower.i18n import _
from shogun_tower.journal import chain
from shogun_tower.journal.chain import MAGIC, VERSION


class Journal(chain.Journal):
    """A journal kept in a file (``path``; None: in memory only)."""

    def __init__(self, game: object, path: str | os.PathLike | None = None,
                 version: int = VERSION, table: dict | None = None) -> None:
        self.path = pathlib.Path(path) if path else None
        self.torn: pathlib.Path | None = None  # where load() kept a torn last line
        super().__init__(game, version, table)

    @classmethod
    def new(cls, game: object, path: str | os.PathLike | None = None,
            table: dict | None = None) -> Journal:  # game: cls.game_type
        j = cls(game, path, table=table)
        if j.path:
            if j.path.exists():
                raise JournalError(_("journal {path} already exists; load it or choose "
                                     "another file").format(path=j.path))
            j.path.write_text(j.lines[0] + "\n", encoding="utf-8")
        return j

    def written(self, line: str) -> None:
        if self.path:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(line + "\n")
                f.flush()
                os.fsync(f.fileno())  # a closed laptop or a power cut keeps every command

    def save(self, path: str | os.PathLike) -> None:
        pathlib.Path(path).write_text(self.text(), encoding="utf-8")

    @classmethod
    def loads(cls, text: str, name: str = "journal") -> Journal:
        return super().loads(text, name)  # type: ignore[return-value]

    @classmethod
    def load(cls, path: str | os.PathLike, mend_torn_line: bool = False) -> Journal:
        """Load and replay. ``mend_torn_line``: a last line without its newline (a crash while
        it was written) is cut off and kept in FILE.torn (``torn`` names it), but only once the
        complete lines have loaded: a journal that cannot be read is never modified."""
        p = pathlib.Path(path)
        if not p.is_file():
            raise JournalError(_("no journal file {path}").format(path=p))
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


def _refuse_torn_line(text: str, path: pathlib.Path) -> None:
    first = text.partition("\n")[0]
    last = text.rsplit("\n", 1)[-1]
    try:
        json.loads(last)
    except json.JSONDecodeError:
        line = text.count("\n") + 1
        if line > 1 and f'"journal":"{MAGIC}"' in first:  # a journal's, not any file's end
            raise JournalError(_("{path}: line {n}: cut off, as by a crash while it was "
                                 "written; `shogun-tower play --resume {path}` keeps it aside "
                                 "in {name}.torn and continues").format(
                                     path=path, n=line, name=path.name)) from None


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise JournalError(_("{file}: line {n}: not UTF-8 text, so not a shogun-tower journal "
                             "(a binary file?); give the .jsonl file the game wrote").format(
                                 file=name, n=line)) from None
