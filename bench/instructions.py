"""Instruction counts with valgrind's callgrind: the same count every run of the same binary and
input, unlike a time on this shared machine."""

from __future__ import annotations

import pathlib
import re
import shutil
import subprocess
import tempfile


def valgrind() -> str | None:
    return shutil.which("valgrind")


def per_dump(cmd: list[str], env: dict, timeout: int = 900) -> tuple[str, list[int]]:
    """Run ``cmd`` under callgrind, counting only inside the C function map_iternext and not
    inside filter_iternext, with a dump before each call of hash(): what it printed, and each
    dump's instructions in order (bench/mpy/steps.py: counted(), uncounted(), row())."""
    with tempfile.TemporaryDirectory(prefix="callgrind-") as tmp:
        out = pathlib.Path(tmp) / "cg.out"
        proc = subprocess.run(
            [valgrind() or "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             "--collect-atstart=no", "--toggle-collect=map_iternext",
             "--toggle-collect=filter_iternext", "--dump-before=mp_builtin_hash", *cmd],
            capture_output=True, text=True, env=env, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"callgrind {cmd[-1]}: {proc.stdout[-1500:]}{proc.stderr[-1500:]}")
        dumps = sorted(pathlib.Path(tmp).glob("cg.out.*"),
                       key=lambda p: int(p.name.rsplit(".", 1)[1]))
        return proc.stdout, [_summary(p) for p in dumps]


def _summary(path: pathlib.Path) -> int:
    found = re.search(r"^summary:\s*(\d+)", path.read_text(errors="replace"), re.M)
    if not found:
        raise RuntimeError(f"{path.name}: no callgrind summary line")
    return int(found.group(1))
