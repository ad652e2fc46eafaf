"""Loads the helper modules in hardware/ by path (hardware/ is not a package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"
HINT = "run `make hardware` (or `make -C hardware tools BIN=$PWD/.venv/bin`) to install it"


def load(name: str) -> ModuleType:
    key = f"shogun_hardware_{name}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, HARDWARE / f"{name}.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[key] = mod
    spec.loader.exec_module(mod)
    return mod
