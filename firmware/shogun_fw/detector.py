# Cube detection at the tower outlet. The beam's edges (timestamped by the board's interrupt
# handler into a ring) give each cube's blocking time; the board's hardware counter (PCNT) counts
# every block without loss and is the reference the events must reconcile with. The colour
# sensor is sampled continuously; each cube takes the sample that saw most of it.
import asyncio

from micropython import const

from shogun_common import protocol as P
from shogun_common.colours import UNKNOWN

_DOUBLE_US = const(12500)    # a block this long is two cubes passing together (one: 5-10 ms)
_DEBOUNCE_US = const(1000)   # blocks or gaps shorter than this are beam chatter, not cubes
_QUIET_US = const(400000)    # a throw ends after this long without a cube
_SAMPLES = const(24)         # colour samples kept (about 60 ms at 2.4 ms)


class Detector:
    def __init__(self, board, classifier, emit):
        self.board = board
        self.classifier = classifier
        self.emit = emit
        self.quiet_us = _QUIET_US
        self.cubes = 0           # cube events emitted since boot
        self.blocks = 0          # beam blocks seen in the edge stream since boot
        self.hw_count = 0        # the hardware counter's blocks since this app started
        self._hw_base = board.beam_count()
        self.mismatches = 0
        self.throw_no = 0
        self.throw_cubes = 0
        self.calibration_colour = None
        self._block_start = None
        self._pending = []       # finished blocks waiting for their colour samples: (t0, t1)
        self._last_edge = None
        # Colour samples ring: (t_start, t_end, r, g, b, c), preallocated.
        self._ring = [None] * _SAMPLES
        self._ring_i = 0
        self._ambient = None
        self._ambient_upto = None   # samples ending before this were considered for ambient
        self._recent = []           # the last blocks, to keep cube light out of the ambient
        self._last_sample_end = None

    def hardware_count(self):
        return self.board.beam_count() - self._hw_base

    # ---- colour sampling ----------------------------------------------------------------------
    async def run_colour(self):
        board = self.board
        period = board.colour_period_ms
        while True:
            reading = board.read_colour()
            if reading is not None:
                self._add_sample(reading)
            await asyncio.sleep_ms(period)

    def _add_sample(self, reading):
        t1 = reading[1]
        self._ring[self._ring_i] = reading
        self._ring_i = (self._ring_i + 1) % _SAMPLES
        self._last_sample_end = t1

    def _update_ambient(self, now):
        # A sample is ambient (dark chute + stray light) when no block overlapped its window.
        # Only samples the edges up to `now` can vouch for are used.
        diff = self.board.ticks_diff
        upto = self._ambient_upto
        newest = upto
        for s in self._ring:
            if s is None or diff(s[1], now) > 0 or (upto is not None and diff(s[1], upto) <= 0):
                continue
            if newest is None or diff(s[1], newest) > 0:
                newest = s[1]
            if self._block_start is not None and diff(s[1], self._block_start) > 0:
                continue
            clear = True
            for t0, t1 in self._recent:
                if diff(s[0], t1) < 0 and diff(t0, s[1]) < 0:
                    clear = False
                    break
            if clear:
                a = self._ambient
                if a is None:
                    self._ambient = tuple(s[2:6])
                else:
                    self._ambient = tuple(a[i] + (s[2 + i] - a[i]) * 0.1 for i in range(4))
        self._ambient_upto = newest

    # ---- detection ----------------------------------------------------------------------------
    async def run(self):
        while True:
            self.step()
            await asyncio.sleep_ms(1)

    def step(self):
        board = self.board
        board.poll()
        diff = board.ticks_diff
        for t, blocked in board.take_edges():
            self._last_edge = t
            if blocked:
                if self._block_start is None:
                    self._block_start = t
            elif self._block_start is not None:
                if diff(t, self._block_start) >= _DEBOUNCE_US:
                    self._pending.append((self._block_start, t))
                    self.blocks += 1
                self._recent.append((self._block_start, t))
                if len(self._recent) > 8:
                    self._recent.pop(0)
                self._block_start = None
        now = board.ticks_us()
        self._update_ambient(now)
        while self._pending and self._samples_cover(self._pending[0][1]):
            t0, t1 = self._pending.pop(0)
            self._emit_block(t0, t1)
        if (self.throw_cubes and self._block_start is None and not self._pending
                and diff(now, self._last_edge) >= self.quiet_us):
            self._end_throw()

    def _samples_cover(self, t_end):
        last = self._last_sample_end
        if last is None:
            return True
        if self.board.ticks_diff(last, t_end) >= 0:
            return True
        # The sensor has stopped answering: do not hold cubes back forever.
        return self.board.ticks_diff(self.board.ticks_us(), t_end) > 50000

    def _emit_block(self, t0, t1):
        diff = self.board.ticks_diff
        length = diff(t1, t0)
        if length >= _DOUBLE_US:
            mid = self.board.ticks_add(t0, length // 2)
            self._emit_cube(t0, mid, length // 2, 0)
            self._emit_cube(mid, t1, length - length // 2, P.FLAG_DOUBLE)
        else:
            self._emit_cube(t0, t1, length, 0)

    def _emit_cube(self, t0, t1, length, flags):
        colour, confidence, saturated = self._colour_of(t0, t1)
        if saturated:
            flags |= P.FLAG_SATURATED
        self.cubes += 1
        self.throw_cubes += 1
        self.emit(P.CUBE, P.pack_cube(self.cubes, t0, colour, confidence, length, flags))

    def _colour_of(self, t0, t1):
        diff = self.board.ticks_diff
        best = None
        best_f = 0.0
        for s in self._ring:
            if s is None:
                continue
            span = diff(s[1], s[0])
            if span <= 0:
                continue
            lo = s[0] if diff(s[0], t0) > 0 else t0
            hi = s[1] if diff(s[1], t1) < 0 else t1
            overlap = diff(hi, lo)
            f = overlap / span
            if f > best_f:
                best_f = f
                best = s
        if best is None or best_f < 0.3:
            return UNKNOWN, 0, False
        a = self._ambient or (0, 0, 0, 0)
        # Ambient light falls on the window all the time; the cube's own reflection only for the
        # fraction f of the sample it was in front of the sensor.
        r, g, b, c = [(best[2 + i] - a[i]) / best_f for i in range(4)]
        saturated = max(best[2:6]) >= 1023
        if self.calibration_colour is not None:
            return self.calibration_colour, 100, saturated
        colour, confidence = self.classifier.classify(r, g, b, c)
        return colour, confidence, saturated

    def _end_throw(self):
        self.hw_count = self.board.beam_count() - self._hw_base
        if self.hw_count != self.blocks:
            # Never hidden: the edge stream missed blocks the hardware counted (or vice versa).
            self.mismatches += 1
            missing = self.hw_count - self.blocks
            self.emit(P.ERROR, P.pack_text(
                P.E_COUNT_MISMATCH,
                "beam counter %d, edges %d: %d cube(s) of unknown colour" % (
                    self.hw_count, self.blocks, missing)))
            while missing > 0:
                self.cubes += 1
                self.throw_cubes += 1
                self.emit(P.CUBE, P.pack_cube(self.cubes, self._last_edge, UNKNOWN, 0, 0, 0))
                missing -= 1
            self.blocks = self.hw_count
        self.throw_no += 1
        self.emit(P.THROW_END, P.pack_throw_end(self.throw_no, self.throw_cubes, self.hw_count))
        self.throw_cubes = 0
