"""Which of the firmware's code is machine code: the functions under @micropython.native or
@micropython.viper, read from the source (on the MicroPython unix port a native function's type
is `function`, as a bytecode one's), and the names their bodies reach (calls, attributes), so that
a split run (bench/mpy/native_split.py) can charge the bytecode those reach back to bytecode.

The ESP32 runs machine code at another ratio than bytecode (calibrate_r's viper_call benchmarks:
the native R), so bench_cpu.py scales each step's native part by that ratio."""

from __future__ import annotations

import ast
import pathlib

from shogun_tower.sim_device import firmware_dir

# the modules the firmware runs in a throw (boards/ are the board's: esp32_costs times them)
MODULES = ("shogun_fw.app", "shogun_fw.link", "shogun_fw.detector", "shogun_fw.colour",
           "shogun_fw.score_track", "shogun_fw.commands", "shogun_common.protocol")


def _path(module: str) -> pathlib.Path:
    root = firmware_dir()
    base = root if module.startswith("shogun_fw") else root.parent / "common"
    return base.joinpath(*module.split(".")).with_suffix(".py")


def _emitter(fn: ast.FunctionDef) -> str | None:
    for d in fn.decorator_list:
        if (isinstance(d, ast.Attribute) and isinstance(d.value, ast.Name)
                and d.value.id == "micropython" and d.attr in ("native", "viper")):
            return d.attr
    return None


def _defs(body: list[ast.stmt], cls: str = ""):
    # top level, a class's body, and the bodies of top-level ifs (protocol.py: `if _VIPER:`)
    for node in body:
        if isinstance(node, ast.If):
            yield from _defs(node.body, cls)
            yield from _defs(node.orelse, cls)
        elif isinstance(node, ast.ClassDef) and not cls:
            yield from _defs(node.body, node.name)
        elif isinstance(node, ast.FunctionDef):
            yield cls, node


def scan() -> dict:
    """{"native": [[module, class or "", name, "native" or "viper"], ...], "reached": [every
    name a native function's body calls or reads as an attribute, "__len__" for len()],
    "entered": [every name the rest of the code (bytecode) uses]}: a native function only
    native code calls needs no wrapper of its own (its caller's counts it)."""
    native: list[list[str]] = []
    reached: set[str] = set()
    entered: set[str] = set()
    for module in MODULES:
        tree = ast.parse(_path(module).read_text())
        inside: set[int] = set()
        for cls, fn in _defs(tree.body):
            kind = _emitter(fn)
            if not kind:
                continue
            native.append([module, cls, fn.name, kind])
            for node in ast.walk(fn):
                inside.add(id(node))
                if isinstance(node, ast.Attribute):
                    reached.add(node.attr)
                elif isinstance(node, ast.Name):
                    reached.add(node.id)
                    if node.id == "len":
                        reached.add("__len__")
        for node in ast.walk(tree):
            if id(node) in inside:
                continue
            if isinstance(node, ast.Attribute):
                entered.add(node.attr)
            elif isinstance(node, ast.Name):
                entered.add(node.id)
    return {"native": native, "reached": sorted(reached), "entered": sorted(entered)}
