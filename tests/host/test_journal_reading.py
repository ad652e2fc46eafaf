"""Reading a journal from disk (rules/journal.py Journal.load): a line torn by a crash is cut off
into FILE.torn only once the complete lines have loaded; a file that cannot be read is refused in
one line and never modified."""

from __future__ import annotations

import pathlib
import shutil

import pytest

from shogun_tower.errors import JournalError
from shogun_tower.games.shogun.journal import Journal

FIXTURE = pathlib.Path(__file__).parents[1] / "rules" / "fixtures" / "v1_bots_4p_fixed.jsonl"
TORN = b'{"n": 999, "command": {"kind": "pla'


def test_a_torn_last_line_is_kept_aside_and_the_game_goes_on(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.jsonl"
    shutil.copy(FIXTURE, path)
    whole = Journal.load(path)
    path.write_bytes(FIXTURE.read_bytes() + TORN)
    mended = Journal.load(path, mend_torn_line=True)
    assert mended.torn == tmp_path / "game.jsonl.torn"
    assert mended.torn.read_bytes() == TORN
    assert path.read_bytes() == FIXTURE.read_bytes()
    assert mended.commands == whole.commands and mended.state.to_json() == whole.state.to_json()


def test_a_complete_journal_is_not_touched(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.jsonl"
    shutil.copy(FIXTURE, path)
    assert Journal.load(path, mend_torn_line=True).torn is None
    assert path.read_bytes() == FIXTURE.read_bytes()
    assert not (tmp_path / "game.jsonl.torn").exists()


@pytest.mark.parametrize("data", [
    b"\x89PNG\r\n\x1a\n\x00\xff\xfe",           # binary, newlines inside, none at the end
    b"\xff\xfe\x00\x01no newline at all",        # binary without any newline
    FIXTURE.read_bytes()[:-1].replace(b"\n", b"\xff\n", 1) + b"x",  # a damaged header line
    b"not a journal\nat all",                    # text, but no journal
], ids=["binary", "binary-one-line", "damaged", "text"])
def test_a_file_that_cannot_be_read_is_refused_and_left_as_it_was(tmp_path: pathlib.Path,
                                                                  data: bytes) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(data)
    for mend in (False, True):
        with pytest.raises(JournalError) as err:
            Journal.load(path, mend_torn_line=mend)
        assert "\n" not in str(err.value) and str(path) in str(err.value)
        assert path.read_bytes() == data
        assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]
