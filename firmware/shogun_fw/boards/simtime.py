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
                try:
                    out[name.strip()] = int(rest.split("const(")[1].split(")")[0], 0)
                except ValueError:
                    pass  # (literal ints only: an expression or a tuple is not read)
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

# ---- step lengths: written by bench/bench_steps.py --write, do not edit
# (x86-64 instructions on the unix port, callgrind: a step's base, an edge it took, a cube it sent;
# a beam reading and a colour sample put; the ESP32 board's soft handler, its take_edges
# with nothing waiting, the tower build's wake)
_STEP_BASE_I = 35876
_STEP_EDGE_I = 3687
_STEP_CUBE_I = 43813
_PUT_I = 1664
_SAMPLE_I = 1865
_HANDLER_I = 7088
_TAKE_I = 14972
_WAKE_I = 2168
# ---- end of step lengths
# An ESP32 at 240 MHz takes _CYCLES_PER_INSTR cycles for what the unix port does in one x86-64
# instruction: the highest ratio measured for MicroPython's bytecode (its perf_bench figures
# published for the ESP32 against their counts here: 0.6-3.7; the estimator that measured it
# went, see docs/firmware.md), so the interrupt model errs on the late side. A real board's
# figures replace it (tests/hil/test_cpu_budget.py).
_CYCLES_PER_INSTR = 3.7
_MHZ = 240
_SAMPLE_US = 260   # the colour callback: its 8-byte I2C burst at 400 kHz (the bus's own time)
_DISPATCH_US = 20  # from an interrupt to its soft callback on an idle interpreter (assumed)
_QUEUE = 8         # MicroPython's scheduler queue on the ESP32 (MICROPY_SCHEDULER_DEPTH)
STOCK = "stock"    # builds (play's ``build``): beam readings by soft handlers
TOWER = "tower"    # ... by the tower's build's C interrupt handler
_TIMER = 2         # play's queue: a colour timer callback (0, 1: a beam's handler),
_WAKE = 3          # ... the detector's wake the tower build's C handler schedules


def _play_consts():
    if not _K:
        import shogun_fw.detector

        _K.update(consts(shogun_fw.detector.__file__))
        # the board's own figures (boards/esp32.py, beside this file; not imported: machine)
        here = __file__.rsplit("/", 1)[0]
        _K["SLOW_US"] = consts(here + "/esp32.py")["_SLOW_US"]
        _K["TAKEN"] = consts(here + "/__init__.py")["_S_TAKEN"]
    return _K


def next_edge(board, beam, now):
    """When the simulated board's next edge of ``beam`` after ``now`` comes (None: none
    scheduled yet)."""
    board._counts(beam, now)
    pos = board._bc[board_const("_BC0") + board_const("_BC") * beam + board_const("_BC_POS")]
    while pos < len(board._blocks) // board_const("_BS"):
        for end in (False, True):
            t = board._edge(beam, pos, end)
            if t >= 0 and board.ticks_diff(t, now) > 0:
                return t
        pos += 1
    return None


_SIM = {}


def board_const(name):
    """A private const() of boards/sim.py (read once from its source)."""
    if not _SIM:
        _SIM.update(consts(__file__.rsplit("/", 1)[0] + "/sim.py"))
    return _SIM[name]


