# Fake `machine` module for running boards/esp32.py on the MicroPython unix port (tests only).
# GPIO levels are shared per pin number (two Pin objects for one GPIO see the same line); a test
# drives a line with `drive(gpio, level)` (what the IR receiver does), jumpers an open-drain
# output to an input with `wire(out, in)`, and gets the registered IRQ handler with
# `irq_handler(gpio)` to call it itself (e.g. inside micropython.heap_lock()).
# Constants have the ESP32 port's values.
import esp32

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5

_external = {}   # gpio -> level driven from outside (receiver, pull-up)
_outputs = {}    # gpio -> level this chip drives (open drain: 1 = released)
_modes = {}
_wires = {}      # output gpio -> input gpio it is jumpered to
_irqs = {}       # gpio -> (handler, trigger, Pin)
_level = {}      # gpio -> the line's current level
_reset_cause = PWRON_RESET


class ResetCalled(Exception):
    pass


def reset():
    raise ResetCalled()


hard_irqs = set()  # pins whose handler was registered with hard=True
_freq = [160000000]  # the stock ESP32_GENERIC firmware's clock at boot


def freq(hz=None):
    if hz is None:
        return _freq[0]
    if hz not in (80000000, 160000000, 240000000):
        raise ValueError("frequency must be 80MHz, 160MHz or 240MHz")
    _freq[0] = hz
    return None


def reset_cause():
    return _reset_cause


def set_reset_cause(cause):
    global _reset_cause
    _reset_cause = cause


def reset_state():
    """Forget every pin, IRQ, counter, device, watchdog, timer and UART (a fresh board)."""
    UART.live.clear()
    global _reset_cause
    for d in (_external, _outputs, _modes, _wires, _irqs, _level, i2c_devices,
              Counter._instances, esp32._units):
        d.clear()
    WDT.last = None
    Timer.live.clear()
    _reset_cause = PWRON_RESET
    _freq[0] = 160000000
    hard_irqs.clear()


def set_level_quietly(gpio, level):
    """Change what the line reads without running any IRQ (the test runs the handler)."""
    _level[gpio] = level


def drive(gpio, level):
    """The outside world (the beam receiver) pulls the line to ``level``."""
    _external[gpio] = level
    _update(gpio)


def wire(out_gpio, in_gpio):
    _wires[out_gpio] = in_gpio


def irq_handler(gpio):
    h = _irqs.get(gpio)
    return h[0] if h else None


def level(gpio):
    return _level.get(gpio, 1)


def _compute(gpio):
    v = _external.get(gpio, 1)
    if gpio in _outputs:
        mode = _modes.get(gpio)
        if mode == Pin.OUT:
            return _outputs[gpio]
        v &= _outputs[gpio]  # open drain: only pulls low
    for out, target in _wires.items():
        if target == gpio and out in _outputs:
            v &= _outputs[out]
    return v


def _update(gpio):
    old = _level.get(gpio, 1)
    new = _compute(gpio)
    _level[gpio] = new
    if new != old:
        for unit in esp32.units_on(gpio):
            unit._edge(new == 1)
        h = _irqs.get(gpio)
        if h and h[1] & (Pin.IRQ_RISING if new else Pin.IRQ_FALLING):
            h[0](h[2])  # as a soft IRQ, run at once
    target = _wires.get(gpio)
    if target is not None:
        _update(target)


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_RISING = 1
    IRQ_FALLING = 2

    def __init__(self, id, mode=-1, pull=-1, *, value=None):
        self.id = id
        self.init(mode, pull, value=value)

    def init(self, mode=-1, pull=-1, *, value=None):
        if mode != -1:
            _modes[self.id] = mode
        if pull == Pin.PULL_UP:
            _external.setdefault(self.id, 1)
        if value is not None:
            _outputs[self.id] = 1 if value else 0
        elif mode in (Pin.OUT, Pin.OPEN_DRAIN):
            _outputs.setdefault(self.id, 0 if mode == Pin.OUT else 1)
        _update(self.id)

    def mode(self):
        return _modes.get(self.id)

    def value(self, v=None):
        if v is None:
            return _level.get(self.id, 1)
        if _modes.get(self.id) not in (Pin.OUT, Pin.OPEN_DRAIN):
            raise ValueError("pin %d is not an output" % self.id)  # noqa: UP031
        _outputs[self.id] = 1 if v else 0
        _update(self.id)
        return None

    __call__ = value

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)

    def irq(self, handler=None, trigger=3, hard=False):
        if handler is None:
            _irqs.pop(self.id, None)
            hard_irqs.discard(self.id)
        else:
            _irqs[self.id] = (handler, trigger, self)
            if hard:
                hard_irqs.add(self.id)
            else:
                hard_irqs.discard(self.id)


