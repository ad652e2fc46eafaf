"""A second estimate of the ESP32's collection time, from instruction counts instead of seconds.

bench_cpu.py scales the unix port's CPU time for a collection by R for C code (bm_pidigits'
time here against its published ESP32 time). On this shared machine that time drifts by tens of
percent within minutes. An instruction count does not: valgrind's callgrind counts the x86
instructions the unix port executes, the same count every run of the same binary and input
(the firmware's heap after a throw in real time differs by a few objects: within 2 %).

The ESP32's side is the same published figure: bm_pidigits at N=100 M=100 on an ESP32 at
240 MHz takes norm * 1e6 / (score * 1.5) us a run, so many cycles. Divided by the instructions
one run of it takes on the unix port that counts, that is k, the ESP32's cycles per x86
instruction of the runtime's C code; a collection there of I instructions is then about I * k
cycles on the ESP32. k is a port's own: the 64-bit port from PyPI and a 32-bit build
(bench/unix_twin.py) each count both the benchmark and the collection. Both use the ESP32's
16-bit mpz digits (the unix port's Makefile sets MPZ_DIG_SIZE=16 whenever it freezes modules:
8.04M instructions a run built with 32-bit digits, 9.66M with 16, the PyPI port 10.11M).
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import tempfile

TARGET_MHZ = 240


def valgrind() -> str | None:
    return shutil.which("valgrind")


def per_call(cmd: list[str], env: dict, function: str,
             caller_callee: tuple[str, str] | None = None) -> tuple[list[int], str, int]:
    """Run ``cmd`` under callgrind; the instructions of each call of the C function
    ``function`` (and what it calls), in order; what ``cmd`` printed; and, in its last call,
    the instructions of ``caller_callee``'s callee when called by that caller (0 without)."""
    with tempfile.TemporaryDirectory(prefix="callgrind-") as tmp:
        printed = _callgrind(pathlib.Path(tmp) / "cg.out", cmd, env,
                             f"--toggle-collect={function}", f"--dump-after={function}")
        dumps = sorted(pathlib.Path(tmp).glob("cg.out.*"),
                       key=lambda p: int(p.name.rsplit(".", 1)[1]))
        part = _called_from(dumps[-1], *caller_callee) if caller_callee and dumps else 0
        return [_summary(p) for p in dumps], printed, part


def _called_from(dump: pathlib.Path, caller: str, callee: str) -> int:
    # callgrind_annotate's caller tree: a function's line ("*") follows a line per caller
    # ("<"), each with the instructions of the calls from that caller
    proc = subprocess.run(["callgrind_annotate", "--tree=caller", "--inclusive=yes",
                           "--threshold=100", str(dump)], capture_output=True, text=True,
                          timeout=300)
    callers: list[str] = []
    for line in proc.stdout.splitlines():
        if re.search(rf"\*\s+\S*:{re.escape(callee)}\b", line):
            for c in callers:
                if re.search(rf":{re.escape(caller)} \(", c):
                    return int(c.split()[0].replace(",", ""))
            return 0
        callers = callers + [line] if re.match(r"^\s*[\d,]+ .*<\s", line) else []
    return 0


def total(cmd: list[str], env: dict) -> int:
    """Every instruction ``cmd`` executes, under callgrind."""
    with tempfile.TemporaryDirectory(prefix="callgrind-") as tmp:
        out = pathlib.Path(tmp) / "cg.out"
        _callgrind(out, cmd, env)
        return _summary(out)


def _callgrind(out: pathlib.Path, cmd: list[str], env: dict, *options: str) -> str:
    proc = subprocess.run([valgrind() or "valgrind", "--tool=callgrind",
                           f"--callgrind-out-file={out}", *options, *cmd],
                          capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        raise RuntimeError(f"callgrind {cmd[-3:]}: {proc.stderr[-1500:]}")
    return proc.stdout


def _summary(path: pathlib.Path) -> int:
    found = re.search(r"^summary:\s*(\d+)", path.read_text(errors="replace"), re.M)
    if not found:
        raise RuntimeError(f"{path.name}: no callgrind summary line")
    return int(found.group(1))


def cycles_per_instruction(micropython: str, runner: pathlib.Path, folder: str,
                           bench: dict, n_mhz: int, m_kb: int, runs: int = 5) -> dict:
    """k for the runtime's C code from bm_pidigits (``bench``: its esp32_reference.json entry,
    the module extracted into ``folder``): {"instructions": per run here, "cycles": per run on
    the ESP32 at 240 MHz, "k": cycles per instruction}."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # the unix port's launcher is a Python script
    base = [micropython, str(runner), "perf_count", folder, bench["name"], str(n_mhz),
            str(m_kb)]
    none = total([*base, "0"], env)
    some = total([*base, str(runs)], env)
    per_run = (some - none) / runs
    # the run's norm is bm_params' product for these N and M (perf_runner prints it)
    norm = _norm(micropython, runner, folder, bench["name"], n_mhz, m_kb)
    us_240 = norm * 1e6 / (bench["score"] * max(bench["scale_240"]))
    cycles = us_240 * TARGET_MHZ
    return {"instructions": per_run, "cycles": cycles, "k": cycles / per_run}


def _norm(micropython: str, runner: pathlib.Path, folder: str, name: str, n_mhz: int,
          m_kb: int) -> int:
    proc = subprocess.run([micropython, str(runner), "perf_count", folder, name, str(n_mhz),
                           str(m_kb), "1"], capture_output=True, text=True, timeout=300)
    last = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    found = re.search(r'"norm":\s*(\d+)', last)
    if proc.returncode != 0 or not found:
        raise RuntimeError(f"perf_count {name}: {proc.stderr[-500:]}")
    return int(found.group(1))


def esp32_ms(instructions: float, k: float) -> float:
    return instructions * k / (TARGET_MHZ * 1000)
