# The simulated board, for the MicroPython unix port (behind a pseudo-terminal, or driven in
# virtual time by the benchmark). It plays the physics, driven by the same tower model as the
# host's games: the tower decides which cubes leave it, and this board turns them into beam
# edges, a hardware count and colour-sensor readings as the real outlet would:
#
# - a single cube blocks the beam 6-8 ms (exit speed 1.4-1.8 m/s over 11 mm), gaps down to 3 ms;
# - two cubes passing together, one touching the other: one block 1.85-2.0 times as long, the
#   hardware counter counts it once, the colour sensor sees the first cube, then the second;
# - a cube stuck in front of the beam for 0.1-1.5 s; a cube stuck above it and let go 0.2-2 s
#   later (often after the throw's quiet window);
# - beam chatter: a 50-200 us blip just before or after a block (counted by the hardware);
# - colour readings with shot and read noise, per-cube brightness and hue differences, and
#   stray light that drifts slowly (a lamp, a person leaning over the table).
#
# Time is the unix port's clock, or a virtual clock (virtual=True) that only `advance` moves.
import os
import select
import struct
import sys
import time

from micropython import const

from shogun_common import protocol as P
from shogun_common.colours import CUBE_COLOURS
from shogun_common.rng import Rng
from shogun_common.tower_model import KNOCK_P, PASS_P, TowerModel

# What the sensor reads (R, G, B, C counts per 2.4 ms step, gain 16, LED on) when a cube fills
# its window. The gain is chosen so that the brightest cube in the strongest stray light stays
# below saturation.
REFLECTANCE = (
    (43, 40, 36, 122),  # black
    (374, 86, 72, 547),  # red
    (346, 288, 94, 734),  # yellow
    (187, 94, 202, 490),  # purple
    (79, 144, 310, 547),  # blue
    (108, 288, 122, 533),  # green
)
AMBIENT = (20, 22, 18, 60)  # the empty, dark chute with a little stray light
_START_DELAY_US = const(40000)  # from the throw to the first cube at the outlet
_SATURATION = const(1023)
_MIN_GAP_US = const(3000)       # cubes leave the chute at least this far apart (or touching)
_DRIFT_PERIOD_MS = const(30000)
_BLOCK_ROOM = const(64)        # scheduled blocks held without growing the list (a throw of 45 cubes
                               # and its chatter)

_TICKS = const(0x3FFFFFFF)  # ticks wrap at 2**30, as on the ESP32 (the 64-bit unix port's
_HALF = const(0x20000000)   # own ticks are far wider: they would not fit the detector's arrays)


def _ticks_us():
    return time.ticks_us() & _TICKS


def _ticks_ms():
    return time.ticks_ms() & _TICKS


def _diff(a, b):
    return ((a - b + _HALF) & _TICKS) - _HALF


def _add(a, d):
    return (a + d) & _TICKS


def pack_light(refl):
    """What a cube shows the sensor (R, G, B, C, each < 4096) as one int: small ints are not
    boxed on the heap, and a scheduled cube must cost little (the whole firmware fits 64K)."""
    return refl[0] | refl[1] << 12 | refl[2] << 24 | refl[3] << 36


# The faithful profile (sim_main.py --faithful, the benchmark): every hazard of a real outlet.
FAITHFUL = {"double_p": 0.03, "stuck_p": 0.01, "late_p": 0.01, "chatter_p": 0.05,
            "drift": 1.0, "noise": 6.0}


