"""The firmware's CPU budget on a 240 MHz ESP32, estimated from the unix port.

1. R, the calibration ratio (bench/calibrate_r.py): published ESP32 timings against the same
   benchmarks measured here now, in CPU time.
2. The worst case (bench/mpy/cpu_worst.py): the whole firmware (app.main: link, detector, colour
   sampling, score track) in virtual time on the simulated board; throws of 40 cubes at 3 ms gaps
   with the LED track animating and the host sending ACKs, scores, STATUS and PING. Each step of
   each task is timed; the simulated board's own time is taken out (every board method is timed
   and subtracted), and so is the stand-in asyncio's await (step 3 charges a real resumption).
   A split run gives each step's share of native and viper code (bench/emitters.py). Each
   step's figure is the least of several identical replays, so another process taking the core
   for a moment does not count.
   This machine's speed drifts by tens of percent within minutes (a shared virtual machine): the
   bench runs --rounds rounds of (R, the worst case, the board's driver costs) one right after
   the other and keeps each side's least disturbed measurement over all of them (each
   benchmark's fastest run, each step's least time); each round's own load is listed too.
3. The ESP32 estimate: firmware time x R (low and high; its native share x the native R), a
   whole asyncio resumption per task step (x its own R), plus the time the real board waits on
   its buses, which R does not scale: the TCS34725 over I2C at 400 kHz and the UART that
   sends the WS2812B strip's frames. Then the loop's timeline is replayed with those durations
   to find the longest gap between two colour samples the firmware actually gets (the sensor
   ends an integration every 2.4 ms and keeps only the latest).
4. The same scenario by instruction count (bench/step_counts.py, with valgrind and the mirror):
   each step's x86 instructions x the ESP32's cycles per instruction from the same published
   figures, the same every run: the load and the longest stall without this machine's noise.
   Counted twice where a 32-bit unix twin can be built (bench/unix_twin.py): on the 64-bit port
   the tests run and on the 32-bit one (the ESP32's word size), each with its own k.

Prints a table per task and one summary line; exit status 1 when the load budget is not met.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import struct
import subprocess
import sys
import tempfile

from shogun_tower.device.link import ACK_AT_ONCE, ACK_EVERY_S
from shogun_tower.device.micropython_port import native_arch
from shogun_tower.device.romfs import build_image, launch_command
from shogun_tower.sim_device import compile_firmware, firmware_dir, micropython_executable

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))
import calibrate_r  # noqa: E402
import emitters  # noqa: E402
import instructions  # noqa: E402
import mark_depth  # noqa: E402
import step_counts  # noqa: E402
import unix_twin  # noqa: E402

REC = "<BBBBIiIIBBBBHBIBBi"
# the scripted host paces its ACKs as the real one does
PACING = ["--ack-every-us", str(round(ACK_EVERY_S * 1e6)), "--ack-at-once", str(ACK_AT_ONCE)]
F_POLL, F_SAMPLE, F_STRIP, F_TX, F_CALL, F_BURST, F_CALLBACK = 1, 2, 4, 8, 16, 32, 64
F_FLAG_WAKE = 128
# The worst-case run's heap, in 32-bit words as an ESP32's (about 128wK on an ESP32-WROOM): more,
# as it holds the firmware and the simulated board compiled from source and the profiler besides
# (at 136wK importing the board found no 1280-byte run since the throw's end woke the link and
# the track, 27 Nov; at 160wK the third replay's throw found no 4816-byte run for the simulated
# board's blocks once the count's code came, 27 Nov). The firmware's own heap, for its
# collection: GC_HEAP.
HEAP = "192wK"

# The buses' own time on the real board (not scaled by R). I2C at 400 kHz: 9 bits a byte plus
# start/stop; ESP-IDF's I2C master adds about 50 us a transaction (an assumption, see
# docs/firmware.md: a builder's first measurement).
I2C_BIT_US = 2.5
I2C_TRANSACTION_US = 50.0
POLL_US = I2C_TRANSACTION_US + I2C_BIT_US * (4 * 9 + 3)           # status: 1 byte
SAMPLE_US = 2 * I2C_TRANSACTION_US + I2C_BIT_US * (13 * 9 + 5)     # 8-byte burst + clear
BURST_US = I2C_TRANSACTION_US + I2C_BIT_US * (11 * 9 + 3)          # the timer's: burst only
# The strip is a UART's TX line (drivers/ws2812_uart.py): its 28.8 us an LED on the wire go out
# from the UART's interrupt while the loop runs. The loop pays ESP-IDF's uart_write_bytes (the
# TX mutex, the frame copied into the ring buffer in two pieces, the interrupt enabled) and the
# interrupt's refills: the FIFO holds 128 bytes and is topped up when fewer than 10 are left
# (UART_EMPTY_THRESH_DEFAULT), 8 bytes an LED. Both are assumptions (docs/firmware.md: a
# builder's measurement); the refills are charged to the write's step, as if they came at once.
STRIP_COPY_US = 40.0
UART_REFILL_US = 15.0
UART_REFILL_BYTES = 118
INTEGRATION_US = 2400
EARLY_US = 300          # boards/esp32.py _EARLY_US and _POLL_US (the colour task's period)
PERIOD_US = 1000

BUDGET_LOAD = 50.0
BUDGET_STALL_MS = 2.0
BUDGET_GAP_MS = 4.8
BUDGET_IDLE = 10.0


def _source_env(*first: pathlib.Path, frozen: bool = True) -> dict[str, str]:
    """The environment for a script on the unix port: MICROPYPATH ``first``, then the firmware's
    and the shared modules' sources, then (``frozen``) the port's frozen modules (asyncio)."""
    root = firmware_dir()
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([*map(str, first), str(root), str(root.parent / "common"),
                                          *([".frozen"] if frozen else [])])
    return env


def run_worst(throws: int, cubes: int, replays: int, seed: int, leak_test: bool = False,
              escape_test: bool = False, split: bool = False) -> dict:
    """Run bench/mpy/cpu_worst.py; returns its JSON with each replay's steps read in.
    ``split``: each step's time in the firmware's native and viper code measured apart
    (bench/emitters.py; the escape test checks that split too). Its wrappers cost the steps
    time of their own, so a split run gives only the native share of each step: the plain
    runs give the steps' times."""
    env = _source_env(HERE / "mpy", frozen=False)
    with tempfile.TemporaryDirectory(prefix="cpu-worst-") as tmp:
        spec = pathlib.Path(tmp) / "emitters.json"
        spec.write_text(json.dumps(dict(emitters.scan(), modules=list(emitters.MODULES))))
        # (the escape test wraps every firmware function and compiles the ESP32's sensor
        # driver from source besides, the leak test every function of the board, the split
        # run the firmware's native functions: more heap than the board's, which only they
        # need; none of them gives the figures a collection's time)
        heap = "192wK" if escape_test or leak_test or split else HEAP
        cmd = [micropython_executable(), "-X", f"heapsize={heap}", str(HERE / "mpy" /
                                                                    "cpu_worst.py"),
               "--throws", str(throws), "--cubes", str(cubes), "--replays", str(replays),
               "--seed", str(seed), "--out", tmp, *PACING]
        if split or escape_test:
            cmd += ["--emitters", str(spec)]
        if leak_test:
            cmd.append("--leak-test")
        if escape_test:
            cmd.append("--escape-test")
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
        if proc.returncode != 0:
            raise SystemExit(f"cpu_worst.py failed:\n{proc.stdout[-2000:]}\n"
                             f"{proc.stderr[-3000:]}")
        out = json.loads(proc.stdout.strip().splitlines()[-1])
        for rep in out["replays"]:
            rep["rows"] = list(struct.iter_unpack(REC, pathlib.Path(rep["file"]).read_bytes()))
    return out


