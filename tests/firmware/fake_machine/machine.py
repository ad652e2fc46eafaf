# Fake `machine` for running boards/esp32.py on the MicroPython unix port (tests only): the
# ESP32 port of the release in _port.RELEASE, as its source says it is (_port.py, the contract
# in firmware/port/). Every constructor and method takes the port's arguments and refuses the
# way the port does (same exception, same text); pins, ids and ranges are the port's; constants
# have its values. Pin and timer interrupts are soft: queued, run at the next scheduling point
# (_port.py). What the port accepts but a WROOM-32 module does not survive (a flash pin taken)
# raises ChipPanic, which no `except Exception` catches.
#
# GPIO levels are shared per pin number (two Pin objects for one GPIO are one object, as on the
# port); a test drives a line with `drive(gpio, level)` (what the IR receiver does), jumpers an
# open-drain output to an input with `wire(out, in)`, lets queued handlers run with
# `run_pending()`, and gets a registered handler with `irq_handler(gpio)` to call it itself
# (e.g. inside micropython.heap_lock()).
import _port
import esp32
from _port import ABSENT

_R = _port.MACHINE["reset_cause"]
PWRON_RESET = _R["PWRON_RESET"]
HARD_RESET = _R["HARD_RESET"]
WDT_RESET = _R["WDT_RESET"]
DEEPSLEEP_RESET = _R["DEEPSLEEP_RESET"]
SOFT_RESET = _R["SOFT_RESET"]

_external = {}   # gpio -> level driven from outside (receiver, pull-up)
_outputs = {}    # gpio -> level this chip drives (open drain: 1 = released)
_modes = {}
_pulls = {}
_wires = {}      # output gpio -> input gpio it is jumpered to
_irqs = {}       # gpio -> (handler, trigger, Pin)
_level = {}      # gpio -> the line's current level
_reset_cause = PWRON_RESET
_STOCK_HZ = 160000000  # the stock ESP32_GENERIC firmware's clock at boot
_freq = [_STOCK_HZ]


class ResetCalled(Exception):
    pass


class ChipPanic(BaseException):  # noqa: N818 - what the board does: a Guru Meditation, a reset
    """What the port accepts and the chip does not survive (a pin wired to the module's SPI
    flash taken for something else): on a board, a crash and a reset."""


def reset(*args, **kw):
    _port.check_num(len(args), len(kw), *_port.MACHINE["functions"]["reset"], False)
    raise ResetCalled()


def reset_cause(*args, **kw):
    _port.check_num(len(args), len(kw), *_port.MACHINE["functions"]["reset_cause"], False)
    return _reset_cause


def freq(*args, **kw):
    _port.check_num(len(args), len(kw), *_port.MACHINE["functions"]["freq"], False)
    if not args:
        return _freq[0]
    rule = _port.MACHINE["freq"]
    mhz = _port.get_int(args[0]) // rule["divisor"]
    if mhz not in rule["mhz"]:
        raise ValueError(rule["message"])
    _freq[0] = mhz * rule["divisor"]
    return None


def idle():
    pass


def unique_id():
    return b"\x24\x0a\xc4\x00\x00\x01"


def set_reset_cause(cause):
    global _reset_cause
    _reset_cause = cause


def reset_state():
    """Forget every pin, IRQ, counter, device, watchdog, timer and UART (a fresh board)."""
    global _reset_cause
    for d in (_external, _outputs, _modes, _pulls, _wires, _irqs, _level, i2c_devices,
              Counter._instances, UART._by_id, Timer._by_id, PWM._on):
        d.clear()
    UART.live.clear()
    Timer.live.clear()
    WDT.last = None
    esp32.reset_state()
    _port.reset()
    _reset_cause = PWRON_RESET
    _freq[0] = _STOCK_HZ


run_pending = _port.run_pending


def waiting():
    """Handlers queued, not run yet."""
    return _port.waiting()


def dropped():
    """Handler calls a full queue dropped (the port drops them silently)."""
    return _port.dropped


