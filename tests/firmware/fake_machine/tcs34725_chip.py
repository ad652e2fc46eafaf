# A fake TCS34725 on the fake I2C bus (tests only), after the ams datasheet: every transaction
# starts with a command byte (bit 7 set; bits 6:5 00 repeated byte, 01 auto-increment,
# 11 special function; bits 4:0 the register). RGBC integrations of (256 - ATIME) x 2.4 ms run
# back to back while ENABLE has PON and AEN; with AIEN and persistence 0 each one sets AINT in
# STATUS until the special function 0x66 (command byte 0xE6) clears it. Reading CDATAL latches
# the other data bytes, so a burst from 0x14 gives one consistent C, R, G, B. The chip keeps
# its own clock: a step of ``period_us`` (its oscillator: 2.27-2.56 ms, datasheet; 2.4 ms unless
# a test says) and the first integration ending ``init_us`` late; ``end_before(t)`` is the end
# of the last integration by ``t``, what the board must learn to stamp its samples with.
import time

ENABLE = 0x00
ATIME = 0x01
PERS = 0x0C
CONTROL = 0x0F
ID = 0x12
STATUS = 0x13
CDATAL = 0x14


def _log(lst, item):
    # The last 32 transactions only: the app polls the sensor every ms.
    if len(lst) >= 32:
        del lst[0]
    lst.append(item)


class TCS34725Chip:
    def __init__(self, ident=0x44, rgbc=(100, 200, 300, 700), light=None):
        self.regs = bytearray(0x20)
        self.regs[ID] = ident
        self.rgbc = list(rgbc)   # R, G, B, C the next integrations measure
        self.light = light       # or a function giving them (e.g. from the LED's pin)
        self.fail = False        # True: the chip stops answering (OSError, as a bus error)
        self.reads = []          # (command byte, length)
        self.writes = []         # (register, value)
        self.commands = []       # special-function / pointer bytes
        self.pon_us = None
        self.aen_us = None
        self.aen_after_pon_us = None  # how long after PON the first integration started
        self.period_us = 2400    # its oscillator's step
        self.init_us = 0         # ... and the first integration's delay after AEN
        self.last_latch = None   # when the last burst latched its data
        self._cleared = 0        # integrations done when AINT was last cleared
        self._latched = bytearray(8)

    def _check(self, cmd):
        if self.fail:
            raise OSError(116)  # ETIMEDOUT
        if not cmd & 0x80:
            raise AssertionError("TCS34725: command byte 0x%02x without the command bit" % cmd)  # noqa: UP031
        return (cmd >> 5) & 3, cmd & 0x1F

    def step_us(self):
        return (256 - self.regs[ATIME]) * self.period_us

    def integrations(self, t=None):
        en = self.regs[ENABLE]
        if self.aen_us is None or en & 0x03 != 0x03:
            return 0
        since = time.ticks_diff(time.ticks_us() if t is None else t, self.aen_us) - self.init_us
        return since // self.step_us() if since > 0 else 0

    def end_before(self, t):
        """The end (ticks) of the last integration by ``t``; None before the first."""
        done = self.integrations(t)
        if not done:
            return None
        return time.ticks_add(self.aen_us, self.init_us + done * self.step_us())

    def _status(self):
        done = self.integrations()
        s = 0x01 if done else 0  # AVALID: stays set once an integration completed
        if self.regs[ENABLE] & 0x10 and self.regs[PERS] & 0x0F == 0 and done > self._cleared:
            s |= 0x10            # AINT
        return s

    def _reg(self, reg):
        if reg == STATUS:
            return self._status()
        if CDATAL <= reg < CDATAL + 8:
            if reg == CDATAL:
                r, g, b, c = self.light() if self.light else self.rgbc
                sat = min(65535, 1024 * (256 - self.regs[ATIME]))
                k = 0
                for v in (c, r, g, b):
                    v = min(v, sat)
                    self._latched[k] = v & 0xFF
                    self._latched[k + 1] = v >> 8
                    k += 2
            return self._latched[reg - CDATAL]
        return self.regs[reg]

    def read(self, cmd, buf):
        typ, reg = self._check(cmd)
        if reg == CDATAL:
            self.last_latch = time.ticks_us()  # (the data the burst gives: latched now)
        _log(self.reads, (cmd, len(buf)))
        for i in range(len(buf)):
            buf[i] = self._reg(reg)
            if typ == 1:
                reg += 1

    def write(self, cmd, data):
        typ, reg = self._check(cmd)
        for v in data:
            _log(self.writes, (reg, v))
            if reg == ENABLE:
                now = time.ticks_us()
                if v & 0x01 and not self.regs[ENABLE] & 0x01:
                    self.pon_us = now
                if v & 0x02 and not self.regs[ENABLE] & 0x02:
                    self.aen_us = now
                    self._cleared = 0
                    if self.pon_us is not None:
                        self.aen_after_pon_us = time.ticks_diff(now, self.pon_us)
                if not v & 0x01:
                    self.pon_us = None
            self.regs[reg] = v
            if typ == 1:
                reg += 1

    def command(self, data):
        typ, reg = self._check(data[0])
        _log(self.commands, data[0])
        if typ == 3 and reg == 0x06:
            self._cleared = self.integrations()  # RGBC interrupt clear
        elif len(data) > 1:
            self.write(data[0], data[1:])
