# The real board on the tower's own build (`make firmware-image`): boards/esp32.py with the
# fakes of the port (fake_machine/) and of the build's C module (fake_tower/shogun_capture.py,
# what firmware/micropython-build/shogun_capture/shogun_capture.c does). Its interrupt handler
# reads the beams' counters at the edge itself: every edge exact, however long the interpreter
# was busy, where stock MicroPython's soft handlers (mpy_test_esp32_board.py) mark late the
# edges of a gap the interpreter was busy across.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_tower")
sys.path.insert(0, _HERE + "/fake_machine")

import array  # noqa: E402
import time  # noqa: E402 - the fake (ESP32 ticks)

import _port  # noqa: E402
import machine  # noqa: E402 - the fake
import shogun_capture  # noqa: E402 - the fake of the tower build's C module

from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import CAPTURE_CLOCK, CAPTURE_CLOCK_IN, PINS  # noqa: E402

BEAM = PINS["beam_upper"]
LOWER = PINS["beam_lower"]


def _board():
    machine.reset_state()
    machine.wire(CAPTURE_CLOCK, CAPTURE_CLOCK_IN)  # the tower's clock jumper
    board = board_mod.Esp32Board()
    board.attach()
    return board


def _take(board):
    ts = array.array("i", [0] * 32)
    vs = bytearray(32)
    n = board.take_edges(ts, vs)
    return [(ts[i], vs[i]) for i in range(n)]


def test_the_tower_build_reads_the_beams_from_its_c_handler_not_pin_irqs():
    board = _board()
    assert board._cap is shogun_capture
    assert machine.irq_handler(BEAM) is None and machine.irq_handler(LOWER) is None
    assert set(machine._isrs) == {BEAM, LOWER}
    board.release()
    assert not machine._isrs


def test_every_edge_exact_with_the_interpreter_busy_across_a_gap():
    # The same scene as stock's late gap (mpy_test_esp32_board.py): here no edge is late.
    board = _board()
    time.freeze()
    try:
        t0 = time.ticks_us()
        machine.drive(BEAM, 0)
        time.advance_us(7000)
        _port.busy += 1                  # the interpreter busy: no soft handler would run
        machine.drive(BEAM, 1)
        time.advance_us(2000)
        machine.drive(BEAM, 0)
        time.advance_us(1000)
        _port.busy -= 1
        time.advance_us(6000)
        machine.drive(BEAM, 1)
        edges = _take(board)
    finally:
        time.thaw()
    assert [v for _, v in edges] == [1, 0, 1, 0], edges
    assert [time.ticks_diff(t, t0) for t, _ in edges] == [0, 7000, 9000, 16000], edges


def test_a_burst_comes_out_edge_by_edge_and_the_wake_is_scheduled():
    board = _board()
    board.edge_flag.clear()
    machine.edges(LOWER, (0, 1) * 4)     # four blips, no scheduling point between
    machine.run_pending()
    assert board.edge_flag.state
    edges = _take(board)
    assert [v for _, v in edges] == [3, 2] * 4, edges  # the lower beam, none late
