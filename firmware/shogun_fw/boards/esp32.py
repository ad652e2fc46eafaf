# The real tower's board: ESP32 with two IR break beams (each counted in hardware: its falls, its
# rises and the microseconds it is blocked, by pulse counters; boards/__init__.py, the capture), a
# TCS34725 colour sensor on I2C and a WS2812B strip on a UART's TX line. Pins: esp32_config.py.
import array
import asyncio
import os
import select
import struct
import sys
import time

import esp32
import machine
import micropython
from machine import I2C, PWM, UART, Pin
from micropython import const

from shogun_common import protocol as P
from shogun_fw import boards as _capture
from shogun_fw.boards.esp32_config import (
    CAPTURE_CLOCK,
    CAPTURE_CLOCK_IN,
    CAPTURE_HZ,
    I2C_FREQ,
    PINS,
    SENSOR_GAIN,
    STRIP_RX,
    STRIP_UART,
)
from shogun_fw.drivers import ws2812_uart
from shogun_fw.drivers.tcs34725 import DATA_BURST, TCS34725
from shogun_fw.link import readable

_U_FALLS = const(0)    # pulse counter units: the beams' falls (upper, lower: the reference counts),
_U_RISES = const(2)    # ... their rises,
_U_BLOCKED = const(4)  # ... the microseconds each was blocked (the clock gated by the beam)
_UNITS = (0, 1, 2, 3, 4, 5)  # (the same, for the tower build's C handler: shogun_capture)
_BEAM_FILTER = const(800)   # a beam's edges shorter than 10 us are noise (APB cycles at 80 MHz)
_CLOCK_FILTER = const(10)   # the 1 MHz clock's half period is 40 APB cycles: keep its edges
_S_LOST = const(3)     # the capture's status: falls not placed (boards/__init__.py's own)
_S_SKIPPED = const(4)  # ... readings the full ring overwrote
_LIMIT = const(32000)  # every counter's max= (boards/__init__.py's own)
_EARLY_US = const(300)  # the sensor's clock is its own: look for a sample this much early
_POLL_US = const(1000)  # colour_period_ms: how late a sample may be seen
_SAMPLE_TIMER = const(1)  # machine.Timer(0) feeds the watchdog at the REPL
_SLOW_US = const(48000)   # a colour sample between throws (start_sampling)
_TICKS_HALF = const(0x20000000)  # time.ticks_us wraps at 2^30 (viper: _on_sample)
_TICKS_MASK = const(0x3FFFFFFF)
_WAKE_TIMER = const(2)    # wake_in's one-shot timer
# The colour sensor's own clock: its integrations end on its oscillator (2.27-2.56 ms a step,
# datasheet), not on the board's timer, so a sample's light is that of the integration before
# the read, up to a step earlier. The board learns the clock from the sensor's status: AINT
# sets as each integration ends (persistence 0), so polled after a clear, it brackets an end
# between two polls. self._lock holds it: an end (ticks), the period (us, and 1/256 us; 0: not
# learnt, samples are then stamped by their read), the slow samples since the last look, and
# the baseline the period is measured over: its first end (ticks) and the integrations from it
# to the end above (each look counts them: a look is only taken within _SEEK_US of its due).
_L_END = const(0)
_L_PERIOD = const(1)
_L_FRAC = const(2)
_L_SINCE = const(3)
_L_BASE = const(4)
_L_COUNT = const(5)
_BASE_MIN = const(340)    # a baseline this long (learn_clock's) or more sets the period
_BASE_MAX_US = const(0x10000000)  # ... and one past 4.5 min starts again (ticks_diff's range)
_SEEK_US = const(1000)    # a look waits for an end this far either side of where it is due
_BRACKET_MAX_US = const(250)  # two polls farther apart (a handler ran between them): no look
#                               (an end is then placed within 125 us, as _GUARD_US allows)
_STATUS_LAG_US = const(30)    # from the status byte's latch to the poll's return (assumed:
#                               its byte and the stop at 400 kHz)
_LATCH_US = const(60)     # from the callback's ticks to the burst latching the data (assumed:
#                           start, address, command, repeated start, address at 400 kHz)
_GUARD_US = const(150)    # a burst latches this long after an end at the soonest (the board's
#                           error on the clock, as detector.py's _CLOCK_ERR_US allows)
_TRIES = const(6)         # ... each taken at one of this many ends in a row
_LOOKS = (4, 16, 64, 256)  # learn_clock: ends this many integrations apart, each count sure
#                            while the period is known to within _SEEK_US over the span
_RESYNC_SLOW = const(8)   # between throws: a look every this many slow samples (~0.4 s)
_CPU_HZ = const(240000000)  # the CPU budget (docs/firmware.md) is for 240 MHz; the stock
#                              ESP32_GENERIC firmware starts at 160 MHz
_RESET_CAUSES = {
    machine.PWRON_RESET: "power-on",
    machine.HARD_RESET: "hard reset",
    machine.WDT_RESET: "watchdog",
    machine.DEEPSLEEP_RESET: "deep sleep",
    machine.SOFT_RESET: "soft reset",
}


