"""Firmware unit tests executed by the real MicroPython interpreter, one pytest test each.

Each `mpy_test_*.py` module here runs once under `micropython` (unix port, with a heap as small
as a real board's); its PASS/FAIL lines become the results of the pytest tests below.

A module that runs the real board on the fakes of the ESP32 port (fake_machine/) gets 192K more:
the fakes hold the port's contract, parsed from its JSON (about 50K of 64-bit heap kept, 130K
while it is read), and the whole firmware is compiled from source into the same heap (a board
runs it from .mpy or ROMFS); that is the test's apparatus, not the firmware's heap (the 64K
ROMFS board's is tests/hil/test_heap_64k.py's).

A test of a module's XFAIL (a module-level dict: test name -> reason) is expected to fail: a
pytest xfail(strict=True), so that one that passes again is reported.

The port is 64-bit, the ESP32 32-bit: the viper code's 32-bit bounds are held by plain-Python
references that assert them (tests/firmware/viper_ref.py).
"""

from __future__ import annotations

import ast
import functools
import os
import pathlib
import subprocess

import pytest

from shogun_tower.sim_device import micropython_executable, repo_root

HERE = pathlib.Path(__file__).parent
MODULES = sorted(p.stem for p in HERE.glob("mpy_test_*.py"))


def _test_names(module: str) -> list[str]:
    tree = ast.parse((HERE / f"{module}.py").read_text())
    return [n.name for n in tree.body if isinstance(n, ast.FunctionDef)
            and n.name.startswith("test_")]


@functools.cache
def _xfails(module: str) -> dict[str, str]:
    # the module's XFAIL, its reasons built from the plain strings assigned above it
    tree = ast.parse((HERE / f"{module}.py").read_text())
    names: dict[str, object] = {}
    for n in tree.body:
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0],
                                                                             ast.Name):
            try:
                names[n.targets[0].id] = eval(  # noqa: S307 - literals and their sums only
                    compile(ast.Expression(n.value), module, "eval"), {"__builtins__": {}},
                    names)
            except Exception:  # noqa: BLE001, S112 - not a literal: not a reason
                continue
    return dict(names.get("XFAIL", {}))


# A module runs in a few seconds alone; a loaded 2-core machine running the suite's other
# workers beside it has stretched one to over two minutes (the fake sensor's clock is real time).
_MODULE_TIMEOUT_S = 300


def _heap(module: str) -> str:
    return "512K" if "fake_machine" in (HERE / f"{module}.py").read_text() else "320K"


@functools.cache
def _run(module: str) -> tuple[dict[str, str], str]:
    root = repo_root()
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join(
        [str(HERE), str(root / "firmware"), str(root / "common"), ".frozen"])
    proc = subprocess.run(
        [micropython_executable(), "-X", f"heapsize={_heap(module)}",
         str(HERE / "mpy_runner.py"), module],
        capture_output=True, text=True, env=env, timeout=_MODULE_TIMEOUT_S, cwd=HERE)
    results = {}
    for line in proc.stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        if verdict in ("PASS", "FAIL"):
            name, _, error = rest.partition(":")
            results[name] = "" if verdict == "PASS" else error.strip() or "failed"
    return results, proc.stdout + proc.stderr


CASES = [pytest.param(m, t, id=f"{m}::{t}", marks=[pytest.mark.xfail(
              strict=True, reason=_xfails(m)[t])] if t in _xfails(m) else [])
         for m in MODULES for t in _test_names(m)]


@pytest.mark.parametrize(("module", "test"), CASES)
def test_firmware_on_micropython(module: str, test: str) -> None:
    results, output = _run(module)
    assert test in results, f"{test} did not run under MicroPython:\n{output}"
    assert results[test] == "", f"{test} failed under MicroPython: {results[test]}\n{output}"

