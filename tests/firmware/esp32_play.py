# Virtual time as the firmware plays it on an ESP32, for the tests and the benchmark: the
# detector's task as Detector.run wakes it, the colour timer as boards/esp32.py runs it, and
# the loop held up (a collection of the heap) for a while. The simulated board in virtual time
# (SimBoard(virtual=True)) does not sample by itself; this plays its ESP32 timer.
from mpy_test_detector_viper import K  # the detector's private constants, from its source

from shogun_common import protocol as P
from shogun_common.colours import UNKNOWN
from shogun_fw.boards.sim import FAITHFUL, SimBoard
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector

_STEP_US = 2400    # the sensor's integration: the timer's period at full rate
_SLOW_US = 48000   # between throws (boards/esp32.py _SLOW_US)
_EDGE_LOOK_US = 200  # how often an edge is looked for while the task waits on the edge flag


def _slow_us():
    # boards/esp32.py's own figure, read from its source (a private const())
    with open("../../firmware/shogun_fw/boards/esp32.py") as f:
        for line in f:
            if line.startswith("_SLOW_US") and "const(" in line:
                return int(line.split("const(")[1].split(")")[0])
    return _SLOW_US


SLOW_US = _slow_us()


def play(board, det, us, stall=None, woken=None):
    """Run ``det`` on ``board`` for ``us`` microseconds of virtual time as on the ESP32:

    - the task wakes at the time step() left (self._c[_C_WAKE]) and, while it waits on the
      edge flag (not in view, or in view and asking for the next edge: _C_ON_EDGE), at an edge;
      ``woken()`` steps it (by default until step() has nothing more);
    - the colour timer fires every integration while a cube can be in view (_C_IN_VIEW, as
      run() calls board.sampling), every SLOW_US otherwise, started again one period after each
      switch; its soft callback reads the latest integration, stamped as ending then, and skips
      a late callback less than half a period after the last sample (the same integration);
    - ``stall`` (start ticks, length us): nothing runs in it, neither the task nor a soft
      callback, as in a collection of the heap; the beams' edges are stamped by their hard
      interrupts meanwhile (the board's own times); a timer that fired in it has its callback
      run once at its end, then the task steps if an edge came or its time is past.

    Returns the samples taken."""
    c = det._c
    wake_i, edge_i, view_i = K["_C_WAKE"], K["_C_ON_EDGE"], K["_C_IN_VIEW"]
    reading = det._reading
    diff = board.ticks_diff
    add = board.ticks_add
    now = board.ticks_us()
    period = SLOW_US
    fast = False
    due = add(now, period)
    last = add(now, -period)
    fired = False
    samples = 0
    s0 = s1 = None
    if stall is not None:
        s0, s1 = stall[0], add(stall[0], stall[1])
    t = 0
    while t < us:
        on_flag = not (c[view_i] and not c[edge_i])
        dt = min(diff(c[wake_i], now), diff(due, now), _EDGE_LOOK_US if on_flag else us)
        if s0 is not None:
            if diff(s0, now) > 0:
                dt = min(dt, diff(s0, now))
            elif diff(s1, now) > 0:
                dt = min(dt, diff(s1, now))
        dt = max(1, min(dt, us - t))
        board.advance(dt)
        t += dt
        now = board.ticks_us()
        if diff(now, due) >= 0:
            fired = True  # the timer's interrupt: its soft callback is scheduled
            while diff(now, due) >= 0:
                due = add(due, period)
        if s0 is not None and diff(now, s0) >= 0 and diff(now, s1) < 0:
            continue  # held up: nothing runs
        if fired:
            fired = False
            if diff(now, last) >= period // 2:
                last = now
                board._last_read = add(now, -_STEP_US)  # the integration that ends now
                if board.read_colour(reading):
                    det.add_sample(reading)
                    samples += 1
        if diff(c[wake_i], now) <= 0 or (on_flag and board._edge_due(now)):
            if woken is None:
                while det.step():
                    pass
            else:
                woken()
            in_view = c[view_i] != 0
            if in_view != fast:
                fast = in_view
                period = _STEP_US if fast else SLOW_US
                due = add(now, period)  # Timer.init: the first call one period on
    return samples


def throw(seed, cubes, stall_us=0, gap_ms=(3.0, 20.0)):
    """One throw of ``cubes`` cubes (colours drawn from ``seed``) out of the faithful simulated
    outlet, played as on the ESP32 after 300 ms of an empty chute (the ambient light learnt,
    the colour timer slow), with the loop held up for ``stall_us`` from the moment the first
    cube breaks the upper beam: the worst moment for a collection between throws, which the
    link never starts once an edge is in the board's ring (Detector.active). Returns the
    colours reported, in order, and the true ones."""
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
