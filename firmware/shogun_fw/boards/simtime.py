# Virtual time for the simulated board (tests and the benchmark, never the firmware): drives a
# Detector as the firmware's tasks would.
import time


def consts(path):
    """A firmware module's private const()s, read from its source file (``path``; a module's
    __file__): the compiler inlines them, so they are no module attributes. One source, nothing
    copied into the tests or the players."""
    if not path.endswith(".py"):
        raise ValueError(path + ": the constants are read from a source file, not a compiled one")
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("_") and "= const(" in line:
                name, _, rest = line.partition("=")
                out[name.strip()] = int(rest.split("const(")[1].split(")")[0], 0)
    return out


def drive(board, detector, us, step_us=1000, sample_us=2400, timer=None):
    """Virtual time: run ``detector`` on ``board`` for ``us`` microseconds (a detector step
    every ms - finer than the firmware's wakes; the decisions follow the edges' and samples'
    own times, only a cube's emission may come a little later there - and a colour sample every
    2.4 ms, as the board's timer takes them).
    With ``timer`` (a list of one int), the microseconds spent inside the detector are added
    to timer[0]."""
    reading = detector._reading
    next_sample = sample_us
    t = 0
    clock = time.ticks_us
    while t < us:
        dt = step_us if next_sample > step_us else next_sample
        board.advance(dt)
        t += dt
        next_sample -= dt
        fresh = False
        if next_sample <= 0:
            next_sample += sample_us
            fresh = board.read_colour(reading)  # the sensor's work, not the firmware's
        if timer is not None:
            c0 = clock()
        if fresh:
            detector.add_sample(reading)
        detector.step()
        if timer is not None:
            timer[0] += time.ticks_diff(clock(), c0)


_K = {}  # play's constants, read at its first call (consts)
_EDGE_LOOK_US = 200  # how often play looks for an edge while the task waits on the edge flag


def _play_consts():
    if not _K:
        import shogun_fw.detector

        _K.update(consts(shogun_fw.detector.__file__))
        # the board's own figures (boards/esp32.py, beside this file; not imported: machine)
        esp32 = consts(__file__.rsplit("/", 1)[0] + "/esp32.py")
        _K["SLOW_US"] = esp32["_SLOW_US"]
    return _K


def play(board, det, us, stall=None, woken=None, timer=None, step_us=2400):
    """Virtual time as on an ESP32: run ``det`` on ``board`` for ``us`` microseconds

    - as Detector.run wakes it: at the time step() left (self._c[_C_WAKE]) and, while it waits
      on the edge flag (not in view, or in view and asking for the next edge: _C_ON_EDGE), at
      an edge; ``woken()`` steps it (by default until step() has nothing more);
    - with the colour timer as boards/esp32.py runs it: every integration (``step_us``) while a
      cube can be in view (_C_IN_VIEW: run() calls board.sampling), every _SLOW_US otherwise,
      started again one period after each switch; its soft callback reads the latest
      integration, stamped as ending then, and skips a late callback less than half a period
      after the last sample (the same integration);
    - ``stall`` (start ticks, length us): the loop held up, as by a collection of the heap:
      neither the task nor a soft callback runs; the beams' edges are stamped by their hard
      interrupts meanwhile (the board's own times); a timer that fired in it has its callback
      run once at its end, then the task steps if an edge came or its time is past.

    drive() is the simpler clock (a step every ms, a sample every integration) the scene tests
    use. With ``timer`` (a list of one int), the microseconds spent inside the detector are
    added to timer[0]. Returns the samples taken."""
    k = _play_consts()
    c = det._c
    wake_i, edge_i, view_i = k["_C_WAKE"], k["_C_ON_EDGE"], k["_C_IN_VIEW"]
    slow = k["SLOW_US"]
    reading = det._reading
    diff = board.ticks_diff
    add = board.ticks_add
    clock = time.ticks_us
    now = board.ticks_us()
    period = slow
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
        fresh = False
        if fired:
            fired = False
            if diff(now, last) >= period // 2:
                last = now
                board._last_read = add(now, -step_us)  # the integration that ends now
                fresh = board.read_colour(reading)  # the sensor's work, not the firmware's
        woke = diff(c[wake_i], now) <= 0 or (on_flag and board._edge_due(now))
        if timer is not None and (fresh or woke):
            c0 = clock()
        if fresh:
            det.add_sample(reading)
            samples += 1
        if woke:
            if woken is None:
                while det.step():
                    pass
            else:
                woken()
            in_view = c[view_i] != 0
            if in_view != fast:
                fast = in_view
                period = step_us if fast else slow
                due = add(now, period)  # Timer.init: the first call one period on
        if timer is not None and (fresh or woke):
            timer[0] += time.ticks_diff(clock(), c0)
    return samples
