# The firmware's steps counted in instructions (run by bench/bench_steps.py under valgrind's
# callgrind, on the MicroPython unix port; MICROPYPATH: firmware, common). The densest throw (40
# cubes at 3 ms gaps) played as on an ESP32 (simtime.play: soft interrupts, the detector's
# wakes), with the app's link packing and framing each cube; each detector step runs inside the
# C function map_iternext, each call of the simulated board's inside filter_iternext (callgrind
# turns its count on and off on entering and leaving either: the simulation's work is left
# out), and each recorded row ends with a call of hash(), before which callgrind writes what it
# counted: one dump a row. Prints one JSON line: the rows, in order.
import array
import json

from shogun_fw.boards.sim import SimBoard
from shogun_fw.boards.simtime import play
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector, put_sample
from shogun_fw.link import Link

_ON = [None]
_OFF = [None, None]
_CALLS = [0, 0, 0]  # board calls counted; 1 while inside one; 1 while counting


def _on(_):
    return _ON[0]()


def _off(_):
    o = _OFF
    o[0] = o[0](*o[1])
    return True


_ON_MAP = map(_on, range(1, 1 << 30))
_OFF_FILTER = filter(_off, range(1, 1 << 30))


def counted(fn):
    """fn() inside map_iternext: what callgrind counts."""
    _ON[0] = fn
    _CALLS[2] = 1
    try:
        return next(_ON_MAP)
    finally:
        _CALLS[2] = 0


def uncounted(method):
    """A board method whose work the count leaves out (the simulation's): only its call and
    this wrapper's are counted (rows "wrapper", taken out by the bench)."""

    def call(*args):
        if _CALLS[1] or not _CALLS[2]:
            # (inside another, or outside every count: a filter there would turn it on)
            return method(*args)
        _CALLS[0] += 1
        _CALLS[1] = 1
        o = _OFF
        o[0] = method
        o[1] = args
        try:
            next(_OFF_FILTER)
        finally:
            _CALLS[1] = 0
        return o[0]

    return call


def main():
    rows = []

    def row(kind, **more):
        more["kind"] = kind
        rows.append(more)
        hash(0)  # (callgrind writes this row's count: nothing counted here)

    # the count's own parts: an empty call, a wrapped board call
    nothing = uncounted(lambda: None)
    for _ in range(5):
        counted(lambda: None)
        row("empty")
        counted(nothing)
        row("wrapper")

    board = SimBoard(seed=7, virtual=True, serial=False, gap_ms=(3.0, 3.0), noise=6.0)
    board.serial_write = lambda data, off=0, n=-1: None  # (the ESP32's is one C call)
    link = Link(board, "bench")
    det = Detector(board, Classifier(), link.send_event, packed=True)
    link.detector = det
    for name in ("poll", "beam_count", "lower_count", "ticks_us", "handle", "_counts",
                 "serial_write"):
        setattr(board, name, uncounted(getattr(board, name)))
    capture = board.capture
    taken = [capture.status[5]]  # (boards/__init__.py _S_TAKEN)

    def step():
        cubes = det.cubes
        _CALLS[0] = 0
        more = counted(det.step)
        edges = capture.status[5] - taken[0]
        taken[0] = capture.status[5]
        row("step", edges=edges, cubes=det.cubes - cubes, calls=_CALLS[0])
        outbox = link.outbox
        if len(outbox):
            outbox.ack(outbox.next_seq - 1)  # (the host's ACK)
        return more

    play(board, det, 200000, woken=step)  # the ambient light learnt, the rings warm
    board.release_cubes(bytearray([k % 6 for k in range(40)]))
    play(board, det, 1500000, woken=step)

    # a beam's reading into the capture (the firmware's part of a soft handler) and a colour
    # sample into the detector's ring (the firmware's part of the timer's callback)
    counts = array.array("i", (100, 1, 1))
    t = board.ticks_us()
    for k in range(5):
        counted(lambda k=k: capture.put(k & 1, t, counts))
        row("put")
    reading = [t - 2400, t, 100, 120, 80, 300]
    for _ in range(5):
        counted(lambda: put_sample(det._st, det._sv, reading))
        row("sample")
    print(json.dumps({"rows": rows, "cubes": det.cubes, "thrown": len(board.truth),
                      "late": capture.status[2]}))


main()
