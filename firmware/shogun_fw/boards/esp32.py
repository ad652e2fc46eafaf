# The real tower's board: ESP32 with two IR break beams (PCNT hardware counters + edge
# interrupts), a TCS34725 colour sensor on I2C and a WS2812B strip. Pins: esp32_config.py.
import array
import asyncio
import os
import select
import struct
import sys
import time

import machine
import neopixel
from machine import I2C, Pin
from micropython import const

from shogun_common import protocol as P
from shogun_fw.boards.esp32_config import I2C_FREQ, PINS
from shogun_fw.drivers.tcs34725 import STEP_US, TCS34725

_RING = const(64)  # beam edges kept between two detector steps (a power of two)
_RESET_CAUSES = {
    machine.PWRON_RESET: "power-on",
    machine.HARD_RESET: "hard reset",
    machine.WDT_RESET: "watchdog",
    machine.DEEPSLEEP_RESET: "deep sleep",
    machine.SOFT_RESET: "soft reset",
}


class Esp32Board:
    name = "esp32"
    colour_period_ms = 3  # one 2.4 ms integration step, rounded up to the scheduler's ms

    def __init__(self, watchdog_ms=8000):
        caps = P.CAP_LED | P.CAP_HW_COUNTER | P.CAP_INJECT
        self._beam = Pin(PINS["beam_upper"], Pin.IN, Pin.PULL_UP)
        self._beam_lower = Pin(PINS["beam_lower"], Pin.IN, Pin.PULL_UP)
        # The hardware counter never misses a block, even when the soft interrupts below do.
        self._counter = machine.Counter(0, self._beam, edge=machine.Counter.FALLING,
                                        filter_ns=10000)
        self._edge_t = array.array("i", [0] * _RING)
        self._edge_v = bytearray(_RING)
        self._edge_w = 0  # written by the interrupt handler only
        self._edge_r = 0
        self.edges_lost = 0
        self._repl_timer = None
        self._colour_led = Pin(PINS["colour_led"], Pin.OUT, value=1)
        self._sensor = None
        self._raw = [0, 0, 0, 0]
        self._last_read = time.ticks_us()
        try:
            i2c = I2C(0, sda=Pin(PINS["i2c_sda"]), scl=Pin(PINS["i2c_scl"]), freq=I2C_FREQ)
            self._sensor = TCS34725(i2c, steps=1, gain=16)
            caps |= P.CAP_COLOUR | P.CAP_CALIBRATION
        except OSError:
            self._sensor = None  # reported through the capabilities: cubes come as `unknown`
        self.caps = caps
        self._strip = None
        self._inject = Pin(PINS["inject"], Pin.OUT, value=1)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._stdin = sys.stdin.buffer
        self._stdout = sys.stdout.buffer
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
    def serial_read(self):
        out = b""
        while len(out) < 256 and self._poll.poll(0):
            out += self._stdin.read(1)
        return out

    def serial_write(self, data):
        self._stdout.write(data)

    # ---- beam ---------------------------------------------------------------------------------
    def _on_edge(self, pin):
        # Interrupt handler: no allocation, only stores into the preallocated ring. A soft
        # interrupt can be dropped in a burst; the PCNT count is what the detector trusts.
        w = self._edge_w
        self._edge_t[w & (_RING - 1)] = time.ticks_us()
        self._edge_v[w & (_RING - 1)] = 0 if pin.value() else 1
        self._edge_w = w + 1

    def poll(self):
        pass

    def take_edges(self):
        out = []
        w = self._edge_w
        r = self._edge_r
        if w - r > _RING:
            self.edges_lost += w - r - _RING
            r = w - _RING
        while r != w:
            i = r & (_RING - 1)
            out.append((self._edge_t[i], self._edge_v[i] == 1))
            r += 1
        self._edge_r = r
        return out

    def beam_count(self):
        return self._counter.value()

    # ---- colour sensor ------------------------------------------------------------------------
    def read_colour(self):
        sensor = self._sensor
        if sensor is None or not sensor.ready():
            return None
        now = time.ticks_us()
        t0 = time.ticks_add(now, -STEP_US)
        raw = sensor.read_raw(self._raw)
        self._last_read = now
        return [t0, now, raw[0], raw[1], raw[2], raw[3]]

    # ---- LED strip ----------------------------------------------------------------------------
    def strip_init(self, n):
        self._strip = neopixel.NeoPixel(Pin(PINS["led_strip"]), n)

    def strip_write(self, frame):
        buf = self._strip.buf
        # WS2812B wants G, R, B.
        for i in range(0, len(frame), 3):
            buf[i] = frame[i + 1]
            buf[i + 1] = frame[i]
            buf[i + 2] = frame[i + 2]
        self._strip.write()

    # ---- flash --------------------------------------------------------------------------------
    def flash_read(self, name):
        try:
            with open(name) as f:
                return f.read()
        except OSError:
            return None

    def flash_write_atomic(self, name, text):
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
        self._edge_r = self._edge_w
        self._beam.irq(self._on_edge, Pin.IRQ_FALLING | Pin.IRQ_RISING)

    def release(self):
        # Back to the REPL: stop interrupts. The watchdog cannot be stopped once started, so a
        # hardware timer keeps feeding it while a person or mpremote uses the REPL.
        self._beam.irq(None)
        wdt = self._wdt
        self._repl_timer = machine.Timer(0)
        self._repl_timer.init(period=1000, callback=lambda t: wdt.feed())
        if self._sensor is not None:
            self._sensor.sleep()

    def fatal(self, exc):
        msg = "%s: %s" % (type(exc).__name__, exc)
        try:
            self.serial_write(P.encode_frame(P.ERROR, 0xFFFF, P.pack_text(P.E_EXCEPTION, msg)))
            with open("last_error.txt", "w") as f:
                sys.print_exception(exc, f)
        finally:
            machine.reset()
