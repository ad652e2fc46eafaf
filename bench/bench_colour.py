"""Colour benchmark: the classifier against the colour window's optical model, per colour.

On the MicroPython unix port (bench/mpy/colour_poses.py): 10,000 cubes, every colour alike,
each at a pose drawn from the simulated board's optics block (boards/sim.py, generated from
hardware/optics.py by firmware/gen_sim_optics.py: where across the chute, tilted; the signal
0.13-1.54x a centred flat cube's), read as one full integration with the sensor's read noise
and the room light's drift, less the empty chute, classified by firmware/shogun_fw/colour.py
with its factory centroids. Printed per colour (misclassified and unknown) and per band of the
pose's signal; at the faithful profile's read noise (6 counts) and, for comparison, at 2 counts
(the real sensor's is not measured here). The whole detector on the same optics (sample
timing, the sensor's own clock, pairs, tumbling cubes): bench_firmware.py's table.

Exit status 1 when a cube is misclassified in more than 1 % of its colour's readings.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.sim_device import firmware_dir, micropython_executable, repo_root

CUBES = 10000
WRONG_MAX = 0.01


def run(cubes: int, seed: int, noise: float | None = None) -> dict:
    """colour_poses.py's result: per colour and per band [cubes, right, misclassified, unknown]."""
    root = firmware_dir()
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([str(root), str(root.parent / "common"), ".frozen"])
    cmd = [micropython_executable(), "-X", "heapsize=4M",
           str(root.parent / "bench" / "mpy" / "colour_poses.py"), "--cubes", str(cubes),
           "--seed", str(seed)]
    if noise is not None:
        cmd += ["--noise", str(noise)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=root, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"colour_poses.py failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


BANDS = (0.4, 0.7, 1.0, 1.3)  # the pose's signal, x a centred flat cube's: upper bounds


def pose_signals() -> list[float]:
    """Each pose's signal, as the optics block holds them (gen_sim_optics, the same order)."""
    spec = importlib.util.spec_from_file_location(
        "gen_sim_optics", repo_root() / "firmware" / "gen_sim_optics.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return [row[0] for row in gen.table()["rows"]]


def table(result: dict, signals: list[float]) -> list[str]:
    def line(name: str, row: list[int]) -> str:
        n, right, wrong, unknown = row
        return (f"{name:14} {n:6d} {right / n:8.1%} {wrong:13d} {wrong / n:6.2%} {unknown:8d} "
                f"{unknown / n:6.1%}")

    head = f"{'':14} {'cubes':>6} {'right':>8} {'misclassified':>13} {'':>6} {'unknown':>8} {'':>6}"
    out = [f"read noise {result['noise']:g} counts", head]
    out += [line(CUBE_COLOURS[c], row) for c, row in enumerate(result["colours"])]
    bands = [[0, 0, 0, 0] for _ in range(len(BANDS) + 1)]
    for signal, row in zip(signals, result["poses"], strict=True):
        band = sum(signal >= edge for edge in BANDS)
        bands[band] = [a + b for a, b in zip(bands[band], row, strict=True)]
    pairs = zip(BANDS[:-1], BANDS[1:], strict=True)
    names = [f"signal < {BANDS[0]:g}"] + [f"{a:g}-{b:g}" for a, b in pairs]
    names.append(f">= {BANDS[-1]:g}")
    out.append("by the pose's signal (x a centred flat cube's), all colours:")
    out += [line(name, row) for name, row in zip(names, bands, strict=True) if row[0]]
    return out


def _board_config():
    """The tower's board settings (firmware boards/esp32_config.py: plain data)."""
    path = firmware_dir() / "shogun_fw" / "boards" / "esp32_config.py"
    spec = importlib.util.spec_from_file_location("esp32_config", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GAINS = (1, 4, 16, 60)  # the TCS34725's analogue gains (drivers/tcs34725.py)
GAIN = _board_config().SENSOR_GAIN  # the boards' (the simulated board's counts are at it)


def settings(result: dict) -> list[str]:
    """The sensor's gain against the run's readings: the brightest reading (the brightest cube
    at the brightest pose in the strongest room light) against saturation, and black's clear
    channel against the read noise, were the gain another. A longer integration (ATIME) raises
    the counts and the saturation alike (1024 a 2.4 ms step), so the gain alone decides
    saturation; per reading, the read noise stays what it is. (The counts are the run's at the
    boards' gain, scaled: their noise scales with them here, not on a real sensor.)"""
    sat = result["saturation"]
    lo, mid = result["black_c"]
    out = [f"the sensor's gain (read noise {result['noise']:g} counts a reading, saturation "
           f"{sat} a 2.4 ms step)",
           f"{'gain':>6} {'brightest':>10} {'saturates':>10} {'black C, 1st pct':>17} "
           f"{'median':>7}"]
    for g in GAINS:
        k = g / GAIN
        bright = result["brightest"] * k
        out.append(f"{g:>5}x {bright:10.0f} {'yes' if bright >= sat else 'no':>10} "
                   f"{lo * k:17.0f} {mid * k:7.0f}")
    return out


def main() -> int:
    worst = 0.0
    signals = pose_signals()
    for noise in (None, 2.0):
        result = run(CUBES, 1, noise)
        print("\n".join(table(result, signals)))
        print()
        if noise is None:
            print("\n".join(settings(result)))
            print()
            worst = max(row[2] / row[0] for row in result["colours"])
    print(f"colour on the optics: worst misclassified share {worst:.2%} (limit {WRONG_MAX:.0%})")
    return 1 if worst > WRONG_MAX else 0


if __name__ == "__main__":
    sys.exit(main())
