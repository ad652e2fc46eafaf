# The firmware's CPU time in the densest plausible throw, on the MicroPython unix port, in virtual
# time (run by bench/bench_cpu.py; MICROPYPATH: bench/mpy, firmware, common).
#
# The firmware runs unchanged: app.main(board) with its link, detector, colour sampling and score
# track tasks, on a stand-in for asyncio (vasyncio.py) whose clock only moves when every task
# sleeps. Each step (one task's run from an await to the next) is timed; the simulated board's own
# work inside it (its physics, its instant "I2C", the scripted host's bytes) is timed separately
# and taken out: every public method of the board is wrapped when the board is made, so a method
# the simulation adds later is taken out too (tests/firmware/test_cpu_profile.py checks that no
# simulation time reaches the firmware's figures).
#
# Prints one JSON line: per step (task, virtual start, firmware ns, I/O flags), the windows of
# each throw and of the idle time between throws, and the profiler's own overheads.
#   micropython cpu_worst.py --ack-every-us US --ack-at-once N [--throws N] [--cubes N]
#       [--replays N] [--seed S] [--leak-test] [--count]
# --count: for an instruction count of every step under valgrind's callgrind (bench/step_counts.py:
# the same steps, counted instead of timed, the same every run). Each step runs inside the C
# function map_iternext, each call of the simulated board inside filter_iternext (callgrind
# toggles its collection on entering and leaving either: the board's work is left out however
# deep), and each recorded step ends with a call of hash(), before which callgrind writes what
# it counted: one dump a step, in the order of the steps.
import gc
import json
import struct
import sys
import time

import micropython
import vasyncio


class _TimedGc:
    """The firmware's `gc`: the same functions, but a collection it asks for, and a scan of the
    heap's table (mem_alloc, mem_free), is timed on its own (such a step is reported apart, its
    time from bench/mpy/gc_cost.py: C code, whose time follows the heap, and this run's heap
    holds the simulation too)."""

    ns = 0      # time in the firmware's collections and scans since the last reset
    count = 0

    def collect(self):
        t0 = clock()
        gc.collect()
        _TimedGc.ns += clock() - t0
        _TimedGc.count += 1

    def mem_alloc(self):
        t0 = clock()
        n = gc.mem_alloc()
        _TimedGc.ns += clock() - t0
        return n

    def mem_free(self):
        t0 = clock()
        n = gc.mem_free()
        _TimedGc.ns += clock() - t0
        return n

    enable = staticmethod(gc.enable)
    disable = staticmethod(gc.disable)
    isenabled = staticmethod(gc.isenabled)
    threshold = staticmethod(gc.threshold)


sys.modules["asyncio"] = vasyncio  # before the firmware imports asyncio
sys.modules["gc"] = _TimedGc()     # ... and gc

from shogun_common import protocol as P  # noqa: E402
from shogun_fw import app  # noqa: E402
from shogun_fw.boards.sim import SimBoard  # noqa: E402
from shogun_fw.detector import put_sample  # noqa: E402

clock = time.time_ns
allocated = micropython.mem_total  # bytes allocated since start (the unix port counts them)

# step flags: what the real board would do on the wire during the step (not x R: bus time)
F_POLL = 1       # the sensor's status polled over I2C (read 1 byte)
F_SAMPLE = 2     # a colour sample read over I2C (8-byte burst + clear the interrupt)
F_STRIP = 4      # the strip written (the frame's length in LEDs is in `leds`)
F_TX = 8         # bytes written to the serial port
F_CALL = 16      # read_colour called (its Python runs, I2C or not)
F_BURST = 32     # a colour sample read by the board's timer: one 8-byte I2C burst, no poll
F_CALLBACK = 64  # the step is a callback of the board's (timer), not a task's step
F_FLAG_WAKE = 128  # the task waited on a flag (ThreadSafeFlag: asyncio's poller on the board)

_INTEGRATION_US = 2400
_EARLY_US = 300  # boards/esp32.py _EARLY_US and _POLL_US
_POLL_US = 1000
_SLOW_US = 48000  # boards/esp32.py: a sample this often between throws (sampling(False))


class Profiler:
    """Time inside the simulated board, per step; the leak test makes it huge instead."""

    def __init__(self):
        self.sim_ns = 0
        self.sim_alloc = 0    # bytes the simulation allocated
        self.calls = 0
        self.depth = 0
        self.inside_ns = 0    # firmware callbacks the simulation called inside a timed call
        self.inside_alloc = 0
        self.raw = {}         # id(wrapped callback) -> the firmware's function
        self.reset()

    def wrapped(self, fn):
        cb = _callback(self, fn)
        self.raw[id(cb)] = fn
        return cb

    def reset(self):
        # what the step asked of the board (the real board's driver code costs per call)
        self.flags = 0
        self.leds = 0
        self.takes = 0      # take_edges calls
        self.edges = 0      # edges they gave
        self.counts = 0     # beam_count calls
        self.reads = 0      # serial_read calls
        self.rx = 0         # bytes they gave
        self.writes = 0     # serial_write calls
        self.wakes = 0      # wake_in calls (the one-shot timer set up again)
        self.polls = 0      # serial_receive calls (the task waited in asyncio's poller)


_NO = object()


def _is_code(x):
    return type(x).__name__ in ("function", "bound_method", "closure")


