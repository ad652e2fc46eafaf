# Fake `esp32` for running boards/esp32.py on the MicroPython unix port (tests only): PCNT and
# ULP with the port's arguments, ranges, constants and refusals (_port.py, the contract).
#
# PCNT models the pulse-counter hardware as the port drives it: per unit a signed 16-bit count
# between `min` and `max` that goes back to 0 when it reaches either limit (an IRQ_MIN/IRQ_MAX
# event then, and IRQ_THRESHOLD0/1 at the thresholds, IRQ_ZERO at 0), two channels each counting
# the edges of its `pin` (rising/falling: IGNORE, INCREMENT, DECREMENT) under the level of its
# `mode_pin` (mode_low/mode_high: NORMAL, REVERSE, HOLD), counting only between start() and
# stop(). Its interrupt is soft: the handler is queued (_port.schedule), and value() first runs
# a handler whose flags are still set, as the port's PCNT.value() does. Not modelled: the glitch
# filter (`filter` is checked and kept, every edge counts) and a clock on a pin (a PWM output
# makes no edges here).
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
    watches it counts, in hardware."""
    for unit in _units.values():
        if unit.running:
            unit._edge(gpio, level)


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

            ch["pin"] = None if pin is None else machine.pin_id(pin)
            ch["mode_pin"] = None if mode_pin in (ABSENT, None) else machine.pin_id(mode_pin)
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
        self.running = True

    def stop(self):
        self.running = False

    def deinit(self):
        self._deinit()

    def value(self, *args):
        _port.method_args("PCNT", "value", 1 + len(args))
        if args and _port.get_int(args[0]) != 0:
            raise ValueError(_RULES["value_message"])
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

    def _events(self):
        seen = 0
        if self.max and self.count >= self.max:
            seen = self.IRQ_MAX
            self.count = 0
        elif self.min and self.count <= self.min:
            seen = self.IRQ_MIN
            self.count = 0
        for i, flag in ((0, self.IRQ_THRESHOLD0), (1, self.IRQ_THRESHOLD1)):
            if self.thresholds[i] and self.count == self.thresholds[i]:
                seen |= flag
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
