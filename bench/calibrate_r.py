"""The calibration ratio R = (time on an ESP32 at 240 MHz) / (time on the unix port here).

The ESP32 side is published figures (bench/esp32_reference.json names each source, its MicroPython
version and clock). The unix side is measured afresh on every run, in CPU time (the machine is
shared): MicroPython's own tests/perf_bench, run from a fetched mirror of micropython/micropython
(never copied into this repository), and our own asyncio kernel (bench/mpy/perf_runner.py).

Each benchmark gives R between two bounds: the published 160 MHz figure scaled to 240 MHz by what
its source says (x1.5 where it says the test scales with the clock) or by 1.0-1.5 where it says
nothing. R low is the lowest bound of all benchmarks, R high the highest.

Each benchmark runs in REPEATS processes here and its fastest is kept (as timeit and pyperf
do): a process's own layout moves a run by 10-20 % on this machine, and the fastest is the one
least disturbed. The fastest local time gives the highest R: the safe side.

The mirror: $MICROPYTHON_MIRROR (a bare git directory or a checkout), else
/work/.mirror/micropython+micropython/repo. Without it only the own kernel runs, and R says so.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile
from dataclasses import dataclass

from shogun_tower.sim_device import micropython_executable

HERE = pathlib.Path(__file__).parent
REFERENCE = HERE / "esp32_reference.json"
RUNNER = HERE / "mpy" / "perf_runner.py"
DEFAULT_MIRROR = pathlib.Path("/work/.mirror/micropython+micropython/repo")
N_MHZ, M_KB = 100, 100   # the parameters of the published ESP32 figures
MIN_CPU_S = 0.6          # CPU time each benchmark runs here, in each of
REPEATS = 3              # ... this many processes (the fastest kept)


@dataclass
class Ratio:
    name: str
    unix: float          # unix-port figure here (score, or us per resumption)
    esp32_160: float     # the published figure
    low: float           # R with the most the clock can give at 240 MHz
    high: float          # R with the least
    source: str
    native: bool = False  # a benchmark of @micropython.native/viper code
    c_code: bool = False  # a benchmark of the runtime's C code (R for a garbage collection)


def _mirror() -> pathlib.Path | None:
    path = pathlib.Path(os.environ.get("MICROPYTHON_MIRROR", DEFAULT_MIRROR))
    if (path / "tests" / "perf_bench").is_dir():
        return path
    if (path / "HEAD").is_file():
        probe = subprocess.run(["git", f"--git-dir={path}", "cat-file", "-e",
                                "HEAD:tests/perf_bench/benchrun.py"], capture_output=True)
        if probe.returncode == 0:
            return path
    return None


def _extract(mirror: pathlib.Path, names: list[str], into: pathlib.Path) -> str:
    """Put the perf_bench modules into ``into`` (a scratch folder); returns the mirror's commit."""
    if (mirror / "tests" / "perf_bench").is_dir():
        for name in names:
            (into / f"{name}.py").write_bytes(
                (mirror / "tests" / "perf_bench" / f"{name}.py").read_bytes())
        return "checkout"
    git = ["git", f"--git-dir={mirror}"]
    commit = subprocess.run(git + ["rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    for name in names:
        text = subprocess.run(git + ["show", f"HEAD:tests/perf_bench/{name}.py"],
                              capture_output=True, check=True).stdout
        (into / f"{name}.py").write_bytes(text)
    return commit


def _run(*args: str) -> dict:
    proc = subprocess.run([micropython_executable(), str(RUNNER), *args], capture_output=True,
                          text=True, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"perf_runner {args[:2]}: {proc.stderr.strip()[-500:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    if "error" in out:
        raise RuntimeError(f"perf_runner {args[:2]}: {out['error']}")
    return out


def measure(repeats: int = REPEATS) -> dict:
    """Measure the unix side now, each benchmark's fastest of ``repeats`` processes; returns
    {"ratios": [Ratio], "low", "high", "mirror", ...}."""
    ref = json.loads(REFERENCE.read_text())
    ratios: list[Ratio] = []
    skipped: list[str] = []
    mirror = _mirror()
    perf = [b for b in ref["benchmarks"] if b["kind"] == "perf_bench"]
    commit = None
    if mirror is None:
        skipped = [b["name"] for b in perf]
    else:
        with tempfile.TemporaryDirectory(prefix="perf-bench-") as tmp:
            commit = _extract(mirror, [b["name"] for b in perf], pathlib.Path(tmp))
            for b in perf:
                out = max((_run("perf_bench", tmp, b["name"], str(N_MHZ), str(M_KB),
                                str(MIN_CPU_S)) for _ in range(repeats)),
                          key=lambda o: o["score"])
                lo_k, hi_k = b["scale_240"]
                # Scores are work per time: R = score here / score on the ESP32 at 240 MHz.
                ratios.append(Ratio(b["name"], out["score"], b["score"],
                                    out["score"] / (b["score"] * hi_k),
                                    out["score"] / (b["score"] * lo_k), b["source"],
                                    bool(b.get("native")), bool(b.get("c_code"))))
    for b in ref["benchmarks"]:
        if b["name"] == "asyncio_rate":
            resumes = 200000
            out = min((_run("asyncio_rate", str(b["tasks"]), str(resumes))
                       for _ in range(repeats)), key=lambda o: o["us_per_resume"])
            lo_k, hi_k = b["scale_240"]
            us = out["us_per_resume"]
            ratios.append(Ratio(b["name"], us, b["us_per_resume"],
                                b["us_per_resume"] / hi_k / us, b["us_per_resume"] / lo_k / us,
                                b["source"]))
    return _summary(ratios, {"mirror": str(mirror) if mirror else None, "commit": commit,
                             "skipped": skipped, "repeats": repeats, "sources": ref["sources"]})


def c_code_cycles_per_instruction(executable: str | None = None) -> dict | None:
    """k, the ESP32's cycles per x86 instruction of the runtime's C code (bench/instructions.py),
    from the c_code benchmark's published figure and its instructions on ``executable`` (by
    default the installed unix port); None without valgrind or the mirror."""
    import instructions

    mirror = _mirror()
    ref = json.loads(REFERENCE.read_text())
    bench = next((b for b in ref["benchmarks"] if b.get("c_code")), None)
    if mirror is None or bench is None or instructions.valgrind() is None:
        return None
    with tempfile.TemporaryDirectory(prefix="perf-count-") as tmp:
        _extract(mirror, [bench["name"]], pathlib.Path(tmp))
        out = instructions.cycles_per_instruction(executable or micropython_executable(), RUNNER,
                                                  tmp, bench, N_MHZ, M_KB)
    return {"name": bench["name"], **out}


def cycles_per_instruction_each(executable: str | None = None) -> list[dict] | None:
    """k low and high, the ESP32's cycles per x86 instruction on ``executable`` (by default the
    installed unix port), of every perf_bench benchmark but the C code's (bench/step_counts.py:
    the firmware's steps by instruction count); None without valgrind or the mirror."""
    import instructions
    import step_counts

    mirror = _mirror()
    ref = json.loads(REFERENCE.read_text())
    benches = [b for b in ref["benchmarks"] if b["kind"] == "perf_bench" and not b.get("c_code")]
    if mirror is None or instructions.valgrind() is None:
        return None
    with tempfile.TemporaryDirectory(prefix="perf-count-") as tmp:
        _extract(mirror, [b["name"] for b in benches], pathlib.Path(tmp))
        return step_counts.cycles_per_instruction(executable or micropython_executable(),
                                                  RUNNER, tmp, benches, N_MHZ, M_KB)


def _summary(ratios: list[Ratio], info: dict) -> dict:
    code = [r for r in ratios if not r.native and not r.c_code]
    native = [r for r in ratios if r.native]
    c_code = [r for r in ratios if r.c_code]
    return {"ratios": ratios, "low": min(r.low for r in code),
            "high": max(r.high for r in code), "benchmarks": len(code),
            "native_low": min(r.low for r in native) if native else None,
            "native_high": max(r.high for r in native) if native else None,
            "c_low": min(r.low for r in c_code) if c_code else None,
            "c_high": max(r.high for r in c_code) if c_code else None, **info}


def best_of(cals: list[dict]) -> dict:
    """Several measurements in one: each benchmark's fastest run here (the highest R: the one
    least disturbed by the rest of the machine, and the safe side)."""
    best: dict[str, Ratio] = {}
    for cal in cals:
        for r in cal["ratios"]:
            if r.name not in best or r.high > best[r.name].high:
                best[r.name] = r
    first = cals[0]
    info = {k: first[k] for k in ("mirror", "commit", "skipped", "sources")}
    info["repeats"] = sum(c["repeats"] for c in cals)
    return _summary([best[r.name] for r in first["ratios"]], info)


def print_report(cal: dict) -> None:
    print(f"{'benchmark':14} {'unix here':>11} {'ESP32@160':>10} {'R low':>6} {'R high':>6}  "
          f"source")
    for r in cal["ratios"]:
        unit = " us" if r.name == "asyncio_rate" else ""
        print(f"{r.name:14} {r.unix:11.1f} {r.esp32_160:10.2f} {r.low:6.0f} {r.high:6.0f}  "
              f"{r.source}{unit and ' (us per resumption)'}")
    for key, src in cal["sources"].items():
        print(f"  {key}: {src['title']}; MicroPython {src['micropython']}; {src['board']}; "
              f"{src['clock_mhz']} MHz; {src['url']}")
    if cal["mirror"]:
        print(f"  perf_bench run from {cal['mirror']} at {cal['commit']} (N={N_MHZ} M={M_KB}), "
              f"unix port: CPU time (time.clock), >= {MIN_CPU_S} s a benchmark"
              + (f", the fastest of {cal['repeats']} processes" if cal["repeats"] > 1 else ""))
    else:
        print(f"  micropython/micropython mirror not found (set MICROPYTHON_MIRROR): "
              f"{', '.join(cal['skipped'])} not run; R from {cal['benchmarks']} benchmark(s) only")
    print(f"R = {cal['low']:.0f}-{cal['high']:.0f}x (lowest and highest bound of "
          f"{cal['benchmarks']} benchmarks of bytecode and asyncio)")
    if cal["native_low"] is not None:
        print(f"R for native code (viper_call*: native loops calling viper functions) = "
              f"{cal['native_low']:.0f}-{cal['native_high']:.0f}x")
    if cal.get("c_low") is not None:
        print(f"R for the runtime's C code (bm_pidigits: bignum arithmetic; a collection's) = "
              f"{cal['c_low']:.0f}-{cal['c_high']:.0f}x")


def main() -> int:
    cal = measure()
    print("Calibration ratio R: time on an ESP32 at 240 MHz / time on this unix port")
    print_report(cal)
    return 0 if cal["benchmarks"] >= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