def _callback(prof, fn):
    """Firmware code handed to the board (a timer's or an interrupt's callback): whenever the
    simulation or the scenario calls it, its time is the firmware's. Inside a timed board call
    it is taken back out of the simulation's time (so it stays in the step); called by the
    scenario, the caller records it as a step of its own (cpu_worst: `fire`)."""

    def cb(*args):
        m0 = allocated()
        t0 = clock()
        try:
            if prof.depth and _COUNT[0]:
                return _counted_on(fn, args)
            return fn(*args)
        finally:
            if prof.depth:
                prof.inside_ns += clock() - t0
                prof.inside_alloc += allocated() - m0

    return cb


def _callbacks(prof, rest):
    return tuple(prof.wrapped(x) if _is_code(x) else x for x in rest)


@micropython.native
def _call(prof, fn, a, b, c, rest):
    if rest:
        # firmware code passed in (a callback) is timed as firmware wherever it runs
        rest = _callbacks(prof, rest)
    if _is_code(a):
        a = prof.wrapped(a)
    if _is_code(b):
        b = prof.wrapped(b)
    if _is_code(c):
        c = prof.wrapped(c)
    if a is _NO:
        return fn()
    if b is _NO:
        return fn(a)
    if c is _NO:
        return fn(a, b)
    if rest:
        return fn(a, b, c, *rest)
    return fn(a, b, c)


def _wrap(prof, name, fn):
    # The wrapper's own bookkeeping lies inside its timed part, taken out with the board's
    # time: what is left in the step is its call and return, measured warm in overheads().
    # Native, so that call takes no frame from the heap (a bytecode closure with defaults and
    # *rest did: 232 bytes, 2.5 us a call warm against the bare call's 0.3). (Until 27 Nov the
    # bookkeeping was outside and the wrapper bytecode: in the run, with the caches cold, it
    # cost 3-4 times its warm figure, 1-2 us a call left in the steps.)
    # Three arguments by name (serial_write's, start_sampling's): a call with more allocates
    # its tuple of the rest. Two cells (the profiler and the function in one tuple, and the
    # wrapper itself): a closure called with its cells and arguments over five takes their array
    # from the heap, in the step.
    pf = (prof, fn)

    @micropython.native
    def timed(a=_NO, b=_NO, c=_NO, *rest):
        if _COUNTING[0]:  # (--count: left out of the count, this wrapper's work too)
            return _counted_off(timed, a, b, c, rest)
        t0 = clock()
        prof = pf[0]
        if prof.depth:  # called by the simulation itself: the outer call counts it
            return _call(prof, pf[1], a, b, c, rest)
        prof.depth = 1
        if _EM[0]:  # (what this wrapper costs the step fell inside native code)
            _EM[1] -= _WRAP_IN_NATIVE[0]
        i0 = prof.inside_ns
        a0 = prof.inside_alloc
        m0 = allocated()
        try:
            return _call(prof, pf[1], a, b, c, rest)
        finally:
            prof.calls += 1
            prof.depth = 0
            prof.sim_alloc += allocated() - m0 - (prof.inside_alloc - a0)
            prof.sim_ns += clock() - t0 - (prof.inside_ns - i0)

    return timed


# The split of native code (bench/emitters.py, bench/mpy/native_split.py): which step's time is
# in native code. Only a split run (--emitters) imports native_split; these stay here because
# the profiler itself reads them.
_EM = [0, 0, 0, 0]  # native code runs now (1); its ns this step; the wrappers' ns; their bytes
_EM_MISS = [0]      # the escape test: calls of bytecode while native time was counted
_PROF = [None]      # this replay's Profiler: the board's time, taken out
_SPLIT = []         # native_split, when imported
_WRAP_IN_NATIVE = [0]  # a board call's wrapper cost, ns, taken from native time (split runs)
_STAMP_ALLOC = [0]     # bytes one clock reading allocates (vasyncio's stamps, in the step)


def _clock_alloc():
    m0 = allocated()
    for _ in range(100):
        clock()
    return (allocated() - m0) // 100


_RX = bytearray(4096)

# --count (see the top): the step's code inside map_iternext, the board's inside filter_iternext.
# Callgrind flips its collection on entering and on leaving either, so each is entered only to
# change what is counted: _COUNTING says what is (the scenario calls the board between steps,
# counted by nobody). One map and one filter serve every call, over a range (C code, small ints):
# little is allocated where the count sees it (an allocation's search of the heap's table
# follows the bench's heap, not the firmware's). Left: the map's own array of one argument
# (map_iternext takes it from the heap at every call, 100-230 instructions); not the count's
# wrappers' frames, the stand-in asyncio's tracebacks or clock readings (all mended 28 Nov:
# they moved a step's count by up to 30k instructions).
_COUNT = [False]
_COUNTING = [False]
_ON = [None, None]               # the firmware's function, its arguments (a tuple)
_OFF = [None, None, None, None, None]  # a board call's wrapper, its arguments, its result


def _on_inside(_):
    o = _ON
    a = o[1]  # (its arguments read before the call: a nested use is safe)
    if len(a) == 1:  # (a task's step: a call with *a takes its arguments' array from the heap)
        return o[0](a[0])
    return o[0](*a)


def _off_inside(_):
    o = _OFF
    o[0] = o[0](o[1], o[2], o[3], *o[4])
    return True


_ON_MAP = map(_on_inside, range(1, 1 << 30))
_OFF_FILTER = filter(_off_inside, range(1, 1 << 30))


def _counted_on(fn, args):
    if _COUNTING[0]:
        return fn(*args)
    o = _ON
    o[0] = fn
    o[1] = args
    _COUNTING[0] = True
    try:
        return next(_ON_MAP)
    finally:
        _COUNTING[0] = False


