# Fake `esp32` module for running boards/esp32.py on the MicroPython unix port (tests only).
# PCNT models the pulse-counter hardware as MicroPython's esp32.PCNT exposes it: a signed counter
# between `min` and `max` that goes back to 0 when it reaches either limit, with an IRQ then.
# machine.Counter (fake_machine/machine.py) extends it in software, as the real port does.
INCREMENT = 1
DECREMENT = -1
IGNORE = 0

_units = {}


class PCNT:
    INCREMENT = INCREMENT
    DECREMENT = DECREMENT
    IGNORE = IGNORE
    HOLD = 2
    REVERSE = 3
    IRQ_MIN = 4
    IRQ_MAX = 8

    def __init__(self, unit, min=-32768, max=32767):
        self.unit = unit
        self.min = min
        self.max = max
        self.pin = None
        self.rising = IGNORE
        self.falling = IGNORE
        self.filter = 0
        self.count = 0
        self.running = False
        self._irq_handler = None
        self._irq_trigger = 0
        self._flags = 0
        _units[unit] = self

    def init(self, channel=0, pin=None, rising=None, falling=None, filter=None, value=None,
             **_kw):
        if pin is not None:
            self.pin = pin.id if hasattr(pin, "id") else pin
        if rising is not None:
            self.rising = rising
        if falling is not None:
            self.falling = falling
        if filter is not None:
            if not 0 <= filter <= 1023:
                raise ValueError("filter")  # 10 bits of 80 MHz APB cycles on the ESP32
            self.filter = filter
        if value is not None:
            self.count = value

    def start(self):
        self.running = True

    def stop(self):
        self.running = False

    def deinit(self):
        self.running = False
        _units.pop(self.unit, None)

    def value(self, value=None):
        v = self.count
        if value is not None:
            self.count = value
        return v

    def irq(self, handler=None, trigger=None):
        if trigger is not None:
            self._irq_handler = handler
            self._irq_trigger = trigger
        return self

    def flags(self):
        return self._flags

    def _edge(self, rising):
        """The pin this unit watches changed level (fake_machine calls it)."""
        if not self.running:
            return
        self.count += self.rising if rising else self.falling
        flag = 0
        if self.count >= self.max:
            flag = PCNT.IRQ_MAX
        elif self.count <= self.min:
            flag = PCNT.IRQ_MIN
        if flag:
            self.count = 0
            if self._irq_trigger & flag and self._irq_handler:
                self._flags = flag
                self._irq_handler(self)
                self._flags = 0


def units_on(gpio):
    return [u for u in _units.values() if u.pin == gpio]
