"""The firmware's steps by instruction count: the loop's longest stall, the same every run.

bench_cpu.py times every step of the densest throw on the unix port and scales the time by R. On
this shared machine a step's least time moves by a third from run to run, and the longest stall
with it (1.6-2.2 ms at R high for the same code). An instruction count does not move:
cpu_worst.py --count runs the same scenario under valgrind's callgrind, which counts the x86
instructions of each step (the firmware's code inside map_iternext, the simulated board's
calls inside filter_iternext: left out), one dump a step (bench/mpy/cpu_worst.py, the top).

The ESP32's side: k, its cycles per x86 instruction, from the same published perf_bench figures
as R (bench/instructions.py: each benchmark's instructions here against its ESP32 cycles at
240 MHz; the clock's scaling as R takes it, so each benchmark gives a k low and a k high). The
bytecode benchmarks' highest k is the safe side for the firmware's bytecode and the runtime's C
code it calls; the viper_call benchmarks' for the native code the emitters made (what callgrind
finds in no object file: "???"). A step on the ESP32 is then its instructions x k / 240 MHz,
plus the real board's driver code, counted the same way (esp32_costs.py --count, board_costs),
and what bench_cpu.py charges in any case: asyncio's resumption and the buses' time.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import struct
import subprocess
import tempfile

import instructions

HERE = pathlib.Path(__file__).parent
# the count's own parts, measured in the run (cpu_worst.py: the rows labelled "count: ...")
BARE = "count: a bare step"
CALL = "count: a board call"


def count_steps(micropython: str, env: dict, heap: str, throws: int, cubes: int, seed: int,
                pacing: list[str], leak_test: bool = False) -> dict:
    """cpu_worst.py --count under callgrind: its one replay's JSON, the steps' rows (REC) and,
    for each row, (instructions, of them in native code, of them in the heap's collector).
    ``leak_test``: every function of the simulated board burns instructions (cpu_worst.py)."""
    from bench_cpu import REC

    printed, counts, files = _per_dump(
        [micropython, "-X", f"heapsize={heap}", str(HERE / "mpy" / "cpu_worst.py"), "--throws",
         str(throws), "--cubes", str(cubes), "--replays", "1", "--seed", str(seed), "--out",
         "{tmp}", "--count", *pacing, *(["--leak-test"] if leak_test else [])], env,
        "cpu_worst.py --count", 1800)
    rep = json.loads(printed.strip().splitlines()[-1])["replays"][0]
    rows = list(struct.iter_unpack(REC, files["steps0.bin"]))
    if len(counts) != len(rows):
        raise RuntimeError(f"cpu_worst.py --count: {len(counts)} dumps for {len(rows)} steps")
    return {"replay": rep, "rows": rows, "counts": counts}


# the heap's collector (py/gc.c): a step with its work in it is a collection's step
_COLLECTION = ("gc_collect", "gc_mark", "gc_sweep", "gc_deal_with_stack_overflow")


def _per_dump(cmd: list[str], env: dict, what: str, timeout: int
              ) -> tuple[str, list[tuple[int, int, int]], dict[str, bytes]]:
    """Run ``cmd`` (its "{tmp}" a scratch folder) under callgrind, counting only inside
    map_iternext and not inside filter_iternext, a dump before each call of hash(): what it
    printed, each dump's (instructions, native, the collector's), and the files it left in the
    folder."""
    with tempfile.TemporaryDirectory(prefix="counts-") as tmp:
        out = pathlib.Path(tmp) / "cg.out"
        proc = subprocess.run(
            [instructions.valgrind() or "valgrind", "--tool=callgrind",
             f"--callgrind-out-file={out}", "--collect-atstart=no",
             "--toggle-collect=map_iternext", "--toggle-collect=filter_iternext",
             "--dump-before=mp_builtin_hash", *(a.replace("{tmp}", tmp) for a in cmd)],
            capture_output=True, text=True, env=env, timeout=timeout)
        if proc.returncode != 0:
            raise RuntimeError(f"{what} under callgrind: {proc.stdout[-1500:]}"
                               f"{proc.stderr[-1500:]}")
        dumps = sorted(pathlib.Path(tmp).glob("cg.out.*"),
                       key=lambda p: int(p.name.rsplit(".", 1)[1]))
        names: dict[str, str] = {}
        counts = [_dump(p, names) for p in dumps]
        files = {p.name: p.read_bytes() for p in pathlib.Path(tmp).iterdir()
                 if not p.name.startswith("cg.out")}
    return proc.stdout, counts, files


def _dump(path: pathlib.Path, names: dict[str, str]) -> tuple[int, int, int]:
    """One dump's instructions; of them those in code of no object file (the native code the
    emitters made at run time), and those in the heap's collector. (callgrind's format: an
    "ob=" line names the object of the costs below it, an "fn=" line their function; a cost
    line after "calls=" is the call's inclusive cost, not own cost; "(n) name" gives a name its
    number, used alone afterwards, in every later dump too.)"""
    total = native = heap = 0
    summary = None
    ob = ""
    fn = ""
    after_call = False
    with open(path, errors="replace") as f:
        for line in f:
            c = line[0]
            if c.isdigit() or c in "+-*":
                if after_call:
                    after_call = False
                    continue
                cost = int(line.split()[-1])
                total += cost
                if ob == "???":
                    native += cost
                elif fn.startswith(_COLLECTION):
                    heap += cost
            elif line.startswith(("fn=", "cfn=")):
                found = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if found is None:
                    continue
                if found.group(2) is not None:
                    names["fn" + found.group(1)] = found.group(2)
                if c == "f":
                    fn = names.get("fn" + found.group(1), "")
            elif line.startswith(("ob=", "cob=")):
                found = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.rstrip("\n"))
                if found is None:
                    continue
                if found.group(2) is not None:
                    names[found.group(1)] = found.group(2)
                if c == "o":
                    ob = names.get(found.group(1), "")
            elif line.startswith("calls="):
                after_call = True
            elif line.startswith("summary:"):
                summary = int(line.split()[1])
    if summary is not None and summary != total:
        raise RuntimeError(f"{path.name}: costs add up to {total}, its summary says {summary}")
    return total, native, heap


def firmware_instructions(counted: dict) -> tuple[list[tuple[int, int] | None], dict]:
    """Each row's firmware instructions (all, native, the collector's), None for the count's own
    rows: the least bare step (the stand-in asyncio's resumption and await, the profiler's
    calls) taken out of every task's step, the least board call's wrapper out of each board
    call."""
    rep = counted["replay"]
    task = rep["names"]
    rows, counts = counted["rows"], counted["counts"]
    # (a task's first step starts it, its last ends it with no await and no call: neither is a
    # resumption as the firmware's steps are)
    bare = [c[0] for r, c in zip(rows, counts, strict=True) if task[r[0]] == BARE][1:-1]
    call = [c[0] for r, c in zip(rows, counts, strict=True) if task[r[0]] == CALL and r[3]][1:]
    if not bare or not call:
        raise RuntimeError("cpu_worst.py --count: no steps of its own to measure the count by")
    step_own = min(bare)
    wrapper = max(0, min(call) - step_own)
    out: list[tuple[int, int] | None] = []
    from bench_cpu import F_CALLBACK

    for r, (total, native, heap) in zip(rows, counts, strict=True):
        if task[r[0]].startswith("count:"):
            out.append(None)
            continue
        own = 0 if r[1] & F_CALLBACK else step_own
        fw = max(0, total - own - r[3] * wrapper)
        out.append((fw, min(native, fw), heap))
    return out, {"step_own": step_own, "wrapper": wrapper}


# The board's native functions (boards/esp32.py: the viper edge handler, take_edges, the sample
# callback, wake_in, the serial drain) and the C dispatch of a soft callback: bench_cpu.py's
# board_us charges them at the native R, the ESP32's cost of native code and of the runtime's C
# it calls (viper_call's figure holds both: a native loop calling a viper function through the
# runtime); here likewise at the native k, their whole count.
NATIVE_BOARD = ("take_edges_none", "take_edges_4", "edge_irq", "sample_callback", "wake_in",
                "schedule")


def board_costs(micropython: str, env: dict, fake_machine: str, kb: float, kn: float) -> dict:
    """bench/mpy/esp32_costs.py --count under callgrind: the real board's driver code per call
    (boards/esp32.py on the test fakes, the fakes left out), in ESP32 us at 240 MHz: each
    measurement's least count, less the count's own empty call and each fake call's wrapper;
    NATIVE_BOARD's and the serial drain's bytes x ``kn``, the rest's bytecode and C x ``kb`` and
    native code x ``kn``. The same keys as esp32_costs()."""
    text, counts, _files = _per_dump(
        [micropython, "-X", "heapsize=1M", str(HERE / "mpy" / "esp32_costs.py"), fake_machine,
         "--count"], env, "esp32_costs.py --count", 900)
    printed = json.loads(text.strip().splitlines()[-1])
    counted = printed["counted"]
    if len(counts) != len(counted):
        raise RuntimeError(f"esp32_costs.py --count: {len(counts)} dumps for {len(counted)} "
                           f"measurements")
    least: dict[str, tuple[int, int]] = {}
    for (name, calls), (total, native, _heap) in zip(counted, counts, strict=True):
        least.setdefault(name, (total, native, calls))
        if total < least[name][0]:
            least[name] = (total, native, calls)
    wrapper = max(0, least["wrapped"][0] - least["bare"][0])
    empty = least["empty"][0]

    def us(total: float, native: float) -> float:
        return ((total - native) * kb + native * kn) / instructions.TARGET_MHZ

    costs: dict = {}
    own: dict[str, int] = {}
    for name, (total, native, calls) in least.items():
        if name in ("bare", "wrapped", "empty") or ":" in name:
            continue
        own[name] = max(0, total - empty - calls * wrapper)
        costs[name] = us(own[name], own[name] if name in NATIVE_BOARD else min(native,
                                                                              own[name]))
    # serial_read: its bytecode and a byte (serial_receive_1); each byte more is a round of the
    # native drain (serial_receive_12: eleven more)
    drained = max(0, own["serial_receive_12"] - own["serial_receive_1"])
    costs["serial_receive_12"] = costs["serial_receive_1"] + us(drained, drained)
    for name, more, less in (("asyncio_io", "reads", "sleeps"),
                             ("schedule", "scheduled", "called")):
        a, b = least[f"{name}:{more}"], least[f"{name}:{less}"]
        n = printed[name]
        costs[name] = max(0.0, us(a[0] - b[0], max(0, a[1] - b[1])) / n)
    costs["errors"] = printed.get("errors", [])
    return costs


def cycles_per_instruction(micropython: str, runner: pathlib.Path, folder: str,
                           benchmarks: list[dict], n_mhz: int, m_kb: int) -> list[dict]:
    """k low and high for each benchmark (its esp32_reference.json entry, the module in
    ``folder``): the ESP32's cycles per x86 instruction here, the clock's scaling as R takes it."""
    out = []
    for bench in benchmarks:
        got = instructions.cycles_per_instruction(micropython, runner, folder, bench, n_mhz,
                                                  m_kb, runs=3)
        lo_scale, hi_scale = bench["scale_240"]
        # (instructions.py's cycles are at the fastest scaling: the most the clock gives)
        k_fast = got["cycles"] / got["instructions"]
        out.append({"name": bench["name"], "native": bool(bench.get("native")),
                    "instructions": got["instructions"], "k_low": k_fast,
                    "k_high": k_fast * hi_scale / lo_scale})
    return out


def env_for(micropython_path: list[str]) -> dict:
    env = dict(os.environ, PYTHONHASHSEED="0")  # (the unix port's launcher is Python)
    env["MICROPYPATH"] = os.pathsep.join(micropython_path)
    return env
