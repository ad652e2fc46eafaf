# Fake `esp32` for running boards/esp32.py on the MicroPython unix port (tests only): PCNT and
# ULP with the port's arguments, ranges, constants and refusals (_port.py, the contract).
#
# PCNT models the pulse-counter hardware as the port drives it: per unit a signed 16-bit count
# between `min` and `max` that goes back to 0 when it reaches either limit (an IRQ_MIN/IRQ_MAX
# event then, and IRQ_THRESHOLD0/1 at the thresholds, IRQ_ZERO at 0; with neither limit set,
# the 16-bit register wraps), two channels each counting the edges of its `pin` (rising/falling:
# IGNORE, INCREMENT, DECREMENT) under the level of its `mode_pin` (mode_low/mode_high: NORMAL,
# REVERSE, HOLD), counting only between start() and stop(). Its interrupt is soft: the handler
# is queued (_port.schedule), and value() first runs a handler whose flags are still set, as the
# port's PCNT.value() does.
#
# A clock on a pin: a PWM output (machine.PWM, an LEDC channel) whose square wave reaches the
# pad, on its own GPIO or through a jumper (machine.wire), is counted as the hardware would,
# cycle by cycle on the fake's ticks_us clock (the counts are brought up to date whenever a
# gating line changes or a count is read), under its channel's mode_pin as it stood. Which
# wave reaches a pad follows ESP-IDF (v5.5, the release's): PCNT's pin setup
# (pcnt_legacy.c _pcnt_set_pin: gpio_set_direction(INPUT)) takes the output off that pad, so a
# PWM set up before a PCNT on its pin stops reaching it; a PWM set up after keeps its pad an
# input too (machine_pwm.c reconfigure_pin: "allow PWM output and read pulse input
# simultaneously on the same Pin()"), and a Pin mode set on it takes the pad back (machine.py).
# Not modelled: the glitch filter (`filter` is checked and kept, every edge counts).
import _port
from _port import ABSENT

_RULES = _port.rules("PCNT")
_INIT = _port.table("PCNT")
_IRQ = _port.table("PCNT", "irq")
_units = {}


def reset_state():
    _units.clear()
    ULP._loaded.clear()


def edge(gpio, level):
    """The line ``gpio`` went to ``level`` (fake_machine calls it): every unit whose channel
    watches it counts, in hardware (a clock it counts, up to now under the line's old level)."""
    for unit in _units.values():
        if unit.running:
            unit._clock(gpio, 1 - level)
            unit._edge(gpio, level)


def pad_taken(gpio):
    """A pulse counter's pin setup on ``gpio`` (ESP-IDF: gpio_set_direction(INPUT)): a PWM
    output there no longer reaches the pad."""
    import machine

    pwm = machine.PWM._on.get(gpio)
    if pwm is not None:
        for unit in _units.values():  # (what it counted until now, it counted)
            if unit.running:
                unit._clock()
        pwm.on_pad = False


def _now():
    import time  # (the fake's: ESP32 ticks)

    return time.ticks_us()


class _PcntIRQ:
    """The irq object: flags() reads and clears the events seen (IRQ_MIN, ...)."""

    def __init__(self, unit):
        self._unit = unit
        self.handler = None
        self.trigger_mask = 0
        self.flags_seen = 0

    def flags(self):
        f = self.flags_seen
        self.flags_seen = 0
        return f

    def trigger(self, *args):
        old = self.trigger_mask
        if args:
            self.trigger_mask = _port.get_int(args[0])
        return old


