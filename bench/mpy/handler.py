# The ESP32 board's capture path counted in instructions (run by bench/bench_steps.py under
# callgrind, on the MicroPython unix port; MICROPYPATH: tests/firmware/fake_machine, firmware,
# common): boards/esp32.py on the test fakes, each pulse counter's value() and the clock given
# by C functions of the unix port (what they are on the ESP32: a driver call), so only the
# board's own code is counted. Rows: a beam's soft handler (its three counters read, the reading
# put, the edge flag set), take_edges with no edge waiting (each beam read once, the
# readings converted), and the wake the tower build's C handler schedules after its reading.
# Prints one JSON line: the rows, in order.
import json

import machine  # the fake

from shogun_fw.boards import esp32 as board_mod
from shogun_fw.boards.esp32_config import CAPTURE_CLOCK, CAPTURE_CLOCK_IN

_ON = [None]


def _on(_):
    return _ON[0]()


_ON_MAP = map(_on, range(1, 1 << 30))


def counted(fn):
    _ON[0] = fn
    return next(_ON_MAP)


class _Unit:
    value = staticmethod(int)  # (a C function: 0, as a counter's value would be read)


def main():
    rows = []
    machine.reset_state()
    machine.wire(CAPTURE_CLOCK, CAPTURE_CLOCK_IN)  # the tower's clock jumper
    board = board_mod.Esp32Board()
    board.attach()
    board._units = tuple(_Unit() for _ in range(6))
    board_mod.time.ticks_us = int  # (C: the ticks)
    handler = machine.irq_handler(25)
    pin = machine._irqs[25][2]
    ts = board_mod.array.array("i", bytes(4 * 32))
    vs = bytearray(32)
    wake = board._wake_ref  # (what the tower build's C handler schedules)
    for _ in range(5):
        counted(lambda: None)
        rows.append("empty")
        hash(0)
        counted(lambda: handler(pin))
        rows.append("handler")
        hash(0)
        board.take_edges(ts, vs)
        counted(lambda: board.take_edges(ts, vs))
        rows.append("take")
        hash(0)
        counted(lambda: wake(None))
        rows.append("wake")
        hash(0)
    print(json.dumps({"rows": rows}))


main()