# The heap of an ESP32's MicroPython (1.21+: 56 KB at start, as much again added when it runs
# out; "w": in 32-bit words, so the same number of blocks here): the ROMFS form fits the first
# (92 KB live here with the fakes, about half on the ESP32), the .mpy form needs the second.
GC_HEAP = {"mpy": "112wK", "romfs": "56wK"}
# The same on a 32-bit twin: the ROMFS form with the fakes of `machine` (12.6 KB here; C types in
# the ESP32's ROM) needs more than 56K: 56K and as much as they take.
GC_HEAP_32 = {"mpy": "112K", "romfs": "72K"}


def _gc_command(mpy: pathlib.Path | None, image: pathlib.Path | None,
                executable: pathlib.Path | None = None,
                heap: str | None = None) -> tuple[list[str], dict]:
    """gc_cost.py's command: on the PyPI unix port, or on ``executable`` (a unix twin of the
    tower's build, bench/unix_twin.py), which maps the ROMFS image itself (firmware/sim_rom.py);
    in an ESP32's heap unless ``heap`` says otherwise."""
    env = dict(os.environ)
    bits32 = executable is not None and native_arch(str(executable)) == "x86"
    heap = heap or (GC_HEAP_32 if bits32 else GC_HEAP)["romfs" if image is not None else "mpy"]
    script = [str(HERE / "mpy" / "gc_cost.py"), str(HERE.parent / "tests" / "firmware" /
                                                     "fake_machine")]
    args = ["-X", f"heapsize={heap}", *script]
    if image is None:
        env["MICROPYPATH"] = os.pathsep.join([str(mpy), str(mpy.parent / "common"),
                                              ".frozen"])
        return [str(executable or micropython_executable()), *args], env
    env["MICROPYPATH"] = ".frozen"
    return launch_command(image, args, firmware_dir() / "sim_rom.py",
                          str(executable) if executable else None), env


def gc_instructions(mpy: pathlib.Path | None = None,
                    image: pathlib.Path | None = None,
                    executable: pathlib.Path | None = None) -> dict:
    """The same run as gc_costs under callgrind (bench/instructions.py): the instructions of
    the last collection, the fakes' share taken out as there (``fw``: the link's collection
    step), and of the last scan of the heap's table (gc_info, what gc.mem_alloc runs)."""
    cmd, env = _gc_command(mpy, image, executable)
    env["PYTHONHASHSEED"] = "0"
    # (gc_mark_subtree called by gc_collect_end: the mark again after its stack overflowed)
    collections, printed, again = instructions.per_call(
        cmd, env, "gc_collect", ("gc_collect_end", "gc_mark_subtree"))
    scans, _, _ = instructions.per_call(cmd, env, "gc_info")
    out = json.loads(printed.strip().splitlines()[-1])
    share = (out["live"] - out["fakes"]) / out["live"]
    return {"collection": collections[-1], "scan": scans[-1],
            "fw": collections[-1] * share, "live": out["live"],
            "fakes": out["fakes"], "overflow": again, "fw_no_overflow":
            (collections[-1] - again) * share}


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def print_counted_collections(cpi: dict, counted: dict, twins: dict | str,
                              counted32: dict | str) -> None:
    """The collection between throws by instruction count x k, the ESP32's cycles per x86
    instruction of C code (bench/instructions.py), in table rows: counted on the 64-bit PyPI
    port and, where it could be built, on a 32-bit twin (the ESP32's word size) with its own k;
    a row's low and high are the two estimates, its verdict the higher."""
    by32 = {} if isinstance(counted32, str) else counted32
    k32 = by32["cpi"]["k"] if by32 else None

    def counted_row(label: str, c: dict, c32: dict | None, note: str) -> None:
        ms64 = instructions.esp32_ms(c["fw"], cpi["k"])
        ms = [ms64] + ([instructions.esp32_ms(c32["fw"], k32)] if c32 else [])
        both = f"64-bit {ms64:.2f} ms" + (f", 32-bit {ms[1]:.2f} ms ({c32['fw'] / 1000:.0f}k)"
                                          if c32 else "")
        print(f"{label:44} {c['fw'] / 1000:9.0f}k {min(ms):12.2f} {max(ms):13.2f} "
              f"{BUDGET_STALL_MS:8.1f}  {verdict(max(ms) <= BUDGET_STALL_MS)} ({both}; {note})")

    def marks(c: dict) -> str:
        return (f"{c['overflow'] / 1000:.0f}k of them the mark again after its stack overflowed"
                if c["overflow"] else "no mark again: the stack held")

    for form, label in (("deploy", "make deploy"), ("romfs", "deploy-romfs")):
        c = counted[form]
        counted_row("collection, by instructions, " + label, c, by32.get(form),
                    f"{c['collection'] / 1000:.0f}k instructions with the fakes, {marks(c)}; "
                    f"a scan {c['scan'] / 1000:.0f}k: "
                    f"{instructions.esp32_ms(c['scan'], cpi['k']):.2f} ms")
    # MicroPython's mark stack holds 64 blocks (MICROPY_ALLOC_GC_STACK_SIZE, the ESP32 port's
    # too): past that it marks the whole heap again. The tower's own build has 256
    # (firmware/micropython-build), counted on its unix twins (bench/unix_twin.py).
    if isinstance(twins, str):
        print(f"  (the tower's build, {unix_twin.gc_stack_size()} blocks of mark stack: "
              f"not counted, {twins})")
        for form, label in (("deploy", "make deploy"), ("romfs", "deploy-romfs")):
            c = counted[form]
            counted_row("  with a larger mark stack, " + label,
                        dict(c, fw=c["fw_no_overflow"]), None,
                        "at most: the same without the second mark")
    else:
        stock = twins["stock"]
        for form, label in (("romfs", "deploy-romfs"), ("deploy", "make deploy")):
            c = twins[form]
            counted_row("  the tower's build, " + label, c, by32.get("tower " + form),
                        f"its unix twins, MICROPY_ALLOC_GC_STACK_SIZE "
                        f"{unix_twin.gc_stack_size()}: {c['collection'] / 1000:.0f}k with the "
                        f"fakes, {marks(c)}")
        print(f"  (the tower's build: `make firmware-image`, firmware/micropython-build; its "
              f"stock twin counts {stock['collection'] / 1000:.0f}k for deploy-romfs, "
              f"{stock['overflow'] / 1000:.0f}k of them a mark again, the PyPI port "
              f"{counted['romfs']['collection'] / 1000:.0f}k: the twins are built as the port "
              f"the tests run)")
    print(f"  (by instructions: callgrind's count x k, the ESP32's cycles per x86 instruction "
          f"of C code: {cpi['name']} takes {cpi['cycles'] / 1e6:.2f}M cycles a run on an ESP32 "
          f"at 240 MHz, {cpi['instructions'] / 1e6:.2f}M instructions on the 64-bit port: k "
          f"{cpi['k']:.2f}" + (f"; {by32['cpi']['instructions'] / 1e6:.2f}M on the 32-bit "
                               f"twin: k {k32:.2f}" if by32 else "")
          + "; the same 16-bit mpz digits as the ESP32's on both)")
    if not by32:
        print(f"  (the 32-bit twins: not counted, {counted32})")
    else:
        for form, label in (("deploy", "make deploy"), ("romfs", "deploy-romfs")):
            c = by32[form]
            print(f"  (32-bit, {label}: {c['collection'] / 1000:.0f}k with the fakes, "
                  f"{marks(c)}; live {c['live'] / 1024:.1f} KB with "
                  f"{c['fakes'] / 1024:.1f} KB of fakes)")