class PCNT:
    _c = _port.constants("PCNT")
    IGNORE = _c["IGNORE"]
    INCREMENT = _c["INCREMENT"]
    DECREMENT = _c["DECREMENT"]
    NORMAL = _c["NORMAL"]
    REVERSE = _c["REVERSE"]
    HOLD = _c["HOLD"]
    IRQ_ZERO = _c["IRQ_ZERO"]
    IRQ_THRESHOLD0 = _c["IRQ_THRESHOLD0"]
    IRQ_THRESHOLD1 = _c["IRQ_THRESHOLD1"]
    IRQ_MIN = _c["IRQ_MIN"]
    IRQ_MAX = _c["IRQ_MAX"]
    del _c

    def __new__(cls, *args, **kw):
        if not args:
            raise TypeError(_RULES["no_id_message"])
        unit = _port.get_int(args[0])
        if unit not in _RULES["units"]:
            raise ValueError(_RULES["id_message"])
        self = _units.get(unit)
        if self is None:
            self = object.__new__(cls)
            self.unit = unit
            self._irq = None
            self._deinit()
            _units[unit] = self
        # (the port hands the helper no positional argument: any after the id is ignored)
        self._init((), kw)
        return self

    def __init__(self, *args, **kw):
        pass

    def __repr__(self):
        return "PCNT(%d)" % self.unit  # noqa: UP031

    def _deinit(self):
        self.channels = [{"pin": None, "mode_pin": None, "rising": self.IGNORE,
                          "falling": self.IGNORE, "mode_low": self.NORMAL,
                          "mode_high": self.NORMAL} for _ in range(2)]
        self.min = self.max = 0
        self.filter = 0
        self.thresholds = [0, 0]
        self.count = 0
        self.running = False
        self._t = None     # the clock counted up to these ticks,
        self._cycles = 0   # ... and this many microcycles (us x Hz) of a clock cycle since
        if self._irq is not None:
            self._irq.handler = None
            self._irq.trigger_mask = 0

    def init(self, *args, **kw):
        self._init(args, kw)

    def _init(self, args, kw):
        (channel, pin, rising, falling, mode_pin, mode_low, mode_high, lo, hi, filt, t0, t1,
         value) = _port.parse(_INIT, args, kw)
        r = _RULES["init"]
        if not 0 <= channel < r["channel"]["below"]:
            raise ValueError(r["channel"]["message"])
        ch = self.channels[channel]
        if pin is not ABSENT or mode_pin is not ABSENT:
            if pin is ABSENT:
                raise ValueError(_RULES["pin_message"])
            import machine

            self._clock()
            ch["pin"] = None if pin is None else machine.pin_id(pin)
            ch["mode_pin"] = None if mode_pin in (ABSENT, None) else machine.pin_id(mode_pin)
            for gpio in (ch["pin"], ch["mode_pin"]):
                if gpio is not None:
                    pad_taken(gpio)
        if not (rising is ABSENT and falling is ABSENT and mode_low is ABSENT
                and mode_high is ABSENT):
            got = {}
            for name, v, default in (("rising", rising, self.IGNORE),
                                     ("falling", falling, self.IGNORE),
                                     ("mode_low", mode_low, self.NORMAL),
                                     ("mode_high", mode_high, self.NORMAL)):
                v = default if v is ABSENT else _port.get_int(v)
                if not 0 <= v < r[name]["below"]:  # (an unsigned int: negative is large)
                    raise ValueError(r[name]["message"])
                got[name] = v
            ch.update(got)
        if filt is not ABSENT:
            self.filter = self._range("filter", filt)
        clear = False
        if value is not ABSENT:
            self._range("value", value)
            clear = True
        if lo is not ABSENT:
            self.min = self._range("min", lo)
            clear = True
        if hi is not ABSENT:
            self.max = self._range("max", hi)
            clear = True
        for i, t in ((0, t0), (1, t1)):
            if t is not ABSENT:
                self.thresholds[i] = self._range("threshold%d" % i, t)  # noqa: UP031
                clear = True
        if clear:
            self.count = 0

    def _range(self, name, v):
        v = _port.get_int(v)
        rule = _RULES["init"][name]
        if not rule["min"] <= v <= rule["max"]:
            raise ValueError(rule["message"])
        return v

    def start(self):
        self._t = _now()
        self._cycles = 0
        self.running = True

    def stop(self):
        self._clock()
        self.running = False

    def deinit(self):
        self._deinit()

    def value(self, *args):
        _port.method_args("PCNT", "value", 1 + len(args))
        if args and _port.get_int(args[0]) != 0:
            raise ValueError(_RULES["value_message"])
        if self.running:
            self._clock()
        irq = self._irq
        while irq is not None and irq.flags_seen and irq.handler is not None:
            irq.handler(self)  # (which must read irq().flags(), clearing them)
        v = self.count
        if args:
            self.count = 0
        return v

    def irq(self, *args, **kw):
        handler, trigger = _port.parse(_IRQ, args, kw)
        if self._irq is None:
            self._irq = _PcntIRQ(self)
        if args or kw:
            lo, hi = _RULES["trigger"]
            if not lo <= trigger <= hi:
                raise ValueError(_RULES["trigger_message"])
            if handler is not None:
                self._irq.handler = handler
                self._irq.trigger_mask = trigger
            else:
                self._irq.handler = None
                self._irq.trigger_mask = 0
        return self._irq

    def _edge(self, gpio, level):
        import machine

        for ch in self.channels:
            if ch["pin"] != gpio:
                continue
            action = ch["rising"] if level else ch["falling"]
            if action == self.IGNORE:
                continue
            if ch["mode_pin"] is not None:
                mode = ch["mode_high"] if machine.level(ch["mode_pin"]) else ch["mode_low"]
                if mode == self.HOLD:
                    continue
                if mode == self.REVERSE:
                    action = self.DECREMENT if action == self.INCREMENT else self.INCREMENT
            self.count += 1 if action == self.INCREMENT else -1
            self._events()

    def _clock(self, gating=None, old=None):
        """Count a clock on a channel's pin from the last time up to now, each channel under
        its mode_pin's level (``gating``'s was ``old`` until now)."""
        import machine

        now = _now()
        t = self._t
        self._t = now
        if t is None or not self.running:
            return
        dt = machine.ticks_diff_us(now, t)
        if dt <= 0:
            return
        self._cycles += dt
        for ch in self.channels:
            hz = machine.clock_hz(ch["pin"]) if ch["pin"] is not None else 0
            if not hz:
                continue
            # (the wave's rising and falling edges alike: one each a cycle)
            n = self._cycles * hz // 1000000 - (self._cycles - dt) * hz // 1000000
            mode = self.NORMAL
            if ch["mode_pin"] is not None:
                level = old if ch["mode_pin"] == gating else machine.level(ch["mode_pin"])
                mode = ch["mode_high"] if level else ch["mode_low"]
            if mode == self.HOLD or not n:
                continue
            for k in range(2):  # rising, then falling (no tuple: see _events)
                action = ch["falling"] if k else ch["rising"]
                if action == self.IGNORE:
                    continue
                if mode == self.REVERSE:
                    action = self.DECREMENT if action == self.INCREMENT else self.INCREMENT
                self.count += n if action == self.INCREMENT else -n
                self._events()
        self._cycles %= 1000000

    def _events(self):
        seen = 0
        if not (self.max or self.min):
            self.count = ((self.count + 32768) & 0xFFFF) - 32768  # the 16-bit register wraps
        if self.max and self.count >= self.max:
            seen = self.IRQ_MAX
            self.count %= self.max  # (0 at the limit; a clock's burst goes on from there)
        elif self.min and self.count <= self.min:
            seen = self.IRQ_MIN
            self.count = -(-self.count % -self.min)
        # (no tuple built here: a board's interrupt handler reads the counters, heap locked)
        t = self.thresholds
        if t[0] and self.count == t[0]:
            seen |= self.IRQ_THRESHOLD0
        if t[1] and self.count == t[1]:
            seen |= self.IRQ_THRESHOLD1
        if self.count == 0:
            seen |= self.IRQ_ZERO
        irq = self._irq
        if irq is not None and irq.handler is not None and seen & irq.trigger_mask:
            irq.flags_seen |= seen & irq.trigger_mask
            _port.schedule(irq.handler, self)  # mp_irq_handler, soft: queued


_ULP = _port.CLASSES["ULP"]


class ULP:
    """The ULP coprocessor: its calls' arguments are checked and recorded; no program runs and
    no RTC memory is written (docs/esp32-port.md)."""
    RESERVE_MEM = _ULP["consts"]["RESERVE_MEM"]
    _loaded = []

    def __init__(self, *args, **kw):
        c = _ULP["new"]
        _port.check_num(len(args), len(kw), c["n_args"][0], c["n_args"][1], c["kw"])
        self.period = {}
        self.entry = None

    def set_wakeup_period(self, *args):
        _port.method_args("ULP", "set_wakeup_period", 1 + len(args))
        self.period[_port.get_int(args[0])] = _port.get_int(args[1])

    def load_binary(self, *args):
        _port.method_args("ULP", "load_binary", 1 + len(args))
        ULP._loaded.append((_port.get_int(args[0]), bytes(args[1])))

    def run(self, *args):
        _port.method_args("ULP", "run", 1 + len(args))
        self.entry = _port.get_int(args[0])
