"""The unix twins of the tower's own MicroPython build, for counting its collection.

`make firmware-image` builds MicroPython for the ESP32 from `firmware/micropython-build/
SHOGUN_TOWER`: a ROMFS partition and the collector's settings of `shogun_gc.h` (a mark stack of
256 blocks, not 64). No ESP32 runs here, and the PyPI unix port is stock, so bench_cpu.py builds
the unix port twice from the MicroPython mirror (the one calibrate_r.py runs perf_bench from):

- ``stock``: the unix port's standard configuration. Its count of the firmware's collection
  must match the PyPI port's: that says the twin is built as the port the tests run.
- ``tower``: the same with ``shogun_gc.h`` included, the file the ESP32 build includes.
- ``stock32`` and ``tower32``: the same two built for 32-bit x86 (``gcc -m32``), the ESP32's
  word size: a pointer, a block of the heap (16 bytes) and a small int (31 bits) are the ESP32's,
  and viper's ints are 32 bits wide. The firmware's tests and simulated sessions run on
  ``stock32`` (SHOGUN_MICROPYTHON: host/shogun_tower/micropython_port.py) and the collection is
  counted on both. They need a 32-bit C library and libffi (Debian: gcc-multilib and
  libffi-dev:i386, `make bench-deps`).

All are built with symbols (`STRIP=`, callgrind needs the collector's function names) and the
port's own optimisation, into build/unix-twin/ (make is incremental: a rerun costs seconds).
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import calibrate_r

HERE = pathlib.Path(__file__).parent
ROOT = HERE.parent
VARIANT = HERE / "unix_twin_variant"
BOARD = ROOT / "firmware" / "micropython-build" / "SHOGUN_TOWER"
BUILD = ROOT / "build" / "unix-twin"
KINDS = ("stock", "tower")
KINDS_32 = ("stock32", "tower32")


class TwinUnavailable(Exception):
    """The twins cannot be built here; the message says why."""


def gc_stack_size() -> int:
    """MICROPY_ALLOC_GC_STACK_SIZE of the tower build, from its one file."""
    for line in (BOARD / "shogun_gc.h").read_text().splitlines():
        parts = line.split()
        if parts[:2] == ["#define", "MICROPY_ALLOC_GC_STACK_SIZE"]:
            return int(parts[2].strip("()"))
    raise TwinUnavailable("shogun_gc.h defines no MICROPY_ALLOC_GC_STACK_SIZE")


def _run(cmd: list[str], what: str, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, **kw)
    if proc.returncode != 0:
        raise TwinUnavailable(f"{what} failed: {(proc.stderr or proc.stdout)[-600:].strip()}")
    return proc


def _source() -> pathlib.Path:
    """The mirror's MicroPython source at its HEAD, unpacked once under build/unix-twin (the
    mirror itself is only read)."""
    mirror = calibrate_r._mirror()
    if mirror is None:
        raise TwinUnavailable("no micropython/micropython mirror (set MICROPYTHON_MIRROR)")
    git_dir = mirror / ".git" if (mirror / ".git").exists() else mirror
    if (mirror / "ports" / "unix").is_dir() and git_dir == mirror:
        return mirror  # a checkout without its history: built in place
    commit = _run(["git", f"--git-dir={git_dir}", "rev-parse", "HEAD"], "git rev-parse"
                  ).stdout.strip()
    src = BUILD / f"src-{commit[:12]}"
    if (src / "ports" / "unix" / "Makefile").is_file():
        return src
    part = BUILD / f"src-{commit[:12]}.part"  # an unpacking cut short leaves only this
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir(parents=True)
    with subprocess.Popen(["git", f"--git-dir={git_dir}", "archive", "HEAD"],
                          stdout=subprocess.PIPE) as git:
        _run(["tar", "-x", "-C", str(part)], "unpacking the mirror", stdin=git.stdout)
    part.rename(src)
    return src


def make_unix_port(src: pathlib.Path, name: str, what: str, bits32: bool = False,
                   cflags_extra: str = "") -> pathlib.Path:
    """Builds the unix port of the source tree ``src`` with the twins' variant into its folder
    ``name`` (32-bit x86 with ``bits32``); returns the binary. ``what`` names it in errors."""
    if shutil.which("make") is None or shutil.which("cc") is None:
        raise TwinUnavailable("no C compiler or make")
    jobs = f"-j{os.cpu_count() or 2}"
    _run(["make", "-C", str(src / "mpy-cross"), jobs], "building mpy-cross")
    env = None
    cross = []
    if bits32:
        # the C library's and libffi's 32-bit halves (Debian's multiarch folders)
        env = dict(os.environ, PKG_CONFIG_PATH=":".join(
            ["/usr/lib/i386-linux-gnu/pkgconfig", os.environ.get("PKG_CONFIG_PATH", "")]))
        cross = ["CC=cc -m32"]
    try:
        _run(["make", "-C", str(src / "ports" / "unix"), jobs, f"VARIANT_DIR={VARIANT}",
              f"BUILD={name}", "STRIP=", f"MPY_LIB_DIR={VARIANT}",
              f"CFLAGS_EXTRA={cflags_extra}", *cross], f"building the {what}", env=env)
    except TwinUnavailable as exc:
        if bits32:
            raise TwinUnavailable(f"{exc} (a 32-bit build needs gcc-multilib and "
                                  f"libffi-dev:i386: `make bench-deps`)") from None
        raise
    return src / "ports" / "unix" / name / "micropython"


def build(kinds: tuple[str, ...] = KINDS) -> dict[str, pathlib.Path]:
    """Each twin's binary (``kinds``: of KINDS and KINDS_32), built if needed; TwinUnavailable
    says why not."""
    gc_stack_size()  # the one file must say it
    src = _source()
    out = {}
    for kind in kinds:
        extra = f"-DSHOGUN_TOWER_BUILD -I{BOARD}" if kind.startswith("tower") else ""
        out[kind] = make_unix_port(src, f"build-shogun-{kind}", f"{kind} twin",
                                   kind in KINDS_32, extra)
    return out
