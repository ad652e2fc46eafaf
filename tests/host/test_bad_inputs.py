"""docs/bad-inputs.md row by row: each bad input through the real CLI (a subprocess, as a person
runs it) gets one line on stderr holding the documented answer, the documented exit code, and
leaves every file as it was. The rows are read from the doc itself, so the two cannot drift."""

from __future__ import annotations

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parents[2]
DOC = ROOT / "docs" / "bad-inputs.md"
JOURNAL = ROOT / "tests" / "rules" / "fixtures" / "v1_bots_4p_fixed.jsonl"
# A PNG's first bytes, then bytes that are no UTF-8, a newline in the middle and none at the
# end: `play --resume` would take the end for a line torn by a crash.
BINARY = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\x80\x81\n\xc3\x28 torn?"


def _rows() -> list[tuple[str, str, str, int]]:
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) == 4 and cells[1].startswith("`shogun-tower "):
            rows.append((cells[0], cells[1].strip("`"), cells[2].strip("`"), int(cells[3])))
    return rows


ROWS = _rows()


def test_the_doc_has_the_issues_cases() -> None:
    commands = " ".join(r[1] for r in ROWS)
    for case in ("replay {binary}", "play --resume {binary}", "--page-port 99999",
                 "--page-port -1", "--tray red=70", "--markers 99", "--defender-armies 4",
                 "--tray green=30", "--event E3 --loss 2", "--province Mikawa=red"):
        assert case in commands, case
    for command in ("play", "demo", "serve"):
        assert f"shogun-tower {command} --page-port 99999" in commands


def _snapshot(folder: pathlib.Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize(("what", "command", "answer", "code"), ROWS,
                         ids=[f"{i + 1}-{r[0][:40]}" for i, r in enumerate(ROWS)])
def test_bad_input_gets_one_line_and_changes_nothing(tmp_path: pathlib.Path, what: str,
                                                      command: str, answer: str,
                                                      code: int) -> None:
    binary = tmp_path / "game.jsonl"
    binary.write_bytes(BINARY)
    torn = tmp_path / "torn.jsonl"
    torn.write_bytes(JOURNAL.read_bytes() + b'{"n": 99, "command": {"ki')
    argv = [a.format(binary=binary, torn=torn, missing=tmp_path / "missing.jsonl")
            for a in shlex.split(command)]
    before = _snapshot(tmp_path)
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run([sys.executable, "-m", "shogun_tower.cli", *argv[1:]],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env,
                          stdin=subprocess.DEVNULL)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == code, (what, proc.stderr)
    assert len(lines) == 1, f"{what}: not one line:\n{proc.stderr}"
    assert answer in lines[0], (what, lines[0])
    assert re.match(r"shogun-tower [a-z0-9 -]+: error: ", lines[0]), lines[0]
    assert _snapshot(tmp_path) == before, f"{what}: a file was written, moved or cut"
