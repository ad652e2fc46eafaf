"""Firmware unit tests executed by the real MicroPython interpreter, one pytest test each.

Each `mpy_test_*.py` module here runs once under `micropython` (unix port, with a heap as small
as a real board's); its PASS/FAIL lines become the results of the pytest tests below.

A module that runs the real board on the fakes of the ESP32 port (fake_machine/) gets 128K more:
the fakes hold the port's contract, parsed from its JSON (about 50K of 64-bit heap kept, 130K
while it is read), and that is the test's apparatus, not the firmware's heap.

A test of a module's XFAIL (a module-level dict: test name -> reason) is expected to fail: a
pytest xfail(strict=True), so that one that passes again is reported.

Each module runs again on a 32-bit unix port (tests/conftest.py ``micropython_32``), one pytest
test a module: the installed port is 64-bit, the ESP32 32-bit. There a small int holds less than
2^30 (a larger one is a long integer, allocated: in a hard interrupt handler, a MemoryError) and
a viper int is 32 bits wide, as on the ESP32; the viper and native code is x86's, not xtensa's.
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


def _heap(module: str) -> str:
    return "384K" if "fake_machine" in (HERE / f"{module}.py").read_text() else "256K"


@functools.cache
def _run(module: str, executable: str | None = None) -> tuple[dict[str, str], str]:
    root = repo_root()
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join(
        [str(HERE), str(root / "firmware"), str(root / "common"), ".frozen"])
    proc = subprocess.run(
        [executable or micropython_executable(), "-X", f"heapsize={_heap(module)}",
         str(HERE / "mpy_runner.py"), module],
        capture_output=True, text=True, env=env, timeout=120, cwd=HERE)
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


@pytest.mark.parametrize("module", MODULES)
def test_firmware_on_a_32_bit_micropython(module: str, micropython_32: str) -> None:
    results, output = _run(module, micropython_32)
    assert sorted(results) == sorted(_test_names(module)), f"not all ran:\n{output}"
    expected = _xfails(module)
    failed = {name: error for name, error in results.items() if error and name not in expected}
    assert not failed, f"failed on a 32-bit MicroPython: {failed}\n{output}"
    passed = sorted(name for name in expected if not results[name])
    assert not passed, f"expected to fail (XFAIL) but passed: {passed}"
