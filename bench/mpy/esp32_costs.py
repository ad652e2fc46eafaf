# What boards/esp32.py and the TCS34725 driver cost per call in Python, on the unix port, with
# the test fakes of machine and the sensor (tests/firmware/fake_machine) standing for the
# hardware: the fakes' own time is taken out, as the simulated board's is in cpu_worst.py. The
# worst-case run uses the simulated board, whose methods stand in for these; bench_cpu.py adds
# these figures to the steps that made the matching calls.
#   micropython esp32_costs.py FAKE_MACHINE_DIR [--count]
# Prints one JSON line: microseconds per call (the least of many runs). --count, under valgrind's
# callgrind (bench/step_counts.py): each call runs once inside map_iternext, the fakes inside
# filter_iternext (left out), and a call of hash() after it has callgrind write its count; the
# line then gives the measurements' names in the order of callgrind's dumps ("counted").
import sys

sys.path.insert(0, sys.argv[1])
COUNT = "--count" in sys.argv

import json  # noqa: E402
import time  # noqa: E402 - the fake (ESP32 ticks)

import machine  # noqa: E402 - the fake
from tcs34725_chip import TCS34725Chip  # noqa: E402

clock = time.time_ns
_hw = [0]      # ns inside the fakes
_calls = [0]   # calls into the fakes
_depth = [0]


# --count: one map and one filter for every call (nothing allocated where the count sees it)
_COUNTING = [False]
_ON = [None]
_OFF = [None, None, None]  # the fake, its arguments (a tuple), its result


def _on_inside(_):
    return _ON[0]()


def _off_inside(_):
    o = _OFF
    o[0] = o[0](*o[1], **o[2])
    return True


_ON_MAP = map(_on_inside, range(1, 1 << 30))
_OFF_FILTER = filter(_off_inside, range(1, 1 << 30))
_COUNTED = []  # the measurements' names and the fakes' calls in each, one a dump


def _through(flip, counting):
    # one call through the map or the filter, which flips callgrind's collection: ``counting``
    # says what is counted inside it
    _COUNTING[0] = counting
    try:
        next(flip)
    finally:
        _COUNTING[0] = not counting


def _count(name, fn):
    """fn() once, counted by callgrind as ``name``'s (the fakes left out)."""
    c0 = _calls[0]
    _ON[0] = fn
    _through(_ON_MAP, True)
    _COUNTED.append((name, _calls[0] - c0))
    hash(0)


def _timed(fn):
    def call(*args, **kw):
        if _COUNTING[0]:
            o = _OFF
            o[0] = fn
            o[1] = args
            o[2] = kw
            _through(_OFF_FILTER, False)
            _calls[0] += 1
            return o[0]
        if _depth[0]:
            return fn(*args, **kw)
        _depth[0] = 1
        t0 = clock()
        try:
            return fn(*args, **kw)
        finally:
            _hw[0] += clock() - t0
            _calls[0] += 1
            _depth[0] = 0

    return call


def _patch(cls, names):
    for name in names:
        if hasattr(cls, name):
            setattr(cls, name, _timed(getattr(cls, name)))


_patch(machine.I2C, ("readfrom_mem_into", "readfrom_mem", "writeto_mem", "writeto"))
_patch(machine.Counter, ("value",))
_patch(machine.Pin, ("value", "__call__", "irq"))
_patch(machine.UART, ("write", "txdone"))


class Serial:
    """Stands for select.poll on stdin, stdin.buffer and stdout.buffer (hardware: untimed)."""

    def __init__(self):
        self.rx = bytearray()
        self.at = 0

    def ipoll(self, timeout):
        return [(self, 1)] if self.at < len(self.rx) else []

    def readinto(self, buf, n=None):
        k = len(buf) if n is None else n
        k = min(k, len(self.rx) - self.at)
        buf[:k] = self.rx[self.at:self.at + k]
        self.at += k
        return k

    def read(self, n=-1):
        data = bytes(self.rx[self.at:])
        self.at = len(self.rx)
        return data

    def write(self, data, off=0, n=-1):
        return len(data) if n < 0 else n


_patch(Serial, ("ipoll", "readinto", "read", "write"))