def gc_costs(mpy: pathlib.Path | None = None, image: pathlib.Path | None = None,
             executable: pathlib.Path | None = None) -> dict:
    """bench/mpy/gc_cost.py: the firmware's own collection after a throw, on the real board's
    code with the test fakes, from its .mpy files in ``mpy`` (sim_device.compile_firmware: the
    bytecode in the heap, as `make deploy` leaves it) or from a ROMFS ``image`` of it (`make
    deploy-romfs`), on the PyPI unix port or a unix twin (``executable``)."""
    cmd, env = _gc_command(mpy, image, executable)
    # The throw is the board's inject pin wired to the beam through the fakes, in real time: a
    # busy machine may stop the process inside a 7 ms pulse, and a longer block can count as two
    # touching cubes (41 cubes, once, on 27 Nov). Such a run is done again, up to three times.
    for _ in range(3):
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
        if proc.returncode != 0:
            raise SystemExit(
                f"gc_cost.py failed:\n{proc.stdout[-1000:]}\n{proc.stderr[-3000:]}")
        out = json.loads(proc.stdout.strip().splitlines()[-1])
        if out["cubes"] == 40:
            break
    else:
        raise SystemExit(f"gc_cost.py: the throw gave {out['cubes']} cubes, not 40, three times")
    # the fakes' objects are no board's: their share of what the collection marks taken out
    out["fw_us"] = out["gc_us"] * (out["live"] - out["fakes"]) / out["live"]
    return out


# A collection between throws at its worst moment: the loop held up this long (ms) as a throw's
# first cube breaks the upper beam (bench/mpy/collection_stall.py)
STALLS_MS = (0, 2, 4, 6, 8, 10, 12, 14, 16, 20)


