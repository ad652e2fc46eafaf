# Interrupts as the ESP32 port runs them, on the fakes (fake_machine/_port.py): a pin's or a
# timer's handler is queued by its ISR, never called from it; the VM runs one queued handler at
# each of its scheduling points (a bytecode jump, a sleep; none in viper or native code, none
# in what is C on the port); the queue holds the port's MICROPY_SCHEDULER_DEPTH (8) and drops
# what does not fit. A handler's own time is then late by what the firmware was doing, and a
# burst the VM does not get to drops handlers; the real board's edges come from its pulse
# counters (boards/__init__.py, the capture), whose readings keep every edge and each one's time
# when it came alone.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_machine")

import array  # noqa: E402
import time  # noqa: E402 - the fake (ESP32 ticks, the port's sleeps)

import _port  # noqa: E402
import machine  # noqa: E402 - the fake
import micropython  # noqa: E402

from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import CAPTURE_CLOCK, CAPTURE_CLOCK_IN, PINS  # noqa: E402

BEAM = PINS["beam_upper"]
LOWER = PINS["beam_lower"]


def _board():
    machine.reset_state()
    machine.wire(CAPTURE_CLOCK, CAPTURE_CLOCK_IN)  # the tower's clock jumper
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
    ts = array.array("i", [0] * 32)
    vs = bytearray(32)
    n = board.take_edges(ts, vs)
    assert n == 12 and list(vs[:n]) == [5, 4] * 6, list(vs[:n])  # every edge, marked late
    assert board.beam_count() - count0 == 6       # (and the pulse counter's 6 cubes)
    board.release()


def test_an_edge_comes_at_its_own_time_whatever_the_firmware_was_doing():
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
    assert -5 <= late <= 200, late  # the handler ran 2 ms late, not its edge (the fake: us)
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


def test_a_pcnt_goes_back_to_zero_at_its_limits_and_a_jumpered_clock_goes_on_from_there():
    # The port's machine.py: "the ESP32 PCNT resets to zero on under/overflow" (it does not wrap
    # to the other limit). A 1 MHz PWM reaching the counter through a jumper (as the tower's
    # CAPTURE_CLOCK to CAPTURE_CLOCK_IN) is counted cycle by cycle from there.
    import esp32

    machine.reset_state()
    up = esp32.PCNT(0, pin=machine.Pin(BEAM), falling=esp32.PCNT.INCREMENT, max=5)
    down = esp32.PCNT(1, pin=machine.Pin(BEAM), falling=esp32.PCNT.DECREMENT, min=-3)
    up.start()
    down.start()
    machine.edges(BEAM, (0, 1) * 7)
    assert (up.value(), down.value()) == (7 - 5, -(7 - 2 * 3)), (up.value(), down.value())
    machine.wire(18, 19)
    clock = esp32.PCNT(2, pin=machine.Pin(19, machine.Pin.IN), rising=esp32.PCNT.INCREMENT,
                       max=1000)
    time.freeze()
    try:
        clock.start()
        machine.PWM(machine.Pin(18), freq=1000000, duty_u16=32768)
        time.advance_us(2500)
        assert clock.value() == 500, clock.value()   # 2500 cycles, back to 0 at 1000 twice
    finally:
        time.thaw()