def _asyncio_io(n=2000):
    """What asyncio's poller adds to a resumption when a task waits for a stream's bytes
    (Stream.readinto: IOQueue.queue_read, the poll, the wake-up) rather than sleep_ms(0), us:
    the least of several runs, real asyncio on a file that is always readable (/dev/zero)."""
    import asyncio

    stream = asyncio.StreamReader(open("/dev/zero", "rb"))
    one = bytearray(1)
    result = {}

    async def reads():
        t0 = clock()
        for _ in range(n):
            await stream.readinto(one)
        result["io"] = clock() - t0

    async def sleeps():
        t0 = clock()
        for _ in range(n):
            await asyncio.sleep_ms(0)
        result["sleep"] = clock() - t0

    best_io = best_sleep = 1e18
    for _ in range(7):
        asyncio.run(reads())
        asyncio.run(sleeps())
        best_io = min(best_io, result["io"])
        best_sleep = min(best_sleep, result["sleep"])
    asyncio.new_event_loop()
    return max(0.0, (best_io - best_sleep) / n / 1000)


def _schedule_cost(n=2000):
    """micropython.schedule: a soft callback (a timer's, on the ESP32) runs between two
    bytecodes; what its queueing and dispatch add to a plain call, us."""
    import micropython

    count = [0]

    def cb(_arg):
        count[0] += 1

    best_sched = best_call = 1e18
    for _ in range(7):
        t0 = clock()
        for _ in range(n):
            micropython.schedule(cb, None)
        best_sched = min(best_sched, clock() - t0)
        t0 = clock()
        for _ in range(n):
            cb(None)
        best_call = min(best_call, clock() - t0)
    return max(0.0, (best_sched - best_call) / n / 1000)


def _count_asyncio_io(n=20):
    """--count: _asyncio_io's two loops, each counted whole ("asyncio_io:reads" and
    "asyncio_io:sleeps", n awaits each)."""
    import asyncio

    stream = asyncio.StreamReader(open("/dev/zero", "rb"))
    one = bytearray(1)

    async def reads():
        for _ in range(n):
            await stream.readinto(one)

    async def sleeps():
        for _ in range(n):
            await asyncio.sleep_ms(0)

    for _ in range(3):
        _count("asyncio_io:reads", lambda: asyncio.run(reads()))
        _count("asyncio_io:sleeps", lambda: asyncio.run(sleeps()))
    asyncio.new_event_loop()
    return n


def _count_schedule(n=20):
    """--count: _schedule_cost's two loops ("schedule:scheduled", "schedule:called", n each);
    a scheduled callback runs within the count (between two bytecodes)."""
    import micropython

    count = [0]

    def cb(_arg):
        count[0] += 1

    def scheduled():
        for _ in range(n):
            micropython.schedule(cb, None)

    def called():
        for _ in range(n):
            cb(None)

    for _ in range(3):
        _count("schedule:scheduled", scheduled)
        _count("schedule:called", called)
    return n


_leak = [0.0]  # ns each wrapped call leaves outside its own timing (calibrated in main)


def best(fn, prepare=None, n=200, rounds=7, name="call"):
    """Least microseconds per call of fn(), hardware time (and the wrappers' own) taken out.
    --count: fn() counted ``rounds`` times as ``name`` (its figure comes from the dumps)."""
    if COUNT:
        for _ in range(rounds):
            if prepare:
                prepare()
            _count(name, fn)
        return 0.0
    out = 1e18
    for _ in range(rounds):
        total = 0
        for _ in range(n):
            if prepare:
                prepare()
            h0 = _hw[0]
            c0 = _calls[0]
            t0 = clock()
            fn()
            total += clock() - t0 - (_hw[0] - h0) - (_calls[0] - c0) * _leak[0]
        out = min(out, total / n)
    return out / 1000


class _Noop:
    def f(self, *args):
        return None


def _calibrate():
    # (--count: "bare" and "wrapped", a fake's call counted less the same call unwrapped)
    o = _Noop()
    bare = o.f
    wrapped = _timed(_Noop.f)
    a = best(lambda: bare(1), n=500, name="bare") * 1000
    b = best(lambda: wrapped(o, 1), n=500, name="wrapped") * 1000
    _leak[0] = max(0.0, b - a)