@micropython.native  # (its frame on the C stack: as bytecode, with its try, one from the heap)
def _counted_off(timed, a, b, c, rest):
    # The whole of a board call, the profiler's bookkeeping in its wrapper too, counted by
    # nobody: what is left in the step is this function's call and filter's (taken out: the
    # rows "count: a board call")
    o = _OFF
    o[0] = timed
    o[1] = a
    o[2] = b
    o[3] = c
    o[4] = rest
    _COUNTING[0] = False
    try:
        next(_OFF_FILTER)
    finally:
        _COUNTING[0] = True
    return o[0]


class ProfiledBoard(SimBoard):
    """The simulated board as the bench needs it: virtual time, a scripted host on the serial
    port, and the colour sensor as the ESP32 sees the TCS34725 (an integration ends every
    2.4 ms; a read gets the latest one, an integration not read in time is lost)."""

    colour_period_ms = 1  # as boards/esp32.py: the sensor is polled every ms

    def __init__(self, prof, **kw):
        super().__init__(virtual=True, serial=False, **kw)
        self.prof = prof
        self.rx = _RX              # (one buffer for every replay: a fragmented heap may
        #                            lack a free run this long by the third)
        self.rx_n = 0
        self.rx_at = 0
        self.rx_mv = memoryview(self.rx)
        self.tx_buf = bytearray()
        self.rx_flag = vasyncio.ThreadSafeFlag()  # the host's bytes came (the UART's interrupt)
        # As boards/esp32.py: every beam edge sets this flag (its hard interrupt); the bench's
        # scenario sets it when an edge's time comes (edges_due).
        self.edge_flag = vasyncio.ThreadSafeFlag()
        self._flagged_to = -1
        self._read_end = 0         # the end of the last integration read
        self._gate = 0             # no status read before this (boards/esp32.py)
        self.sample_ends = []      # virtual time of every integration the firmware read
        self._sampler = None       # start_sampling: (times, words, on_error)
        self._wake_at = None       # wake_in: when the one-shot timer sets edge_flag
        self._period = _SLOW_US
        self._due = 0
        self._reading = [0, 0, 0, 0, 0, 0]  # fire_sample: what the sensor gives
        # The firmware's own tick helpers are the port's C functions, as on the ESP32 (virtual
        # ticks stay far below any wrap in a bench run).
        self.ticks_diff = time.ticks_diff
        self.ticks_add = time.ticks_add
        # (and the ESP32 board's hooks this board plays: firmware code handed to them is
        # wrapped in turn, see _wrap)
        for name in dir(SimBoard) + ["start_sampling", "sampling", "wake_in"]:
            if name.startswith("_") or name in ("ticks_diff", "ticks_add"):
                continue
            attr = getattr(self, name)
            if callable(attr):
                setattr(self, name, _wrap(prof, name, attr))

    def random32(self):
        return 0x5EED0001

    def edges_due(self, now):
        """Set edge_flag for edges up to now (untimed: the interrupt); the next edge's time."""
        nxt = None
        last = self._flagged_to
        blocks = self._blocks
        for i in range(0, len(blocks), 7):  # (boards/sim.py: 7 ints a block, t0 and t1 first)
            for t in (blocks[i], blocks[i + 1]):
                if last < t <= now:
                    self.edge_flag.set()
                elif t > now and (nxt is None or t < nxt):
                    nxt = t
        self._flagged_to = now
        return nxt

    def take_edges(self, ts, vs):
        n = SimBoard.take_edges(self, ts, vs)
        self.prof.takes += 1
        self.prof.edges += n
        return n

    def beam_count(self):
        self.prof.counts += 1
        return SimBoard.beam_count(self)

    def serial_read(self, most=256):
        self.prof.reads += 1
        n = self.rx_n - self.rx_at
        if n <= 0:
            return None
        if n > most:
            n = most
        if n > 256:
            n = 256
        at = self.rx_at
        self.rx_at += n
        self.prof.rx += n
        return self.rx_mv[at:at + n]

    async def serial_receive(self, most=256):
        # As boards/esp32.py: asleep until the host's bytes come, then what is waiting. (The
        # real board's Python for this, per call and per byte, is added by bench_cpu.py.)
        if self.rx_n != self.rx_at:
            # Bytes already wait: the board's task still goes to asyncio's poller (link.readable
            # yields to it), which finds them at its next turn, so the read is a step of its own
            # (until 28 Nov it read at once, in the step before: a host's burst read in the step
            # that woke the score track came to 1.76 ms by count, a step no board takes)
            await vasyncio.sleep_ms(0)
        while self.rx_n == self.rx_at:
            await self.rx_flag.wait()
        self.prof.polls += 1  # (the poller's wake-up: in the step it resumes)
        return self.serial_read(most)

    def host_send(self, frame):
        if self.rx_at == self.rx_n:
            self.rx_at = self.rx_n = 0
        self.rx[self.rx_n:self.rx_n + len(frame)] = frame
        self.rx_n += len(frame)
        self.rx_flag.set()

    def serial_write(self, data, off=0, n=-1):
        self.tx_buf.extend(data if n < 0 else data[off:off + n])
        self.prof.flags |= F_TX
        self.prof.writes += 1

    def strip_write(self, frame):
        self.strip[:] = frame
        self.prof.flags |= F_STRIP
        self.prof.leds = len(frame) // 3
        return True

    # ---- the ESP32's timer sampling (boards/esp32.py start_sampling) ----------------------
    def start_sampling(self, times, words, on_error):
        # As boards/esp32.py: a timer on the integration period reads each sample into the
        # detector's ring; here the scenario fires it (fire_sample) at the timer's times.
        # (`on_error` comes wrapped by the profiler: firmware code.)
        self._sampler = (times, words, on_error)
        self._period = _SLOW_US
        self._due = self._now + _SLOW_US
        return True

    def sampling(self, fast):
        period = _INTEGRATION_US if fast else _SLOW_US
        if period != self._period:
            self._period = period
            self._due = self._now + period  # (the timer started again)

    def wake_in(self, ms):
        # As boards/esp32.py: a one-shot timer whose soft callback sets edge_flag (the scenario
        # fires it: wake_due); a new call replaces it.
        self.prof.wakes += 1
        if ms <= 0:
            self.edge_flag.set()
            return
        self._wake_at = self._now + ms * 1000

    def wake_due(self, now):
        """Fire the one-shot timer if its time came; its next time, or None."""
        at = self._wake_at
        if at is not None and at <= now:
            self._wake_at = None
            self.edge_flag.set()
            return None
        return at

    def sample_due(self):
        return self._due if self._sampler is not None else None

    def fire_sample(self):
        """The timer's callback at its time: the sensor's latest integration into the
        detector's ring, as boards/esp32.py's _on_sample writes it (the board's own code: its
        cost is esp32_costs' sample_callback, added by bench_cpu.py; no firmware function is
        called, so None), or the firmware's on_error to call with the exception."""
        times, words, on_error = self._sampler
        now = self._now
        self._due = now + self._period
        self._last_read = now - _INTEGRATION_US
        end = now - now % _INTEGRATION_US
        self.sample_ends.append(end)
        self._read_end = end
        reading = self._reading
        try:
            if SimBoard.read_colour(self, reading):
                put_sample(times, words, reading)
        except OSError as exc:
            return on_error, exc
        return None

    def colour_wait_ms(self):
        # As boards/esp32.py: sleep until the next integration can have ended.
        d = self._gate - self._now
        return (d + 999) // 1000 if d > 1000 else self.colour_period_ms

    def read_colour(self, out):
        # As boards/esp32.py: no I2C before the next integration can have ended.
        self.prof.flags |= F_CALL
        now = self._now
        if now < self._gate:
            return False
        self.prof.flags |= F_POLL
        end = now - now % _INTEGRATION_US
        if end <= self._read_end:
            return False
        self._gate = now + _INTEGRATION_US - _POLL_US - _EARLY_US
        self._read_end = end
        self.sample_ends.append(end)
        self.prof.flags |= F_SAMPLE
        # The integration [end - 2.4 ms, end], as the sensor made it.
        self._last_read = end - _INTEGRATION_US
        self._now = end
        try:
            return SimBoard.read_colour(self, out)
        finally:
            self._now = now


