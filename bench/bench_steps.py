"""The firmware's steps by instruction count: one deterministic figure a step, a regression check.

bench/mpy/steps.py plays the densest throw (40 cubes at 3 ms gaps) on the simulated board as on
an ESP32 (simtime.play), the app's link packing and framing each cube, under valgrind's
callgrind: each detector step counted apart, the simulated board's own work left out. The
counts are the same every run of the same code (a time on this shared machine is not): a step
that grows shows here. Fitted as a step's base + a count an edge it took + a count a cube it
sent, with a beam reading put into the capture and a colour sample put into the detector's ring
(the timer callback's firmware part). bench/mpy/handler.py counts the ESP32 board's capture
path itself (boards/esp32.py on the test fakes, its pulse counters read through C functions):
a beam's soft handler, and take_edges with nothing waiting. The committed figures are the
generated block in firmware/shogun_fw/boards/simtime.py, which the simulated tower's interrupt
model turns into ESP32 microseconds (its _CYCLES_PER_INSTR); `--write` replaces them.

Exit status 1 when a figure grew more than 10 % past the committed one (or valgrind is missing).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import statistics
import sys

import instructions

from shogun_tower.sim_device import firmware_dir, micropython_executable

HERE = pathlib.Path(__file__).parent
FAKES = HERE.parent / "tests" / "firmware" / "fake_machine"
SIMTIME = firmware_dir() / "shogun_fw" / "boards" / "simtime.py"
BEGIN = "# ---- step lengths: written by bench/bench_steps.py --write, do not edit\n"
END = "# ---- end of step lengths\n"
FIGURES = ("_STEP_BASE_I", "_STEP_EDGE_I", "_STEP_CUBE_I", "_PUT_I", "_SAMPLE_I", "_HANDLER_I",
           "_TAKE_I", "_WAKE_I")
GROWTH = 1.10


def count() -> dict:
    root = firmware_dir()
    env = dict(os.environ, PYTHONHASHSEED="0")
    env["MICROPYPATH"] = os.pathsep.join([str(HERE / "mpy"), str(root),
                                          str(root.parent / "common"), ".frozen"])
    printed, dumps = instructions.per_dump(
        [micropython_executable(), "-X", "heapsize=4M", str(HERE / "mpy" / "steps.py")], env)
    out = json.loads(printed.strip().splitlines()[-1])
    rows = out["rows"]
    if len(rows) != len(dumps):
        raise RuntimeError(f"steps.py: {len(dumps)} dumps for {len(rows)} rows")
    for r, n in zip(rows, dumps, strict=True):
        r["instr"] = n
    empty = min(r["instr"] for r in rows if r["kind"] == "empty")
    wrapper = min(r["instr"] for r in rows if r["kind"] == "wrapper") - empty
    for r in rows:
        r["net"] = max(0, r["instr"] - empty - wrapper * r.get("calls", 0))
    out["empty"], out["wrapper"] = empty, wrapper
    env["MICROPYPATH"] = os.pathsep.join([str(HERE / "mpy"), str(FAKES), str(root),
                                          str(root.parent / "common"), ".frozen"])
    printed, dumps = instructions.per_dump(
        [micropython_executable(), "-X", "heapsize=1M", str(HERE / "mpy" / "handler.py")], env)
    kinds = json.loads(printed.strip().splitlines()[-1])["rows"]
    least: dict[str, int] = {}
    for kind, n in zip(kinds, dumps, strict=True):
        least[kind] = min(least.get(kind, n), n)
    out["handler"] = least["handler"] - least["empty"]
    out["take"] = least["take"] - least["empty"]
    out["wake"] = least["wake"] - least["empty"]
    return out


def fit(steps: list[dict]) -> tuple[float, float, float]:
    """Least squares: net = base + edge * edges + cube * cubes."""
    xs = [(1.0, float(r["edges"]), float(r["cubes"])) for r in steps]
    ys = [float(r["net"]) for r in steps]
    a = [[sum(x[i] * x[j] for x in xs) for j in range(3)] for i in range(3)]
    b = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(3)]
    for i in range(3):  # Gauss-Jordan on the 3x3 normal equations
        p = max(range(i, 3), key=lambda r: abs(a[r][i]))
        a[i], a[p], b[i], b[p] = a[p], a[i], b[p], b[i]
        for r in range(3):
            if r != i and a[i][i]:
                f = a[r][i] / a[i][i]
                a[r] = [u - f * v for u, v in zip(a[r], a[i], strict=True)]
                b[r] -= f * b[i]
    base, edge, cube = (b[i] / a[i][i] for i in range(3))
    return base, edge, cube


def simtime_figure(name: str) -> float:
    found = re.search(rf"^{name} = ([\d.]+)", SIMTIME.read_text(), re.M)
    if not found:
        raise RuntimeError(f"{name} is not in {SIMTIME.name}")
    return float(found.group(1))


def committed() -> dict[str, int]:
    text = SIMTIME.read_text()
    block = text[text.index(BEGIN):text.index(END)]
    return {m[1]: int(m[2]) for m in re.finditer(r"^(_\w+_I) = (\d+)", block, re.M)}


def write(figures: dict[str, int]) -> None:
    text = SIMTIME.read_text()
    a, b = text.index(BEGIN), text.index(END)
    block = [BEGIN, "# (x86-64 instructions on the unix port, callgrind: a step's base, an edge it "
                    "took, a cube it sent;\n# a beam reading and a colour sample put; the ESP32 "
                    "board's soft handler, its take_edges\n# with nothing waiting, the tower "
                    "build's wake)\n"]
    block += [f"{name} = {figures[name]}\n" for name in FIGURES]
    SIMTIME.write_text(text[:a] + "".join(block) + text[b:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help="write the figures into simtime.py's generated block")
    args = parser.parse_args()
    if instructions.valgrind() is None:
        print("valgrind is not installed (make bench installs it): no instruction counts")
        return 1
    out = count()
    rows = out["rows"]
    steps = [r for r in rows if r["kind"] == "step"]
    base, edge, cube = fit(steps)
    figures = {"_STEP_BASE_I": round(base), "_STEP_EDGE_I": round(edge),
               "_STEP_CUBE_I": round(cube),
               "_PUT_I": min(r["net"] for r in rows if r["kind"] == "put"),
               "_SAMPLE_I": min(r["net"] for r in rows if r["kind"] == "sample"),
               "_HANDLER_I": out["handler"], "_TAKE_I": out["take"], "_WAKE_I": out["wake"]}
    print(f"The densest throw: {out['thrown']} cubes, {out['cubes']} sent, {len(steps)} detector "
          f"steps; x86-64 instructions (callgrind), the count's own {out['empty']} a row and "
          f"{out['wrapper']} a board call taken out:")
    print(f"{'step':34} {'steps':>5} {'least':>7} {'median':>7} {'most':>7}")
    kinds = (("a step, nothing taken or sent", lambda r: not r["edges"] and not r["cubes"]),
             ("a step that took edges", lambda r: r["edges"] and not r["cubes"]),
             ("a step that sent a cube", lambda r: r["cubes"]))
    for label, pick in kinds:
        got = [r["net"] for r in steps if pick(r)]
        if got:
            print(f"{label:34} {len(got):5d} {min(got):7d} {round(statistics.median(got)):7d} "
                  f"{max(got):7d}")
    print(f"fitted: a step {base:.0f} + an edge {edge:.0f} + a cube {cube:.0f}; a beam reading "
          f"put {figures['_PUT_I']}, a colour sample put {figures['_SAMPLE_I']}")
    print(f"the ESP32 board's capture path: a beam's soft handler {figures['_HANDLER_I']}, "
          f"take_edges with nothing waiting {figures['_TAKE_I']}")
    k = simtime_figure("_CYCLES_PER_INSTR")
    us = k / 240  # (an instruction on an ESP32 at 240 MHz, the interrupt model's figure)
    # A cube is four edges (two a beam). Idle: no interrupt at all (the counters and the clock
    # are hardware); the detector's heartbeat step once a second, take_edges in it.
    stock = 4 * (figures["_HANDLER_I"] + figures["_STEP_EDGE_I"]) * us
    tower = 4 * (figures["_WAKE_I"] + figures["_STEP_EDGE_I"]) * us
    idle = (figures["_STEP_BASE_I"] + figures["_TAKE_I"]) * us
    print(f"\nThe capture path's CPU on an ESP32 at 240 MHz ({k} cycles an instruction, "
          f"simtime.py; a board's figures judge: tests/hil/test_cpu_budget.py):")
    print(f"{'build':14} {'a cube':>8} {'idle, a second':>16}")
    print(f"{'stock':14} {stock:6.0f}us {idle:9.0f}us ({idle / 1e4:.3f} %)  four soft "
          f"handlers, the four edges' conversion")
    print(f"{'tower':14} {tower:6.0f}us {idle:9.0f}us ({idle / 1e4:.3f} %)  + four C "
          f"handlers (C, not counted here: a few us each)")
    if args.write:
        write(figures)
        print(f"written into {SIMTIME.relative_to(SIMTIME.parents[3])}")
        return 0
    old = committed()
    print(f"{'figure':14} {'committed':>9} {'now':>9}")
    grew = []
    for name in FIGURES:
        print(f"{name:14} {old.get(name, 0):9d} {figures[name]:9d}")
        if figures[name] > GROWTH * old.get(name, 0) + 50:
            grew.append(name)
    if grew:
        print(f"step counts: {', '.join(grew)} grew more than 10 % (bench/bench_steps.py "
              f"--write once the growth is wanted): FAIL")
        return 1
    print("step counts: within 10 % of the committed figures")
    return 0


if __name__ == "__main__":
    sys.exit(main())