class Counter:
    """machine.Counter as the ESP32 port builds it on esp32.PCNT: the 16-bit hardware count
    (kept within +-32000, reset to 0 at a limit) extended in software by counting overflows."""
    RISING = 1
    FALLING = 2
    UP = esp32.INCREMENT
    DOWN = esp32.DECREMENT
    _RANGE = 32000
    _instances = {}

    def __new__(cls, unit_id, *args, **kw):
        self = cls._instances.get(unit_id)
        if self is None:
            self = object.__new__(cls)
            cls._instances[unit_id] = self
        return self

    def __init__(self, unit_id, src=None, *, edge=RISING, direction=UP, filter_ns=0):
        self.unit_id = unit_id
        self.filter_ns = filter_ns
        self.edge = edge
        self._pcnt = esp32.PCNT(unit_id, min=-self._RANGE, max=self._RANGE)
        ign = esp32.IGNORE
        self._pcnt.init(channel=0, pin=src,
                        rising=direction if edge & Counter.RISING else ign,
                        falling=direction if edge & Counter.FALLING else ign)
        self._pcnt.init(filter=min(max(0, filter_ns * 80 // 1000), 1023), value=0)
        self._overflows = 0
        self._pcnt.irq(self._overflow, esp32.PCNT.IRQ_MIN | esp32.PCNT.IRQ_MAX)
        self._pcnt.start()

    def _overflow(self, pcnt):
        if pcnt.flags() & esp32.PCNT.IRQ_MAX:
            self._overflows += 1
        else:
            self._overflows -= 1

    def value(self, value=None):
        v = self._overflows * self._RANGE + self._pcnt.value()
        if value is not None:
            self._overflows = 0
            self._pcnt.value(value)
        return v


class I2C:
    """Hardware I2C bus 0/1; the devices on it are what the test puts in `i2c_devices`
    (address -> object with read(reg_byte, buf), write(reg_byte, data), command(data)).
    An address nobody answers raises OSError(ENODEV) as the ESP32 port does."""
    def __init__(self, id, *, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.scl = scl
        self.sda = sda
        self.freq = freq

    def _dev(self, addr):
        dev = i2c_devices.get(addr)
        if dev is None:
            raise OSError(19)  # ENODEV
        return dev

    def scan(self):
        return sorted(i2c_devices)

    def readfrom_mem_into(self, addr, memaddr, buf, *, addrsize=8):
        self._dev(addr).read(memaddr, buf)

    def readfrom_mem(self, addr, memaddr, n, *, addrsize=8):
        buf = bytearray(n)
        self.readfrom_mem_into(addr, memaddr, buf)
        return buf

    def writeto_mem(self, addr, memaddr, buf, *, addrsize=8):
        self._dev(addr).write(memaddr, bytes(buf))

    def writeto(self, addr, buf, stop=True):
        self._dev(addr).command(bytes(buf))
        return len(buf)


i2c_devices = {}


class UART:
    """The ESP32 port's UART as the strip driver uses it: what was written, each write's
    time, and txdone() once that many frames (start, data bits, stop) can have gone out at the
    baud rate, on the fake time's ESP32 ticks. ``stall_us``: an interrupt that ran late."""
    INV_TX = 1
    INV_RX = 2
    live = []

    def __init__(self, id, *, baudrate=115200, bits=8, parity=None, stop=1, tx=None, rx=None,
                 invert=0, txbuf=256):
        self.id = id
        self.baudrate = baudrate
        self.bits = bits
        self.parity = parity
        self.stop = stop
        self.tx = tx
        self.rx = rx
        self.invert = invert
        self.txbuf = txbuf
        self.written = []
        self.stall_us = 0
        self._end = None
        UART.live.append(self)

    def _frame_us(self, n):
        return n * (1 + self.bits + self.stop) * 1000000 // self.baudrate

    def write(self, buf):
        import time

        assert len(buf) <= self.txbuf, "a write larger than the TX buffer blocks"
        assert self.txdone(), "the ring buffer would queue this behind the last frame"
        self.written.append(bytes(buf))
        self._end = time.ticks_add(time.ticks_us(), self._frame_us(len(buf)) + self.stall_us)
        return len(buf)

    def txdone(self):
        import time

        return self._end is None or time.ticks_diff(time.ticks_us(), self._end) >= 0


class WDT:
    last = None

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        WDT.last = self

    def feed(self):
        self.feeds += 1


class Timer:
    PERIODIC = 1
    ONE_SHOT = 0
    live = []

    def __init__(self, id):
        self.id = id
        self.callback = None
        self.period = None

    def init(self, mode=PERIODIC, period=-1, callback=None, freq=-1):
        # (as the port: init again replaces the running timer's period and callback)
        self.mode = mode
        self.period = period
        self.freq = freq
        self.callback = callback
        if self not in Timer.live:
            Timer.live.append(self)

    def deinit(self):
        self.callback = None
        if self in Timer.live:
            Timer.live.remove(self)

    def fire(self):
        self.callback(self)
