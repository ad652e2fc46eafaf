# Cube detection at the tower outlet.
#
# Counting: the board's hardware counter (PCNT) counts every fall of the beam without loss; it is
# the reference. The beam's edges, timestamped by the board's (soft, droppable) interrupt handler,
# give each block's length: debounced (a gap or a blip shorter than _DEBOUNCE_US is chatter), a
# block of a single cube, a block much longer than a cube (two cubes passing together, touching)
# or longer still (a cube held in front of the beam). A throw ends after a quiet window; then the
# falls seen in the edges must equal the hardware count: any difference is reported as an ERROR
# and the blocks the edges missed come as cubes of unknown colour - never hidden.
#
# Colour: the sensor is sampled continuously into a ring. Each cube takes the sample that saw
# most of it and nothing of any other cube, minus the ambient light (learnt from samples while the
# beam is clear), scaled to the whole cube. A cube without such a sample is `unknown`.
#
# Nothing here allocates per edge or per sample: rings are preallocated arrays.
import array
import asyncio

from micropython import const

from shogun_common import protocol as P
from shogun_common.colours import UNKNOWN

DOUBLE_US = const(10000)     # a block this long is two cubes (one cube: 6-8 ms at the outlet)
STUCK_US = const(40000)      # a block this long is one cube held in front of the beam
_DEBOUNCE_US = const(1000)   # blocks or gaps shorter than this are beam chatter, not cubes
_QUIET_US = const(400000)    # a throw ends after this long without a beam edge
_EDGES = const(32)           # edges taken from the board per step
_SAMPLES = const(32)         # colour samples kept (about 75 ms at 2.4 ms); a power of two
_BLOCKS = const(8)           # finished blocks kept, to keep cube light out of other readings
_PENDING = const(16)         # blocks waiting for their colour samples
_COVER_US = const(3000)      # a cube waits until the samples reach this far past its block
_SENSOR_WAIT_US = const(50000)  # ...or this long, when the sensor stops answering
_AMBIENT_LAG_US = const(5000)   # a sample counts as ambient once the edges are surely in
_MIN_F = 0.5                 # a sample must have seen the cube for half its integration time
_SPLIT = 0.4                 # of a double block, the first cube is read in its first 40 %,
                             # the second in its last 40 %: the middle holds both
_AMBIENT_ALPHA = 0.05        # the ambient estimate follows slow drift over about 20 samples