@micropython.viper
def _drain(ipoll, readinto, one, rx, most: int) -> int:
    # One byte at a time while the port has data: stdin.read(n) blocks until it has n bytes, and
    # the port cannot say how many wait. Viper, with the poll's and the stream's methods bound
    # once (Esp32Board.serial_on): a byte costs the two C calls and little else, no
    # method lookup and no generic subscript (14 -> 9 us a byte on an ESP32 at R high).
    src = ptr8(one)
    dst = ptr8(rx)
    n = 0
    while n < most:
        ready = 0
        for _ in ipoll(0):
            ready = 1
        if not ready:
            break
        if not readinto(one):
            break
        dst[n] = src[0]
        n += 1
    return n


@micropython.viper
def _last_end(lock, t: int) -> int:
    """The end (ticks) of the last integration the sensor ended by ``t`` on its clock as
    learnt (lock: Esp32Board._lock); -1 when it is not learnt, or ``t`` is before its end or
    2^29 us past it. (viper, 32-bit: ends below 2^29 us apart, so m * period below 2^30, the
    fraction's m * 255 below 2^28)"""
    lk = ptr32(lock)
    p = lk[_L_PERIOD]  # (0: not learnt. A ptr32 load is unsigned in viper: no -1 flag)
    if p == 0:
        return -1
    a = lk[_L_END]
    d = ((t - a + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF
    if d < 0:
        return -1
    fr = lk[_L_FRAC]
    m = d // p
    e = m * p + ((m * fr) >> 8)
    while e > d:  # (the fraction makes the period longer: a step or two back at most)
        m -= 1
        e = m * p + ((m * fr) >> 8)
    return (a + e) & _TICKS_MASK


class Esp32Board:
    name = "esp32"
    colour_period_ms = 1  # the sensor's interrupt flag is polled; a sample ends every 2.4 ms
    saturation = 1023     # the sensor's own value replaces this

    def __init__(self, watchdog_ms=8000):
        machine.freq(_CPU_HZ)
        caps = P.CAP_LED | P.CAP_HW_COUNTER | P.CAP_INJECT
        self._beam = Pin(PINS["beam_upper"], Pin.IN, Pin.PULL_UP)
        self._beam_lower = Pin(PINS["beam_lower"], Pin.IN, Pin.PULL_UP)
        self._power_sense = Pin(PINS["power_sense"], Pin.IN)  # (its divider drives it)
        # The beams in hardware, whatever the interpreter does: per beam a pulse counter of its
        # falls (the upper one's is the reference count), one of its rises, and one of a 1 MHz
        # clock while it is blocked (mode_pin: held while the beam is clear). The clock is an
        # LEDC output on CAPTURE_CLOCK, jumpered to CAPTURE_CLOCK_IN where the counters read
        # it (esp32_config.py). Each counter goes back to 0 at max=_LIMIT, and the capture
        # takes differences modulo it (boards/__init__.py); a unit counts from start().
        pcnt = esp32.PCNT
        clock_in = Pin(CAPTURE_CLOCK_IN, Pin.IN)
        units = [None] * 6
        for b, pin in ((0, self._beam), (1, self._beam_lower)):
            units[_U_FALLS + b] = pcnt(_U_FALLS + b, pin=pin, falling=pcnt.INCREMENT,
                                       rising=pcnt.IGNORE, filter=_BEAM_FILTER,
                                       max=_LIMIT)
            units[_U_RISES + b] = pcnt(_U_RISES + b, pin=pin, rising=pcnt.INCREMENT,
                                       falling=pcnt.IGNORE, filter=_BEAM_FILTER,
                                       max=_LIMIT)
            units[_U_BLOCKED + b] = pcnt(_U_BLOCKED + b, pin=clock_in, rising=pcnt.INCREMENT,
                                         falling=pcnt.IGNORE, mode_pin=pin,
                                         mode_low=pcnt.NORMAL, mode_high=pcnt.HOLD,
                                         filter=_CLOCK_FILTER, max=_LIMIT)
        for unit in units:
            unit.start()
        self._units = tuple(units)
        self._clock = PWM(Pin(CAPTURE_CLOCK), freq=CAPTURE_HZ, duty_u16=32768)
        self.capture = _capture  # (boards/__init__.py: one capture a board)
        self._cnt = array.array("i", (0, 0, 0))  # a reading's G, F, R
        self._falls = array.array("i", (0, 0, 0, 0))  # per beam: falls in full, the last count
        self._cap = None  # the tower's build: its C interrupt handler (shogun_capture)
        self.edge_flag = asyncio.ThreadSafeFlag()  # set by every edge: a task can sleep on it
        self.edges_lost = 0
        self.readings_skipped = 0
        self._repl_timer = None
        self._colour_led = Pin(PINS["colour_led"], Pin.OUT, value=1)
        self._sensor = None
        self._raw = [0, 0, 0, 0]
        self._step_us = 2400
        self._next_us = None  # the earliest the next integration can end (read_colour)
        self._wake_timer = None    # wake_in's one-shot timer, its callback (bound once)
        self._wake_ref = self._wake
        self._sample_timer = None  # start_sampling: the timer, its callback (bound once: no
        self._on_sample_ref = self._on_sample  # allocation a call), the burst's 8 bytes,
        self._burst = bytearray(8)
        self._ring = None          # ... the detector's ring (times, words, on_error, the
        #                            burst's read, the sensor's address)
        self._sample_at = 0
        self._period_us = _SLOW_US
        self._lock = array.array("i", bytes(24))  # the sensor's clock (learn_clock)
        self._fast = None
        self.dark_reading = [0, 0, 0, 0]     # LED off: stray light reaching the sensor
        self.ambient_reading = None          # LED on, empty chute: what the detector subtracts
        try:
            i2c = I2C(0, sda=Pin(PINS["i2c_sda"]), scl=Pin(PINS["i2c_scl"]), freq=I2C_FREQ)
            sensor = TCS34725(i2c, steps=1, gain=SENSOR_GAIN)
            self._step_us = sensor.step_us
            self.saturation = sensor.saturation
            self._colour_led(0)
            sensor.read_average(self.dark_reading, 4, time.sleep_ms)
            self._colour_led(1)
            self.ambient_reading = [0, 0, 0, 0]
            sensor.read_average(self.ambient_reading, 4, time.sleep_ms)
            self._sensor = sensor
            caps |= P.CAP_COLOUR | P.CAP_CALIBRATION
        except OSError:
            self._sensor = None  # reported through the capabilities: cubes come as `unknown`
        self.caps = caps
        self._strip = None
        # Open drain: jumpered to the beam input, it pulls the line low like the IR receiver's
        # open collector does, and never fights the receiver when a real cube blocks the beam.
        self._inject = Pin(PINS["inject"], Pin.OPEN_DRAIN, value=1)
        poll = select.poll()
        poll.register(sys.stdin, select.POLLIN)
        self.serial_on(poll, sys.stdin.buffer, sys.stdout.buffer)
        self._rx = bytearray(256)
        self._rx_mv = memoryview(self._rx)
        self._one = bytearray(1)
        self._wdt = machine.WDT(timeout=watchdog_ms)

    # ---- time and identity --------------------------------------------------------------------
    ticks_us = staticmethod(time.ticks_us)
    ticks_ms = staticmethod(time.ticks_ms)
    ticks_diff = staticmethod(time.ticks_diff)
    ticks_add = staticmethod(time.ticks_add)

    def random32(self):
        return struct.unpack("<I", os.urandom(4))[0]

    def boot_payload(self, boot_id):
        cause = _RESET_CAUSES.get(machine.reset_cause(), "unknown")
        return struct.pack("<I", boot_id) + cause.encode()

    # ---- serial -------------------------------------------------------------------------------
    def serial_on(self, poll, stdin, stdout):
        """The port: a poll with stdin registered, stdin's and stdout's byte streams (the tests'
        and benchmarks' fakes come in here too). The drain's two methods are bound once, here:
        a bound method per read would be heap in the loop."""
        self._stdin = stdin
        self._stdout = stdout
        self._ipoll = poll.ipoll
        self._readinto = stdin.readinto

    async def serial_receive(self, most=256):
        """What the host sent: the task sleeps in asyncio's poller until the first byte comes
        (no wake-up on a clock), then takes what is waiting (at most ``most`` bytes)."""
        await readable(self._stdin)
        return self.serial_read(most)

    def serial_read(self, most=256):
        # What is waiting, at most ``most`` bytes (256 at most), into a preallocated buffer:
        # nothing is allocated per byte. The REPL UART runs at 115200 baud, about 11.5 bytes per
        # ms: 256 bytes per call is far ahead of it; the link takes fewer a step (its
        # _READ_MOST: each byte is a round of the drain).
        n = _drain(self._ipoll, self._readinto, self._one, self._rx,
                   most if most < 256 else 256)
        return self._rx_mv[:n] if n else None

    def serial_write(self, data, off=0, n=-1):
        # (data[off:off + n] written without a view of it: the stream's own offset and length)
        if n < 0:
            self._stdout.write(data)
        else:
            self._stdout.write(data, off, n)

    # ---- beam ---------------------------------------------------------------------------------
    # Each edge's handler only reads the beam's counters into the capture's ring (viper: no
    # allocation). On the ESP32 port it is soft: it runs when the interpreter gets to it, and
    # the reading, not the handler's own time, places the edge (boards/__init__.py).
    @micropython.viper
    def _sample(self, b: int) -> int:
        """Beam b's counters now into self._cnt, and the ticks: ticks first, then G, F, R (F
        before R: an edge between them is seen by the next reading)."""
        u = self._units
        c = ptr32(self._cnt)
        t = int(time.ticks_us())
        c[0] = int(u[_U_BLOCKED + b].value())
        c[1] = int(u[_U_FALLS + b].value())
        c[2] = int(u[_U_RISES + b].value())
        return t

    @micropython.viper
    def _read(self, b: int):
        # a reading of beam b into the capture
        self.capture.put(b, int(self._sample(b)), self._cnt)

    @micropython.viper
    def _on_edge(self, pin):
        self._read(0)
        self.edge_flag.set()

    @micropython.viper
    def _on_edge_lower(self, pin):
        self._read(1)
        self.edge_flag.set()

    def poll(self):
        pass

    def take_edges(self, ts, vs):
        """Edges since the last call into ``ts`` (times, an array('i')) and ``vs`` (a
        bytearray; bit 0: blocked, bit 1: the lower beam, bit 2: late), from the handlers'
        readings and one of each beam now; a count."""
        self._read(0)
        self._read(1)
        capture = self.capture
        n = capture.read(ts, vs)
        self.edges_lost = capture.status[_S_LOST]
        self.readings_skipped = capture.status[_S_SKIPPED]  # (counts kept, places not)
        return n

    def _count(self, b):
        # beam b's falls in full: the counter's steps added up (it goes back to 0 at its limit)
        f = self._falls
        raw = self._units[_U_FALLS + b].value()
        f[2 * b] += (raw - f[2 * b + 1]) % _LIMIT
        f[2 * b + 1] = raw
        return f[2 * b]

    def beam_count(self):
        return self._count(0)

    def lower_count(self):
        return self._count(1)

    # ---- colour sensor ------------------------------------------------------------------------
    def colour_wait_ms(self):
        """How long the colour sampling may sleep: until the next integration can have ended
        (no wake-up that could only find the sensor busy), at least the poll period."""
        if self._next_us is None:
            return self.colour_period_ms
        d = time.ticks_diff(self._next_us, time.ticks_us())
        return (d + 999) // 1000 if d > 1000 else self.colour_period_ms

    def supply_5v(self):
        """Whether the 5 V supply feeds the strip (GPIO34 high, hardware/power.py)."""
        return self._power_sense.value() == 1

    def watch_supply(self, follow):
        """``follow(True)`` as soon as GPIO34 falls (the supply pulled out): the score track
        lowers the strip then, not at its next look (up to 100 ms later). Q_SS's gate hands the
        strip to USB some 20-60 ms after the jack falls (R_G, C_GS: hardware/power.py); a frame
        made for the supply must be gone by then. (Soft: it runs between two bytecodes of
        whatever the interpreter is doing, as the ESP32 port schedules every Pin handler.)"""
        self._power_sense.irq(lambda pin: follow(True), Pin.IRQ_FALLING)

    def read_colour(self, out):
        """Fill ``out`` with t_start, t_end, R, G, B, C when an integration has ended; an
        OSError when the sensor does not answer (the detector reports it)."""
        sensor = self._sensor
        if sensor is None:
            return False
        now = time.ticks_us()
        # No I2C before the integration can have ended: a status read costs about 150 us of
        # bus time, and the sensor ends one every 2.4 ms (CPU budget).
        if self._next_us is not None and time.ticks_diff(now, self._next_us) < 0:
            return False
        if not sensor.ready():
            return False
        # This integration ended up to one poll (1 ms) ago: the next ends 1.4-2.4 ms from now.
        self._next_us = time.ticks_add(now, self._step_us - _POLL_US - _EARLY_US)
        raw = sensor.read_raw(self._raw)
        # The integration ended at most one poll (1 ms) before `now`; on the sensor's clock
        # when it is learnt.
        end = _last_end(self._lock, now)
        if end < 0:
            out[0] = time.ticks_add(now, -self._step_us)
            out[1] = now
        else:
            out[0] = time.ticks_add(end, -self._lock[_L_PERIOD])
            out[1] = end
        out[2] = raw[0]
        out[3] = raw[1]
        out[4] = raw[2]
        out[5] = raw[3]
        return True

    # ---- colour sampling from a timer (no task wake-up, no status poll a sample) ----
    def start_sampling(self, times, words, on_error):
        """From now on the board samples the colour by itself: a timer on the sensor's
        integration period, whose soft callback (the timer's interrupt schedules it; it runs
        between two bytecodes, not in a task) reads the latest integration in one I2C burst
        straight into the detector's sample ring, with no call into the detector: sample n
        (n = times[-1], the samples written so far; 2k times and a count for a ring of k, a
        power of two) goes to slot i = n % k, its 4 words as the sensor gives them (C, R, G,
        B) to words[4i..4i + 3], its start and end ticks to times[2i], times[2i + 1], then
        n + 1 to times[-1]. ``on_error(exc)`` when the sensor does not answer. False without a
        sensor."""
        if self._sensor is None:
            return False
        sensor = self._sensor
        self.learn_clock()
        # (the bus's own method, bound once: no Python call between the callback and the I2C)
        self._ring = (times, words, on_error, sensor.i2c.readfrom_mem_into, sensor.address)
        self._sample_timer = machine.Timer(_SAMPLE_TIMER)
        self._sample_at = time.ticks_add(time.ticks_us(), -_SLOW_US)
        self._fast = None
        self.sampling(False)
        return True

    # ---- the sensor's clock ---------------------------------------------------------------
    def _look(self, until):
        """The end of the first integration that ends from now to ``until`` (ticks): AINT
        cleared, then polled; the end lies between the last poll that found it clear and the
        first that found it set. None when none ended by then, or those two polls lay too far
        apart (something ran between them)."""
        sensor = self._sensor
        sensor.clear()
        before = time.ticks_us()
        while True:
            got = sensor.ready()
            t = time.ticks_us()
            if got:
                gap = time.ticks_diff(t, before)
                if gap > _BRACKET_MAX_US:
                    return None
                return time.ticks_add(before, gap // 2 - _STATUS_LAG_US)
            if time.ticks_diff(t, until) >= 0:
                return None
            before = t

    def _look_near(self, due):
        """A look at the end due at ``due`` (ticks): from _SEEK_US before it; None unless one
        came within _SEEK_US of it."""
        wait = time.ticks_diff(due, time.ticks_us()) - _SEEK_US
        if wait > 0:
            time.sleep_us(wait)
        got = self._look(time.ticks_add(due, _SEEK_US))
        if got is None or abs(time.ticks_diff(got, due)) >= _SEEK_US:
            return None
        return got

    def learn_clock(self):
        """Learn the sensor's clock: an end, then the ends 4, 20, 84 and 340 integrations on
        (_LOOKS), the period from each span; about 0.8 s, once, before sampling starts. True
        when learnt; else the samples keep the stamps of their read (one step before it)."""
        lk = self._lock
        lk[_L_PERIOD] = 0
        first = None
        for _ in range(_TRIES):
            first = self._look(time.ticks_add(time.ticks_us(), self._step_us + _SEEK_US))
            if first is not None:
                break
        if first is None:
            return False
        period = self._step_us << 8  # (1/256 us)
        n = 0
        got = first
        for k in _LOOKS:
            n += k
            for _ in range(_TRIES):  # (a look something ran in the middle of: the next end)
                got = self._look_near(time.ticks_add(first, (n * period) >> 8))
                if got is not None:
                    break
                n += 1
            else:
                return False
            period = (time.ticks_diff(got, first) << 8) // n
        lk[_L_END] = got
        lk[_L_PERIOD] = period >> 8
        lk[_L_FRAC] = period & 255
        lk[_L_SINCE] = 0
        lk[_L_BASE] = first
        lk[_L_COUNT] = n
        return True

    def _resync(self):
        """Between throws: a look at the next end, and the clock set by it: the end, and the
        period over the whole baseline of looks (its error shrinks as the baseline grows; the
        oscillator's slow drift follows). Lost (the end not where it was due): a plain look
        finds an end again, and a new baseline starts from it; the period stays."""
        lk = self._lock
        last = _last_end(lk, time.ticks_us())
        if last < 0:
            return
        # (the due end's count from the last look: the whole microseconds do, and keep it a
        # small int on the ESP32, whose are 31-bit)
        m = time.ticks_diff(last, lk[_L_END]) // lk[_L_PERIOD] + 1
        got = self._look_near(time.ticks_add(last, lk[_L_PERIOD]))
        if got is None:
            got = self._look(time.ticks_add(time.ticks_us(), lk[_L_PERIOD] + _SEEK_US))
            if got is not None:
                lk[_L_END] = lk[_L_BASE] = got
                lk[_L_COUNT] = 0
            return
        lk[_L_END] = got
        n = lk[_L_COUNT] + m
        d = time.ticks_diff(got, lk[_L_BASE])
        if d >= _BASE_MAX_US:
            lk[_L_BASE] = got
            n = 0
        elif n >= _BASE_MIN:  # (in two parts: d << 8 would pass the ESP32's small ints)
            period = ((d // n) << 8) + ((d % n) << 8) // n
            lk[_L_PERIOD] = period >> 8
            lk[_L_FRAC] = period & 255
        lk[_L_COUNT] = n

    def sampling(self, fast):
        """Every integration (``fast``: a cube can be in view) or one sample every _SLOW_US
        (the ambient estimate between throws)."""
        if fast == self._fast or self._sample_timer is None:
            return
        self._fast = fast
        self._period_us = self._step_us if fast else _SLOW_US
        self._sample_timer.init(mode=machine.Timer.PERIODIC, freq=1000000 / self._period_us,
                                callback=self._on_sample_ref)

    @micropython.native
    def wake_in(self, ms):
        """Set edge_flag in ``ms`` (a one-shot timer; a new call replaces it): the detector
        sleeps on the flag until an edge or its next deadline, without asyncio.wait_for_ms."""
        if ms <= 0:
            self.edge_flag.set()
            return
        if self._wake_timer is None:
            self._wake_timer = machine.Timer(_WAKE_TIMER)
        self._wake_timer.init(mode=machine.Timer.ONE_SHOT, period=ms, callback=self._wake_ref)

    def _wake(self, _timer):
        self.edge_flag.set()

    @micropython.viper
    def _on_sample(self, _timer):
        # The timer's soft callback. The sensor ends an integration every step and keeps the
        # latest: read it, one 8-byte burst (no status poll, no interrupt to clear: the timer
        # runs on the integration period), into the detector's ring (start_sampling). Viper
        # (32-bit on the ESP32): ticks in [0, 2^30), a difference masked in (-2^29, 2^29), its
        # intermediate below 2^30 + 2^29; the count below 2^30 (30 days at full rate); the
        # words 16-bit. Nothing allocates (tests/firmware/mpy_test_esp32_board.py).
        now = int(time.ticks_us())
        if (((now - int(self._sample_at) + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF
                < (int(self._period_us) >> 1)):
            return  # a late callback and the next one queued behind it: the same integration
        self._sample_at = now
        times, words, on_error, read, address = self._ring
        st = ptr32(times)
        k = int(len(times)) - 1
        n = st[k]
        # The integration the burst will read: the last the sensor ended by the burst's latch
        # on its own clock (learn_clock), not the read's time. The one already read: no burst.
        # Within _GUARD_US of an end, the board cannot be sure the sensor has ended it:
        # the read waits until it has (at most 2 x _GUARD_US, in a few samples in 10).
        lk = ptr32(self._lock)
        end = int(_last_end(self._lock, (now + _LATCH_US + _GUARD_US) & _TICKS_MASK))
        span = lk[_L_PERIOD]
        if end < 0:
            end = now  # (not learnt: stamped by the read, up to a step late)
            span = int(self._step_us)
        else:
            while (((int(time.ticks_us()) + _LATCH_US - end + _TICKS_HALF) & _TICKS_MASK)
                   - _TICKS_HALF < _GUARD_US):
                pass
            if n > 0 and st[2 * ((n - 1) & ((k >> 1) - 1)) + 1] == end:
                return
        b = self._burst
        try:
            read(address, DATA_BURST, b)
        except OSError:  # (viper has no `except ... as`)
            self._sample_failed()
            return
        i = n & ((k >> 1) - 1)
        j = 4 * i
        w = ptr16(words)
        bw = ptr16(b)  # (C, R, G, B: 16-bit little-endian, as the ESP32 reads them)
        w[j] = bw[0]
        w[j + 1] = bw[1]
        w[j + 2] = bw[2]
        w[j + 3] = bw[3]
        st[2 * i] = (end - span) & _TICKS_MASK
        st[2 * i + 1] = end
        st[k] = n + 1  # (last: a sample counts once it is all in)
        # Between throws, now and then, a look at the sensor's clock (its oscillator drifts):
        # up to a step's wait and two of polling, when no cube can be in view.
        if lk[_L_PERIOD] != 0 and int(self._period_us) > int(self._step_us):
            lk[_L_SINCE] += 1
            if lk[_L_SINCE] >= _RESYNC_SLOW:
                lk[_L_SINCE] = 0
                self._resync()

    def _sample_failed(self):
        # The burst failed: again, in Python, for the error to report (a sensor that stopped
        # answering fails again; one that answers the second time still failed once).
        _times, _words, on_error, read, address = self._ring
        try:
            read(address, DATA_BURST, self._burst)
        except OSError as exc:
            on_error(exc)
            return
        on_error(OSError(5))  # EIO

    # ---- LED strip ----------------------------------------------------------------------------
    def strip_init(self, n):
        # The RX the strip never uses goes to an unconnected GPIO: v1.28.0 refuses rx=-1, and
        # left out, UART1's RX would be GPIO9, the module's SPI flash (esp32_config.STRIP_RX)
        uart = UART(STRIP_UART, tx=PINS["led_strip"], rx=STRIP_RX, invert=UART.INV_TX,
                    **ws2812_uart.uart_args(n))
        self._strip = ws2812_uart.Strip(uart, n)

    def strip_write(self, frame):
        # The UART's interrupt sends it: the loop goes on (False: the last frame is still going
        # out; the score track tries again)
        return self._strip.write(frame)

    # ---- flash --------------------------------------------------------------------------------
    def flash_read(self, name):
        try:
            with open(name) as f:
                return f.read()
        except OSError:
            return None

    def flash_write_atomic(self, name, text):
        # A flash write stops the cache and with it the UART's interrupt (not in IRAM): a frame
        # still going out would stall on the wire long enough for the strip to latch half of it.
        # Writes are rare and take milliseconds anyway. (At most 30 ms: 300 LEDs' wire time and
        # more, should the UART never say it is done.)
        strip = self._strip
        for _ in range(300):
            if strip is None or strip.idle():
                break
            time.sleep_us(100)
        tmp = name + ".tmp"
        with open(tmp, "w") as f:
            f.write(text)
        os.rename(tmp, name)  # littlefs renames atomically: old file or new, never half

    # ---- inject (hardware-in-loop tests) ------------------------------------------------------
    def inject(self, count, block_us, gap_us):
        asyncio.create_task(self._pulses(count, block_us, gap_us))

    async def _pulses(self, count, block_us, gap_us):
        pin = self._inject
        for _ in range(count):
            pin(0)  # the beam input sees a blocked beam
            time.sleep_us(block_us)
            pin(1)
            await asyncio.sleep_ms(max(1, gap_us // 1000))

    # ---- lifecycle ----------------------------------------------------------------------------
    def feed_watchdog(self):
        self._wdt.feed()

    def attach(self):
        """The app starts (at boot, or again from the REPL): arm the beam interrupts."""
        if self._repl_timer is not None:
            self._repl_timer.deinit()
            self._repl_timer = None
        # The counters from here on: each beam's first reading, and its level now
        capture = self.capture
        for b, pin in ((0, self._beam), (1, self._beam_lower)):
            level = 0 if pin.value() else 1
            capture.start(b, self._sample(b), self._cnt, level)
        try:
            import shogun_capture  # the tower's build: a C interrupt handler reads them
        except ImportError:
            shogun_capture = None
        if shogun_capture is not None:
            self._cap = shogun_capture
            shogun_capture.start(capture._ring, capture.status,
                                 (PINS["beam_upper"], PINS["beam_lower"]), _UNITS,
                                 self._wake_ref)
            return
        # (soft: the ESP32 port's Pin.irq takes no hard=; docs/esp32-port.md)
        self._beam.irq(self._on_edge, Pin.IRQ_FALLING | Pin.IRQ_RISING)
        self._beam_lower.irq(self._on_edge_lower, Pin.IRQ_FALLING | Pin.IRQ_RISING)

    def release(self):
        # Back to the REPL: stop interrupts. The watchdog cannot be stopped once started, so a
        # hardware timer keeps feeding it while a person or mpremote uses the REPL.
        if self._cap is not None:
            self._cap.stop()
        self._beam.irq(None)
        self._beam_lower.irq(None)
        self._power_sense.irq(None)
        if self._sample_timer is not None:
            self._sample_timer.deinit()
            self._sample_timer = None
        if self._wake_timer is not None:
            self._wake_timer.deinit()
            self._wake_timer = None
        wdt = self._wdt
        self._repl_timer = machine.Timer(0)
        self._repl_timer.init(period=1000, callback=lambda t: wdt.feed())
        if self._sensor is not None:
            self._sensor.sleep()

    def fatal(self, exc):
        fatal(exc, self._stdout)

    def safe_mode(self, exc, what="start-up failed: "):
        safe_mode(exc, self, what)

    def tell_kept(self, link, tasks):
        """At the app's start: the last failure kept on the flash, if any, goes to the host as
        an E_EXCEPTION error event (its first line, "last boot: ...") and leaves the flash once
        the host has acknowledged it (a task added to ``tasks``)."""
        kept = self.flash_read(KEPT)
        if not kept:
            return
        seq = link.outbox.next_seq
        link.send_event(P.ERROR, P.pack_text(P.E_EXCEPTION, "last boot: " + kept.split("\n")[0]))

        async def wait():
            # (until the oldest event held comes after it: heard. P.seq_after is the host's
            # only, not compiled on a board)
            while not 0 < (link.outbox.oldest_seq() - seq) & 0xFFFF < 0x8000:
                await asyncio.sleep_ms(500)
            self.flash_write_atomic(KEPT, "")

        tasks.append(asyncio.create_task(wait()))


KEPT = "last_error.txt"  # the last failure's traceback; the app tells the host at its next start


def _keep(exc, out, what):
    # The host hears it now (a FATAL frame, if it listens: never acknowledged) and at the next
    # start (app.py: the kept traceback's last line, as an ERROR event); a person reads it all
    # with mpremote. Never raises: it runs when something already failed.
    msg = "%s: %s" % (type(exc).__name__, exc)
    try:
        out.write(P.encode_frame(P.FATAL, 0, P.pack_text(P.E_EXCEPTION, what + msg)))
    except Exception:  # noqa: BLE001, S110 - (the serial port is what failed, maybe)
        pass
    try:
        with open(KEPT, "w") as f:
            f.write(what + msg + "\n")
            sys.print_exception(exc, f)
    except OSError:
        pass
    return msg


def fatal(exc, out=None):
    """The running app failed: report ``exc`` (a FATAL frame, its traceback kept in
    last_error.txt) and reset the board, which starts the app again."""
    try:
        _keep(exc, out or sys.stdout.buffer, "the app failed: ")
    finally:
        machine.reset()


def safe_mode(exc, board=None, what="start-up failed: "):
    """Start-up failed (the board's parts, attach, the app's set-up), or the app failed again
    before a host heard of the last failure: report ``exc`` once as fatal() does, then stay up
    with the REPL free instead of resetting into the same failure: the beams' interrupts and
    the board's timers stopped, the watchdog (which nothing stops once started) fed from a soft
    timer, and one line on the REPL saying what happened."""
    out = getattr(board, "_stdout", None) or sys.stdout.buffer
    msg = what + _keep(exc, out, what)
    if board is not None:
        try:
            board.release()
        except Exception:  # noqa: BLE001, S110 - what could be stopped is stopped
            pass
    try:
        out.write(b"\r\nshogun: SAFE MODE - " + msg.encode() + b" (last_error.txt). The REPL is "
                  b"free: fix it and reset, or `make deploy`.\r\n")
    except Exception:  # noqa: BLE001, S110
        pass


def run():
    """main.py: start the app on this board; if the board cannot even be set up, safe mode."""
    from shogun_fw import app

    try:
        board = Esp32Board()
    except Exception as exc:  # noqa: BLE001 - any: the REPL must stay reachable
        safe_mode(exc)
        return
    app.start(board)
