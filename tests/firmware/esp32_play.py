# A collection of the heap between throws at its worst moment, for the tests: throws of the
# simulated outlet played as on an ESP32 (simtime.play: the detector's wakes, the board's colour
# timer, soft interrupts) with the interpreter held up from the first cube's edge, counted against
# the truth.
import host_part  # noqa: F401 - the host-only decoders (unpack_cube)

from shogun_common import protocol as P
from shogun_common.colours import UNKNOWN
from shogun_fw.boards.sim import FAITHFUL, SimBoard
from shogun_fw.boards.simtime import play
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector


def throw(seed, cubes, stall_us=0, gap_ms=(3.0, 20.0)):
    """One throw of ``cubes`` cubes (colours drawn from ``seed``) out of the faithful simulated
    outlet, played as on the ESP32 after 300 ms of an empty chute (the ambient light learnt,
    the colour timer slow), with the interpreter held up for ``stall_us`` from the moment the
    first cube breaks the upper beam: the worst moment for a collection between throws, which
    the link never starts once a throw has begun (Detector.active). Returns the colours
    reported, in order, and the true ones."""
    board = SimBoard(seed=seed, virtual=True, serial=False, gap_ms=gap_ms, **FAITHFUL)
    found = []
    det = Detector(board, Classifier(),
                   lambda t, p: found.append(P.unpack_cube(p)["colour"]) if t == P.CUBE else 0)
    play(board, det, 300000)
    rng = board.tower_rng
    colours = bytearray(rng.randbelow(6) for _ in range(cubes))
    k = len(board.truth)
    board.release_cubes(colours)
    stall = (board.truth[k][0], stall_us) if stall_us else None
    play(board, det, 3000000, stall)
    return found, [colour for _, colour in board.truth[k:]]


def tally(throws, cubes, stall_us, first=3, seed=100):
    """``throws`` throws (seeds from ``seed`` on) with the loop held up ``stall_us`` at each
    one's first edge: a dict of the cubes thrown, throws whose count was off, cubes reported
    in another colour, cubes reported unknown, and unknown or wrong among each throw's
    ``first`` cubes (those a stall at the start can cost)."""
    out = {"cubes": 0, "count_off": 0, "wrong": 0, "unknown": 0, "first_bad": 0,
           "first": 0}
    for s in range(seed, seed + throws):
        found, truth = throw(s, cubes, stall_us)
        out["cubes"] += len(truth)
        if len(found) != len(truth):
            out["count_off"] += 1
            continue
        for i in range(len(truth)):
            bad = found[i] != truth[i]
            if bad and found[i] == UNKNOWN:
                out["unknown"] += 1
            elif bad:
                out["wrong"] += 1
            if i < first:
                out["first"] += 1
                out["first_bad"] += bad
    return out