class Detector:
    def __init__(self, board, classifier, emit):
        self.board = board
        self.classifier = classifier
        self.emit = emit
        self.double_us = DOUBLE_US
        self.stuck_us = STUCK_US
        self.quiet_us = _QUIET_US
        self.cubes = 0           # cube events emitted since the app started
        self.blocks = 0          # debounced beam blocks
        self.falls = 0           # every fall of the beam the edges showed (chatter included)
        self.chatter = 0         # blocks too short to be a cube
        self.mismatches = 0      # throws whose edges did not reconcile with the hardware count
        self.sensor_errors = 0
        self.throw_no = 0
        self.throw_cubes = 0
        self.calibration_colour = P.CAL_OFF
        self.beats = 0           # heartbeat for the watchdog: each task adds its bit
        self._hw_base = board.beam_count()
        self._hw = 0             # hardware count since start, read at the start of each step
        self._hw_at_end = 0      # ... at the end of the last throw
        self._lost_reported = board.edges_lost
        diff = board.ticks_diff
        self._diff = diff
        now = board.ticks_us()
        self._last_activity = now
        # edges from the board
        self._et = array.array("i", [0] * _EDGES)
        self._ev = bytearray(_EDGES)
        # the beam: 0 clear, 1 blocked, 2 clear for less than the debounce time
        self._state = 0
        self._b0 = 0
        self._b1 = 0
        # colour samples ring
        self._s0 = array.array("i", [0] * _SAMPLES)
        self._s1 = array.array("i", [0] * _SAMPLES)
        self._sr = array.array("i", [0] * _SAMPLES)
        self._sg = array.array("i", [0] * _SAMPLES)
        self._sb = array.array("i", [0] * _SAMPLES)
        self._sc = array.array("i", [0] * _SAMPLES)
        self._n = 0              # samples added
        self._amb_n = 0          # samples considered for the ambient estimate
        self._reading = [0, 0, 0, 0, 0, 0]
        self._ambient = [0.0, 0.0, 0.0, 0.0]
        self._ambient_ok = False
        seed = getattr(board, "ambient_reading", None)  # measured at start-up, if the board can
        if seed:
            for i in range(4):
                self._ambient[i] = float(seed[i])
            self._ambient_ok = True
        self._rgbc = [0.0, 0.0, 0.0, 0.0]  # the last cube's corrected reading
        # finished blocks ring and pending blocks queue
        self._rb0 = array.array("i", [0] * _BLOCKS)
        self._rb1 = array.array("i", [0] * _BLOCKS)
        self._rn = 0
        self._pb0 = array.array("i", [0] * _PENDING)
        self._pb1 = array.array("i", [0] * _PENDING)
        self._ph = 0             # head (next to emit) and tail (next free), as counters
        self._pt = 0

    def hardware_count(self):
        return self.board.beam_count() - self._hw_base

    # ---- colour sampling ----------------------------------------------------------------------
    async def run_colour(self):
        board = self.board
        period = board.colour_period_ms
        out = self._reading
        while True:
            self.beats |= 2
            try:
                if board.read_colour(out):
                    self.add_sample(out)
            except OSError as exc:
                self._sensor_error(exc)
                await asyncio.sleep_ms(200)
            await asyncio.sleep_ms(period)

    def _sensor_error(self, exc):
        self.sensor_errors += 1
        if self.sensor_errors % 1000 == 1:  # the first, then one report in a thousand
            self.emit(P.ERROR, P.pack_text(
                P.E_SENSOR, "colour sensor: %s (%d errors); cubes come as unknown until it "
                "answers: check its I2C wiring" % (exc, self.sensor_errors)))

    def add_sample(self, reading):
        """reading: t_start, t_end, R, G, B, C (copied: the caller may reuse its list)."""
        i = self._n & (_SAMPLES - 1)
        self._s0[i] = reading[0]
        self._s1[i] = reading[1]
        self._sr[i] = reading[2]
        self._sg[i] = reading[3]
        self._sb[i] = reading[4]
        self._sc[i] = reading[5]
        self._n += 1

    def _update_ambient(self, now):
        # A sample is ambient (dark chute + stray light) when no block overlapped its window.
        diff = self._diff
        n = self._n
        if n - self._amb_n > _SAMPLES:
            self._amb_n = n - _SAMPLES
        while self._amb_n < n:
            i = self._amb_n & (_SAMPLES - 1)
            s0 = self._s0[i]
            s1 = self._s1[i]
            if diff(now, s1) < _AMBIENT_LAG_US:
                return
            self._amb_n += 1
            if self._state and diff(s1, self._b0) > 0:
                continue
            if self._touches_block(s0, s1, -1):
                continue
            a = self._ambient
            if not self._ambient_ok:
                a[0], a[1], a[2], a[3] = self._sr[i], self._sg[i], self._sb[i], self._sc[i]
                self._ambient_ok = True
            else:
                a[0] += (self._sr[i] - a[0]) * _AMBIENT_ALPHA
                a[1] += (self._sg[i] - a[1]) * _AMBIENT_ALPHA
                a[2] += (self._sb[i] - a[2]) * _AMBIENT_ALPHA
                a[3] += (self._sc[i] - a[3]) * _AMBIENT_ALPHA

    def _touches_block(self, s0, s1, own_b0):
        """True when [s0, s1] overlaps a recent block other than the one starting at own_b0
        (-1: any block; ticks are never negative)."""
        diff = self._diff
        k = self._rn - _BLOCKS if self._rn > _BLOCKS else 0
        while k < self._rn:
            j = k & (_BLOCKS - 1)
            k += 1
            b0 = self._rb0[j]
            if b0 == own_b0:
                continue
            if diff(s0, self._rb1[j]) < 0 and diff(b0, s1) < 0:
                return True
        return False

    # ---- detection ----------------------------------------------------------------------------
    async def run(self):
        while True:
            self.beats |= 1
            self.step()
            await asyncio.sleep_ms(1)

    def step(self):
        board = self.board
        diff = self._diff
        board.poll()
        # The counter first: an edge after this read cannot make the edges look ahead of it.
        hw = board.beam_count() - self._hw_base
        now = board.ticks_us()
        if hw != self._hw:
            self._hw = hw
            self._last_activity = now
        n = board.take_edges(self._et, self._ev)
        while n:
            self._edges(n)
            if n < _EDGES:
                break
            n = board.take_edges(self._et, self._ev)
        now = board.ticks_us()
        if self._state == 2 and diff(now, self._b1) >= _DEBOUNCE_US:
            self._state = 0
            self._finish(self._b0, self._b1)
        self._update_ambient(now)
        while self._ph != self._pt:
            j = self._ph & (_PENDING - 1)
            t1 = self._pb1[j]
            last = self._s1[(self._n - 1) & (_SAMPLES - 1)]
            if not (self._n and diff(last, t1) >= _COVER_US) and diff(now, t1) < _SENSOR_WAIT_US:
                break
            self._ph += 1
            self._emit_block(self._pb0[j], t1)
        if (self._state == 0 and self._ph == self._pt
                and (self.throw_cubes or self._hw != self._hw_at_end)
                and diff(now, self._last_activity) >= self.quiet_us):
            self._end_throw()

    def _edges(self, n):
        diff = self._diff
        et = self._et
        ev = self._ev
        for k in range(n):
            t = et[k]
            self._last_activity = t
            if ev[k]:
                self.falls += 1
                if self._state == 0:
                    self._b0 = t
                    self._state = 1
                elif self._state == 2:
                    if diff(t, self._b1) >= _DEBOUNCE_US:
                        self._finish(self._b0, self._b1)
                        self._b0 = t
                    self._state = 1  # (else a short gap: chatter inside one block)
                # state 1: a second fall without a rise - an edge was lost; the count will tell
            elif self._state == 1:
                self._b1 = t
                self._state = 2

    def _finish(self, b0, b1):
        j = self._rn & (_BLOCKS - 1)
        self._rb0[j] = b0
        self._rb1[j] = b1
        self._rn += 1
        if self._diff(b1, b0) < _DEBOUNCE_US:
            self.chatter += 1
            return
        self.blocks += 1
        if self._pt - self._ph >= _PENDING:
            # The sensor lags far behind (it cannot: it has a timeout); keep counting regardless.
            j = self._ph & (_PENDING - 1)
            self._ph += 1
            self._emit_block(self._pb0[j], self._pb1[j])
        j = self._pt & (_PENDING - 1)
        self._pb0[j] = b0
        self._pb1[j] = b1
        self._pt += 1

    def _emit_block(self, t0, t1):
        add = self.board.ticks_add
        length = self._diff(t1, t0)
        if length >= self.stuck_us:
            self._emit_cube(t0, t0, t1, length, P.FLAG_STUCK, t0, t0)
        elif length >= self.double_us:
            # Two cubes touching: the first fills the start of the block, the second its end.
            a = add(t0, int(length * _SPLIT))
            b = add(t1, -int(length * _SPLIT))
            self._emit_cube(t0, t0, a, length // 2, 0, a, t1)
            self._emit_cube(t0, b, t1, length - length // 2, P.FLAG_DOUBLE, t0, b)
        else:
            self._emit_cube(t0, t0, t1, length, 0, t0, t0)

    def _emit_cube(self, block0, w0, w1, length, flags, x0, x1):
        colour, confidence, more = self._colour_of(block0, w0, w1, x0, x1)
        flags |= more
        self.cubes += 1
        self.throw_cubes += 1
        self.emit(P.CUBE, P.pack_cube(self.cubes, w0, colour, confidence, length, flags))
        if self.calibration_colour != P.CAL_OFF:
            v = self._rgbc
            self.emit(P.CAL_READING, P.pack_cal_reading(
                self.cubes, self.calibration_colour, v[0], v[1], v[2], v[3], flags))

    def _colour_of(self, block0, w0, w1, x0, x1):
        """(colour, confidence, flags) of the cube seen in [w0, w1]; [x0, x1] holds another cube
        of the same block. Leaves the corrected reading in self._rgbc."""
        diff = self._diff
        best = -1
        best_f = _MIN_F
        n = self._n
        k = n - _SAMPLES if n > _SAMPLES else 0
        s0a = self._s0
        s1a = self._s1
        while k < n:
            i = k & (_SAMPLES - 1)
            k += 1
            s0 = s0a[i]
            s1 = s1a[i]
            span = diff(s1, s0)
            if span <= 0:
                continue
            lo = s0 if diff(s0, w0) > 0 else w0
            hi = s1 if diff(s1, w1) < 0 else w1
            f = diff(hi, lo) / span
            if f < best_f:
                continue
            if x0 != x1 and diff(s0, x1) < 0 and diff(x0, s1) < 0:
                continue  # it saw the other cube of the pair too
            if self._touches_block(s0, s1, block0):
                continue  # it saw a neighbour's light
            if self._state and diff(s1, self._b0) > 0 and self._b0 != block0:
                continue  # it saw the cube passing now
            best = i
            best_f = f
        v = self._rgbc
        if best < 0:
            v[0] = v[1] = v[2] = v[3] = 0
            return UNKNOWN, 0, P.FLAG_NO_SAMPLE
        a = self._ambient
        # Ambient light falls on the window all the time; the cube's own reflection only for the
        # fraction f of the integration it was in front of the sensor.
        raw_r, raw_g, raw_b, raw_c = self._sr[best], self._sg[best], self._sb[best], self._sc[best]
        v[0] = (raw_r - a[0]) / best_f
        v[1] = (raw_g - a[1]) / best_f
        v[2] = (raw_b - a[2]) / best_f
        v[3] = (raw_c - a[3]) / best_f
        sat = self.board.saturation
        if raw_r >= sat or raw_g >= sat or raw_b >= sat or raw_c >= sat:
            return UNKNOWN, 0, P.FLAG_SATURATED  # a clipped reading has no trustworthy colour
        colour, confidence = self.classifier.classify(v[0], v[1], v[2], v[3])
        return colour, confidence, 0

    def _end_throw(self):
        hw = self._hw
        lost = self.board.edges_lost
        if lost != self._lost_reported:
            self.emit(P.ERROR, P.pack_text(
                P.E_OVERFLOW, "%d beam edge(s) lost: the interrupt ring overflowed" % (
                    lost - self._lost_reported)))
            self._lost_reported = lost
        if hw != self.falls:
            # Never hidden: the edge stream missed falls the hardware counted (or vice versa).
            self.mismatches += 1
            missing = hw - self.falls
            if missing > 0:
                text = ("beam counter %d, edges %d: %d block(s) without edges come as cube(s) "
                        "of unknown colour" % (hw, self.falls, missing))
            else:
                text = ("beam counter %d, edges %d: %d fall(s) the counter did not count" % (
                    hw, self.falls, -missing))
            self.emit(P.ERROR, P.pack_text(P.E_COUNT_MISMATCH, text))
            while missing > 0:
                self.cubes += 1
                self.throw_cubes += 1
                self.emit(P.CUBE, P.pack_cube(self.cubes, self._last_activity, UNKNOWN, 0, 0,
                                              P.FLAG_RECOVERED))
                missing -= 1
            self.falls = hw
        self._hw_at_end = hw
        self.throw_no += 1
        self.emit(P.THROW_END, P.pack_throw_end(self.throw_no, self.throw_cubes, hw))
        self.throw_cubes = 0