def set_level_quietly(gpio, level):
    """Change what the line reads without running any IRQ (the test runs the handler)."""
    _level[gpio] = level


def drive(gpio, level):
    """The outside world (the beam receiver) pulls the line to ``level``."""
    _port.busy += 1
    try:
        _external[gpio] = level
        _update(gpio)
    finally:
        _port.busy -= 1


def edges(gpio, levels):
    """Several edges at once (a burst): the line goes through ``levels`` in turn, no scheduling
    point between them (a test's own loop would be one)."""
    _port.busy += 1
    try:
        for level in levels:
            drive(gpio, level)
    finally:
        _port.busy -= 1


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
        if mode == Pin.OPEN_DRAIN:
            v &= _outputs[gpio]  # open drain: only pulls low
    for out, target in _wires.items():
        if target == gpio and out in _outputs and _modes.get(out) in (Pin.OUT, Pin.OPEN_DRAIN):
            v &= _outputs[out]
    return v


def _update(gpio):
    old = _level.get(gpio, 1)
    new = _compute(gpio)
    _level[gpio] = new
    if new != old:
        esp32.edge(gpio, new)  # the pulse counters count in hardware, at once
        h = _irqs.get(gpio)
        if h and h[1] & (Pin.IRQ_RISING if new else Pin.IRQ_FALLING):
            # machine_pin_isr_handler: the handler is queued, never called from here
            _port.schedule(h[0], h[2])
    target = _wires.get(gpio)
    if target is not None:
        _update(target)


# ---- Pin --------------------------------------------------------------------------------------
_PIN = _port.rules("Pin")
_PIN_INIT = _port.table("Pin", "init")
_PIN_IRQ = _port.table("Pin", "irq")
_PIN_NEW = _port.CLASSES["Pin"]["new"]
_PIN_CALL = _port.CLASSES["Pin"]["call"]


def _panic_if_flash(gpio, what):
    if gpio in _PIN["flash"]:
        raise ChipPanic("GPIO %d is wired to the module's SPI flash: %s takes it from the flash "  # noqa: UP031
                        "and the chip stops" % (gpio, what))


class _PinIRQ:
    """What Pin.irq() returns: calling it runs the ISR (the handler is queued)."""

    def __init__(self, pin):
        self._pin = pin

    def __call__(self):
        h = _irqs.get(self._pin.id)
        if h:
            _port.schedule(h[0], self._pin)

    def trigger(self, *args):
        h = _irqs.get(self._pin.id)
        old = h[1] if h else 0
        if args and h:
            _irqs[self._pin.id] = (h[0], _port.get_int(args[0]), h[2])
        return old


