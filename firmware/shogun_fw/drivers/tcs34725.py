# TCS34725 RGB + clear light sensor (ams), as in micropython-lib drivers: the I2C bus is passed in.
# One 8-byte burst from register 0x14 reads C, R, G, B; an integration step is 2.4 ms and a
# channel saturates at 1024 counts per step (and never above 65535).
from micropython import const

ADDRESS = const(0x29)
_CMD = const(0x80)
_AUTO_INC = const(0x20)
_ENABLE = const(0x00)
_ATIME = const(0x01)
_CONTROL = const(0x0F)
_ID = const(0x12)
_STATUS = const(0x13)
_CDATAL = const(0x14)
_PON = const(0x01)
_AEN = const(0x02)
_AVALID = const(0x01)
STEP_US = const(2400)
GAINS = (1, 4, 16, 60)


class TCS34725:
    def __init__(self, i2c, address=ADDRESS, steps=1, gain=16):
        self.i2c = i2c
        self.address = address
        self._buf = bytearray(8)
        self._one = bytearray(1)
        ident = self._read(_ID)
        if ident not in (0x44, 0x4D, 0x10):
            raise OSError("TCS34725 not found at 0x%02x (id 0x%02x)" % (address, ident))
        self.integration(steps)
        self.set_gain(gain)
        self._write(_ENABLE, _PON)
        self._write(_ENABLE, _PON | _AEN)

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
        self.saturation = min(65535, 1024 * steps)
        self._write(_ATIME, 256 - steps)

    def set_gain(self, gain):
        self.gain = gain
        self._write(_CONTROL, GAINS.index(gain))

    def ready(self):
        return bool(self._read(_STATUS) & _AVALID)

    def read_raw(self, out):
        """Fill ``out`` (a list of 4) with R, G, B, C from one burst read; no allocation."""
        b = self._buf
        self.i2c.readfrom_mem_into(self.address, _CMD | _AUTO_INC | _CDATAL, b)
        out[3] = b[0] | b[1] << 8  # clear
        out[0] = b[2] | b[3] << 8
        out[1] = b[4] | b[5] << 8
        out[2] = b[6] | b[7] << 8
        return out

    def saturated(self, raw):
        return max(raw) >= self.saturation

    def sleep(self):
        self._write(_ENABLE, 0)
