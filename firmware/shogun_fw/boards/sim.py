# The simulated board, for the MicroPython unix port behind a pseudo-terminal. It plays the
# physics: the tower model decides which cubes leave the tower, and this board turns them into
# beam edges (5-10 ms blocks, gaps down to 3 ms), a hardware count, colour-sensor readings with
# noise and slowly drifting ambient light, and keeps the LED frame it is given.
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

# What the sensor reads (R, G, B, C counts per 2.4 ms step, LED on) when a cube fills its window.
REFLECTANCE = (
    (60, 55, 50, 170),      # black
    (520, 120, 100, 760),   # red
    (480, 400, 130, 1020),  # yellow
    (260, 130, 280, 680),   # purple
    (110, 200, 430, 760),   # blue
    (150, 400, 170, 740),   # green
)
AMBIENT = (20, 22, 18, 60)  # the empty, dark chute with a little stray light
_START_DELAY_US = const(40000)  # from the throw to the first cube at the outlet
_SATURATION = const(1023)


class SimBoard:
    name = "sim"
    caps = (P.CAP_COLOUR | P.CAP_LED | P.CAP_HW_COUNTER | P.CAP_SIMULATED
            | P.CAP_CALIBRATION | P.CAP_INJECT)
    colour_period_ms = 2

    def __init__(self, seed=1, pass_p=PASS_P, knock_p=KNOCK_P, block_ms=(5.0, 10.0),
                 gap_ms=(3.0, 50.0), noise=6.0, drift=0.0, stuck_p=0.0, flash_dir="sim_flash"):
        # Separate streams: what the tower lets out must not depend on how often the colour
        # sensor happened to be read, so the same seed always gives the same throws.
        self.tower_rng = Rng(seed)
        self.rng = Rng(seed + 0x5EED)
        self.tower = TowerModel(pass_p=pass_p, knock_p=knock_p)
        self.block_us = (int(block_ms[0] * 1000), int(block_ms[1] * 1000))
        self.gap_us = (int(gap_ms[0] * 1000), int(gap_ms[1] * 1000))
        self.noise = noise
        self.drift = drift
        self.stuck_p = stuck_p
        self.flash_dir = flash_dir
        self._blocks = []        # [t_start, t_end, colour], in time order, never overlapping
        self._edge_pos = 0       # next edge to deliver: block index * 2 + (0 start, 1 end)
        self._count_pos = 0      # blocks already counted by the "hardware counter"
        self._count = 0
        self._last_read = time.ticks_us()
        self._t0 = self._last_read
        self.strip = bytearray()
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._stdin = sys.stdin.buffer
        self._stdout = sys.stdout.buffer

    # ---- time and identity ------------------------------------------------------------------
    ticks_us = staticmethod(time.ticks_us)
    ticks_ms = staticmethod(time.ticks_ms)
    ticks_diff = staticmethod(time.ticks_diff)
    ticks_add = staticmethod(time.ticks_add)

    def random32(self):
        return struct.unpack("<I", os.urandom(4))[0]

    def boot_payload(self, boot_id):
        return struct.pack("<I", boot_id) + b"power-on"

    # ---- serial -------------------------------------------------------------------------------
    def serial_read(self):
        out = b""
        # stdin.read(n) blocks until n bytes: read one byte at a time while the port has data.
        while len(out) < 256 and self._poll.poll(0):
            b = self._stdin.read(1)
            if not b:
                break
            out += b
        return out

    def serial_write(self, data):
        self._stdout.write(data)

    # ---- beam and hardware counter ------------------------------------------------------------
    def poll(self):
        if len(self._blocks) > 64 and self._edge_pos > 64 and self._count_pos > 32:
            # Forget cubes long gone, keeping the indices consistent.
            drop = min(self._edge_pos // 2, self._count_pos) - 8
            if drop > 0:
                self._blocks = self._blocks[drop:]
                self._edge_pos -= 2 * drop
                self._count_pos -= drop

    def take_edges(self):
        now = time.ticks_us()
        out = []
        blocks = self._blocks
        while self._edge_pos < 2 * len(blocks):
            block = blocks[self._edge_pos // 2]
            is_start = self._edge_pos % 2 == 0
            t = block[0] if is_start else block[1]
            if time.ticks_diff(now, t) < 0:
                break
            out.append((t, is_start))
            self._edge_pos += 1
        return out

    def beam_count(self):
        now = time.ticks_us()
        blocks = self._blocks
        while (self._count_pos < len(blocks)
               and time.ticks_diff(now, blocks[self._count_pos][0]) >= 0):
            self._count_pos += 1
            self._count += 1
        return self._count

    # ---- colour sensor -----------------------------------------------------------------------
    def read_colour(self):
        now = time.ticks_us()
        t0 = self._last_read
        span = time.ticks_diff(now, t0)
        if span <= 0:
            return None
        self._last_read = now
        acc = [0.0, 0.0, 0.0, 0.0]
        for block in self._blocks[max(0, self._edge_pos // 2 - 2):]:
            lo = block[0] if time.ticks_diff(block[0], t0) > 0 else t0
            hi = block[1] if time.ticks_diff(block[1], now) < 0 else now
            overlap = time.ticks_diff(hi, lo)
            if overlap > 0 and block[2] is not None:
                refl = REFLECTANCE[block[2]]
                f = overlap / span
                for i in range(4):
                    acc[i] += refl[i] * f
        # Stray light drifts slowly (a person leaning over the table, a lamp switched on).
        drift = 1.0 + self.drift * ((time.ticks_diff(now, self._t0) // 1000) % 20000) / 20000
        rng = self.rng
        out = [t0, now]
        for i in range(4):
            noise = (rng.random() + rng.random() + rng.random() - 1.5) * 2 * self.noise
            v = int(acc[i] + AMBIENT[i] * drift + noise)
            out.append(0 if v < 0 else (_SATURATION if v > _SATURATION else v))
        return out

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
        cubes = []
        for colour in range(len(CUBE_COLOURS)):
            cubes.extend([colour] * counts[colour])
        self.tower_rng.shuffle(cubes)
        out = self.tower.throw(cubes, self.tower_rng)
        rng = self.rng
        t = self._schedule_start()
        lo, hi = self.gap_us
        blo, bhi = self.block_us
        for colour in out:
            t = time.ticks_add(t, lo + rng.randbelow(hi - lo + 1))
            end = time.ticks_add(t, blo + rng.randbelow(bhi - blo + 1))
            self._blocks.append([t, end, colour])
            t = end

    def _schedule_start(self):
        t = time.ticks_add(time.ticks_us(), _START_DELAY_US)
        if self._blocks and time.ticks_diff(self._blocks[-1][1], t) > 0:
            t = self._blocks[-1][1]
        return t

    def inject(self, count, block_us, gap_us):
        # As the real board's inject pin: beam pulses with nothing in front of the colour sensor.
        t = self._schedule_start()
        for _ in range(count):
            t = time.ticks_add(t, gap_us)
            end = time.ticks_add(t, block_us)
            self._blocks.append([t, end, None])
            t = end

    def sim_tower(self):
        inside = [0] * len(CUBE_COLOURS)
        for colour in self.tower.inside():
            inside[colour] += 1
        return bytes(inside)
