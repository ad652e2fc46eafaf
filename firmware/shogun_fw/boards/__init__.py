# Board modules: everything that touches hardware. The app receives one board object.
#
# What every board shares: beam edges from hardware counts (docs/firmware.md, "Capture").
# On the ESP32 a pin interrupt is soft: its handler runs when the interpreter next gets to it, so
# a timestamp taken there is late by whatever ran meanwhile. So no edge is timed by a handler.
# Each beam has three 16-bit pulse counters, counting in hardware whatever the interpreter does:
# its falls (F), its rises (R) and the microseconds it has been blocked (G: a 1 MHz clock gated
# by the beam). A reading is (ticks_us, G, F, R), taken by a handler some time after an edge, or
# by the detector's own step. Between two readings of a beam, F and R say how many edges came,
# and G how much of the time between the readings the beam was blocked: with one edge between
# them its time is exact, however late the handler ran (a fall: the reading's time less the
# blocked microseconds since the last reading; a rise: less the clear ones). With more (the
# handler came after the next edge of the same beam: the interpreter was busy longer than the
# gap or the block), the counts still hold, but not each edge's place: the runs the readings
# cannot tell apart are placed in the middle of the time they can be in, and every edge of that
# reading is marked late (_LATE). Every step of the detector reads both beams, so that time is
# at most what the interpreter was busy with. The readings are cumulative, so a reading lost (a
# full ring, a handler the scheduler dropped) loses no edge: the next one covers both. It loses
# their places: the edges of the readings overwritten are placed as one reading's, the gaps
# between several cubes as none, and the cubes merge into one block (the falls still equal the
# hardware count). So a reading overwritten is counted, and the detector reports it at the
# throw's end (E_OVERFLOW): the throw's cubes cannot be trusted.
#
# Integers only, nothing allocated: the readings go into a preallocated ring (written by a soft
# handler, a C interrupt handler or the simulated board; read by the detector's step), and the
# conversion is viper. On the ESP32 a viper int is 32 bits: ticks are in [0, 2^30) and wrap
# there; counts are in [0, _LIMIT) and differences taken modulo it, every intermediate
# below 2^31. Each counter is set up with max=_LIMIT: the ESP32's PCNT goes back to 0 when it
# reaches its limit (the port's machine.py, which picks 32000 for machine.Counter too); with no
# limit set (0) the port does not say what it does, so no counter is left so.
# One capture a process (a board): module state, not a class and an instance, and few names
# (each object and each name costs a 64K heap, docs/firmware.md Memory). A board keeps this
# module as its `capture`.
import array

import micropython
from micropython import const

_N = const(16)           # readings kept between two reads (a power of two)
_RF = const(6)           # a reading, 16 bits each: ticks (low, high), G, F, R, beam
_SF = const(6)           # a beam's last reading: ticks, G, F, R; F - R when clear; known
_MOST = const(12)        # falls placed from one reading at most (2 * 12 + 1 edges)
_HALF = const(0x20000000)  # ticks wrap at 2^30 (time.ticks_us on the ESP32)
_MASK = const(0x3FFFFFFF)
_C16 = const(0xFFFF)     # a ring slot is 16 bits
_LIMIT = const(32000)    # every counter's max=: it counts 0 .. _LIMIT - 1, then 0 (sim.py and
#                          esp32.py keep their own, a test checks they agree: no name in a heap)
_LATE = const(4)         # an edge's bit: its time is not exact (see above)
_ROOM = const(25)        # the edges one reading can give: read() needs at least this room
# status: the readings written (by the handler only) and read (mod 2^30), edges given
# late, falls that could not be placed (more than _MOST in one reading: the board's
# edges_lost), readings overwritten before they were read (the board's readings_skipped: counts
# kept, places lost, reported), edges given; then
# from _S_ST, _SF ints a beam: its last reading (one array: each is a heap block)
_S_W = const(0)
_S_R = const(1)
_S_LATE = const(2)
_S_LOST = const(3)
_S_SKIPPED = const(4)
_S_TAKEN = const(5)
_S_ST = const(6)

_ring = array.array("H", bytes(2 * _RF * _N))            # the readings
status = array.array("i", bytes(4 * (_S_ST + 2 * _SF)))  # _S_*


def start(b, t, c, level):
    """Beam b's (0 upper, 1 lower) first reading: ticks t, counts c (G, F, R) and its level
    then (1: blocked); edges are counted from here on (the readings waiting are dropped; beam
    0's start begins the counts of late, lost, skipped and given edges again: a board starts
    both beams when it attaches)."""
    j = _S_ST + _SF * b
    st = status
    st[_S_R] = st[_S_W]
    if b == 0:
        for i in range(_S_LATE, _S_ST):
            st[i] = 0
    st[j] = t & _MASK
    st[j + 1] = c[0]
    st[j + 2] = c[1]
    st[j + 3] = c[2]
    st[j + 4] = (c[1] - c[2] - (1 if level else 0)) % _LIMIT
    st[j + 5] = 1


