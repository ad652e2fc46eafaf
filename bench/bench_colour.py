"""Colour benchmark: the classifier against the colour window's optical model, per colour.

On the MicroPython unix port (bench/mpy/colour_poses.py): 10,000 cubes, every colour alike, each
at a pose drawn from the simulated board's optics table (boards/sim_optics.py, generated from
hardware/optics.py: where across the chute, tilted; the signal 0.13-1.54x a centred flat cube's),
read as one full integration with the sensor's read noise and the room light's drift, less the
empty chute, classified by firmware/shogun_fw/colour.py with its factory centroids. Printed per
colour (misclassified and unknown) and per band of the pose's signal; at the faithful profile's
read noise (6 counts) and, for comparison, at 2 counts (the real sensor's is not measured here).
The whole detector on the same optics (sample timing, the sensor's own clock, pairs, tumbling
cubes): bench_firmware.py's table.

Exit status 1 when a cube is misclassified in more than 1 % of its colour's readings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.sim_device import firmware_dir, micropython_executable

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


def table(result: dict) -> list[str]:
    def line(name: str, row: list[int]) -> str:
        n, right, wrong, unknown = row
        return (f"{name:14} {n:6d} {right / n:8.1%} {wrong:13d} {wrong / n:6.2%} {unknown:8d} "
                f"{unknown / n:6.1%}")

    head = f"{'':14} {'cubes':>6} {'right':>8} {'misclassified':>13} {'':>6} {'unknown':>8} {'':>6}"
    out = [f"read noise {result['noise']:g} counts", head]
    out += [line(CUBE_COLOURS[c], row) for c, row in enumerate(result["colours"])]
    edges = result["band_edges"]
    pairs = zip(edges[:-1], edges[1:], strict=True)
    names = [f"signal < {edges[0]:g}"] + [f"{a:g}-{b:g}" for a, b in pairs]
    names.append(f">= {edges[-1]:g}")
    out.append("by the pose's signal (x a centred flat cube's), all colours:")
    out += [line(name, row) for name, row in zip(names, result["bands"], strict=True)]
    return out


def main() -> int:
    worst = 0.0
    for noise in (None, 2.0):
        result = run(CUBES, 1, noise)
        print("\n".join(table(result)))
        print()
        if noise is None:
            worst = max(row[2] / row[0] for row in result["colours"])
    print(f"colour on the optics: worst misclassified share {worst:.2%} (limit {WRONG_MAX:.0%})")
    return 1 if worst > WRONG_MAX else 0


if __name__ == "__main__":
    sys.exit(main())
