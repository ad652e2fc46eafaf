# The classifier against the colour window's optics alone, on the MicroPython unix port: cubes of
# every colour at poses drawn from the optics table (boards/sim_optics.py, as the simulated board
# draws them), each read once as a full integration (the sensor's noise, the room light's drift),
# less the empty chute's reading (what the detector's ambient estimate converges to), classified.
# Prints one JSON line: {"colours": per colour [cubes, right, misclassified, unknown],
# "bands": the same per band of the pose's signal (BANDS, x a centred flat cube's), all colours}.
#   micropython colour_poses.py --cubes N --seed S [--noise COUNTS]
import json
import sys

from shogun_fw.boards.sim import FAITHFUL, SimBoard
from shogun_fw.boards.sim_optics import POSES, TABLE
from shogun_fw.colour import Classifier

BANDS = (0.4, 0.7, 1.0, 1.3)  # upper bounds; the last band is everything above


def _arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def main():
    n = _arg("--cubes", 10000)
    seed = _arg("--seed", 1)
    noise = _arg("--noise", float(FAITHFUL["noise"]))
    board = SimBoard(seed=seed, virtual=True, serial=False, noise=noise,
                     drift=FAITHFUL["drift"])
    cl = Classifier()
    rows = [[0, 0, 0, 0] for _ in range(6)]
    bands = [[0, 0, 0, 0] for _ in range(len(BANDS) + 1)]
    empty = [0, 0, 0, 0, 0, 0]
    lit = [0, 0, 0, 0, 0, 0]
    step = 30000000 // n + 1  # the room light's drift over the run: one 30 s period
    rng = board.tower_rng
    for i in range(n):
        colour = i % 6
        pose = rng.randbelow(POSES)
        board.advance(step)
        del board._blocks[:]
        board._colour_pos = 0
        board.read_colour(empty)  # (the detector's ambient: its mean; noise on it too)
        light = board._cube_light(colour, pose)
        # a full integration of this cube: its block and its pass of the window wide around now
        t = board.ticks_us()
        board.add_block(t - 20000, t + 20000, light, 40000 << 22 | 1 << 44)
        board.advance(3000)
        board.read_colour(lit)
        x = [lit[k] - empty[k] for k in range(2, 6)]
        got = cl.classify(x[0], x[1], x[2], x[3])[0]
        face = (TABLE[4 * pose] | TABLE[4 * pose + 1] << 8) / 10000
        band = 0
        while band < len(BANDS) and face >= BANDS[band]:
            band += 1
        k = 1 if got == colour else (3 if got > 5 else 2)
        for row in (rows[colour], bands[band]):
            row[0] += 1
            row[k] += 1
    print(json.dumps({"colours": rows, "bands": bands, "band_edges": BANDS, "noise": noise}))


main()