def main():
    from shogun_fw.boards import esp32 as board_mod

    _calibrate()
    machine.reset_state()
    machine.i2c_devices[0x29] = TCS34725Chip(ident=0x44)
    board = board_mod.Esp32Board()
    serial = Serial()
    board.serial_on(serial, serial, serial)
    out = {}
    reading = [0, 0, 0, 0, 0, 0]

    def probe(name, fn, prepare=None, n=200):
        try:
            out[name] = best(fn, prepare, n, name=name)
        except Exception as exc:  # noqa: BLE001 - the board may have changed: say which
            out[name] = None
            out.setdefault("errors", []).append(name + ": " + str(exc))

    empty = best(lambda: None, name="empty")
    out["call"] = empty
    out["wrap_leak_ns"] = _leak[0]

    def wait_integration():
        time.sleep_ms(3)

    probe("colour_poll", lambda: board.read_colour(reading))
    probe("colour_sample", lambda: board.read_colour(reading), wait_integration, n=20)
    ts = board._edge_t.__class__("i", [0] * 32) if hasattr(board, "_edge_t") else None
    vs = bytearray(32)
    probe("take_edges_none", lambda: board.take_edges(ts, vs))

    def four_edges():
        for _ in range(4):
            board._on_edge(board._beam)

    # The edge handler's time.ticks_us is a C call on the board; the fake's (it wraps at 2^30)
    # is a Python function, about 0.1 us more a call here: a C call that makes no system
    # call beyond the clock's stands in for it (the unix port's own ticks_us, which the fake
    # wraps), as CPoll does for the serial below.
    class CTicks:
        pass

    c_ticks = CTicks()
    c_ticks.ticks_us = time._real_us
    board_time = board_mod.time
    board_mod.time = c_ticks
    probe("take_edges_4", lambda: board.take_edges(ts, vs), four_edges)
    probe("edge_irq", lambda: board._on_edge(board._beam))
    board_mod.time = board_time
    probe("beam_count", board.beam_count)
    # the timer's soft callback (start_sampling): its own Python, the I2C burst taken out,
    # plus what scheduling a soft callback costs (the timer's interrupt schedules it); it
    # writes into the detector's own ring, as on the board
    from shogun_fw.colour import Classifier
    from shogun_fw.detector import Detector

    det = Detector(board, Classifier(), lambda mtype, payload: None)
    if hasattr(board, "start_sampling") and det._start_sampling():
        # its time.ticks_us too is the C one on the board (as for the edges above)
        def due():
            board._sample_at = (time._real_us() - 1000000) & 0x3FFFFFFF

        board_mod.time = c_ticks
        ring = getattr(det, "_st", None)  # (the detector's sample count: its last int)
        taken = ring[-1] if ring else None
        probe("sample_callback", lambda: board._on_sample(None), due)
        board_mod.time = board_time
        if ring and ring[-1] == taken:  # each call must have read a sample, not returned early
            out["sample_callback"] = None
            out.setdefault("errors", []).append("sample_callback: no sample taken")
        if board._sample_timer is not None:
            board._sample_timer.deinit()
    if hasattr(board, "wake_in"):
        probe("wake_in", lambda: board.wake_in(50))
    out["schedule"] = _schedule_cost() if not COUNT else _count_schedule()
    board.strip_init(81)
    frame = bytearray(3 * 81)
    strip = board._strip
    uart = machine.UART.live[-1]

    def strip_idle():
        # the last frame long out: each call is a whole write (its idle check, the encoding,
        # the UART's copy), not a refusal
        strip._sent = time.ticks_add(time.ticks_us(), -1000000)
        uart._end = None

    def strip_write():
        if not board.strip_write(frame):
            raise RuntimeError("the strip refused the frame")

    probe("strip_write_81", strip_write, strip_idle, n=50)
    # serial_receive: the link's task is woken by asyncio's poller when the host's first byte
    # came (that wake-up is asyncio's, measured below as asyncio_io); then the board's Python,
    # which calls the poll and stdin.buffer once per byte. Those are C on the board, and the
    # Python fakes' call overhead would be counted as the board's: here they are stood in for
    # by C calls that make no system call (a dict's get for ipoll(0), io.BytesIO's readinto).
    import io

    class CPoll:
        pass

    cpoll = CPoll()
    cpoll.ipoll = {0: ((None, 1),)}.get
    ack = bytes(12)
    def waiting(k):
        def fill():
            board.serial_on(cpoll, io.BytesIO(ack[:k]), serial)
        return fill

    # (serial_receive = link.readable, asyncio's wait in its poller: asyncio_io below; then
    # serial_read drains what waits)
    probe("serial_receive_1", board.serial_read, waiting(1))
    probe("serial_receive_12", board.serial_read, waiting(12))
    out["asyncio_io"] = _asyncio_io() if not COUNT else _count_asyncio_io()
    probe("serial_write", lambda: board.serial_write(ack))
    for key in list(out):
        if isinstance(out[key], float) and key not in ("call", "wrap_leak_ns", "asyncio_io",
                                                             "schedule"):
            out[key] = max(0.0, out[key] - empty)
    if COUNT:
        out["counted"] = _COUNTED
    print(json.dumps(out))


main()