# Which task a step belongs to: the firmware's coroutine methods are wrapped so that each
# generator they make is labelled, and app._guard passes the label on to its wrapper.
_labels = {}


def _label_methods():
    from shogun_fw.detector import Detector
    from shogun_fw.link import Link
    from shogun_fw.score_track import ScoreTrack

    def label(cls, name, text):
        fn = getattr(cls, name, None)
        if fn is None:
            return

        def make(self, *args):
            g = fn(self, *args)
            _labels[id(g)] = text
            return g

        setattr(cls, name, make)

    label(Link, "run", "link")
    label(Link, "_receive", "link")  # the link's second task: what the host sends
    label(Detector, "run", "detector")
    label(Detector, "run_colour", "colour sampling")
    label(ScoreTrack, "run", "score track")
    guard = getattr(app, "_guard", None)
    if guard is None:
        return  # the app's tasks are the labelled coroutines themselves

    def named_guard(link, coro):
        g = guard(link, coro)
        _labels[id(g)] = _labels.get(id(coro)) or _name(coro)
        return g

    app._guard = named_guard


def _name(coro):
    text = repr(coro)
    if "'" in text:
        return "task " + text.split("'")[1]
    return "task"


# A host's burst between throws: what a host that stalled (a busy laptop, a cable put back)
# writes at once, 244 bytes, nearly the ESP32's stdin ring (260): 5-player SCORES four times,
# STATUS five times, PING four times and 2-player SCORES (no animation: it would run on into the
# idle time). The link takes it _READ_MOST bytes a step (link.py), each command in steps of its
# own.
_SCORES5 = bytes((0, 12, 0, 3, 1, 9, 0, 4, 2, 14, 0, 2, 3, 7, 0, 1, 4, 20, 0, 5))
BURST = ([(P.SCORES, _SCORES5), (P.STATUS_GET, b""), (P.PING, b"\x01\x02\x03\x04")] * 4
         + [(P.STATUS_GET, b""), (P.SCORES, struct.pack("<BHBBHB", 1, 12, 3, 2, 9, 4))])


