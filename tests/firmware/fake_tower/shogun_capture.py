# Fake of the tower's own C module (firmware/micropython-build/shogun_capture/shogun_capture.c),
# for the fakes of the port (fake_machine/): its GPIO interrupt handler, run at the edge itself
# (a C handler: no scheduling point, no queue), reads the beam's three pulse counters and the
# ticks into the capture's ring as the C code writes it, then schedules the wake as it does.
import time

import _port
import esp32
import machine

_FIELDS = 6   # the C file's SHOGUN_CAPTURE_FIELDS (boards/__init__.py _RF)
_MASK = 0x3FFFFFFF
_state = {}


def _isr(b):
    s = _state
    t = time.ticks_us() & _MASK
    units = esp32._units
    g = units[s["units"][4 + b]].value() & 0xFFFF
    f = units[s["units"][b]].value() & 0xFFFF
    r = units[s["units"][2 + b]].value() & 0xFFFF
    ring, status = s["ring"], s["status"]
    w = status[0]
    i = _FIELDS * (w & (len(ring) // _FIELDS - 1))
    ring[i] = t & 0xFFFF
    ring[i + 1] = (t >> 16) & 0x3FFF
    ring[i + 2] = g
    ring[i + 3] = f
    ring[i + 4] = r
    ring[i + 5] = b
    status[0] = (w + 1) & _MASK
    _port.schedule(s["wake"], None)


def start(ring, status, gpios, units, wake):
    stop()
    _state.update(ring=ring, status=status, units=units, wake=wake, gpios=gpios)
    for b in (0, 1):
        machine.isr(gpios[b], lambda level, b=b: _isr(b))


def stop():
    for gpio in _state.get("gpios", ()):
        machine.isr(gpio, None)
    _state.clear()
