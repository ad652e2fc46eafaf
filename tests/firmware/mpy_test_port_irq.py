# Interrupts as the ESP32 port runs them, on the fakes (fake_machine/_port.py): a pin's or a
# timer's handler is queued by its ISR, never called from it; the VM runs one queued handler at
# each of its scheduling points (a bytecode jump, a sleep; none in viper or native code, none
# in what is C on the port); the queue holds the port's MICROPY_SCHEDULER_DEPTH (8) and drops
# what does not fit. The real board's edge handlers then stamp the time they run, not the
# edge's, and lose edges in a burst the VM does not get to; the pulse counter does not.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_machine")

import array  # noqa: E402
import time  # noqa: E402 - the fake (ESP32 ticks, the port's sleeps)

import _port  # noqa: E402
import machine  # noqa: E402 - the fake
import micropython  # noqa: E402

from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import PINS  # noqa: E402

BEAM = PINS["beam_upper"]
LOWER = PINS["beam_lower"]


def _board():
    machine.reset_state()
    return board_mod.Esp32Board()  # (no sensor on the bus: colour unknown, fine here)


@micropython.viper
def _firmware_busy_for(us: int, mid, ticks) -> int:
    # Stands for firmware that runs without a scheduling point (viper or native code, a C
    # call): ``mid()`` (an edge) comes halfway through ``us`` microseconds of it.
    t0 = int(ticks())
    while ((int(ticks()) - t0) & 0x3FFFFFFF) < (us >> 1):
        pass
    mid()
    while ((int(ticks()) - t0) & 0x3FFFFFFF) < us:
        pass
    return 1


def test_the_depth_is_the_esp32_ports_not_the_unix_ports():
    assert _port.DEPTH == 8 == _port.SCHED["depth"]
    assert _port.SCHED["default_depth"] == 4   # what the unix port, the fakes' VM, has
    assert _port.SCHED["full"] == "dropped" and _port.SCHED["per_point"] == 1


def test_a_pin_handler_is_queued_by_the_edge_and_runs_at_the_next_scheduling_point():
    machine.reset_state()
    ran = []
    pin = machine.Pin(BEAM, machine.Pin.IN, machine.Pin.PULL_UP)
    pin.irq(lambda p: ran.append(p), machine.Pin.IRQ_FALLING)
    machine.drive(BEAM, 0)
    now = (len(ran), machine.waiting())           # (no jump between: no scheduling point)
    assert now == (0, 1), now
    assert ran == [pin] and machine.waiting() == 0  # (the assert's own jump ran it)


def test_one_handler_runs_at_each_scheduling_point():
    machine.reset_state()
    ran = []
    pin = machine.Pin(BEAM, machine.Pin.IN)
    pin.irq(lambda p: ran.append(1))
    _firmware_busy_for(2000, lambda: machine.edges(BEAM, (0, 1, 0, 1, 0)), time.ticks_us)
    now = (len(ran), machine.waiting())
    assert now == (0, 5), now
    seen = []
    for _ in range(8):   # a jump back each turn: one handler each while any waits
        seen.append(len(ran))
    # (the assert above and the loop's way in are scheduling points too: some ran before)
    steps = [b - a for a, b in zip(seen, seen[1:])]
    assert all(d == (1 if a < 5 else 0) for a, d in zip(seen, steps)), seen
    assert seen[-1] == 5 and seen[0] < 5, seen


def test_a_burst_fills_the_queue_of_8_and_the_rest_is_dropped_but_counted_in_hardware():
    board = _board()
    board.attach()
    count0 = board.beam_count()

    # 6 cubes' edges (12) while the firmware runs no scheduling point
    _firmware_busy_for(3000, lambda: machine.edges(BEAM, (0, 1) * 6), time.ticks_us)
    now = (machine.waiting(), machine.dropped())
    assert now == (8, 4), now
    machine.run_pending()
    ts = array.array("i", [0] * 16)
    vs = bytearray(16)
    assert board.take_edges(ts, vs) == 8          # the ring saw the first 8 edges only...
    assert board.beam_count() - count0 == 6       # ...the pulse counter all 6 cubes
    board.release()


def test_an_edge_is_stamped_late_by_what_the_firmware_was_doing():
    board = _board()
    board.attach()
    at = []

    def edge():
        at.append(time.ticks_us())
        machine.drive(BEAM, 0)

    _firmware_busy_for(4000, edge, time.ticks_us)  # the edge comes 2 ms in; 2 ms still to run
    machine.run_pending()
    ts = array.array("i", [0] * 4)
    vs = bytearray(4)
    assert board.take_edges(ts, vs) == 1 and vs[0] == 1
    late = time.ticks_diff(ts[0], at[0])
    assert late >= 1900, late                     # stamped when it ran, not at the edge
    board.release()


def test_queued_handlers_run_while_the_firmware_sleeps_as_on_the_port():
    # mp_hal_delay_us services the queue while more than 150 us remain
    board = _board()
    board.attach()
    t0 = time.ticks_us()
    _firmware_busy_for(10, lambda: machine.drive(BEAM, 0), time.ticks_us)
    time.sleep_us(3000)
    ts = array.array("i", [0] * 4)
    vs = bytearray(4)
    assert board.take_edges(ts, vs) == 1
    assert time.ticks_diff(ts[0], t0) < 2000      # early in the sleep, not after it
    board.release()


def test_a_timer_callback_is_soft_and_a_hard_timer_is_refused():
    machine.reset_state()
    ran = []
    t = machine.Timer(1)
    try:
        t.init(mode=machine.Timer.PERIODIC, period=10, callback=ran.append, hard=True)
        raise AssertionError("hard=True accepted")
    except ValueError as exc:
        assert str(exc) == "hard Timers are not implemented"
    t.init(mode=machine.Timer.PERIODIC, period=10, callback=ran.append)
    t.fire()
    now = (len(ran), machine.waiting())
    assert now == (0, 1), now
    machine.run_pending()
    assert ran == [t]


def test_the_pcnt_limit_interrupt_is_queued_and_value_runs_it_first():
    # The port's PCNT.value() calls a handler whose flags are still set before it reads: the
    # Counter's overflow count and the hardware count agree even before the VM ran it.
    machine.reset_state()
    pin = machine.Pin(BEAM, machine.Pin.IN, machine.Pin.PULL_UP)
    c = machine.Counter(0, pin, edge=machine.Counter.FALLING)
    c._pcnt.count = c._RANGE - 1
    _firmware_busy_for(100, lambda: machine.edges(BEAM, (0, 1)), time.ticks_us)
    now = (machine.waiting(), c.value())          # the limit's interrupt, queued, and...
    assert now == (1, c._RANGE), now              # ...run by value() itself
    machine.run_pending()                         # (the queued call finds no flag left)
    assert c.value() == c._RANGE