class Host:
    """The scripted host, as host/shogun_tower/link.py behaves: it reads the port in 5 ms
    windows (pyserial, timeout 5 ms) and acknowledges the events read with one cumulative ACK
    1 ms after a read's end, at most every ACK_EVERY_US (at once when ACK_AT_ONCE wait); in
    each throw an animation, two score updates, STATUS every 50 ms and PING every 100 ms; 600 ms
    after each throw a burst (BURST: untimed: not the firmware's work)."""

    READ_US = 5000
    ACK_EVERY_US = None   # host/shogun_tower/link.py's ACK_EVERY_S and ACK_AT_ONCE, given by
    ACK_AT_ONCE = None    # bench_cpu.py (--ack-every-us, --ack-at-once)

    def __init__(self, board):
        self.board = board
        self.reader = P.FrameReader()
        self.seq = 100
        self.ack = None      # the pending ACK: [due, seq]
        self.acked_at = -self.ACK_EVERY_US  # the read that sent the last one
        self.unacked = 0
        self.plan = []       # (due, mtype, payload)
        self.boot_id = 0x5EED0001
        self.events = 0
        self.cubes = 0       # distinct CUBE events (a resend of one the host has is not new)
        self._seqs = set()

    def command(self, mtype, payload=b""):
        self.seq = (self.seq + 1) & 0xFFFF
        self.board.host_send(P.encode_frame(mtype, self.seq, payload))

    def poll(self, now):
        b = self.board
        if b.tx_buf:
            data = bytes(b.tx_buf)
            b.tx_buf[:] = b""
            for mtype, seq, _payload in self.reader.feed(data):
                if mtype >= 0x90:  # events (protocol.py: 0x90-0xFF), every one acknowledged
                    if seq not in self._seqs:  # (a resend is not a new event)
                        self._seqs.add(seq)
                        self.events += 1
                        if mtype == P.CUBE:
                            self.cubes += 1
                    read_end = now - now % self.READ_US + self.READ_US
                    self.unacked += 1
                    if (self.unacked < self.ACK_AT_ONCE
                            and read_end - self.acked_at < self.ACK_EVERY_US):
                        # the first read to end ACK_EVERY_US after the last ACK's
                        later = self.acked_at + self.ACK_EVERY_US
                        read_end = later + (-later) % self.READ_US
                    due = read_end + 1000
                    if self.ack is None or due < self.ack[0]:
                        self.ack = [due, seq]
                    self.ack[1] = seq  # cumulative: the newest
        if self.ack is not None and self.ack[0] <= now:
            due, seq = self.ack
            self.ack = None
            self.acked_at = due - 1000
            self.unacked = 0
            self.command(P.ACK, struct.pack("<HI", seq, self.boot_id))
        while self.plan and self.plan[0][0] <= now:
            _due, mtype, payload = self.plan.pop(0)
            self.command(mtype, payload)

    def next_due(self):
        due = None
        if self.ack is not None:
            due = self.ack[0]
        if self.plan and (due is None or self.plan[0][0] < due):
            due = self.plan[0][0]
        return due

    def throw_traffic(self, start, span):
        plan = self.plan
        plan.append((start, P.ANIMATE, bytes((P.ANIM_BATTLE, 1))))
        plan.append((start + 100000, P.SCORES, struct.pack("<BHBBHB", 1, 12, 3, 2, 9, 4)))
        plan.append((start + 300000, P.SCORES, struct.pack("<BHBBHB", 1, 14, 3, 2, 9, 4)))
        t = start
        while t < start + span:
            plan.append((t + 25000, P.STATUS_GET, b""))
            if (t - start) % 100000 == 0:
                plan.append((t + 50000, P.PING, struct.pack("<I", t & 0xFFFFFFFF)))
            t += 50000
        # (after the throw's end and its events, before the idle time: not in the densest
        # throw's figures nor the idle load's, in the longest stall anywhere's)
        burst = start + span + 500000
        for frame in BURST:
            plan.append((burst,) + frame)
        plan.sort(key=lambda e: e[0])  # (stable: a burst's frames stay in order)


def _arg(name, default):
    if name in sys.argv:
        return int(sys.argv[sys.argv.index(name) + 1])
    return default


# task, flags, LEDs written, simulation calls, start (us), firmware ns, end of the integration
# read (us, 0: none), firmware bytes allocated, take_edges calls, edges, beam_count calls,
# serial_read calls, bytes read, serial_write calls, ns in the firmware's own gc.collect(),
# wake_in calls, serial_receive calls, firmware ns of it in native and viper code
REC = "<BBBBIiIIBBBBHBIBBi"
REC_SIZE = struct.calcsize(REC)
_BENCH_GC_BYTES = 16 * 1024  # the bench collects (untimed) after this much was allocated
_FLUSH = 128  # (steps a write: the buffer is heap the replays share with the firmware)


_REC_BUF = bytearray(REC_SIZE * _FLUSH)


class Recorder:
    """Steps go to a file through a small buffer: nothing grows in the heap, so the firmware's
    own garbage collections cost what they would without the bench around them."""

    def __init__(self, path):
        self.f = open(path, "wb")
        self.buf = _REC_BUF  # (one for every replay, as _RX)
        self.n = 0
        self.total = 0
        self.tasks = {}

    def add(self, task, prof, calls, start, ns, sample_end, alloc, gc_ns, native_ns):
        if _COUNT[0]:
            hash(0)  # (--count: callgrind writes this step's count; nothing counted here)
        struct.pack_into(REC, self.buf, self.n * REC_SIZE, task, prof.flags,
                         prof.leds if prof.flags & F_STRIP else 0, calls, start, ns,
                         sample_end, alloc, min(255, prof.takes), min(255, prof.edges),
                         min(255, prof.counts), min(255, prof.reads), min(65535, prof.rx),
                         min(255, prof.writes), gc_ns, min(255, prof.wakes),
                         min(255, prof.polls), native_ns)
        self.n += 1
        self.total += 1
        if self.n == _FLUSH:
            self.f.write(self.buf)
            self.n = 0

    def close(self):
        self.f.write(memoryview(self.buf)[:self.n * REC_SIZE])
        self.f.close()