class Pin:
    _c = _port.constants("Pin")
    IN = _c["IN"]
    OUT = _c["OUT"]
    OPEN_DRAIN = _c["OPEN_DRAIN"]
    PULL_UP = _c["PULL_UP"]
    PULL_DOWN = _c["PULL_DOWN"]
    IRQ_RISING = _c["IRQ_RISING"]
    IRQ_FALLING = _c["IRQ_FALLING"]
    WAKE_LOW = _c["WAKE_LOW"]
    WAKE_HIGH = _c["WAKE_HIGH"]
    DRIVE_0 = _c["DRIVE_0"]
    DRIVE_1 = _c["DRIVE_1"]
    DRIVE_2 = _c["DRIVE_2"]
    DRIVE_3 = _c["DRIVE_3"]
    del _c
    _table = {}  # gpio -> its one Pin object (machine_pin_obj_table)

    def __new__(cls, *args, **kw):
        _port.check_num(len(args), len(kw), _PIN_NEW["n_args"][0], _PIN_NEW["n_args"][1],
                        _PIN_NEW["kw"])
        self = _find(args[0])
        if len(args) > 1 or kw:
            self._init(args[1:], kw)
        return self

    def __init__(self, *args, **kw):
        pass  # (__new__ did it: the port's Pin has no state of its own but the GPIO's)

    def __repr__(self):
        return "Pin(%d)" % self.id  # noqa: UP031

    def init(self, *args, **kw):
        self._init(args, kw)

    def _init(self, args, kw):
        _port.busy += 1
        try:
            mode, pull, value, drive, hold = _port.parse(_PIN_INIT, args, kw)
            gpio = self.id
            if mode is not None:
                mode = _port.get_int(mode)
                if gpio >= _PIN["input_only_from"] and mode & _PIN["output_mode_bit"]:
                    raise ValueError(_PIN["input_only_message"])
                _panic_if_flash(gpio, "Pin(%d, mode)" % gpio)  # noqa: UP031
            if value is not ABSENT:
                _outputs[gpio] = 1 if value else 0
            if mode is not None:
                _modes[gpio] = mode
                if mode & _PIN["output_mode_bit"]:
                    _outputs.setdefault(gpio, 0)
            if pull != -1:
                _pulls[gpio] = 0 if pull is None else _port.get_int(pull)
            _update(gpio)
        finally:
            _port.busy -= 1

    def mode(self):  # (for the tests: not the port's API)
        return _modes.get(self.id)

    def value(self, *args):
        if len(args) > 1:
            _port.method_args("Pin", "value", 1 + len(args))
        _port.busy += 1
        try:
            if not args:
                return _level.get(self.id, 1)
            # gpio_set_level: the output register, whatever the mode (an input ignores it)
            _outputs[self.id] = 1 if args[0] else 0
            _update(self.id)
            return None
        finally:
            _port.busy -= 1

    def __call__(self, *args):
        if len(args) > 1:
            _port.check_num(len(args), 0, _PIN_CALL["n_args"][0], _PIN_CALL["n_args"][1], False)
        return self.value(*args)

    def on(self, *args):
        _port.method_args("Pin", "on", 1 + len(args))
        self.value(1)

    def off(self, *args):
        _port.method_args("Pin", "off", 1 + len(args))
        self.value(0)

    def toggle(self, *args):
        _port.method_args("Pin", "toggle", 1 + len(args))
        self.value(1 - _outputs.get(self.id, 0))

    def irq(self, *args, **kw):
        handler, trigger, wake = _port.parse(_PIN_IRQ, args, kw)
        if args or kw:
            gpio = self.id
            if trigger in (Pin.WAKE_LOW, Pin.WAKE_HIGH) and wake is not None:
                if not isinstance(wake, int) or not \
                        _PIN["wake"][0] <= wake <= _PIN["wake"][1]:
                    raise ValueError(_PIN["wake_message"])
                return _PinIRQ(self)  # (sleep wake-up: not modelled)
            if handler is None:
                _irqs.pop(gpio, None)
            else:
                _irqs[gpio] = (handler, trigger, self)
        return _PinIRQ(self)


def _find(pin):
    """machine_pin_find: a Pin, or a GPIO number of the ESP32's table; else ValueError."""
    if isinstance(pin, Pin):
        return pin
    if isinstance(pin, int) and pin in _PIN["valid"]:
        p = Pin._table.get(pin)
        if p is None:
            p = object.__new__(Pin)
            p.id = pin
            Pin._table[pin] = p
        return p
    raise ValueError(_PIN["invalid_message"])


def pin_id(pin):
    """machine_pin_get_id: the GPIO number of a Pin or a number (the buses' pins)."""
    return _find(pin).id


# ---- Counter (Python in the port: ports/esp32/modules/machine.py) -----------------------------
_COUNTER = _port.MACHINE["Counter"]