def play(board, det, us, stall=None, woken=None, timer=None, step_us=2400, build=STOCK,
         slow=1.0, stats=None):
    """Virtual time as on an ESP32, its interpreter one worker: run ``det`` on ``board`` for
    ``us`` microseconds.

    - The detector's task steps as Detector.run wakes it: at the time step() left
      (self._c[_C_WAKE]) and, while it waits on the edge flag (not in view, or in view and asking
      for the next edge: _C_ON_EDGE), when a beam's handler has run; ``woken()`` is one wake (by
      default steps until step() has nothing more). Each step takes the interpreter its
      instruction count (the generated block above: a base, an edge it took, a cube it sent)
      x _CYCLES_PER_INSTR at _MHZ.
    - Soft interrupts as the ESP32 port runs them: a beam's edge (``build`` STOCK) and the colour
      timer's tick schedule their callback, which runs once the interpreter is free (after the
      step it is in; before the next task step), in order, _QUEUE pending at most (a full
      queue drops the callback); a handler takes the ESP32 board's handler's count and reads the
      beam's counters at its start (board.handle); the colour callback takes its
      I2C burst (_SAMPLE_US) and its sample put, and reads the latest
      integration (every integration, ``step_us``, while a cube can be in view, _C_IN_VIEW: run()
      calls board.sampling; every _SLOW_US otherwise; started again one period after each
      switch; a callback less than half a period after the last sample is skipped, as
      boards/esp32.py _on_sample does). With ``build`` TOWER a beam's reading is taken by a C
      interrupt handler at the edge (a few us after it: as exact), whatever the interpreter
      does, and the detector's wake it schedules is a soft callback as the others.
    - ``stall`` (start ticks, length us): the interpreter held up, as by a collection of the heap.
    - ``slow``: every step and callback takes that many times as long.

    drive() is the simpler clock (a step every ms, a sample every integration) the scene tests
    use. With ``timer`` (a list of one int), the microseconds spent inside the detector on this
    machine are added to timer[0]; ``stats`` (a dict) counts "steps", "handlers", "dropped"
    callbacks, "busy_us", the worst "latency_us" from an edge to its handler's reading and their
    sum ("latency_sum_us"). Returns the
    samples taken."""
    k = _play_consts()
    c = det._c
    wake_i, edge_i, view_i = k["_C_WAKE"], k["_C_ON_EDGE"], k["_C_IN_VIEW"]
    cubes_i = k["_C_CUBES"]
    slow_us = k["SLOW_US"]
    reading = det._reading
    diff = board.ticks_diff
    add = board.ticks_add
    clock = time.ticks_us
    now = board.ticks_us()
    end = add(now, us)
    period = slow_us
    fast = False
    due = add(now, period)
    last = add(now, -period)
    samples = 0
    free = now        # the interpreter is free from then
    queue = []        # soft callbacks waiting: (what, when scheduled)
    runnable = False  # the detector's task is woken
    soft = build == STOCK
    nxt = [next_edge(board, 0, now), next_edge(board, 1, now)]
    s0 = s1 = None
    if stall is not None:
        s0, s1 = stall[0], add(stall[0], stall[1])
    per = _CYCLES_PER_INSTR * slow / _MHZ  # (us an instruction)
    handler_us = int(_HANDLER_I * per)  # (boards/esp32.py's: three counters read, a reading put)
    wake_us = int(_WAKE_I * per)
    sample_us = int(_SAMPLE_I * per + _SAMPLE_US * slow)
    base_us = int(_STEP_BASE_I * per)
    if stats is None:
        stats = {}
    for key in ("steps", "handlers", "dropped", "busy_us", "latency_us", "latency_sum_us"):
        stats.setdefault(key, 0)
    while diff(end, now) > 0:
        on_flag = not (c[view_i] and not c[edge_i])
        # the next event: an edge, the timer's tick, the detector's own wake, the interpreter free
        t = end
        for e in nxt:
            if e is not None and diff(e, t) < 0:
                t = e
        if diff(due, t) < 0:
            t = due
        if not runnable and diff(c[wake_i], t) < 0:
            t = c[wake_i]
        if queue or runnable:
            at = free if diff(free, now) > 0 else now  # (work waits for the interpreter)
            if diff(at, t) < 0:
                t = at
        if s0 is not None and diff(s0, now) > 0 and diff(s0, t) < 0:
            t = s0
        if diff(t, now) > 0:
            board.advance(diff(t, now))
            now = t
        if s0 is not None and diff(now, s0) >= 0:
            if diff(s1, free) > 0:
                free = s1  # held up: nothing runs until it ends
            s0 = None
        for beam in (0, 1):
            e = nxt[beam]
            if e is not None and diff(now, e) >= 0:
                nxt[beam] = next_edge(board, beam, e)
                if soft:
                    if len(queue) < _QUEUE:
                        queue.append((beam, e))
                    else:
                        stats["dropped"] += 1
                else:
                    board.handle(beam, e)  # (C, at the edge; then its soft wake, queued)
                    if len(queue) < _QUEUE:
                        queue.append((_WAKE, e))
                    else:
                        stats["dropped"] += 1
        if diff(now, due) >= 0:
            while diff(now, due) >= 0:
                due = add(due, period)
            if len(queue) < _QUEUE:
                queue.append((_TIMER, now))
            else:
                stats["dropped"] += 1
        if not runnable and diff(c[wake_i], now) <= 0:
            runnable = True
        if diff(free, now) > 0:
            continue  # busy: the callbacks and the task wait
        if queue:
            what, when = queue.pop(0)
            # (an idle interpreter takes a moment to come to it)
            start = now if diff(now, add(when, _DISPATCH_US)) >= 0 else add(when, _DISPATCH_US)
            if diff(start, now) > 0:
                queue.insert(0, (what, when))
                free = start
                continue
            if what == _TIMER:
                busy = sample_us
                if diff(now, last) >= period // 2:
                    last = now
                    if board.read_colour(reading):  # the sensor's work, not the firmware's
                        det.add_sample(reading)
                        samples += 1
            elif what == _WAKE:
                busy = wake_us
                if on_flag:
                    runnable = True
            else:
                busy = handler_us
                stats["handlers"] += 1
                late = diff(now, when)
                stats["latency_sum_us"] += late
                if late > stats["latency_us"]:
                    stats["latency_us"] = late
                board.handle(what, now)
                if on_flag:
                    runnable = True
            stats["busy_us"] += busy
            free = add(now, busy)
            continue
        if not runnable:
            continue
        # one task step of the detector
        runnable = False
        cubes = c[cubes_i]
        took = board.capture.status[k["TAKEN"]]
        if timer is not None:
            c0 = clock()
        if woken is None:
            more = det.step()
        else:
            more = woken()  # (a tests' own loop returns None: nothing more)
        if timer is not None:
            timer[0] += time.ticks_diff(clock(), c0)
        stats["steps"] += 1
        busy = base_us + int((_STEP_EDGE_I * (board.capture.status[k["TAKEN"]] - took)
                              + _STEP_CUBE_I * (c[cubes_i] - cubes)) * per)
        stats["busy_us"] += busy
        free = add(now, busy)
        if more:
            runnable = True
        in_view = c[view_i] != 0
        if in_view != fast:
            fast = in_view
            period = step_us if fast else slow_us
            due = add(now, period)  # Timer.init: the first call one period on
    return samples