def replay(seed, throws, cubes, leak_test, path):
    gc.collect()
    _fw_calls[0] = _fw_timed[0] = 0
    prof = Profiler()
    _PROF[0] = prof
    board = ProfiledBoard(prof, seed=seed, gap_ms=(3.0, 3.0), noise=6.0,
                          drift=1.0, chatter_p=0.05)
    host = Host(board)
    # (the leak test's clock, when it runs; --count: a clock of small ints, as its stamps
    # are read by no one there and this port's ns are long integers, each one taken from the
    # heap in the step: an allocation's search of the table follows the bench's heap)
    vasyncio.clock = time.ticks_us if _COUNT[0] else clock
    _STAMP_ALLOC[0] = _clock_alloc()
    loop = vasyncio.Loop(None)
    vasyncio._set_loop(loop)
    rec = Recorder(path)
    task_names = []

    def set_clock(us):
        board._now = us

    # The scenario, untimed: throws of `cubes` cubes at 3 ms gaps, idle time between them.
    rng = board.tower_rng
    windows = []
    warm = 1000000
    between = 3000000
    schedule = [warm + k * (500000 + between) for k in range(throws)]
    end_us = warm + throws * (500000 + between)
    pending = list(schedule)

    def before(now):
        if pending and pending[0] <= now:
            pending.pop(0)
            colours = bytearray(cubes)
            for i in range(cubes):
                colours[i] = rng.randbelow(6)
            first = len(board._blocks)
            board.release_cubes(colours)
            blocks = board._blocks[first:]
            t0 = min(blocks[0::7])  # (boards/sim.py: 7 ints a block, t0 and t1 first)
            t1 = max(blocks[1::7])
            windows.append((t0, t1))
            host.throw_traffic(now, (t1 - now) + 100000)
        host.poll(now)
        due = host.next_due()
        edge = board.edges_due(now)
        if edge is not None and (due is None or edge < due):
            due = edge
        at = board.wake_due(now)
        if at is not None and (due is None or at < due):
            due = at
        at = board.sample_due()
        if at is not None and at <= now:
            fire(board.fire_sample(), now)
            at = board.sample_due()
        if at is not None and (due is None or at < due):
            due = at
        if pending and (due is None or pending[0] < due):
            due = pending[0]
        return due

    def fire(call, now):
        # The board's timer callback (boards/esp32.py _on_sample calls the detector's callback
        # with the sample): the firmware's part timed as a step of its own; the real board's
        # own Python for it is added by bench_cpu.py (esp32_costs: sample_callback).
        if "colour callback" not in task_names:
            task_names.append("colour callback")
        prof.reset()
        prof.flags = F_CALLBACK | F_BURST
        if call is None:  # (the sensor had nothing: still the board's burst and callback)
            rec.add(task_names.index("colour callback"), prof, 0, now, 0,
                    board.sample_ends[-1], 0, 0, 0)
            return
        fn, arg = call
        timed(prof.raw.get(id(fn), fn), arg)  # (the firmware's own function: no wrapper)
        rec.add(task_names.index("colour callback"), prof, min(255, step["calls"]), now,
                step["dt"], board.sample_ends[-1], step["alloc"], step["gc"], step["native"])

    def timed(fn, arg):
        # Firmware code run from here (a task's step, a timer's callback): fn(arg) timed, the
        # simulation's part taken out; the figures go to `step`.
        n0 = len(board.sample_ends)
        s0 = prof.sim_ns
        c0 = prof.calls
        a0 = prof.sim_alloc
        g0 = _TimedGc.ns
        f0 = _fw_calls[0]
        em = _EM
        em[0] = em[1] = em[2] = em[3] = 0  # (a step begins in bytecode)
        stamp = vasyncio.STAMP
        stamp[0] = stamp[1] = 0
        counting = _COUNT[0]
        m0 = allocated()
        t0 = clock()
        try:
            if counting:
                return _counted_on(fn, (arg,))
            return fn(arg)
        finally:
            t1 = clock()
            # (the clock readings allocate: this port's ns are long integers; the step's own
            # two, t0 and t1, and the stand-in asyncio's stamps. Until 27 Nov t0 and t1 were
            # counted as the firmware's: 82 bytes a step, most of the column)
            step["alloc"] = (allocated() - m0 - (prof.sim_alloc - a0) - em[3]
                             - (2 + (1 if stamp[0] else 0) + (1 if stamp[1] else 0))
                             * _STAMP_ALLOC[0])
            # the stand-in asyncio's part: the resumption up to its stamp, the await from its
            # stamp (the ESP32's is charged apart: asyncio_rate)
            own = (stamp[0] - t0 if stamp[0] else 0) + (t1 - stamp[1] if stamp[1] else 0)
            _fw_timed[0] += _fw_calls[0] - f0
            step["gc"] = _TimedGc.ns - g0
            step["dt"] = (t1 - t0) - (prof.sim_ns - s0) - em[2] - own
            step["native"] = max(0, em[1])
            step["calls"] = prof.calls - c0
            step["sample"] = board.sample_ends[-1] if len(board.sample_ends) > n0 else 0

    loop.before = before
    flagged = set()
    step = {"dt": 0, "calls": 0, "sample": 0, "alloc": 0, "gc": 0, "native": 0}
    orig_create = loop.create

    def create(coro):
        task = orig_create(coro)
        label = _labels.get(id(coro)) or ("link" if not task_names else _name(coro))
        if label not in task_names:
            task_names.append(label)
        task.index = task_names.index(label)
        inner = task.coro

        class Timed:
            # The step: the task's own code and the firmware it calls, minus the board's. A
            # step resumed by an exception (a wait_for_ms timeout, a cancellation) is a step too.
            def send(self, v):
                return self.run(inner.send, v)

            def throw(self, e):
                return self.run(inner.throw, e)

            def run(self, resume, v):
                prof.reset()
                if id(task) in flagged:
                    flagged.remove(id(task))
                    prof.flags = F_FLAG_WAKE
                return timed(resume, v)

        task.coro = Timed()
        return task

    def on_step(task, start, wait):
        if wait is not None:
            flagged.add(id(task))  # (its next step: woken by the flag, or its time-out)
        rec.add(task.index, prof, min(255, step["calls"]), start, step["dt"], step["sample"],
                step["alloc"], step["gc"], step["native"])
        if len(board.sample_ends) > 64:
            del board.sample_ends[:32]
        # The simulation and the profiler allocate too: the bench collects for them between
        # steps, untimed and often, so that the heap never runs out inside a step (a collection
        # the real board would not make). The firmware's own gc.collect() is timed apart.
        if allocated() - collected[0] > _BENCH_GC_BYTES:
            gc.collect()
            collected[0] = allocated()

    loop.create = create
    loop.on_step = on_step
    collected = [allocated()]
    cpu0 = time.clock()
    loop.create(app.main(board))
    if _COUNT[0]:
        # What a step costs the count with no firmware in it: the stand-in asyncio's resumption
        # and await and the profiler's own calls (a bare step), and one board call's wrapper
        # (the same with a call). Their rows are labelled "count: ..."; bench/step_counts.py
        # takes the least of each out of every step.
        noop = _wrap(prof, "noop", _noop)
        for label, coro in (("count: a bare step", _bare_steps()),
                            ("count: a board call", _call_steps(noop))):
            _labels[id(coro)] = label
            loop.create(coro)
    loop.run_until(end_us, set_clock)
    cpu = time.clock() - cpu0
    rec.close()
    del loop.tasks[:]          # this replay's app goes: the next one has the heap to itself
    vasyncio._set_loop(None)
    _labels.clear()
    idle = []
    for k in range(len(windows)):
        nxt = windows[k + 1][0] if k + 1 < len(windows) else end_us
        idle.append((windows[k][1] + 1000000, nxt - 200000))
    return {"file": path, "steps": rec.total, "names": task_names, "windows": windows,
            "idle": idle, "end": end_us, "sim_ns": prof.sim_ns, "sim_calls": prof.calls,
            "cpu_s": cpu, "fw_calls": _fw_calls[0], "fw_calls_timed": _fw_timed[0],
            "cubes_seen": host.cubes, "cubes_thrown": len(board.truth),
            "burst_bytes": sum(len(P.encode_frame(t, 0, p)) for t, p in BURST),
            "events": host.events, "emit_misses": _EM_MISS[0]}