@micropython.viper
def put(b: int, t: int, c):
    """A reading of beam b (0 upper, 1 lower) at ticks t: c is G, F, R (an array('i')). From
    a handler: no allocation; a full ring's oldest reading is overwritten (read() skips
    it)."""
    s = ptr32(status)
    w = s[_S_W]                       # [0, 2^30)
    i = _RF * (w & (_N - 1))
    ring = ptr16(_ring)
    c32 = ptr32(c)
    ring[i] = t & _C16
    ring[i + 1] = (t >> 16) & 0x3FFF
    ring[i + 2] = c32[0] & _C16       # (in [0, _LIMIT): it fits)
    ring[i + 3] = c32[1] & _C16
    ring[i + 4] = c32[2] & _C16
    ring[i + 5] = b
    s[_S_W] = (w + 1) & _MASK         # (last: the reading counts once it is all in)

@micropython.viper
def read(ts, vs) -> int:
    """The edges of the readings since the last call into ``ts`` (times, an array('i')) and
    ``vs`` (a bytearray; bit 0 blocked, bit 1 the lower beam, bit 2 _LATE), in the readings'
    order; a count. A reading whose edges do not fit waits for the next call (``ts`` must
    hold _ROOM at least)."""
    s = ptr32(status)
    w = s[_S_W]
    r = s[_S_R]
    d = (w - r) & _MASK               # (w - r in (-2^30, 2^30)): readings waiting
    if d > _N:
        s[_S_SKIPPED] += d - _N       # (below 2^30 + 2^30: fits 32 bits)
        r = (w - _N) & _MASK
    ring = ptr16(_ring)
    st = s
    t_out = ptr32(ts)
    v_out = ptr8(vs)
    room = int(len(ts))
    out = 0
    while r != w:
        i = _RF * (r & (_N - 1))
        b = ring[i + 5]
        j = _S_ST + _SF * b
        t1 = ring[i] | (ring[i + 1] << 16)
        g1 = ring[i + 2]
        f1 = ring[i + 3]
        r1 = ring[i + 4]
        if st[j + 5] == 0:            # (no start(): this is the first reading, clear)
            st[j] = t1
            st[j + 1] = g1
            st[j + 2] = f1
            st[j + 3] = r1
            x = f1 - r1
            if x < 0:
                x += _LIMIT
            st[j + 4] = x
            st[j + 5] = 1
            r = (r + 1) & _MASK
            continue
        t0 = st[j]
        off = st[j + 4]               # (the level is F - R, less what it was when clear)
        # (differences mod the limit by adding it back: each count is in [0, _LIMIT))
        lv0 = st[j + 2] - st[j + 3] - off
        while lv0 < 0:
            lv0 += _LIMIT
        if lv0 > 1:
            lv0 = 0
        e = ((t1 - t0 + _HALF) & _MASK) - _HALF   # microseconds between the readings
        if e < 0:
            e = 0
        du = g1 - st[j + 1]           # blocked microseconds, mod the limit
        if du < 0:
            du += _LIMIT
        df = f1 - st[j + 2]           # falls
        if df < 0:
            df += _LIMIT
        dr = r1 - st[j + 3]           # rises
        if dr < 0:
            dr += _LIMIT
        lv1 = f1 - r1 - off
        while lv1 < 0:
            lv1 += _LIMIT
        if lv1 > 1:                   # (a count read across an edge: the next reading
            lv1 = lv0 ^ ((df + dr) & 1)  # ... puts it right)
        # The blocked and clear time between the readings. G repeats every _LIMIT us
        # (32 ms): the time of the state the beam was not in at the first reading is taken
        # as the one below that (the handler's lateness, a gap or a block inside it; the
        # state it was in can have lasted long: a throw's wait, a stuck cube).
        if lv0:
            x = e - du
            if x < 0:
                x = 0                 # (G read a little after the ticks)
            while x >= _LIMIT:
                x -= _LIMIT
            clear = x
            blocked = e - clear
        else:
            blocked = du if du <= e else e
            clear = e - blocked
        n = df + dr
        if df > _MOST:                # (a storm of falls between two readings: the rest
            s[_S_LOST] += df - _MOST  # ... cannot be placed; the detector reports it)
            n -= 2 * (df - _MOST)
        if n > room - out:
            break                     # (no room: the next call takes it)
        flag = b << 1
        if n == 1:
            if lv1:
                te = t1 - blocked     # a fall: blocked since it
            else:
                te = t1 - clear       # a rise: clear since it
            t_out[out] = te & _MASK
            v_out[out] = flag | lv1
            out += 1
        elif n > 1:
            # Each state's time goes to its runs at either end (the state at the last
            # reading and the one now): half each when both are the same state, the
            # other's then shared among its runs, all inside; every other run inside is
            # none (a blip in a gap, a gap in a block: chatter).
            s[_S_LATE] += n
            flag = flag | _LATE
            share = 0
            spare = 0
            first = blocked if lv0 else clear
            if lv0 == lv1:
                m = n >> 1            # the other state's runs, all inside
                total = clear if lv0 else blocked
                share = total // m
                spare = total - share * m
                first = first >> 1
            te = t0 + first
            state = lv0
            k = 0
            while k < n:
                state = state ^ 1     # the state after this edge
                t_out[out] = te & _MASK
                v_out[out] = flag | state
                out += 1
                k += 1
                if state != lv0:      # (its run: the shared time, the last one the rest)
                    te += share
                    if k == n - 1:
                        te += spare
        st[j] = t1
        st[j + 1] = g1
        st[j + 2] = f1
        st[j + 3] = r1
        r = (r + 1) & _MASK
    s[_S_R] = r
    s[_S_TAKEN] += out
    return out