class SimBoard:
    name = "sim"
    caps = (P.CAP_COLOUR | P.CAP_LED | P.CAP_HW_COUNTER | P.CAP_SIMULATED
            | P.CAP_CALIBRATION | P.CAP_INJECT)
    colour_period_ms = 2
    saturation = _SATURATION

    def __init__(self, seed=1, pass_p=PASS_P, knock_p=KNOCK_P, block_ms=(6.0, 8.0),
                 gap_ms=(3.0, 50.0), noise=6.0, drift=0.0, double_p=0.0, stuck_p=0.0,
                 late_p=0.0, chatter_p=0.0, flash_dir="sim_flash", virtual=False, serial=True):
        # Separate streams: what the tower lets out must not depend on how often the colour
        # sensor happened to be read, so the same seed always gives the same throws.
        self.tower_rng = Rng(seed)
        self.rng = Rng(seed + 0x5EED)
        self._lcg = (seed * 2654435761 + 1) & 0x7FFFFFFF  # cheap noise stream (small ints)
        self.tower = TowerModel(pass_p=pass_p, knock_p=knock_p)
        self.block_us = (int(block_ms[0] * 1000), int(block_ms[1] * 1000))
        self.gap_us = (int(gap_ms[0] * 1000), int(gap_ms[1] * 1000))
        self.noise = noise
        self.drift = drift
        self.double_p = double_p
        self.stuck_p = stuck_p
        self.late_p = late_p
        self.chatter_p = chatter_p
        self.flash_dir = flash_dir
        self.edges_lost = 0
        self.sensor_fault = False  # tests: the sensor stops answering (OSError)
        if virtual:
            self._now = 0
            self.ticks_us = self._vticks_us
            self.ticks_ms = self._vticks_ms
        # Beam blocks in time order, apart: tuples (see add_block). Room for a big throw is
        # taken now, while the heap is in one piece: growing the list in the middle of a session
        # needs one free run that large, which a fragmented 64K heap may not have.
        self._blocks = [None] * _BLOCK_ROOM
        del self._blocks[:]  # (a slice deletion keeps the room; clear() would give it back)
        self._arrivals = [None] * _BLOCK_ROOM  # release_cubes' working list, the same way
        del self._arrivals[:]
        self._edge_pos = 0       # next edge to deliver: block index * 2 + (0 start, 1 end)
        self._count_pos = 0      # blocks already counted by the "hardware counter"
        self._count = 0
        self._t0 = self.ticks_us()
        self._last_read = self._t0
        self.truth = []          # virtual mode: (t_start, colour) of every cube, for the bench
        self._record = virtual
        self.strip = bytearray()
        if serial:
            self._poll = select.poll()
            self._poll.register(sys.stdin, select.POLLIN)
            self._stdin = sys.stdin.buffer
            self._stdout = sys.stdout.buffer
        self._rx = bytearray(256)
        self._rx_mv = memoryview(self._rx)
        self._one = bytearray(1)

    # ---- time and identity ------------------------------------------------------------------
    ticks_us = staticmethod(_ticks_us)
    ticks_ms = staticmethod(_ticks_ms)
    ticks_diff = staticmethod(_diff)
    ticks_add = staticmethod(_add)

    def _vticks_us(self):
        return self._now

    def _vticks_ms(self):
        return self._now // 1000

    def advance(self, us):
        """Virtual time only: move the clock on."""
        self._now = (self._now + us) & _TICKS

    def random32(self):
        return struct.unpack("<I", os.urandom(4))[0]

    def boot_payload(self, boot_id):
        return struct.pack("<I", boot_id) + b"power-on"

    # ---- serial -------------------------------------------------------------------------------
    def serial_read(self):
        # One byte at a time while the port has data (stdin.read(n) blocks until n bytes), into
        # a preallocated buffer: nothing is allocated per byte.
        n = 0
        one = self._one
        rx = self._rx
        while n < 256:
            ready = False
            for _ in self._poll.ipoll(0):
                ready = True
            if not ready or not self._stdin.readinto(one):
                break
            rx[n] = one[0]
            n += 1
        return self._rx_mv[:n] if n else None

    def serial_write(self, data):
        self._stdout.write(data)

    # ---- beam and hardware counter ------------------------------------------------------------
    def poll(self):
        # Forget cubes long gone (kept: the last three the sensor may still see), keeping the
        # indices consistent. Little is kept: the whole firmware must run in a 64K heap.
        drop = min(self._edge_pos >> 1, self._count_pos) - 3
        if drop >= 4:
            del self._blocks[:drop]
            self._edge_pos -= 2 * drop
            self._count_pos -= drop

    def take_edges(self, ts, vs):
        """Beam edges up to now into ``ts`` (times) and ``vs`` (1 blocked, 0 clear); a count."""
        now = self.ticks_us()
        blocks = self._blocks
        n = 0
        cap = len(ts)
        while n < cap and self._edge_pos < 2 * len(blocks):
            is_start = not self._edge_pos & 1
            t = blocks[self._edge_pos >> 1][0 if is_start else 1]
            if _diff(now, t) < 0:
                break
            ts[n] = t
            vs[n] = 1 if is_start else 0
            self._edge_pos += 1
            n += 1
        return n

    def beam_count(self):
        now = self.ticks_us()
        blocks = self._blocks
        while self._count_pos < len(blocks) and _diff(now, blocks[self._count_pos][0]) >= 0:
            self._count_pos += 1
            self._count += 1
        return self._count

    # ---- colour sensor -----------------------------------------------------------------------
    def read_colour(self, out):
        """Fill ``out`` with t_start, t_end, R, G, B, C of the integration just ended."""
        if self.sensor_fault:
            raise OSError(19)  # ENODEV, as a real I2C bus without its sensor answers
        now = self.ticks_us()
        t0 = self._last_read
        span = _diff(now, t0)
        if span <= 0:
            return False
        self._last_read = now
        r = g = b = c = 0.0
        blocks = self._blocks
        i = (self._edge_pos >> 1) - 3
        if i < 0:
            i = 0
        while i < len(blocks):
            b0, b1, mid, first, second = blocks[i]
            i += 1
            if _diff(b0, now) >= 0:
                break
            if _diff(b1, t0) <= 0:
                continue
            for k in (0, 1):
                # the first cube is in front of the sensor until mid, the second from then on
                light = second if k else first
                if not light:
                    continue
                s0 = b0 if k == 0 else mid
                s1 = mid if k == 0 else b1
                lo = s0 if _diff(s0, t0) > 0 else t0
                hi = s1 if _diff(s1, now) < 0 else now
                overlap = _diff(hi, lo)
                if overlap > 0:
                    f = overlap / span
                    r += (light & 0xFFF) * f
                    g += (light >> 12 & 0xFFF) * f
                    b += (light >> 24 & 0xFFF) * f
                    c += (light >> 36) * f
        # Stray light drifts slowly: a triangle wave between 1 and 1 + drift times AMBIENT.
        phase = (_diff(now, self._t0) // 1000) % _DRIFT_PERIOD_MS
        tri = 2 * phase / _DRIFT_PERIOD_MS
        k = 1.0 + self.drift * (tri if tri < 1 else 2 - tri)
        out[0] = t0
        out[1] = now
        out[2] = self._sense(r + AMBIENT[0] * k)
        out[3] = self._sense(g + AMBIENT[1] * k)
        out[4] = self._sense(b + AMBIENT[2] * k)
        out[5] = self._sense(c + AMBIENT[3] * k)
        return True

    def _sense(self, v):
        # Read noise (noise counts) and shot noise (about 1 %): a sum of two uniforms.
        x = self._lcg
        x = (1103515245 * x + 12345) & 0x7FFFFFFF
        y = (1103515245 * x + 12345) & 0x7FFFFFFF
        self._lcg = y
        u = (x + y) / 0x7FFFFFFF - 1.0  # -1..1, triangular
        v = int(v + u * (self.noise + 0.01 * v) * 1.7 + 0.5)
        return 0 if v < 0 else (_SATURATION if v > _SATURATION else v)

    # ---- LED strip ----------------------------------------------------------------------------
    def strip_init(self, n):
        self.strip = bytearray(3 * n)

    def strip_write(self, frame):
        self.strip[:] = frame

    # ---- flash --------------------------------------------------------------------------------
    def _path(self, name):
        return self.flash_dir + "/" + name

    def flash_read(self, name):
        try:
            with open(self._path(name)) as f:
                return f.read()
        except OSError:
            return None

    def flash_write_atomic(self, name, text):
        try:
            os.mkdir(self.flash_dir)
        except OSError:
            pass
        tmp = self._path(name + ".tmp")
        with open(tmp, "w") as f:
            f.write(text)
        os.rename(tmp, self._path(name))  # a power cut leaves the old file or the new, never half

    # ---- lifecycle ----------------------------------------------------------------------------
    def feed_watchdog(self):
        pass

    def attach(self):
        pass

    def release(self):
        pass

    def fatal(self, exc):
        # Report, then "reset": the process ends and the host's launcher starts it again.
        msg = "%s: %s" % (type(exc).__name__, exc)
        try:
            self.serial_write(P.encode_frame(P.ERROR, 0xFFFF, P.pack_text(P.E_EXCEPTION, msg)))
        finally:
            sys.print_exception(exc, sys.stderr)
            sys.exit(3)

    # ---- the simulated tower ------------------------------------------------------------------
    def sim_throw(self, counts):
        # A byte a cube, not a list: a throw of 45 cubes stays a few small allocations.
        cubes = bytearray(sum(counts))
        k = 0
        for colour in range(len(CUBE_COLOURS)):
            for _ in range(counts[colour]):
                cubes[k] = colour
                k += 1
        self.tower_rng.shuffle(cubes)
        self.release_cubes(self.tower.throw(cubes, self.tower_rng, bytearray()))

    def release_cubes(self, colours):
        """Schedule these cubes (colour codes, in order) out of the outlet, from now on."""
        rng = self.rng
        lo, hi = self.gap_us
        t = self._schedule_start()
        arrivals = self._arrivals   # (arrival time offset from t, colour)
        del arrivals[:]
        at = 0
        for colour in colours:
            if rng.random() < self.late_p:
                # Stuck above the beam, let go later: maybe after the throw's quiet window.
                arrivals.append((at + 200000 + rng.randbelow(1800000), colour))
                continue
            at += lo + rng.randbelow(hi - lo + 1)
            arrivals.append((at, colour))
        arrivals.sort(key=lambda a: a[0])
        blo, bhi = self.block_us
        i = 0
        prev_end = t
        while i < len(arrivals):
            arrival, colour = arrivals[i]
            start = _add(t, arrival)
            if _diff(start, prev_end) < _MIN_GAP_US:
                start = _add(prev_end, _MIN_GAP_US)
            length = blo + rng.randbelow(bhi - blo + 1)
            end = _add(start, length)
            light = self._cube_light(colour)
            mid = end
            second = 0
            self._record_cube(start, colour)
            if i + 1 < len(arrivals) and rng.random() < self.double_p:
                # The next cube touches this one: one block, two cubes, one count. Same speed:
                # the second cube adds 0.85-1.0 of a cube's blocking time.
                i += 1
                k = 0.85 + 0.15 * rng.random()
                end = _add(start, int(length * (1 + k)))
                second = self._cube_light(arrivals[i][1])
                self._record_cube(start, arrivals[i][1])
            elif rng.random() < self.stuck_p:
                # Caught in front of the beam, then falls on.
                end = mid = _add(start, 100000 + rng.randbelow(1400000))
            if rng.random() < self.chatter_p:
                # A blip of the beam just before the cube arrives (an edge of the cube, a
                # vibration): too short to be a cube, but the hardware counter counts it.
                blip = 50 + rng.randbelow(150)
                b0 = _add(start, -(blip + 50 + rng.randbelow(250)))
                self.add_block(b0, _add(b0, blip))
            self.add_block(start, end, light, mid, second)
            prev_end = end
            i += 1
        del arrivals[:]

    def add_block(self, t0, t1, light=0, mid=None, second=0):
        """Schedule the beam blocked from t0 to t1 (after every block scheduled so far). A cube
        of ``light`` (pack_light; 0: nothing in front of the colour sensor, e.g. chatter) is in
        front of the sensor until ``mid`` (default t1), a second cube touching it from then on.
        One small tuple of small ints a block: the whole firmware must fit a 64K heap."""
        self._blocks.append((t0, t1, t1 if mid is None else mid, light, second))

    def _cube_light(self, colour):
        # Every cube differs a little: paint, angle, distance from the sensor.
        rng = self.rng
        k = 0.85 + 0.3 * rng.random()
        refl = REFLECTANCE[colour]
        # One small int, not floats: nothing boxed on the heap per scheduled cube.
        return pack_light((int(refl[0] * k * (0.97 + 0.06 * rng.random())),
                           int(refl[1] * k * (0.97 + 0.06 * rng.random())),
                           int(refl[2] * k * (0.97 + 0.06 * rng.random())),
                           int(refl[3] * k)))

    def _record_cube(self, t, colour):
        if self._record:
            self.truth.append((t, colour))

    def _schedule_start(self):
        t = _add(self.ticks_us(), _START_DELAY_US)
        if self._blocks and _diff(self.last_end(), t) > 0:
            t = _add(self.last_end(), _MIN_GAP_US)
        return t

    def inject(self, count, block_us, gap_us):
        # As the real board's inject pin: beam pulses with nothing in front of the colour sensor.
        t = self._schedule_start()
        for _ in range(count):
            t = _add(t, gap_us)
            end = _add(t, block_us)
            self.add_block(t, end)
            t = end

    def last_end(self):
        """When the last scheduled block ends (None when none is)."""
        return self._blocks[-1][1] if self._blocks else None

    def sim_load(self, counts):
        """The tower now holds exactly ``counts[colour]`` cubes of each colour (whatever it held
        is gone; cubes already on their way to the outlet still come out). Deterministic: the
        cubes, colour by colour in wire order (black first), are dealt in turn to the ledges from
        the top: cube k lodges on ledge k mod LEDGES."""
        ledges = [[] for _ in self.tower.ledges]
        k = 0
        for colour in range(len(CUBE_COLOURS)):
            for _ in range(counts[colour]):
                ledges[k % len(ledges)].append(colour)
                k += 1
        self.tower.ledges = ledges

    def sim_tower(self):
        inside = [0] * len(CUBE_COLOURS)
        for colour in self.tower.inside():
            inside[colour] += 1
        return bytes(inside)