def _noop():
    return None


async def _bare_steps():
    for _ in range(8):
        await vasyncio.sleep_ms(0)


async def _call_steps(noop):
    for _ in range(8):
        noop()
        await vasyncio.sleep_ms(0)


def overheads():
    """What the timing itself costs, per step and per wrapped call (subtracted by the bench)."""
    prof = Profiler()

    class Noop:
        def f(self):
            return None

        def g(self, x):
            return x

    o = Noop()
    bare = o.f
    wrapped = _wrap(prof, "f", o.f)
    n = 2000
    best_bare = best_wrapped = best_pair = 10 ** 12
    for _ in range(25):
        t0 = clock()
        for _ in range(n):
            bare()
        best_bare = min(best_bare, clock() - t0)
        prof.sim_ns = 0
        t0 = clock()
        for _ in range(n):
            wrapped()
        best_wrapped = min(best_wrapped, clock() - t0 - prof.sim_ns)
        t0 = clock()
        for _ in range(n):
            clock()
            clock()
        best_pair = min(best_pair, clock() - t0)
    one = _wrap(prof, "g", o.g)
    prof.sim_alloc = 0
    m0 = allocated()
    for _ in range(100):
        wrapped()
        one(o)
    alloc = (allocated() - m0 - prof.sim_alloc) / 200
    # (the wrapper's bookkeeping is inside its timed part: its call may cost less than the
    # bare call it replaces, which would give the step time back; none is)
    out = {"wrap_leak_ns": max(0.0, (best_wrapped - best_bare) / n),
           "clock_pair_ns": best_pair / n,
           "wrap_alloc": alloc}
    if _SPLIT:
        out.update(_SPLIT[0].costs(Profiler()))
        _WRAP_IN_NATIVE[0] = round(out["wrap_leak_ns"])
    out["await_ns"] = _await_cost()
    return out


def _await_cost():
    """What a step spends in this stand-in's await machinery (the resumption, sleep_ms or a
    flag's wait, the yield) outside its stamps (vasyncio.STAMP: the rest is taken out of each
    step where it is measured), ns: the least of two, in a warm loop. bench_cpu.py takes it out
    of each task step, because it charges every step a whole resumption of the real asyncio
    (asyncio_rate), which includes that part."""
    vasyncio.clock = clock
    loop = vasyncio.Loop(None)
    vasyncio._set_loop(loop)
    flag = vasyncio.ThreadSafeFlag()
    stamp = vasyncio.STAMP

    async def sleeps():
        while True:
            await vasyncio.sleep_ms(1)

    async def waits():
        while True:
            await flag.wait()

    best = 10 ** 12
    for body in (sleeps, waits):
        coro = body()
        loop.current = loop.create(coro)
        coro.send(None)
        n = 2000
        for _ in range(10):
            left = 0
            for _ in range(n):
                stamp[0] = stamp[1] = 0
                t0 = clock()
                coro.send(None)
                t1 = clock()
                left += (t1 - t0) - (stamp[0] - t0) - (t1 - stamp[1])
            best = min(best, left / n)
    vasyncio._set_loop(None)
    return max(0.0, best)


