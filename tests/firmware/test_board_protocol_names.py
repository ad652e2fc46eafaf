"""The firmware uses only the board's part of the shared protocol module: what protocol.py
keeps under `if _HOST:` is not even compiled on MicroPython, so a board calling it fails at run
time (the tests on the unix port load the host's part too, and cannot see it)."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).parents[2]
PROTOCOL = ROOT / "common" / "shogun_common" / "protocol.py"


def _board_names() -> set[str]:
    names: set[str] = set()

    def take(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                    and node.test.id == "_HOST":
                take(node.orelse)  # (the host's part left out)
                continue
            if isinstance(node, ast.If):
                take(node.body)
                take(node.orelse)
            elif isinstance(node, ast.Try):
                take(node.body)
                for h in node.handlers:
                    take(h.body)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                for t in node.targets:
                    names.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                if isinstance(node.target, ast.Name):
                    names.add(node.target.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)

    take(ast.parse(PROTOCOL.read_text()).body)
    return names


def test_the_firmware_calls_no_name_of_the_host_s_part_of_the_protocol() -> None:
    board = _board_names()
    assert "Outbox" in board and "seq_after" not in board  # (the parse reads both parts)
    wrong = []
    for path in sorted((ROOT / "firmware" / "shogun_fw").rglob("*.py")):
        if path.name in ("simtime.py",):  # (the benchmark's clock: never on a board)
            continue
        tree = ast.parse(path.read_text())
        aliases = {a.asname or a.name for node in ast.walk(tree)
                   if isinstance(node, ast.ImportFrom) and node.module == "shogun_common"
                   for a in node.names if a.name == "protocol"}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases and node.attr not in board:
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} P.{node.attr}")
    assert not wrong, wrong