def collection_harm(throws: int, cubes: int = 20) -> dict[int, dict]:
    """bench/mpy/collection_stall.py: for each of STALLS_MS, ``throws`` throws of ``cubes``
    cubes of the faithful simulated outlet with the loop held up from each one's first edge,
    played as on the ESP32 (simtime.play: the detector's wakes, the board's colour timer); its
    counts against the truth (tests/firmware/esp32_play.py's tally)."""
    tests = HERE.parent / "tests" / "firmware"
    env = _source_env(tests)
    proc = subprocess.run([micropython_executable(), "-X", "heapsize=1M",
                           str(HERE / "mpy" / "collection_stall.py"), str(throws), str(cubes),
                           *(str(ms * 1000) for ms in STALLS_MS)],
                          capture_output=True, text=True, env=env, cwd=tests, timeout=3600)
    if proc.returncode != 0:
        raise SystemExit(f"collection_stall.py failed:\n{proc.stdout[-2000:]}\n"
                         f"{proc.stderr[-2000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return {ms: out[str(ms * 1000)] for ms in STALLS_MS}


def harmless(row: dict, base: dict) -> bool:
    """A stall's throws as without it: none with its count off, no cube in another colour,
    and cubes unknown no more often, within one in a hundred, both each throw's first cubes
    (those a stall at the start can cost) and all."""
    return (row["count_off"] == 0 and row["wrong"] == 0
            and row["first_bad"] <= base["first_bad"] + row["first"] / 100
            and row["unknown"] <= base["unknown"] + row["cubes"] / 100)


def print_collection_harm(rows: dict[int, dict], throws: int, worst_ms: float | None) -> bool:
    """The table of collection_harm (``throws`` a row) and its verdict: the longest stall that
    costs nothing against ``worst_ms``, the longest collection estimated for an ESP32. True when
    harmless."""
    base = rows[0]
    print(f"\nA collection between throws at its worst moment: the loop held up as a throw's "
          f"first cube breaks the upper beam (virtual time, the ESP32 board's colour timer "
          f"slow until a cube can be in view: simtime.play), {throws} throws "
          f"of {base['cubes'] // throws} cubes of the faithful outlet a row:")
    print(f"{'stall (ms)':>10} {'cubes':>6} {'count off':>9} {'misclassified':>13} "
          f"{'unknown':>7} {'first 3 not right':>17}")
    longest = None
    broken = False  # (the longest is the last of the harmless stalls from 0 up)
    for ms, r in rows.items():
        ok = harmless(r, base)
        broken = broken or not ok
        if not broken:
            longest = ms
        print(f"{ms:10d} {r['cubes']:6d} {r['count_off']:9d} {r['wrong']:13d} "
              f"{r['unknown']:7d} {r['first_bad']:17d}  {'as without' if ok else 'harm'}")
    if worst_ms is None:
        print(f"longest stall that costs no cube: {longest} ms (the collection not estimated)")
        return True
    ok = longest is not None and worst_ms <= longest
    print(f"longest stall that costs no cube: {longest} ms; the longest collection estimated "
          f"for an ESP32 (stock firmware, `make deploy`, R high): {worst_ms:.1f} ms: "
          + (f"harmless, a margin of {longest / worst_ms:.1f}x" if ok else "NOT harmless"))
    return ok


def esp32_costs() -> dict:
    """bench/mpy/esp32_costs.py: the real board's driver code per call, unix-port us."""
    env = _source_env()
    fake = HERE.parent / "tests" / "firmware" / "fake_machine"
    proc = subprocess.run([micropython_executable(), "-X", "heapsize=1M",
                           str(HERE / "mpy" / "esp32_costs.py"), str(fake)],
                          capture_output=True, text=True, env=env, timeout=300)
    if proc.returncode != 0:
        raise SystemExit(f"esp32_costs.py failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def board_us(row: tuple, costs: dict) -> tuple[float, float]:
    """What boards/esp32.py's own code would have cost in this step (unix us): the simulated
    board stood in for it. Two parts: bytecode, and native code (the viper edge handler,
    take_edges and sampling callback, the native serial drain and wake_in, and the C dispatch
    of a soft callback), which the ESP32 runs at the native R: each is timed on its own here,
    not mixed with bytecode."""
    (_task, flags, leds, _calls, _start, _ns, _sample, _alloc, takes, edges, counts, reads, rx,
     writes, _gc, wakes, polls, _native) = row

    def c(name: str) -> float:
        return costs.get(name) or 0.0

    t = 0.0
    native = 0.0
    if flags & F_CALLBACK:
        native += c("sample_callback") + c("schedule")
    elif flags & F_SAMPLE:
        t += c("colour_sample")
    elif flags & F_CALL:
        t += c("colour_poll")
    native += takes * c("take_edges_none") + edges * (
        c("edge_irq") + max(0.0, c("take_edges_4") - c("take_edges_none")) / 4)
    t += counts * c("beam_count")
    # serial_receive: asyncio's poller wakes the task (asyncio_io beyond a plain resumption;
    # not in a throw, where the link reads on a clock), then the first byte (serial_read's
    # bytecode) and one more round of the native drain per byte waiting
    t += reads * c("serial_receive_1") + polls * c("asyncio_io")
    if flags & F_FLAG_WAKE and not polls:
        t += c("asyncio_io")  # a ThreadSafeFlag's wait: asyncio's poller too (the edge flag)
    native += max(0, rx - reads) * max(
        0.0, c("serial_receive_12") - c("serial_receive_1")) / 11
    t += writes * c("serial_write")
    native += wakes * c("wake_in")   # the one-shot timer set up (its callback sets a flag)
    if flags & F_STRIP:
        t += c("strip_write_81") * leds / 81
    return t, native


def firmware_steps(out: dict, costs: dict | None = None,
                   split: dict | None = None) -> tuple[dict, list[tuple]]:
    """One replay's steps with each step's firmware time (us) the least over all replays, plus
    the real board's driver code (``costs``): rows of (task, flags, leds, start_us,
    firmware_us, sample_end, bytes allocated, us of it in the firmware's collections and scans
    of the heap (gc),
    native_us: the board's native driver code, apart, fw_native_us: the part of the firmware's
    own time in its native and viper code). That part is the step's native share in the
    ``split`` run's replay where the step took least (none without one: all bytecode, the
    larger R)."""
    ov = out["overheads"]
    reps = out["replays"]
    base = reps[0]

    def us_in(rep: dict, row: tuple) -> float:
        return max(0.0, _step_ns(row, rep.get("overheads", ov)) / 1000)

    aligned = all(len(r["rows"]) == len(base["rows"]) and
                  all(a[0] == b[0] and a[4] == b[4] for a, b in zip(r["rows"], base["rows"],
                                                                     strict=True))
                  for r in reps[1:])
    shares = _native_shares(base, split) if split else None
    base["split_aligned"] = shares is not None
    rows = []
    for i, row in enumerate(base["rows"]):
        if aligned:
            best = min(us_in(r, r["rows"][i]) for r in reps)
        else:
            best = us_in(base, row)
        fw_native = best * shares[i] if shares else 0.0
        alloc = max(0, round(row[7] - row[3] * ov["wrap_alloc"]))
        gc_us = row[14] / 1000
        if aligned:
            gc_us = min(r["rows"][i][14] for r in reps) / 1000
        native = 0.0
        if costs:
            code, native = board_us(row, costs)
            best += code
        rows.append((row[0], row[1], row[2], row[4], max(best, gc_us), row[6], alloc, gc_us,
                     native, fw_native))
    base["aligned"] = aligned
    return base, rows


def _step_ns(row: tuple, o: dict) -> float:
    """A step's firmware ns without what the bench itself put in it: each timed board call's
    wrapper, half a pair of clock readings, and in a task's step the stand-in asyncio's await
    machinery (the ESP32's whole resumption is charged apart: asyncio_rate)."""
    ns = row[5] - row[3] * o["wrap_leak_ns"] - o["clock_pair_ns"] / 2
    if not row[1] & F_CALLBACK:
        ns -= o.get("await_ns", 0.0)
    return ns


def _native_shares(base: dict, split: dict) -> list[float] | None:
    """Each step's share of native code in the split run's replay where that step took least
    time (its least disturbed one, as each step's time is its least over the replays: the
    least share over all replays took whatever disturbed the bytecode part of a replay), or
    None when its steps are not the same as the plain run's."""
    ov = split["overheads"]
    best: list[tuple[float, float]] | None = None  # (the step's least total, its share then)
    for rep in split["replays"]:
        rows = rep["rows"]
        if len(rows) != len(base["rows"]) or any(
                a[0] != b[0] or a[4] != b[4] for a, b in zip(rows, base["rows"], strict=True)):
            return None
        o = rep.get("overheads", ov)
        mine = []
        for row in rows:
            total = _step_ns(row, o)
            mine.append((total, min(1.0, max(0.0, row[17] / total)) if total > 0 else 0.0))
        best = mine if best is None else [a if a[0] <= b[0] else b
                                          for a, b in zip(best, mine, strict=True)]
    return [share for _total, share in best] if best is not None else None


def io_us(flags: int, leds: int) -> float:
    t = 0.0
    if flags & F_POLL:
        t += POLL_US
    if flags & F_SAMPLE:
        t += SAMPLE_US
    if flags & F_BURST:
        t += BURST_US
    if flags & F_STRIP:
        t += STRIP_COPY_US + UART_REFILL_US * -(-8 * leds // UART_REFILL_BYTES)
    return t


def analyse(base: dict, rows: list[tuple], asyncio_us: float, k: float,
            window: tuple[int, int] | None = None, k_switch: float | None = None,
            k_native: float | None = None) -> dict:
    """Figures with firmware time scaled by ``k`` (1: the unix port; R: the ESP32); bus time
    is added only for the ESP32 (k > 1). asyncio's own switching (``asyncio_us`` a step here)
    is scaled by ``k_switch`` (default ``k``): the ratio of the one benchmark that times
    exactly that, a resumption (asyncio_rate); the board's native driver code by ``k_native``
    (default ``k``): the viper_call benchmarks' R. ``window``: the throw to report (default:
    the densest at this k). A row is (task, flags, leds, start_us, firmware_us, sample_end,
    bytes allocated, us of it in gc.collect(), native_us, fw_native_us): the firmware's own
    native and viper code (fw_native_us of firmware_us) is scaled by ``k_native`` too."""
    names = base["names"]
    io = k > 1
    windows = base["windows"]
    switch_us = asyncio_us * (k if k_switch is None else k_switch)
    kn = k if k_native is None else k_native

    def dur(r: tuple) -> float:
        # a timer's callback is no asyncio step: no task switch for it
        switch = 0.0 if r[1] & F_CALLBACK else switch_us
        return (r[4] - r[9]) * k + (r[8] + r[9]) * kn + switch + (
            io_us(r[1], r[2]) if io else 0.0)

    # the densest throw: the highest load over its beam-active time
    best = None
    for t0, t1 in ([window] if window else windows):
        inside = [r for r in rows if t0 <= r[3] < t1]
        load = sum(dur(r) for r in inside) / (t1 - t0)
        if best is None or load > best[0]:
            best = (load, t0, t1, inside)
    load, t0, t1, inside = best
    per_task = {n: 0.0 for n in names}
    bus = {n: 0.0 for n in names}
    steps = {n: 0 for n in names}
    alloc = {n: 0 for n in names}
    own = {n: [0.0, 0.0] for n in names}  # the firmware's own time (unix us): all, native
    for r in inside:
        n = names[r[0]]
        alloc[n] += r[6]
        per_task[n] += dur(r)
        own[n][0] += r[4]
        own[n][1] += r[9]
        if io:
            bus[n] += io_us(r[1], r[2])
        steps[n] += 1
    stall = max(inside, key=dur)
    worst = {n: 0.0 for n in names}  # each task's longest step in the throw (us)
    over = 0                          # steps over the stall budget
    for r in inside:
        d = dur(r)
        worst[names[r[0]]] = max(worst[names[r[0]]], d)
        if d > BUDGET_STALL_MS * 1000:
            over += 1
    got, first_fast = _samples_got(rows, dur, k, names, t0, t1)
    gaps = [b - a for (a, sa), (b, _sb) in zip(got, got[1:], strict=False)
            if t0 <= sa < t1]
    idle_time = sum(b - a for a, b in base["idle"])
    idle_busy = sum(dur(r) for r in rows for a, b in base["idle"] if a <= r[3] < b)
    # the heap's work (the firmware's own collections and scans of the heap's table, between
    # throws) is C code whose time follows the heap: apart (its figures from gc_cost.py)
    no_gc = [r for r in rows if not r[7]]
    overall_stall = max(no_gc or rows, key=dur)
    gc_rows = [r for r in rows if r[7]]
    return {
        "window": (t0, t1), "load": 100 * load, "span_ms": (t1 - t0) / 1000, "per_task_ms": {
            n: v / 1000 for n, v in per_task.items()}, "bus_ms": {
            n: v / 1000 for n, v in bus.items()}, "steps": steps, "alloc": alloc,
        "native_share": {n: (v[1] / v[0] if v[0] else 0.0) for n, v in own.items()},
        "stall_ms": dur(stall) / 1000, "stall_task": names[stall[0]],
        "worst_step_ms": {n: v / 1000 for n, v in worst.items()}, "steps_over": over,
        "steps_in_throw": len(inside),
        "overall_stall_ms": dur(overall_stall) / 1000,
        "overall_stall_task": names[overall_stall[0]],
        "overall_stall_when": _when(overall_stall[3], windows),
        "gc_count": len(gc_rows), "gc_in_throw": sum(1 for r in inside if r[7]),
        "gap_ms": max(gaps) / 1000 if gaps else float("inf"),
        "first_sample_ms": first_fast / 1000 if first_fast is not None else None,
        "idle": 100 * idle_busy / idle_time if idle_time else 0.0,
    }


def by_instructions(throws: int, cubes: int, seed: int, switch_us: float,
                    executable: str | None = None) -> dict | str:
    """The steps' ESP32 time from their instruction counts (bench/step_counts.py), the same
    every run: the densest throw's load and longest stall, and the longest stall anywhere,
    collections apart. The real board's driver code is counted too (esp32_costs.py --count);
    asyncio's resumption (``switch_us`` a task step: its published figure) and the buses are
    charged as in the timed figures. Counted on ``executable`` (by default the installed unix
    port; a 32-bit twin: the ESP32's word size), with k from the same port. A string says why
    not."""
    micropython = executable or micropython_executable()
    ks = calibrate_r.cycles_per_instruction_each(micropython)
    if ks is None:
        return "valgrind or the MicroPython mirror is missing"
    root = firmware_dir()
    code = [k for k in ks if not k["native"]]
    native = [k for k in ks if k["native"]]
    kb = max(k["k_high"] for k in code)
    kn = max(k["k_high"] for k in native) if native else kb
    env = step_counts.env_for([str(root), str(root.parent / "common"), ".frozen"])
    costs = step_counts.board_costs(micropython, env,
                                    str(HERE.parent / "tests" / "firmware" / "fake_machine"),
                                    kb, kn)
    env = step_counts.env_for([str(HERE / "mpy"), str(root), str(root.parent / "common")])
    counted = step_counts.count_steps(micropython, env, HEAP, throws, cubes, seed, PACING)
    fw, own = step_counts.firmware_instructions(counted)
    rep = counted["replay"]
    names, windows = rep["names"], rep["windows"]
    steps = []  # (start, ESP32 us, task, a collection's step)
    for r, f in zip(counted["rows"], fw, strict=True):
        if f is None:
            continue
        total, nat, heap = f
        us = ((total - nat) * kb + nat * kn) / instructions.TARGET_MHZ
        board, board_native = board_us(r, costs)  # (ESP32 us already)
        us += board + board_native + io_us(r[1], r[2])
        if not r[1] & F_CALLBACK:
            us += switch_us
        # (a collection: the firmware's own, or one the heap made itself when full)
        steps.append((r[4], us, names[r[0]], r[14] > 0 or heap > 0))
    best = None
    for t0, t1 in windows:
        inside = [st for st in steps if t0 <= st[0] < t1]
        load = sum(st[1] for st in inside) / (t1 - t0)
        if best is None or load > best[0]:
            best = (load, inside)
    load, inside = best
    stall = max(inside, key=lambda st: st[1])
    anywhere = max((st for st in steps if not st[3]), key=lambda st: st[1])
    return {"load": 100 * load, "stall_ms": stall[1] / 1000, "stall_task": stall[2],
            "steps_in_throw": len(inside),
            "steps_over": sum(1 for st in inside if st[1] > BUDGET_STALL_MS * 1000),
            "overall_stall_ms": anywhere[1] / 1000, "overall_stall_task": anywhere[2],
            "overall_stall_when": _when(anywhere[0], windows), "kb": kb, "kn": kn,
            "kb_from": max(code, key=lambda k: k["k_high"])["name"],
            "k_range": (min(k["k_low"] for k in code), kb), "ks": ks, "board": costs, **own}


def print_counted_steps(c: dict) -> None:
    """by_instructions' figures against the budget, in table rows."""
    print("  the board's driver code by count, ESP32 us a call: " + ", ".join(
        f"{k} {v:.0f}" for k, v in sorted(c["board"].items()) if isinstance(v, float)))
    print(f"{'figure':44} {'ESP32 k high':>13} {'budget':>8}")
    print(f"{'load in the densest throw (%)':44} {c['load']:13.1f} {BUDGET_LOAD:8.0f}  "
          f"{verdict(c['load'] <= BUDGET_LOAD)}")
    print(f"{'longest loop stall in the throw (ms)':44} {c['stall_ms']:13.2f} "
          f"{BUDGET_STALL_MS:8.1f}  {verdict(c['stall_ms'] <= BUDGET_STALL_MS)} "
          f"({c['stall_task']}; {c['steps_over']} of {c['steps_in_throw']} steps over "
          f"{BUDGET_STALL_MS:.0f} ms)")
    print(f"{'longest loop stall anywhere, but collections':44} "
          f"{c['overall_stall_ms']:13.2f} {BUDGET_STALL_MS:8.1f}  "
          f"{verdict(c['overall_stall_ms'] <= BUDGET_STALL_MS)} "
          f"({c['overall_stall_task']}, {c['overall_stall_when']})")
    print("k per benchmark (low-high): " + ", ".join(
        f"{k['name']} {k['k_low']:.2f}-{k['k_high']:.2f}" for k in c["ks"]))


def _when(t: int, windows: list) -> str:
    """Where a step started against the throws' beam-active windows, for the report."""
    for t0, t1 in windows:
        if t0 <= t < t1:
            return "in a throw"
    ends = [t - t1 for _t0, t1 in windows if t1 <= t]
    starts = [t0 - t for t0, _t1 in windows if t < t0]
    if ends and (not starts or min(ends) <= min(starts)):
        return f"{min(ends) / 1000:.0f} ms after a throw's last beam"
    return f"{min(starts) / 1000:.0f} ms before a throw" if starts else "between throws"


def _samples_got(rows: list[tuple], dur, k: float, names: list[str], t0: int,
                 t1: int) -> tuple[list[tuple[int, int]], float | None]:
    """The loop's timeline replayed with these durations: which integrations the firmware
    really read (the sensor keeps only the latest), as (integration end, scheduled time).

    A task's step runs when it was due or when the loop is free, whichever is later. A colour
    sample read by the board's timer (a soft callback) runs between two bytecodes: it waits only
    for C code that blocks (a collection, a strip write), and delays the step it interrupts. A
    polling colour task reads only once the next integration can have ended.

    Each sample is tagged with the time the unix run scheduled it, and the gaps are taken over
    the samples scheduled in the throw: a loop that falls behind pushes its samples later but
    does not lose them from the count (an overloaded loop shows longer gaps, never fewer).
    Also: how long after the throw's first beam edge the first full-rate sample came."""
    end = 0.0          # the loop is busy until then
    blocked = 0.0      # C code that a soft callback cannot interrupt runs until then
    cb_end = 0.0
    gate = 0.0
    got: list[tuple[int, int]] = []
    colour = names.index("colour sampling") if "colour sampling" in names else -1
    first_fast = None
    last_cb = None
    for r in rows:
        if r[1] & F_CALLBACK:
            begin = max(float(r[3]), blocked, cb_end)
            cb_end = begin + dur(r)
            if begin < end:
                end += dur(r)   # it ran inside the step that was running
            boundary = int(begin) - int(begin) % INTEGRATION_US
            if not got or boundary > got[-1][0]:
                got.append((boundary, r[3]))
            fast = last_cb is not None and r[3] - last_cb <= INTEGRATION_US
            if fast and first_fast is None and t0 <= r[3] < t1:
                first_fast = begin - t0
            last_cb = r[3]
            continue
        begin = max(float(r[3]), end)
        end = begin + dur(r)
        c_block = r[7] * k + (io_us(r[1] & F_STRIP, r[2]) if k > 1 else 0.0)
        if c_block:
            blocked = max(blocked, begin + c_block)
        if r[0] == colour and r[1] & F_CALL and begin >= gate:
            # boards/esp32.py read_colour: a status read once the next integration can have
            # ended
            boundary = int(begin) - int(begin) % INTEGRATION_US
            if not got or boundary > got[-1][0]:
                got.append((boundary, r[3]))
                gate = begin + INTEGRATION_US - PERIOD_US - EARLY_US
    return got, first_fast


# A published ESP32 figure for a collection (C code, which R for bytecode overstates): an app's
# gc.collect() on an ESP32 without SPIRAM, peterhinch/micropython-micro-gui issue #10
# (2022-03-24): "GC time 2461, 2026, 2014, 2013" us.
GC_PUBLISHED_MS = (2.0, 2.5)


def estimate(cal: dict, out: dict, costs: dict, split: dict | None = None) -> dict:
    """The figures at R low and high from a calibration, a worst-case run, the real board's
    driver costs and a split run (each step's share of native code)."""
    r_lo, r_hi = cal["low"], cal["high"]
    rate = next(r for r in cal["ratios"] if r.name == "asyncio_rate")
    base, rows = firmware_steps(out, costs, split)
    n_lo, n_hi = cal.get("native_low") or r_lo, cal.get("native_high") or r_hi
    hi = analyse(base, rows, rate.unix, r_hi, k_switch=rate.high, k_native=n_hi)
    return {"cal": cal, "r_lo": r_lo, "r_hi": r_hi, "rate": rate, "out": out, "base": base,
            "rows": rows, "hi": hi, "n_lo": n_lo, "n_hi": n_hi,
            "unix": analyse(base, rows, rate.unix, 1.0, hi["window"]),
            "lo": analyse(base, rows, rate.unix, r_lo, hi["window"], k_switch=rate.low,
                          k_native=n_lo)}


def _merged(outs: list[dict]) -> dict:
    # every round's replays (the same seed: the same steps), each with its own overheads
    first = dict(outs[0])
    for o in outs:
        for rep in o["replays"]:
            rep["overheads"] = o["overheads"]
    first["replays"] = [rep for o in outs for rep in o["replays"]]
    return first


def _least(costs: list[dict]) -> dict:
    out = dict(costs[0])
    for c in costs[1:]:
        for key, value in c.items():
            if isinstance(value, float) and (out.get(key) is None or value < out[key]):
                out[key] = value
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=3)
    parser.add_argument("--cubes", type=int, default=40)
    parser.add_argument("--replays", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--stall-throws", type=int, default=100,
                        help="throws a stall in the collection's worst-moment table")
    args = parser.parse_args()

    # Rounds of (R, the worst case, the board's driver costs), one right after the other: this
    # machine's speed drifts by tens of percent within minutes. Each side then keeps its least
    # disturbed measurement over all rounds (each benchmark's fastest run, each step's least
    # time, each driver cost's least), as one round would on a quiet machine.
    measured = []
    collections: dict[str, list[dict]] = {"deploy": [], "romfs": [], "tower": []}
    # the unix twins of the tower's own MicroPython build (`make firmware-image`): stock (it
    # must count what the PyPI port counts) and with the build's collector settings
    twin: dict | str
    try:
        twin = unix_twin.build()
    except unix_twin.TwinUnavailable as exc:
        twin = str(exc)
    # and the same two built for 32 bits, the ESP32's word size: a second count of each
    # collection, with a k of its own
    twin32: dict | str
    try:
        twin32 = unix_twin.build(unix_twin.KINDS_32)
    except unix_twin.TwinUnavailable as exc:
        twin32 = str(exc)
    with tempfile.TemporaryDirectory(prefix="bench-cpu-") as tmp:
        root = firmware_dir()
        image = build_image(pathlib.Path(tmp) / "fw.romfs", root, root.parent / "common",
                            simulated=False, arch="host")
        mpy = compile_firmware(pathlib.Path(tmp) / "mpy")
        for _ in range(args.rounds):
            cal = calibrate_r.measure(repeats=1)
            measured.append((cal, run_worst(args.throws, args.cubes, args.replays, args.seed),
                             esp32_costs(),
                             run_worst(args.throws, args.cubes, args.replays, args.seed,
                                       split=True)))
            collections["deploy"].append(gc_costs(mpy=mpy))
            collections["romfs"].append(gc_costs(image=image))
            if not isinstance(twin, str):
                collections["tower"].append(gc_costs(image=image, executable=twin["tower"]))
        # The same collections counted in instructions, within 2 % every run
        # (bench/instructions.py); cpi: the ESP32's cycles per instruction of C code
        cpi = calibrate_r.c_code_cycles_per_instruction()
        counted = None if cpi is None else {"deploy": gc_instructions(mpy=mpy),
                                            "romfs": gc_instructions(image=image)}
        twins: dict | str = twin
        if counted is None:
            twins = "valgrind or the MicroPython mirror is missing"
        elif not isinstance(twin, str):
            twins = {"stock": gc_instructions(image=image, executable=twin["stock"]),
                     "romfs": gc_instructions(image=image, executable=twin["tower"]),
                     "deploy": gc_instructions(mpy=mpy, executable=twin["tower"])}
        counted32: dict | str = twin32
        if counted is None:
            counted32 = "valgrind or the MicroPython mirror is missing"
        elif not isinstance(twin32, str):
            # the firmware compiled for the 32-bit port's native code (x86)
            image32 = build_image(pathlib.Path(tmp) / "fw32.romfs", root, root.parent / "common",
                                  simulated=False, arch="x86")
            mpy32 = compile_firmware(pathlib.Path(tmp) / "mpy32", arch="x86")
            stock32, tower32 = str(twin32["stock32"]), str(twin32["tower32"])
            counted32 = {"cpi": calibrate_r.c_code_cycles_per_instruction(stock32),
                         "deploy": gc_instructions(mpy=mpy32, executable=stock32),
                         "romfs": gc_instructions(image=image32, executable=stock32),
                         "tower romfs": gc_instructions(image=image32, executable=tower32),
                         "tower deploy": gc_instructions(mpy=mpy32, executable=tower32)}
        # whether a stock ESP32's mark overflows its stack as here: the fakes' objects as ROM
        forms = {"64-bit": (mpy, image)}
        if not isinstance(counted32, str):
            forms["32-bit"] = (mpy32, image32)
        depth = mark_depth.measure_all(_gc_command, forms)
    harm = collection_harm(args.stall_throws)
    each = [estimate(c, o, k, s)["hi"]["load"] for c, o, k, s in measured]
    e = estimate(calibrate_r.best_of([m[0] for m in measured]),
                 _merged([m[1] for m in measured]), _least([m[2] for m in measured]),
                 _merged([m[3] for m in measured]))
    # the same scenario counted in instructions
    counted_steps = by_instructions(args.throws, args.cubes, args.seed,
                                    e["rate"].unix * e["rate"].high)
    # and on the 32-bit twin, the ESP32's word size
    counted_steps32 = twin32 if isinstance(twin32, str) else (
        counted_steps if isinstance(counted_steps, str) else
        by_instructions(args.throws, args.cubes, args.seed, e["rate"].unix * e["rate"].high,
                        str(twin32["stock32"])))
    cal, r_lo, r_hi, rate = e["cal"], e["r_lo"], e["r_hi"], e["rate"]
    out, base, rows, hi, unix, lo = e["out"], e["base"], e["rows"], e["hi"], e["unix"], e["lo"]
    asyncio_us = rate.unix
    print("Calibration ratio R: time on an ESP32 at 240 MHz / time on this unix port")
    calibrate_r.print_report(cal)
    print(f"{args.rounds} rounds (each: R measured, then the worst case run and the board's "
          f"driver code timed); each side's least disturbed measurement is kept over all "
          f"rounds. Each round on its own would give, at R high: "
          + ", ".join(f"{x:.0f} %" for x in each))
    print(f"\nWorst case: {args.throws} throws of {args.cubes} cubes at 3 ms gaps (the densest "
          f"{hi['span_ms']:.0f} ms of beam), LED track animating, host sending ACKs as "
          f"host/shogun_tower/link.py does (at most one per {ACK_EVERY_S * 1000:.0f} ms), SCORES, "
          f"STATUS every 50 ms, "
          f"PING every 100 ms, a burst of {base['burst_bytes']} bytes of commands 600 ms after "
          f"each throw; "
          f"{base['cubes_seen']} of {base['cubes_thrown']} cubes reported; "
          f"least of {len(out['replays'])} replays"
          f"{'' if base['aligned'] else ' (replays differ: first replay only)'}")
    print(f"Per task in the densest throw (CPU; asyncio's switching, {asyncio_us:.1f} us a step "
          f"on this port, x its own R ({rate.low:.0f}-{rate.high:.0f}: asyncio_rate) on the "
          f"ESP32, is counted with each task step, not with a timer's callback (the stand-in "
          f"asyncio's own await, {out['overheads'].get('await_ns', 0) / 1000:.1f} us a step, "
          f"is taken out: that charge is a whole resumption), and a step woken by a flag adds "
          f"asyncio's poller (asyncio_io, as a read does); the real "
          f"board's native driver code (its edge interrupt, take_edges, sampling callback, "
          f"serial drain, wake_in), timed apart, x the native R ({e['n_lo']:.0f}-"
          f"{e['n_hi']:.0f}: viper_call), and so is the firmware's own native and viper code "
          f"(its share of the firmware's time in the 'native' column: from a run with those "
          f"functions timed apart, bench/emitters.py"
          f"{'' if base['split_aligned'] else '; NOT aligned with this run: none counted'}); "
          f"the ESP32 columns add bus time):")
    print(f"{'task':16} {'steps':>6} {'unix us':>9} {'native':>7} {'ESP32 ms (R low)':>17} "
          f"{'ESP32 ms (R high)':>18} {'of which bus':>12} {'alloc KB':>9} "
          f"{'longest step, R high':>21}")
    for n in base["names"]:
        print(f"{n:16} {unix['steps'][n]:6d} {unix['per_task_ms'][n] * 1000:9.0f} "
              f"{unix['native_share'][n] * 100:6.0f}% "
              f"{lo['per_task_ms'][n]:17.1f} {hi['per_task_ms'][n]:18.1f} "
              f"{hi['bus_ms'][n]:12.1f} {unix['alloc'][n] / 1024:9.1f} "
              f"{hi['worst_step_ms'][n]:18.2f} ms")
    total_unix = sum(unix["per_task_ms"].values())
    print(f"{'all':16} {sum(unix['steps'].values()):6d} {total_unix * 1000:9.0f} {'':7} "
          f"{sum(lo['per_task_ms'].values()):17.1f} {sum(hi['per_task_ms'].values()):18.1f} "
          f"{sum(hi['bus_ms'].values()):12.1f} {sum(unix['alloc'].values()) / 1024:9.1f}")
    print("(alloc: bytes the firmware allocated in the throw, 64-bit unix port; about half on "
          "the ESP32. The simulation's and the profiler's are taken out.)")

    print(f"\n{'figure':44} {'unix port':>10} {'ESP32 R low':>12} {'ESP32 R high':>13} "
          f"{'budget':>8}")
    print(f"{'load in the densest throw (%)':44} {unix['load']:10.1f} {lo['load']:12.1f} "
          f"{hi['load']:13.1f} {BUDGET_LOAD:8.0f}  {verdict(hi['load'] <= BUDGET_LOAD)}")
    print(f"{'longest loop stall in the throw (ms)':44} {unix['stall_ms']:10.3f} "
          f"{lo['stall_ms']:12.2f} {hi['stall_ms']:13.2f} {BUDGET_STALL_MS:8.1f}  "
          f"{verdict(hi['stall_ms'] <= BUDGET_STALL_MS)} ({hi['stall_task']}; "
          f"{hi['steps_over']} of {hi['steps_in_throw']} steps over {BUDGET_STALL_MS:.0f} ms, "
          f"{lo['steps_over']} at R low)")
    print(f"{'longest loop stall anywhere, but collections':44} "
          f"{unix['overall_stall_ms']:10.3f} {lo['overall_stall_ms']:12.2f} "
          f"{hi['overall_stall_ms']:13.2f} {BUDGET_STALL_MS:8.1f}  "
          f"{verdict(hi['overall_stall_ms'] <= BUDGET_STALL_MS)} ({hi['overall_stall_task']}, "
          f"{hi['overall_stall_when']})")
    # The heap's work between throws, of the firmware's own heap (gc_cost.py), in the link's
    # housekeeping: a step with the collection alone, and steps with one scan of the heap's
    # table each (gc.mem_alloc, gc.mem_free: the peak before, what it left, what is free). C
    # code: x the R of the runtime's C code (bm_pidigits; else the native R).
    c_lo = cal.get("c_low") or e["n_lo"]
    c_hi = cal.get("c_high") or e["n_hi"]
    for form, label in (("deploy", "make deploy"), ("romfs", "deploy-romfs"),
                        ("tower", "tower build")):
        if not collections[form]:
            continue
        g = min(collections[form], key=lambda o: o["fw_us"])
        scan = min(o["scan_us"] for o in collections[form])
        for what, us in (("collection", g["fw_us"]), ("heap scan", scan)):
            ms = us / 1000
            print(f"{what + ' between throws, ' + label:44} {ms:10.3f} "
                  f"{ms * c_lo:12.2f} {ms * c_hi:13.2f} {BUDGET_STALL_MS:8.1f}  "
                  f"{verdict(ms * c_hi <= BUDGET_STALL_MS)} "
                  f"(live {(g['live'] - g['fakes']) / 1024:.0f} KB, 64-bit, in a heap of "
                  f"{g['heap'] // 1024} KB; R for C {c_lo:.0f}-{c_hi:.0f}x)")
    if counted is None:
        print("  (by instructions: not counted, valgrind or the MicroPython mirror is missing)")
    else:
        print_counted_collections(cpi, counted, twins, counted32)
    print(f"  (a published ESP32 figure: {GC_PUBLISHED_MS[0]:.1f}-{GC_PUBLISHED_MS[1]:.1f} ms for "
          f"an app's heap of up to ~110 KB at 160 MHz; the worst-case run made "
          f"{hi['gc_count']} steps of heap work, {hi['gc_in_throw']} in the throw)")
    mark_depth.print_table(depth)
    # the longest collection estimated for stock firmware with `make deploy`, every estimate
    worst_gc = [min(o["fw_us"] for o in collections["deploy"]) / 1000 * c_hi] if collections[
        "deploy"] else []
    if counted is not None:
        worst_gc.append(instructions.esp32_ms(counted["deploy"]["fw"], cpi["k"]))
        if not isinstance(counted32, str):
            worst_gc.append(instructions.esp32_ms(counted32["deploy"]["fw"],
                                                  counted32["cpi"]["k"]))
    print(f"{'longest gap between colour samples (ms)':44} {unix['gap_ms']:10.2f} "
          f"{lo['gap_ms']:12.2f} {hi['gap_ms']:13.2f} {BUDGET_GAP_MS:8.1f}  "
          f"{verdict(hi['gap_ms'] <= BUDGET_GAP_MS)}")
    if hi["first_sample_ms"] is not None:
        print(f"{'first full-rate sample after the first edge':44} "
              f"{unix['first_sample_ms']:10.2f} {lo['first_sample_ms']:12.2f} "
              f"{hi['first_sample_ms']:13.2f}")
    print(f"{'idle load between throws (%)':44} {unix['idle']:10.2f} {lo['idle']:12.1f} "
          f"{hi['idle']:13.1f} {BUDGET_IDLE:8.0f}  {verdict(hi['idle'] <= BUDGET_IDLE)}")
    print(f"bus time assumed: timer sample {BURST_US:.0f} us (one 8-byte burst), polled: status "
          f"{POLL_US:.0f} us, sample + clear {SAMPLE_US:.0f} us (I2C 400 kHz + "
          f"{I2C_TRANSACTION_US:.0f} us a transaction), strip: the UART's copy "
          f"{STRIP_COPY_US:.0f} us + {UART_REFILL_US:.0f} us an interrupt refill of "
          f"{UART_REFILL_BYTES} bytes; heap {HEAP}; simulated board "
          f"{base['sim_ns'] / 1e6:.0f} ms in {base['sim_calls']} calls taken out")
    # Which benchmark the verdict hangs on: the load with each one's own high bound as R (the
    # same densest throw, asyncio at its own R high).
    each = [(r.name, analyse(base, rows, asyncio_us, r.high, hi["window"],
                             k_switch=rate.high, k_native=e["n_hi"]))
            for r in cal["ratios"]
            if not r.native and not r.c_code and r.name != "asyncio_rate"]
    print("load in the densest throw at each benchmark's R high: " + ", ".join(
        f"{name} {a['load']:.0f} %" for name, a in each))
    print("longest loop stall in the densest throw at each benchmark's R high: " + ", ".join(
        f"{name} {a['stall_ms']:.1f} ms ({a['steps_over']} steps over {BUDGET_STALL_MS:.0f} ms)"
        for name, a in each))
    harm_ok = print_collection_harm(harm, args.stall_throws,
                                    max(worst_gc) if worst_gc else None)
    if not isinstance(counted_steps, str):
        c = counted_steps
        print(f"\nBy instructions (bench/step_counts.py: each step's x86 instructions under "
              f"callgrind, the same every run, x k, the ESP32's cycles per instruction, / 240 "
              f"MHz; k from the same published figures: bytecode and the runtime's C code "
              f"{c['k_range'][0]:.2f}-{c['kb']:.2f} ({c['kb_from']} at the high end), the "
              f"emitters' native code {c['kn']:.2f} (viper_call); the real board's driver "
              f"code counted too (esp32_costs.py on the fakes); asyncio's resumption and the "
              f"buses as above; {c['step_own']} instructions of the count's own a step and "
              f"{c['wrapper']} a board call taken out):")
        print_counted_steps(c)
        worst = max(c["stall_ms"], c["overall_stall_ms"])
        line = (f"longest loop stall by instruction count: {c['stall_ms']:.2f} ms in the densest "
                f"throw, {c['overall_stall_ms']:.2f} ms anywhere but collections (k "
                f"{c['k_range'][0]:.2f}–{c['kb']:.2f}")
        if isinstance(counted_steps32, str):
            print(f"\nBy instructions on a 32-bit twin: not counted, {counted_steps32}")
        else:
            c32 = counted_steps32
            print(f"\nBy instructions on the 32-bit twin (bench/unix_twin.py stock32, the ESP32's "
                  f"word size: the same scenario counted there, k from the same benchmarks "
                  f"counted there: {c32['k_range'][0]:.2f}-{c32['kb']:.2f}, native "
                  f"{c32['kn']:.2f}):")
            print_counted_steps(c32)
            worst = max(worst, c32["stall_ms"], c32["overall_stall_ms"])
            line += (f"; on the 32-bit twin {c32['stall_ms']:.2f} and "
                     f"{c32['overall_stall_ms']:.2f} ms, k {c32['k_range'][0]:.2f}–"
                     f"{c32['kb']:.2f}")
        print(f"{line}; budget {BUDGET_STALL_MS:.0f} ms): "
              f"{'met' if worst <= BUDGET_STALL_MS else 'not met'}")
    else:
        print(f"\nBy instructions: not counted, {counted_steps}")
    ok = hi["load"] <= BUDGET_LOAD
    if not harm_ok:
        print("a collection between throws at its worst moment costs cubes: see its table")
    print(f"estimated ESP32 load in the densest throw: {hi['load']:.0f} % "
          f"(R {r_lo:.0f}–{r_hi:.0f}×, budget {BUDGET_LOAD:.0f} %): {'met' if ok else 'not met'}")
    return 0 if ok and harm_ok else 1


if __name__ == "__main__":
    sys.exit(main())