class _FakeClock:
    """The leak test's clock: it moves 1 ns a reading, and SIM_NS whenever any code of the
    simulated board runs (every function of its class, private ones too). Steps that show
    SIM_NS or more ran simulation code the profiler did not take out."""

    SIM_NS = 10 ** 9

    def __init__(self):
        self.t = 0

    def __call__(self):
        self.t += 1
        return self.t


def _leak_test_setup():
    global clock
    fake = _FakeClock()
    clock = fake
    for name in list(SimBoard.__dict__):
        fn = SimBoard.__dict__[name]
        if name.startswith("__") or not callable(fn) or isinstance(fn, (staticmethod, type)):
            continue

        def bumped(*args, _fn=fn):
            fake.t += _FakeClock.SIM_NS
            return _fn(*args)

        setattr(SimBoard, name, bumped)


# The leak test of --count: every function of the simulated board's class burns _BURN rounds of
# a loop (about 40 x86 instructions a round) before it runs, so simulation code the count let
# in would show as hundreds of thousands of instructions in a step
# (tests/firmware/test_step_counts.py).
_BURN = 10000


def _burn_test_setup():
    for name in list(SimBoard.__dict__):
        fn = SimBoard.__dict__[name]
        if name.startswith("__") or not callable(fn) or isinstance(fn, (staticmethod, type)):
            continue

        def burned(*args, _fn=fn):
            n = 0
            for _ in range(_BURN):
                n += 1
            return _fn(*args)

        setattr(SimBoard, name, burned)


# The escape test: every function of the firmware counts its calls; a call the profiler did not
# time (outside every task step and every timer callback) would be firmware work the bench does
# not see. tests/firmware/test_cpu_profile.py asserts none escapes.
_fw_calls = [0]
_fw_timed = [0]   # ... of which inside a timed step or callback
# (protocol.py is left out: the scripted host uses it too; the firmware reaches it only from
# these modules' code, which is counted.)
_FIRMWARE = ("shogun_fw.app", "shogun_fw.link", "shogun_fw.detector", "shogun_fw.colour",
             "shogun_fw.score_track", "shogun_fw.commands", "shogun_fw.drivers.tcs34725")


def _counted(fn, native=False, count=True):
    # (and, for the split of native code, bench/emitters.py: bytecode that ran while native
    # time was counted, reached by no wrapper, is a miss)
    def f(*args, **kw):
        if count:
            _fw_calls[0] += 1
        if _EM[0] and not native:
            _EM_MISS[0] += 1
        return fn(*args, **kw)

    return f


def _escape_test_setup(spec):
    native = {(cls, name) for _m, cls, name, _k in spec["native"]} if spec else set()
    done = set()
    for name in _FIRMWARE + ("shogun_common.protocol",):
        # (protocol.py's calls are not counted, only checked: the scripted host uses it too,
        # outside the steps; the firmware reaches it only from the modules counted)
        count = name != "shogun_common.protocol"
        mod = sys.modules.get(name) or __import__(name, None, None, ["x"])
        for key in dir(mod):
            obj = getattr(mod, key)
            if type(obj).__name__ == "function":
                setattr(mod, key, _counted(obj, ("", key) in native, count))
            elif isinstance(obj, type) and id(obj) not in done and getattr(
                    obj, "__module__", name) == name:
                done.add(id(obj))
                for k, v in list(obj.__dict__.items()):
                    if type(v).__name__ == "function":  # (generators: their bodies run in steps)
                        setattr(obj, k, _counted(v, (obj.__name__, k) in native, count))


def main():
    throws = _arg("--throws", 3)
    cubes = _arg("--cubes", 40)
    replays = _arg("--replays", 3)
    seed = _arg("--seed", 7)
    Host.ACK_EVERY_US = _arg("--ack-every-us", None)
    Host.ACK_AT_ONCE = _arg("--ack-at-once", None)
    if Host.ACK_EVERY_US is None or Host.ACK_AT_ONCE is None:
        raise SystemExit("cpu_worst.py: --ack-every-us and --ack-at-once: the host link's pacing")
    leak = "--leak-test" in sys.argv
    _COUNT[0] = "--count" in sys.argv
    folder = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else "."
    spec = None
    if "--emitters" in sys.argv:
        with open(sys.argv[sys.argv.index("--emitters") + 1]) as f:
            spec = json.load(f)
    if "--escape-test" in sys.argv:
        _escape_test_setup(spec)
    _label_methods()
    if spec:
        import native_split

        native_split.bind(_EM, _PROF, _TimedGc, clock)
        native_split.setup(spec)
        _SPLIT.append(native_split)
        spec = None  # (its names: heap the replays need)
    out = {"overheads": overheads(), "replays": []}
    if leak and _COUNT[0]:
        _burn_test_setup()
    elif leak:
        _WRAP_IN_NATIVE[0] = 0  # (the fake clock's readings are no nanoseconds)
        _leak_test_setup()
        if _SPLIT:
            _SPLIT[0].fake_clock(clock)
    for k in range(replays):
        out["replays"].append(replay(seed, throws, cubes, leak, f"{folder}/steps{k}.bin"))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
