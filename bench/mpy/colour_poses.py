# The classifier against the colour window's optics alone, on the MicroPython unix port: cubes of
# every colour at poses drawn from the optics block (boards/sim.py, generated from
# hardware/optics.py), each read once as a full integration (the sensor's noise, the room
# light's drift), less the empty chute's reading (what the detector's ambient estimate converges
# to), classified. Prints one JSON line: per colour and per pose [cubes, right, misclassified,
# unknown] (bench_colour.py groups the poses by their signal), the brightest count any channel
# would read without its ceiling and black's clear channel at its 1st and 50th percentile (the
# sensor's settings table).
#   micropython colour_poses.py --cubes N --seed S [--noise COUNTS]
import json
import sys

from shogun_fw.boards.sim import FAITHFUL, SimBoard
from shogun_fw.colour import Classifier


def _arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


class _Posed:
    """The board's generator, its next randbelow (the pose's draw) given."""

    def __init__(self, rng):
        self.rng = rng
        self.pose = None

    def randbelow(self, n):
        if self.pose is not None:
            pose, self.pose = self.pose, None
            return pose
        return self.rng.randbelow(n)

    def random(self):
        return self.rng.random()


def _poses(path):
    # the optics block's _POSES (a private const: no attribute of the module), from its source
    with open(path) as f:
        for line in f:
            if line.startswith("_POSES = const("):
                return int(line.split("(")[1].split(")")[0])
    raise ValueError(path + ": no _POSES in the colour optics block")


def main():
    import shogun_fw.boards.sim as sim

    n = _arg("--cubes", 10000)
    seed = _arg("--seed", 1)
    noise = _arg("--noise", float(FAITHFUL["noise"]))
    poses = _poses(sim.__file__)
    board = SimBoard(seed=seed, virtual=True, serial=False, noise=noise,
                     drift=FAITHFUL["drift"])
    posed = board.rng = _Posed(board.rng)
    cl = Classifier()
    rows = [[0, 0, 0, 0] for _ in range(6)]
    by_pose = [[0, 0, 0, 0] for _ in range(poses)]
    empty = [0, 0, 0, 0, 0, 0]
    lit = [0, 0, 0, 0, 0, 0]
    brightest = 0  # the most any channel read (the sensor's saturation: board.saturation)
    black = []  # black's clear channel, less the empty chute, at each of its poses
    step = 30000000 // n + 1  # the room light's drift over the run: one 30 s period
    rng = board.tower_rng
    for i in range(n):
        colour = i % 6
        pose = rng.randbelow(poses)
        board.advance(step)
        del board._blocks[:]
        board._colour_pos = 0
        board.read_colour(empty)  # (the detector's ambient: its mean; noise on it too)
        posed.pose = pose
        light = board._cube_light(colour)
        # a full integration of this cube: its block and its pass of the window wide around now
        t = board.ticks_us()
        board.add_block(t - 20000, t + 20000, light, 40000 << 22 | 1 << 44)
        board.advance(3000)
        board.read_colour(lit)
        x = [lit[k] - empty[k] for k in range(2, 6)]
        # (before the ceiling: what the light would read, the sensor's settings table)
        brightest = max(brightest, light & 0xFFF, light >> 12 & 0xFFF, light >> 24 & 0xFFF,
                        light >> 36)
        if colour == 0:
            black.append(x[3])
        # as the detector reads a clipped sample: one colour channel at the ceiling is told by
        # the other two, two or three are unknown; a clipped clear channel is R + G + B
        sat = board.saturation
        over = (lit[2] >= sat) + (lit[3] >= sat) + (lit[4] >= sat)
        if lit[5] >= sat:
            x[3] = x[0] + x[1] + x[2]
        got = 255 if over > 1 else cl.classify(x[0], x[1], x[2], x[3])[0]
        k = 1 if got == colour else (3 if got > 5 else 2)
        for row in (rows[colour], by_pose[pose]):
            row[0] += 1
            row[k] += 1
    black.sort()
    print(json.dumps({"colours": rows, "poses": by_pose, "noise": noise,
                      "brightest": brightest, "saturation": board.saturation,
                      "black_c": [black[len(black) // 100], black[len(black) // 2]]}))


main()
