# Detection and classification benchmark on the MicroPython unix port, in virtual time: the real
# Detector and Classifier on the simulated board's physics (faithful profile: doubles, stuck and
# late cubes, chatter, noise, drifting stray light), throw after throw until N cubes fell out,
# played as on an ESP32 (simtime.play: soft interrupts, woken as Detector.run is, the board's
# colour timer slow between throws and at full rate while a cube can be in view), for a build
# (stock: the beams read by soft handlers; tower: by a C interrupt handler), every step and
# callback ``--slow`` times as long as the model says.
# Prints one JSON line: the truth and the detections, block by block, for bench_firmware.py.
#   micropython bench_main.py --cubes N --seed S --gap-ms LO HI [--build stock|tower] [--slow K]
import gc
import json
import struct
import sys
import time

from shogun_common import protocol as P
from shogun_fw.boards.sim import FAITHFUL, SimBoard
from shogun_fw.boards.simtime import STOCK, play
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector


def _arg(name, default, n=1):
    if name in sys.argv:
        i = sys.argv.index(name)
        vals = [float(v) for v in sys.argv[i + 1:i + 1 + n]]
        return vals if n > 1 else vals[0]
    return default


def main():
    cubes_wanted = int(_arg("--cubes", 10000))
    seed = int(_arg("--seed", 1))
    gap = _arg("--gap-ms", [3.0, 20.0], 2)
    slow = _arg("--slow", 1.0)
    build = sys.argv[sys.argv.index("--build") + 1] if "--build" in sys.argv else STOCK
    opts = dict(FAITHFUL)
    board = SimBoard(seed=seed, virtual=True, serial=False, gap_ms=(gap[0], gap[1]), **opts)
    found = []  # [t_us, colour, flags] per cube event, flattened

    def emit(mtype, payload):
        # (protocol.py's decoders and its cube layout, P._CUBE, are host-only: not compiled on
        # MicroPython)
        if mtype == P.CUBE:
            _no, t_us, colour, _conf, _block, flags = struct.unpack("<IIBBHB", payload)
            found.append(t_us)
            found.append(colour)
            found.append(flags)
        elif mtype == P.ERROR:
            errors.append(bytes(payload[1:]).decode())

    errors = []
    det = Detector(board, Classifier(), emit)
    timer = [0]
    stats = {}
    play(board, det, 200000, build=build, slow=slow)
    rng = board.tower_rng
    throws = 0
    wall0 = time.ticks_ms()
    peak = 0
    while len(board.truth) < cubes_wanted:
        counts = [0] * 6
        for _ in range(1 + rng.randbelow(14)):
            counts[rng.randbelow(6)] += 1
        board.sim_throw(counts)
        throws += 1
        end = board.last_end()
        if end is None:
            end = board.ticks_us()
        span = board.ticks_diff(end, board.ticks_us())
        play(board, det, max(0, span) + 600000, timer=timer, build=build, slow=slow,
             stats=stats)
        gc.collect()
        used = gc.mem_alloc()
        if used > peak:
            peak = used
    play(board, det, 2500000, timer=timer, build=build, slow=slow, stats=stats)  # late cubes
    wall = time.ticks_diff(time.ticks_ms(), wall0)
    truth = []
    for t, colour in board.truth:
        truth.append(t)
        truth.append(colour)
    print(json.dumps({
        "truth": truth, "found": found, "errors": errors, "throws": throws,
        "detector_us": timer[0], "wall_ms": wall, "hw_count": det.hardware_count(),
        "falls": det.falls, "chatter": det.chatter, "mismatches": det.mismatches,
        "double_us": det.double_us, "live_heap_peak": peak,
        "pairs": board.pairs, "tumbling": board.tumbling, "stuck": board.stuck,
        "paired": det.paired, "unpaired": det.unpaired, "late_edges": board.capture.status[2],
        "edges": board.capture.status[5], "play": stats,
    }))


main()
