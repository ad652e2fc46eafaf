# TCS34725 RGB + clear light sensor (ams), as in micropython-lib drivers: the I2C bus is passed in.
# One 8-byte burst from register 0x14 reads C, R, G, B; an integration step is 2.4 ms and a
# channel saturates at 1024 counts per step (and never above 65535).
#
# Fresh samples: the status register's AVALID bit stays set once the first integration is done,
# so it cannot tell a new sample from one already read. The driver enables the RGBC interrupt
# with persistence 0 ("every cycle"): AINT is set at the end of every integration, and the driver
# clears it after each read. (The INT pin need not be wired.) Nothing is allocated per read.
import time

from micropython import const

ADDRESS = const(0x29)
_CMD = const(0x80)
_AUTO_INC = const(0x20)
_ENABLE = const(0x00)
_ATIME = const(0x01)
_PERS = const(0x0C)
_CONTROL = const(0x0F)
_CLEAR_INT = const(0xE6)  # special function: clear the RGBC interrupt
_ID = const(0x12)
_STATUS = const(0x13)
_CDATAL = const(0x14)
DATA_BURST = const(0xB4)  # _CMD | _AUTO_INC | _CDATAL: C, R, G, B in one 8-byte burst (the
#                           board's sampling callback reads it on the bus itself)
_PON = const(0x01)
_AEN = const(0x02)
_AIEN = const(0x10)
_AVALID = const(0x01)
_AINT = const(0x10)
STEP_US = const(2400)
_POWER_ON_US = const(2600)
GAINS = (1, 4, 16, 60)


class TCS34725:
    def __init__(self, i2c, address=ADDRESS, steps=1, gain=16):
        self.i2c = i2c
        self.address = address
        self._buf = bytearray(8)
        self._one = bytearray(1)
        self._clear = bytes((_CLEAR_INT,))
        ident = self._read(_ID)
        if ident not in (0x44, 0x4D, 0x10):
            raise OSError("TCS34725 not found at 0x%02x (id 0x%02x)" % (address, ident))
        self.integration(steps)
        self.set_gain(gain)
        self._write(_PERS, 0)
        self._write(_ENABLE, _PON)
        # Datasheet (ENABLE register): at least 2.4 ms must pass after PON before an RGBC
        # cycle starts (AEN); without the wait the first integrations can be bad. Timed by the
        # tick counter because sleep_ms may return early by most of a millisecond on some ports.
        powered = time.ticks_us()
        while time.ticks_diff(time.ticks_us(), powered) < _POWER_ON_US:
            time.sleep_ms(1)
        self._write(_ENABLE, _PON | _AEN | _AIEN)

    def _write(self, reg, value):
        self._one[0] = value
        self.i2c.writeto_mem(self.address, _CMD | reg, self._one)

    def _read(self, reg):
        self.i2c.readfrom_mem_into(self.address, _CMD | reg, self._one)
        return self._one[0]

    def integration(self, steps):
        """Integration time in 2.4 ms steps (1-256)."""
        if not 1 <= steps <= 256:
            raise ValueError("integration steps must be 1-256")
        self.steps = steps
        self.step_us = 2400 * steps
        # The highest count a channel reaches: any channel there is clipped.
        self.saturation = min(65535, 1024 * steps) - 1
        self._write(_ATIME, 256 - steps)

    def set_gain(self, gain):
        """Analogue gain: 1, 4, 16 or 60."""
        if gain not in GAINS:
            raise ValueError("gain must be 1, 4, 16 or 60")
        self.gain = gain
        self._write(_CONTROL, GAINS.index(gain))

    def ready(self):
        """True when an integration ended since the last read_raw."""
        return bool(self._read(_STATUS) & _AINT)

    def clear(self):
        """Clear AINT: ready() is then False until the next integration ends."""
        self.i2c.writeto(self.address, self._clear)

    def read_raw(self, out):
        """Fill ``out`` (a list of 4) with R, G, B, C from one burst read; no allocation."""
        b = self._buf
        self.i2c.readfrom_mem_into(self.address, _CMD | _AUTO_INC | _CDATAL, b)
        self.i2c.writeto(self.address, self._clear)
        out[3] = b[0] | b[1] << 8  # clear
        out[0] = b[2] | b[3] << 8
        out[1] = b[4] | b[5] << 8
        out[2] = b[6] | b[7] << 8
        return out

    def read_into(self, buf):
        """The latest integration's 8 data bytes (C, R, G, B, little-endian) into ``buf``: one
        burst and nothing else, for a reader timed by the integration period (no status read,
        no interrupt cleared). No allocation."""
        self.i2c.readfrom_mem_into(self.address, DATA_BURST, buf)

    def saturated(self, raw):
        return max(raw) >= self.saturation

    def read_average(self, out, n, wait_ms):
        """Average of n fresh readings into ``out`` (R, G, B, C): dark (LED off) or ambient
        (LED on, nothing in front) readings at start-up. Blocks about n integrations."""
        acc = [0, 0, 0, 0]
        raw = [0, 0, 0, 0]
        got = 0
        tries = 0
        while got < n and tries < 20 * n:
            tries += 1
            if self.ready():
                self.read_raw(raw)
                for i in range(4):
                    acc[i] += raw[i]
                got += 1
            else:
                wait_ms(1)
        for i in range(4):
            out[i] = acc[i] // got if got else 0
        return got

    def sleep(self):
        self._write(_ENABLE, 0)