class Counter:
    """machine.Counter as the ESP32 port builds it on esp32.PCNT: the 16-bit hardware count
    (kept within +-range, back to 0 at either limit) extended in software by counting the
    limits' interrupts (soft, queued: value() runs one still waiting first, as the port's
    PCNT.value() does)."""
    RISING = _COUNTER["constants"]["RISING"]
    FALLING = _COUNTER["constants"]["FALLING"]
    UP = _COUNTER["constants"]["UP"]
    DOWN = _COUNTER["constants"]["DOWN"]
    _RANGE = _COUNTER["range"]
    _instances = {}

    def __new__(cls, *args, **kw):
        if not args:
            _port.bind_py(_COUNTER["init"], args, kw)  # (the port's own TypeError)
        unit_id = args[0]
        self = cls._instances.get(unit_id)
        if self is None:
            self = object.__new__(cls)
            cls._instances[unit_id] = self
        elif not isinstance(self, cls):
            raise ValueError(_COUNTER["in_use_message"])
        return self

    def __init__(self, *args, **kw):
        named, extra, rest = _port.bind_py(_COUNTER["init"], args, kw)
        self._unit_id = named["unit_id"]
        if not hasattr(self, "_pcnt"):
            self._pcnt = esp32.PCNT(self._unit_id, min=-self._RANGE, max=self._RANGE)
        elif not (extra or rest):
            return
        c, _e, _r = _port.bind_py(_COUNTER["configure"], extra, rest)
        ign = esp32.PCNT.IGNORE
        d = c["direction"]
        self._pcnt.init(channel=0, pin=c["src"],
                        rising=d if c["edge"] & Counter.RISING else ign,
                        falling=d if c["edge"] & Counter.FALLING else ign)
        f = _COUNTER["filter_ns"]
        self._pcnt.init(filter=min(max(0, named["filter_ns"] * f["mul"] // f["div"]), f["max"]),
                        value=0)
        self._overflows = 0
        self._offset = 0
        self._pcnt.irq(self._overflow, esp32.PCNT.IRQ_MIN | esp32.PCNT.IRQ_MAX)
        self._pcnt.start()

    def _overflow(self, pcnt):
        mask = pcnt.irq().flags()
        if mask & esp32.PCNT.IRQ_MIN:
            self._overflows -= 1
        elif mask & esp32.PCNT.IRQ_MAX:
            self._overflows += 1

    def init(self, *args, **kw):
        self.__init__(self._unit_id, *args, **kw)

    def deinit(self):
        if hasattr(self, "_pcnt"):
            self._pcnt.deinit()
            del self._pcnt

    def value(self, value=None):
        if not hasattr(self, "_pcnt"):
            raise RuntimeError("not initialised")
        while True:
            overflows = self._overflows
            current = self._pcnt.value()
            if self._overflows == overflows:
                break
        result = overflows * self._RANGE + current + self._offset
        if value is not None:
            self._overflows -= overflows
            self._offset = value - current
        return result


# ---- I2C ----------------------------------------------------------------------------------------
_I2C = _port.rules("I2C")
_I2C_NEW = _port.table("I2C")
_I2C_MEM = _port.table("I2C", "readfrom_mem_into")


class I2C:
    """Hardware I2C bus 0/1; the devices on it are what the test puts in `i2c_devices`
    (address -> object with read(reg_byte, buf), write(reg_byte, data), command(data)).
    An address nobody answers raises OSError(ENODEV) as the ESP32 port does."""

    def __init__(self, *args, **kw):
        if args and args[0] == -1:
            raise NotImplementedError("I2C(-1, ...): the port's SoftI2C, not modelled")
        ident, scl, sda, freq, timeout = _port.parse(_I2C_NEW, args, kw)
        if ident not in _I2C["ids"]:
            raise ValueError(_I2C["id_message"] % ident)
        _port.busy += 1
        try:
            pins = _I2C["default_pins"][str(ident)]
            self.id = ident
            self.scl = pins["scl"] if scl is ABSENT else pin_id(scl)
            self.sda = pins["sda"] if sda is ABSENT else pin_id(sda)
            for gpio in (self.scl, self.sda):
                _panic_if_flash(gpio, "I2C(%d)" % ident)  # noqa: UP031
            self.freq = 400000 if freq == -1 else freq
            self.timeout = 50000 if timeout == -1 else timeout
        finally:
            _port.busy -= 1

    def _dev(self, addr):
        dev = i2c_devices.get(addr)
        if dev is None:
            raise OSError(_I2C["no_device_errno"])
        return dev

    def _mem(self, args, kw):
        addr, memaddr, buf, addrsize = _port.parse(_I2C_MEM, args, kw)
        if addrsize & 7 or addrsize > _I2C["addrsize_max"]:
            raise ValueError(_I2C["addrsize_message"])
        return addr, memaddr, buf

    def scan(self):
        return sorted(i2c_devices)

    def readfrom_mem_into(self, *args, **kw):
        addr, memaddr, buf = self._mem(args, kw)
        _port.busy += 1
        try:
            self._dev(addr).read(memaddr, buf)
        finally:
            _port.busy -= 1

    def readfrom_mem(self, *args, **kw):
        addr, memaddr, n = self._mem(args, kw)
        buf = bytearray(_port.get_int(n))
        self.readfrom_mem_into(addr, memaddr, buf)
        return bytes(buf)

    def writeto_mem(self, *args, **kw):
        addr, memaddr, buf = self._mem(args, kw)
        _port.busy += 1
        try:
            self._dev(addr).write(memaddr, bytes(buf))
        finally:
            _port.busy -= 1

    def writeto(self, *args):
        _port.method_args("I2C", "writeto", 1 + len(args))
        addr, buf = args[0], args[1]
        _port.busy += 1
        try:
            self._dev(addr).command(bytes(buf))
            return len(buf)
        finally:
            _port.busy -= 1


i2c_devices = {}


# ---- UART ---------------------------------------------------------------------------------------
_UART = _port.rules("UART")
_UART_NEW = _port.CLASSES["UART"]["new"]
_UART_INIT = _port.table("UART", "init")
_BUF = _UART["buffers"]


class UART:
    """The ESP32 port's UART as the strip driver uses it: what was written, each write's
    time, and txdone() once that many frames (start, data bits, stop) can have gone out at the
    baud rate, on the fake time's ESP32 ticks. ``stall_us``: an interrupt that ran late."""
    _c = _port.constants("UART")
    INV_TX = _c["INV_TX"]
    INV_RX = _c["INV_RX"]
    INV_RTS = _c["INV_RTS"]
    INV_CTS = _c["INV_CTS"]
    RTS = _c["RTS"]
    CTS = _c["CTS"]
    IRQ_RX = _c["IRQ_RX"]
    IRQ_RXIDLE = _c["IRQ_RXIDLE"]
    IRQ_BREAK = _c["IRQ_BREAK"]
    del _c
    live = []
    _by_id = {}

    def __new__(cls, *args, **kw):
        _port.check_num(len(args), len(kw), _UART_NEW["n_args"][0], _UART_NEW["n_args"][1],
                        _UART_NEW["kw"])
        ident = _port.get_int(args[0])
        if ident not in _UART["ids"]:
            raise ValueError(_UART["id_message"] % ident)
        self = cls._by_id.get(ident)
        if self is None:
            self = object.__new__(cls)
            self.id = ident
            self.installed = False
        self._init(args[1:], kw)
        cls._by_id[ident] = self
        if self not in UART.live:
            UART.live.append(self)
        return self

    def __init__(self, *args, **kw):
        pass  # (__new__ did it)

    def init(self, *args, **kw):
        self._init(args, kw)

    def _init(self, args, kw):
        (baudrate, bits, parity, stop, tx, rx, rts, cts, txbuf, rxbuf, _timeout, _timeout_char,
         invert, flow) = _port.parse(_UART_INIT, args, kw)
        if not self.installed:
            pins = _UART["default_pins"].get(str(self.id))
            self.bits, self.parity, self.stop = 8, None, 1
            self.txbuf = _BUF["defaults"]["txbuf"]
            self.rxbuf = _BUF["defaults"]["rxbuf"]
            self.invert = 0
            self.flow = 0
            self.tx = pins["tx"] if isinstance(pins, dict) else None
            self.rx = pins["rx"] if isinstance(pins, dict) else None
            self.baudrate = 115200
            self.written = []
            self.stall_us = 0
            self._end = None
        if (txbuf >= 0 and txbuf != self.txbuf) or (rxbuf >= 0 and rxbuf != self.rxbuf):
            if self.id == _UART["repl_id"]:
                raise ValueError(_UART["repl_buffer_message"])
            if txbuf >= 0:
                self.txbuf = txbuf
            if rxbuf >= 0:
                self.rxbuf = rxbuf
            self.installed = False
        if not self.installed and self.id != _UART["repl_id"]:
            # ESP-IDF's uart_driver_install, through check_esp_err
            fifo = _BUF["fifo"]
            if not self.rxbuf > fifo or not (self.txbuf > fifo or self.txbuf == 0):
                raise OSError(_BUF["errno"], _BUF["name"])
            self.installed = True
        if baudrate > 0:
            self.baudrate = baudrate
        _port.busy += 1
        try:
            if tx is not ABSENT:
                self.tx = pin_id(tx)
            if rx is not ABSENT:
                self.rx = pin_id(rx)
            for gpio in (rts, cts):
                if gpio is not ABSENT:
                    pin_id(gpio)
            for gpio in (self.tx, self.rx):
                if gpio is not None:
                    _panic_if_flash(gpio, "UART(%d) tx=%s rx=%s" % (self.id, self.tx, self.rx))  # noqa: UP031
        finally:
            _port.busy -= 1
        if bits not in _UART["bits"]:
            raise ValueError(_UART["bits_message"])
        if bits:
            self.bits = bits
        if parity is not ABSENT:
            self.parity = None if parity is None else _port.get_int(parity) & 1
        if stop not in _UART["stop"]:
            raise ValueError(_UART["stop_message"])
        if stop:
            self.stop = stop
        if invert != -1:
            if invert & ~_UART["invert_mask"]:
                raise ValueError(_UART["invert_message"])
            self.invert = invert
        if flow != -1:
            if flow & ~_UART["flow_mask"]:
                raise ValueError(_UART["flow_message"])
            self.flow = flow

    def _frame_us(self, n):
        return n * (1 + self.bits + self.stop) * 1000000 // self.baudrate

    def write(self, *args):
        _port.method_args("UART", "write", 1 + len(args))
        import time

        buf = args[0]
        _port.busy += 1
        try:
            assert len(buf) <= self.txbuf, "a write larger than the TX buffer blocks"
            assert self.txdone(), "the ring buffer would queue this behind the last frame"
            self.written.append(bytes(buf))
            self._end = time.ticks_add(time.ticks_us(), self._frame_us(len(buf)) + self.stall_us)
            return len(buf)
        finally:
            _port.busy -= 1

    def txdone(self, *args):
        if args:
            _port.method_args("UART", "txdone", 1 + len(args))
        import time

        return self._end is None or time.ticks_diff(time.ticks_us(), self._end) >= 0

    def irq(self, *args, **kw):
        handler, trigger, hard = _port.parse(_port.table("UART", "irq"), args, kw)
        if hard:
            raise ValueError(_UART["hard_irq_message"])
        raise NotImplementedError("UART.irq: not modelled")

    def deinit(self):
        self.installed = False


# ---- WDT ----------------------------------------------------------------------------------------
_WDT = _port.rules("WDT")
_WDT_NEW = _port.table("WDT")


class WDT:
    """The task watchdog: one for the whole chip, never stopped once started (a second WDT()
    changes its timeout)."""
    last = None

    def __new__(cls, *args, **kw):
        ident, timeout = _port.parse(_WDT_NEW, args, kw)
        if ident != _WDT["id"]:
            raise ValueError(_WDT["id_message"])
        if timeout <= 0:
            raise ValueError(_WDT["timeout_message"])
        self = WDT.last
        if self is None:
            self = object.__new__(cls)
            self.feeds = 0
            WDT.last = self
        self.timeout = timeout
        return self

    def __init__(self, *args, **kw):
        pass

    def feed(self):
        self.feeds += 1


# ---- Timer --------------------------------------------------------------------------------------
_TIMER = _port.rules("Timer")
_TIMER_NEW = _port.CLASSES["Timer"]["new"]
_TIMER_INIT = _port.table("Timer", "init")


class Timer:
    """A hardware timer (ids 0-3). Its callback is soft: fire() is the timer's interrupt, which
    queues the callback (dropped when the queue is full) to run at the next scheduling point."""
    _c = _port.constants("Timer")
    PERIODIC = _c["PERIODIC"]
    ONE_SHOT = _c["ONE_SHOT"]
    del _c
    live = []
    _by_id = {}

    def __new__(cls, *args, **kw):
        _port.check_num(len(args), len(kw), _TIMER_NEW["n_args"][0], _TIMER_NEW["n_args"][1],
                        _TIMER_NEW["kw"])
        ident = _port.get_int(args[0])
        if ident < 0 or ident not in _TIMER["ids"]:
            raise ValueError(_TIMER["id_message"])  # (an unsigned int: -1 is 2^32 - 1)
        self = cls._by_id.get(ident)
        if self is None:
            self = object.__new__(cls)
            self.id = ident
            self.callback = None
            self.period = None
            self.freq = None
            self.mode = None
            self._set = False
            cls._by_id[ident] = self
        if len(args) > 1 or kw:
            self._init(args[1:], kw)
        return self

    def __init__(self, *args, **kw):
        pass

    def init(self, *args, **kw):
        self._init(args, kw)

    def _init(self, args, kw):
        # (as the port: init again replaces the running timer's period and callback)
        self._stop()
        mode, callback, period, tick_hz, freq, hard = _port.parse(_TIMER_INIT, args, kw)
        if hard:
            raise ValueError(_TIMER["hard_message"])
        if freq is not None:
            freq = float(freq)  # (mp_obj_get_float: an int or a float)
        self.mode = mode
        self.callback = callback
        self.period = period
        self.tick_hz = tick_hz
        self.freq = freq
        self._set = True
        if self not in Timer.live:
            Timer.live.append(self)

    def _stop(self):
        if self in Timer.live:
            Timer.live.remove(self)

    def deinit(self):
        self._stop()

    def value(self):
        if not self._set:
            raise ValueError("timer not set")
        return 0

    def fire(self):
        """The timer's interrupt: queue its callback (machine_timer_isr_handler). It runs at
        the next scheduling point after this returns (run_pending() makes some)."""
        _port.busy += 1
        try:
            if self in Timer.live:
                _port.schedule(self.callback, self)
                if self.mode == Timer.ONE_SHOT:
                    self._stop()
        finally:
            _port.busy -= 1


# ---- PWM ----------------------------------------------------------------------------------------
_PWM = _port.rules("PWM")
_PWM_NEW = _port.CLASSES["PWM"]["new"]
_PWM_INIT = _port.table("PWM", "init")


class PWM:
    """An LEDC output: arguments, ranges and state only. Its square wave reaches no line and no
    pulse counter here (docs/esp32-port.md, what the fakes do not model)."""
    _on = {}  # gpio -> PWM

    def __init__(self, *args, **kw):
        _port.check_num(len(args), len(kw), _PWM_NEW["n_args"][0], _PWM_NEW["n_args"][1],
                        _PWM_NEW["kw"])
        self.pin = pin_id(args[0])
        _panic_if_flash(self.pin, "PWM(%d)" % self.pin)  # noqa: UP031
        self._freq = -1
        self._duty_u16 = None
        self.invert = False
        self.lightsleep = False
        self.init(*args[1:], **kw)

    def init(self, *args, **kw):
        freq, duty, duty_u16, duty_ns, invert, lightsleep = _port.parse(_PWM_INIT, args, kw)
        if freq != -1:
            self._check_freq(freq)
        if duty_u16 >= 0:
            self._check_u16(duty_u16)
            self._duty_u16 = duty_u16
        elif duty >= 0:
            self._check_u10(duty)
            self._duty_u16 = duty << 6
        elif duty_ns >= 0:
            self._duty_ns = duty_ns
        elif self._duty_u16 is None:
            self._duty_u16 = 32768
        self.invert = self.invert if invert == _port._KEEP else invert
        self.lightsleep = self.lightsleep if lightsleep == _port._KEEP else lightsleep
        if freq != -1:
            self._freq = freq
        elif self._freq <= 0:
            self._freq = 5000
        PWM._on[self.pin] = self

    def _check_freq(self, f):
        if not _PWM["freq"][0] <= f <= _PWM["freq"][1]:
            raise ValueError(_PWM["freq_message"])

    def _check_u16(self, d):
        if not _PWM["duty_u16"][0] <= d <= _PWM["duty_u16"][1]:
            raise ValueError(_PWM["duty_u16_message"])

    def _check_u10(self, d):
        if not _PWM["duty"][0] <= d <= _PWM["duty"][1]:
            raise ValueError(_PWM["duty_message"])

    def freq(self, *args):
        _port.method_args("PWM", "freq", 1 + len(args))
        if not args:
            return self._freq
        self._check_freq(_port.get_int(args[0]))
        self._freq = args[0]

    def duty_u16(self, *args):
        _port.method_args("PWM", "duty_u16", 1 + len(args))
        if not args:
            return self._duty_u16
        self._check_u16(_port.get_int(args[0]))
        self._duty_u16 = args[0]

    def duty(self, *args):
        _port.method_args("PWM", "duty", 1 + len(args))
        if not args:
            return self._duty_u16 >> 6
        self._check_u10(_port.get_int(args[0]))
        self._duty_u16 = args[0] << 6

    def deinit(self):
        PWM._on.pop(self.pin, None)


# ---- I2S ----------------------------------------------------------------------------------------
_I2S = _port.rules("I2S")
_I2S_NEW = _port.CLASSES["I2S"]["new"]
_I2S_INIT = _port.table("I2S", "init")


class I2S:
    """An I2S bus: arguments, ranges and state only. In RX mode readinto() fills the buffer
    from `feed(bytes)`, what a test puts there; no line is sampled (docs/esp32-port.md)."""
    _c = _port.constants("I2S")
    RX = _c["RX"]
    TX = _c["TX"]
    MONO = _c["MONO"]
    STEREO = _c["STEREO"]
    del _c

    def __init__(self, *args, **kw):
        _port.check_num(len(args), len(kw), _I2S_NEW["n_args"][0], _I2S_NEW["n_args"][1],
                        _I2S_NEW["kw"])
        ident = _port.get_int(args[0])
        if ident not in _I2S["ids"]:
            raise ValueError(_I2S["id_message"])
        self.id = ident
        self._data = bytearray()
        self.init(*args[1:], **kw)

    def init(self, *args, **kw):
        sck, ws, sd, mode, bits, fmt, rate, ibuf = _port.parse(_I2S_INIT, args, kw)
        self.pins = [pin_id(p) for p in (sck, ws, sd)]
        if mode not in _I2S["modes"]:
            raise ValueError(_I2S["mode_message"])
        if bits not in _I2S["bits"]:
            raise ValueError(_I2S["bits_message"])
        if fmt not in _I2S["formats"]:
            raise ValueError(_I2S["format_message"])
        self.mode, self.bits, self.format, self.rate, self.ibuf = mode, bits, fmt, rate, ibuf
        self.callback = None

    def feed(self, data):
        self._data += data

    def readinto(self, *args):
        _port.method_args("I2S", "readinto", 1 + len(args))
        buf = args[0]
        n = min(len(buf), len(self._data))
        buf[:n] = self._data[:n]
        self._data = self._data[n:]
        return n

    def irq(self, *args):
        _port.method_args("I2S", "irq", 1 + len(args))
        handler = args[0]
        if handler is not None and not callable(handler):
            raise ValueError(_I2S["callback_message"])
        self.callback = handler

    def deinit(self):
        self._data = bytearray()
