# The real board (boards/esp32.py) RUN on the MicroPython unix port, with pure-Python fakes of
# `machine` and `esp32` (tests/firmware/fake_machine/, put first on sys.path here:
# only this test process sees them) and of the TCS34725 on the fake I2C bus. Flash files go to
# a littlefs file system (os.VfsLfs2, as on the ESP32) on a RAM block device.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_machine")

import array  # noqa: E402
import asyncio  # noqa: E402
import gc  # noqa: E402
import os  # noqa: E402
import struct  # noqa: E402
import time  # noqa: E402 - the fake (ESP32 ticks)

import _port  # noqa: E402
import host_part  # noqa: E402,F401 - the host-only decoders, for the end-to-end test
import machine  # noqa: E402 - the fake
import micropython  # noqa: E402
from fake_serial import attach as _serial  # noqa: E402
from ram_flash import RamFlash  # noqa: E402
from ram_flash import mount as _mount  # noqa: E402
from ram_flash import umount as _umount  # noqa: E402
from tcs34725_chip import TCS34725Chip  # noqa: E402

from shogun_common import protocol as P  # noqa: E402
from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import CAPTURE_CLOCK, CAPTURE_CLOCK_IN, PINS  # noqa: E402
from shogun_fw.boards.simtime import consts  # noqa: E402

BEAM = PINS["beam_upper"]
LOWER = PINS["beam_lower"]
CLOCK = CAPTURE_CLOCK
LED = PINS["colour_led"]
INJECT = PINS["inject"]
COUNT_LIMIT = consts(board_mod.__file__)["_LIMIT"]
DARK = (10, 20, 30, 60)
LIT = (100, 200, 300, 700)

def _light():
    # What the sensor sees: the white LED's pin decides (dark: LED off).
    return LIT if machine.level(LED) else DARK


def _board(sensor=True, ident=0x44):
    machine.reset_state()
    machine.wire(CAPTURE_CLOCK, CAPTURE_CLOCK_IN)  # the tower's clock jumper
    chip = None
    if sensor:
        chip = TCS34725Chip(ident=ident, light=_light)
        machine.i2c_devices[0x29] = chip
    board = board_mod.Esp32Board()
    return board, chip


# ---- construction --------------------------------------------------------------------------
def test_board_is_built_from_the_pin_map():
    board, chip = _board()
    assert board.caps & P.CAP_HW_COUNTER and board.caps & P.CAP_INJECT and board.caps & P.CAP_LED
    assert board.caps & P.CAP_COLOUR and board.caps & P.CAP_CALIBRATION
    assert machine._modes[BEAM] == machine.Pin.IN and machine.level(BEAM) == 1  # pulled up
    assert machine._modes[PINS["beam_lower"]] == machine.Pin.IN
    assert machine._modes[INJECT] == machine.Pin.OPEN_DRAIN and machine.level(INJECT) == 1
    assert machine.level(LED) == 1  # the colour LED is on after start-up
    assert machine.WDT.last.timeout == 8000
    assert board.saturation == 1023 and board._step_us == 2400
    # start-up readings: dark with the LED off, ambient with it on
    assert board.dark_reading == list(DARK), board.dark_reading
    assert board.ambient_reading == list(LIT), board.ambient_reading


def test_sensor_is_set_up_as_the_datasheet_asks():
    board, chip = _board()
    assert chip.regs[0x01] == 0xFF      # ATIME: one 2.4 ms step
    assert chip.regs[0x0F] == 3         # CONTROL: gain 60
    assert chip.regs[0x0C] == 0         # PERS 0: AINT after every integration
    assert chip.regs[0x00] == 0x13      # ENABLE: PON | AEN | AIEN
    # "A minimum interval of 2.4 ms must pass after PON is asserted before an RGBC can be
    # initiated" (datasheet, ENABLE register)
    assert chip.aen_after_pon_us >= 2400, chip.aen_after_pon_us


def test_a_board_without_its_sensor_still_starts():
    for kw in ({"sensor": False}, {"ident": 0x99}):
        board, chip = _board(**kw)
        assert not board.caps & P.CAP_COLOUR
        assert board.ambient_reading is None
        out = [0] * 6
        assert board.read_colour(out) is False


# ---- beam edges ----------------------------------------------------------------------------
# Each beam is counted in hardware (esp32.PCNT units 0-5: its falls, its rises, the 1 MHz clock
# while it is blocked); an edge's soft handler reads the counts into the capture's ring, and
# take_edges reads each beam once more (boards/__init__.py, the capture).
def _take(board, room=32):
    ts = array.array("i", [0] * room)
    vs = bytearray(room)
    n = board.take_edges(ts, vs)
    return [(ts[i], vs[i]) for i in range(n)]


def test_each_beam_is_counted_in_hardware_falls_rises_and_blocked_microseconds():
    board, _ = _board()
    units = board._units
    assert [u.unit for u in units] == [0, 1, 2, 3, 4, 5]
    for b, gpio in ((0, BEAM), (1, LOWER)):
        falls, rises, blocked = units[b].channels[0], units[2 + b].channels[0], \
            units[4 + b].channels[0]
        assert falls["pin"] == gpio and falls["falling"] == units[b].INCREMENT
        assert falls["rising"] == units[b].IGNORE and units[b].filter == 800  # 10 us
        assert rises["pin"] == gpio and rises["rising"] == units[b].INCREMENT
        assert rises["falling"] == units[b].IGNORE
        # the clock through its jumper, held while the beam is clear (high): counted while
        # blocked
        assert blocked["pin"] == CAPTURE_CLOCK_IN and blocked["mode_pin"] == gpio
        assert blocked["mode_high"] == units[b].HOLD and blocked["mode_low"] == units[b].NORMAL
        assert units[4 + b].filter < 40  # (the clock's half period is 40 APB cycles)
        assert all(u.running for u in units)
    # every counter goes back to 0 at an explicit limit (with none the port does not say)
    assert all(u.max == COUNT_LIMIT and u.min == 0 for u in units)
    clock = board._clock
    assert clock.pin == CLOCK and clock.freq() == 1000000 and clock.duty_u16() == 32768
    assert clock.on_pad


def test_without_the_clock_jumper_no_block_is_timed():
    # The counters read the clock on CAPTURE_CLOCK_IN, not on the PWM's own pad: a tower built
    # without the jumper counts every cube but times no block (what a maker must wire).
    machine.reset_state()
    board = board_mod.Esp32Board()
    blocked = board._units[4]
    g0 = blocked.value()
    machine.drive(BEAM, 0)
    time.sleep_us(3000)
    assert blocked.value() == g0
    machine.drive(BEAM, 1)
    assert board.beam_count() == 1


def test_the_blocked_counter_counts_the_clock_only_while_the_beam_is_blocked():
    board, _ = _board()
    blocked = board._units[4]
    time.freeze()
    try:
        g0 = blocked.value()
        time.advance_us(3000)              # clear: held
        assert blocked.value() == g0
        machine.drive(BEAM, 0)
        time.advance_us(5000)              # blocked 5 ms: 5000 clock cycles
        machine.drive(BEAM, 1)
        time.advance_us(2000)
        assert blocked.value() - g0 == 5000
    finally:
        time.thaw()


def test_edges_come_out_in_order_with_their_times():
    board, _ = _board()
    board.attach()
    time.wrap_in_us(1500)                # ticks_us wraps (2**30) among these edges
    assert machine.irq_handler(BEAM) is not None
    assert machine._irqs[BEAM][1] == machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
    for _ in range(5):
        machine.drive(BEAM, 0)   # a cube blocks the beam
        time.sleep_us(300)
        machine.drive(BEAM, 1)
        time.sleep_us(300)
    edges = _take(board)
    assert [v for _, v in edges] == [1, 0] * 5, edges
    for i in range(1, len(edges)):
        assert time.ticks_diff(edges[i][0], edges[i - 1][0]) >= 250, edges
    assert _take(board) == []
    assert board.edges_lost == 0


def test_a_handler_that_runs_late_still_places_its_edge_exactly():
    # The interpreter busy (a C call, viper code: no scheduling point) 1.5 ms after a fall:
    # the handler runs then, and its reading of the counters puts the fall where it was.
    board, _ = _board()
    board.attach()
    time.freeze()
    try:
        t0 = time.ticks_us()
        _port.busy += 1                  # (nothing queued runs meanwhile)
        machine.drive(BEAM, 0)
        time.advance_us(1500)
        _port.busy -= 1
        machine.run_pending()            # the handler, 1.5 ms late
        time.advance_us(6000)
        machine.drive(BEAM, 1)
        machine.run_pending()
        time.advance_us(200)
        edges = _take(board)
    finally:
        time.thaw()
    assert [v for _, v in edges] == [1, 0], edges  # exact: no late bit (4)
    assert edges[0][0] == t0 and time.ticks_diff(edges[1][0], t0) == 7500, (t0, edges)


def test_a_handler_after_the_next_edge_gives_both_marked_late_the_counts_exact():
    # A 2 ms gap between two blocks, the interpreter busy across it: the rise and the next fall
    # come in one reading; their block lengths add up, each edge is marked late (bit 2).
    board, _ = _board()
    board.attach()
    time.freeze()
    try:
        t0 = time.ticks_us()
        machine.drive(BEAM, 0)
        machine.run_pending()
        time.advance_us(7000)
        _port.busy += 1
        machine.drive(BEAM, 1)
        time.advance_us(2000)
        machine.drive(BEAM, 0)
        time.advance_us(1000)
        _port.busy -= 1
        machine.run_pending()
        time.advance_us(6000)
        machine.drive(BEAM, 1)
        machine.run_pending()
        edges = _take(board)
    finally:
        time.thaw()
    assert [v for _, v in edges] == [1, 4, 5, 0], edges
    assert edges[0][0] == t0 and time.ticks_diff(edges[3][0], t0) == 16000, edges
    # (the gap keeps its 2 ms; it is placed in the middle of the time it can be in)
    assert time.ticks_diff(edges[2][0], edges[1][0]) == 2000, edges
    blocked = time.ticks_diff(edges[1][0], edges[0][0]) + time.ticks_diff(edges[3][0],
                                                                           edges[2][0])
    assert blocked == 14000, edges


def test_edge_handlers_allocate_nothing():
    board, _ = _board()
    board.attach()
    if not hasattr(micropython, "heap_lock"):
        print("SKIP heap_lock: not in this build")
        return
    # The lock works: an allocation inside it fails.
    micropython.heap_lock()
    try:
        try:
            _ = [1, 2, 3]
            allocated = True
        except MemoryError:
            allocated = False
    finally:
        micropython.heap_unlock()
    assert not allocated
    failed = []
    edges = []
    for gpio in (BEAM, LOWER):
        handler = machine.irq_handler(gpio)
        pin = machine._irqs[gpio][2]
        machine._irqs.pop(gpio)          # (the test calls the handler itself, heap locked)
        for k in range(20):
            machine.drive(gpio, k & 1)
            micropython.heap_lock()
            try:
                handler(pin)
            except MemoryError as exc:
                failed.append(exc)
            finally:
                micropython.heap_unlock()
            if k % 10 == 9:
                edges += _take(board)    # (10 readings at a time: the ring holds 16)
    assert not failed, "an IRQ handler allocated"
    assert [v for _, v in edges] == [1, 0] * 10 + [3, 2] * 10, edges


def test_a_burst_with_no_reading_between_gives_every_edge_late_and_a_storm_is_counted():
    board, _ = _board()
    board.attach()
    machine.edges(BEAM, (0, 1) * 5)      # five blips, no scheduling point between
    edges = _take(board)
    assert [v for _, v in edges] == [5, 4] * 5, edges  # all there, each marked late
    assert board.edges_lost == 0
    machine.edges(BEAM, (0, 1) * 15)     # fifteen: 12 placed, 3 falls counted as lost
    edges = _take(board)
    assert [v for _, v in edges] == [5, 4] * 12, edges
    assert board.edges_lost == 3 and board.beam_count() == 20


def test_two_edges_between_two_readings_never_split_a_block():
    # The interpreter busy across a 0.5 ms gap inside a block (no handler runs between its two
    # edges): the counters give the gap's exact length, only not its place, so the detector
    # merges it as the chatter it is (shorter than its debounce) and sees one block.
    from shogun_fw.colour import Classifier
    from shogun_fw.detector import Detector

    board, _ = _board()
    board.attach()
    det = Detector(board, Classifier(), lambda t, p: None)
    edges = []
    take = board.take_edges

    def seen(ts, vs):                    # (what the detector takes, kept)
        n = take(ts, vs)
        edges.extend((ts[i], vs[i]) for i in range(n))
        return n

    board.take_edges = seen
    time.freeze()
    try:
        machine.drive(BEAM, 0)
        machine.run_pending()            # (the fall's handler, on time)
        time.advance_us(5000)
        _port.busy += 1                  # busy: the rise and the fall queue no reading between
        machine.drive(BEAM, 1)
        time.advance_us(500)
        machine.drive(BEAM, 0)
        time.advance_us(800)
        _port.busy -= 1
        machine.run_pending()
        det.step()
        time.advance_us(5000)
        machine.drive(BEAM, 1)
        machine.run_pending()
        for _ in range(20):
            time.advance_us(1000)
            det.step()
    finally:
        time.thaw()
    assert [v for _, v in edges] == [1, 4, 5, 0], edges
    assert time.ticks_diff(edges[2][0], edges[1][0]) == 500, edges  # the gap's own length
    assert det.blocks == 1, det.blocks


def test_readings_lost_from_a_full_ring_lose_no_edge():
    # 12 blocks, each edge's handler on time, nobody taking the edges: 24 readings, the ring
    # holds 16. The oldest are overwritten; the next reading covers their edges (late).
    board, _ = _board()
    board.attach()
    for _ in range(12):
        machine.drive(BEAM, 0)
        time.sleep_us(400)
        machine.drive(BEAM, 1)
        time.sleep_us(400)
    edges = _take(board)
    assert [v & 3 for _, v in edges] == [1, 0] * 12, edges
    assert 0 < sum(1 for _, v in edges if v & 4) <= 12, edges
    assert board.capture.status[4] == 24 + 2 - 16  # (boards/__init__.py _S_SKIPPED, _N)
    assert board.edges_lost == 0


def test_edges_are_taken_in_parts_when_the_caller_has_less_room():
    # a burst of ten blips with no handler run (one reading: 20 edges), then four blocks with
    # their handlers on time: 28 edges, taken 25 at most at a time
    board, _ = _board()
    board.attach()
    machine.edges(BEAM, (0, 1) * 10)
    for _ in range(4):
        time.sleep_us(300)
        machine.drive(BEAM, 0)
        time.sleep_us(300)
        machine.drive(BEAM, 1)
    first = _take(board, 25)              # (a reading's edges fit 25: boards/__init__.py)
    rest = _take(board, 25)
    assert len(first) + len(rest) == 28 and len(first) <= 25 and rest, (first, rest)
    assert [v & 3 for _, v in first + rest] == [1, 0] * 14
    assert time.ticks_diff(rest[0][0], first[-1][0]) >= 0


def test_attach_forgets_edges_from_before_and_release_stops_them():
    board, chip = _board()
    board.attach()
    machine.drive(BEAM, 0)
    machine.drive(BEAM, 1)
    board.release()
    assert machine.irq_handler(BEAM) is None
    assert chip.regs[0x00] == 0          # the sensor sleeps
    machine.drive(BEAM, 0)
    machine.drive(BEAM, 1)
    board.attach()
    assert _take(board) == []
    machine.drive(BEAM, 0)
    edges = _take(board)
    assert len(edges) == 1 and edges[0][1] == 1, edges


def test_attach_takes_a_beam_blocked_at_start_as_blocked():
    board, _ = _board()
    machine.drive(BEAM, 0)               # a cube in front of the beam at start-up
    board.attach()
    machine.drive(BEAM, 1)
    edges = _take(board)
    assert [v for _, v in edges] == [0], edges


def test_lower_beam_edges_come_tagged_in_time_order_with_the_upper_ones():
    board, _ = _board()
    board.attach()
    assert machine.irq_handler(LOWER) is not None
    assert machine._irqs[LOWER][1] == machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
    machine.drive(BEAM, 0)       # a cube blocks the upper beam,
    time.sleep_us(9000)
    machine.drive(BEAM, 1)
    time.sleep_us(4000)
    machine.drive(LOWER, 0)      # then the lower one
    time.sleep_us(8000)
    machine.drive(LOWER, 1)
    time.sleep_us(300)
    edges = _take(board)
    assert [v for _, v in edges] == [1, 0, 3, 2], edges  # bit 0 blocked, bit 1 the lower beam
    assert time.ticks_diff(edges[2][0], edges[0][0]) >= 13000
    board.release()
    assert machine.irq_handler(LOWER) is None


def test_an_edge_sets_the_flag_a_waiting_task_sleeps_on_when_its_handler_runs():
    board, _ = _board()
    board.attach()
    board.edge_flag.clear()
    machine.drive(BEAM, 0)
    machine.run_pending()
    assert board.edge_flag.state
    machine.drive(BEAM, 1)


# ---- hardware counter ----------------------------------------------------------------------
def test_the_falls_count_without_any_handler():
    board, _ = _board()
    assert board.beam_count() == 0 and board.lower_count() == 0
    for _ in range(7):
        machine.drive(BEAM, 0)
        machine.drive(BEAM, 1)
    for _ in range(4):
        machine.drive(LOWER, 0)
        machine.drive(LOWER, 1)
    assert board.beam_count() == 7 and board.lower_count() == 4


def test_the_falls_count_goes_on_past_the_counters_limit():
    board, _ = _board()
    unit = board._units[0]
    board.beam_count()
    unit.count = COUNT_LIMIT - 4         # the counter near its limit, where it goes back to 0
    base = board.beam_count()
    for _ in range(12):
        machine.drive(BEAM, 0)
        machine.drive(BEAM, 1)
    assert unit.value() == 8             # the hardware went back to 0...
    assert board.beam_count() - base == 12  # ...the count the detector sees did not


# ---- colour sensor -------------------------------------------------------------------------
def test_read_colour_reads_one_burst_when_an_integration_ended():
    board, chip = _board()
    out = [0] * 6
    board.read_colour(out)               # whatever is pending from start-up
    chip.light = None
    chip.rgbc = [321, 654, 987, 1000]
    assert board.read_colour(out) is False  # AINT cleared: no new sample yet
    time.sleep_ms(3)
    chip.reads.clear()
    chip.commands.clear()
    assert board.read_colour(out) is True
    assert out[2:] == [321, 654, 987, 1000], out
    assert time.ticks_diff(out[1], out[0]) == 2400
    # STATUS (repeated byte), then C, R, G, B in one 8-byte auto-increment burst from 0x14
    assert chip.reads == [(0x80 | 0x13, 1), (0x80 | 0x20 | 0x14, 8)], chip.reads
    assert chip.commands == [0xE6]       # the RGBC interrupt cleared: the next sample is fresh
    assert board.read_colour(out) is False


def test_no_i2c_before_the_next_integration_can_end():
    # A status read costs bus time: after a sample, the board waits until the next one can be
    # done (2.4 ms less a margin) before it asks the sensor again.
    board, chip = _board()
    out = [0] * 6
    time.sleep_ms(3)
    time.freeze()  # the five reads within the integration, however loaded the machine is
    try:
        assert board.read_colour(out) is True
        chip.reads.clear()
        for _ in range(5):
            assert board.read_colour(out) is False
        assert chip.reads == [], chip.reads
        time.advance_us(3000)
        assert board.read_colour(out) is True
    finally:
        time.thaw()


def test_colour_sampling_sleeps_until_a_sample_can_be_ready():
    board, _ = _board()
    out = [0] * 6
    assert board.colour_wait_ms() == board.colour_period_ms  # nothing read yet: poll
    time.sleep_ms(3)
    time.freeze()  # the read and the question at one moment, however loaded the machine is
    try:
        assert board.read_colour(out) is True
        # the next integration ends 1.4-2.4 ms from now: sleep past the gate, not every ms
        assert board.colour_wait_ms() == 2
    finally:
        time.thaw()


def test_wake_in_sets_the_edge_flag_from_a_one_shot_timer():
    board, _ = _board()
    board.attach()
    board.edge_flag.clear()
    board.wake_in(0)
    assert board.edge_flag.state   # now: no timer
    board.edge_flag.clear()
    board.wake_in(450)
    timer = board._wake_timer
    assert timer.mode == machine.Timer.ONE_SHOT and timer.period == 450 and timer.id not in (0, 1)
    assert not board.edge_flag.state
    timer.fire()
    machine.run_pending()  # (the timer's callback is soft: queued, run at a scheduling point)
    assert board.edge_flag.state
    board.release()
    assert [t.id for t in machine.Timer.live] == [0]


def test_the_cpu_runs_at_240_mhz():
    # The CPU budget (docs/firmware.md) is for 240 MHz; stock firmware boots at 160 MHz.
    machine.reset_state()
    assert machine.freq() == 160000000
    _board()
    assert machine.freq() == 240000000


def test_read_colour_clips_at_the_saturation():
    board, chip = _board()
    chip.light = None
    chip.rgbc = [5000, 10, 10, 5000]
    time.sleep_ms(3)
    out = [0] * 6
    assert board.read_colour(out)
    assert out[2] >= board.saturation and out[5] >= board.saturation
    assert board._sensor.saturated(out[2:])


def test_a_sensor_that_stops_answering_raises_oserror():
    board, chip = _board()
    chip.fail = True
    try:
        board.read_colour([0] * 6)
        raise AssertionError("no OSError")
    except OSError:
        pass


# ---- LED strip -----------------------------------------------------------------------------
# (the strip's own tests: mpy_test_esp32_strip.py)
def test_a_flash_write_waits_for_the_frame_on_the_wire():
    # A flash write stops the UART's interrupt (the cache is off): a frame cut in two would
    # latch half of it.
    board, _ = _board()
    board.strip_init(100)
    uart = machine.UART.live[-1]
    dev = RamFlash()
    cwd = _mount(dev, mkfs=True)
    try:
        assert board.strip_write(bytes(300))
        assert not uart.txdone()
        board.flash_write_atomic("calibration.json", "new")
        assert uart.txdone() and board.flash_read("calibration.json") == "new"
    finally:
        _umount(cwd)


# ---- flash ---------------------------------------------------------------------------------
def test_flash_write_replaces_the_file_through_a_temporary():
    board, _ = _board()
    dev = RamFlash()
    cwd = _mount(dev, mkfs=True)
    try:
        assert board.flash_read("calibration.json") is None
        board.flash_write_atomic("calibration.json", "old")
        board.flash_write_atomic("calibration.json", "new")
        assert board.flash_read("calibration.json") == "new"
        assert sorted(os.listdir()) == ["calibration.json"]
    finally:
        _umount(cwd)


def test_a_power_cut_during_a_write_leaves_the_old_file_or_the_new():
    old = "O" * 600                      # three blocks each: a write takes several steps
    new = "N" * 700
    board, _ = _board()
    base = RamFlash()
    cwd = _mount(base, mkfs=True)
    try:
        board.flash_write_atomic("calibration.json", old)
    finally:
        _umount(cwd)
    seen = set()
    budget = 0
    while True:
        dev = RamFlash(data=base.data)
        cwd = _mount(dev)
        dev.budget = budget
        try:
            board.flash_write_atomic("calibration.json", new)
            done = True
        except OSError:
            done = False
        finally:
            _umount(cwd)
        after = RamFlash(data=dev.data)  # power back: mount what reached the flash
        cwd = _mount(after)
        try:
            text = board.flash_read("calibration.json")
        finally:
            _umount(cwd)
        assert text in (old, new), (budget, None if text is None else len(text))
        seen.add("new" if text == new else "old")
        if done:
            break
        budget += 1
        assert budget < 200
        gc.collect()
    assert seen == {"old", "new"}, seen


def test_a_full_flash_keeps_the_old_file():
    board, _ = _board()
    dev = RamFlash(blocks=16)
    cwd = _mount(dev, mkfs=True)
    try:
        board.flash_write_atomic("calibration.json", "old")
        try:
            board.flash_write_atomic("calibration.json", "x" * 6000)  # 16 blocks: 4 KB
            raise AssertionError("no OSError")
        except OSError:
            pass
        assert board.flash_read("calibration.json") == "old"
        board.flash_write_atomic("calibration.json", "new")  # and the space came back
        assert board.flash_read("calibration.json") == "new"
    finally:
        _umount(cwd)


# ---- watchdog, inject, serial, identity ----------------------------------------------------
def test_feed_watchdog_and_the_repl_timer():
    board, _ = _board()
    wdt = machine.WDT.last
    board.feed_watchdog()
    board.feed_watchdog()
    assert wdt.feeds == 2
    board.attach()
    board.release()                      # back to the REPL: a timer keeps feeding it
    assert len(machine.Timer.live) == 1 and machine.Timer.live[0].period == 1000
    machine.Timer.live[0].fire()
    machine.run_pending()
    assert wdt.feeds == 3
    board.attach()                       # the app again: the timer stops
    assert machine.Timer.live == []


def test_inject_pulses_the_beam_through_the_jumper():
    board, _ = _board()
    machine.wire(INJECT, BEAM)
    board.attach()
    time.wrap_in_us(10000)
    base = board.beam_count()
    levels = []

    async def go():
        board.inject(3, 2000, 5000)
        await asyncio.sleep_ms(60)
        levels.append(machine.level(INJECT))

    asyncio.run(go())
    ts = array.array("i", [0] * 16)
    vs = bytearray(16)
    n = board.take_edges(ts, vs)
    assert n == 6 and list(vs[:n]) == [1, 0, 1, 0, 1, 0], list(vs[:n])
    for i in range(0, 6, 2):
        assert time.ticks_diff(ts[i + 1], ts[i]) >= 2000   # the block
    for i in range(1, 5, 2):
        assert time.ticks_diff(ts[i + 1], ts[i]) >= 4000   # the gap (ms resolution)
    assert board.beam_count() - base == 3
    assert levels == [1]                 # released: the receiver has the line again


def test_serial_read_takes_what_is_waiting_and_never_blocks():
    board, _ = _board()
    s = _serial(board)
    assert board.serial_read() is None
    s.rx += bytes(range(256)) + b"xyz"
    assert bytes(board.serial_read()) == bytes(range(256))
    assert bytes(board.serial_read()) == b"xyz"
    assert board.serial_read() is None
    # at most what the caller asks for (the link's bytes a step), the rest left waiting
    s.rx += bytes(range(80))
    assert bytes(board.serial_read(64)) == bytes(range(64))
    assert bytes(board.serial_read(64)) == bytes(range(64, 80))
    assert board.serial_read(64) is None
    board.serial_write(b"\x01\x02")
    assert s.tx == b"\x01\x02"


def test_boot_payload_names_the_reset_cause():
    board, _ = _board()
    machine.set_reset_cause(machine.WDT_RESET)
    assert board.boot_payload(7) == struct.pack("<I", 7) + b"watchdog"
    machine.set_reset_cause(99)
    assert board.boot_payload(7)[4:] == b"unknown"
    assert 0 <= board.random32() < 1 << 32


def test_fatal_sends_last_words_keeps_the_traceback_and_resets():
    # (a failure of the running app; one in start-up: mpy_test_esp32_boot.py)
    board, _ = _board()
    s = _serial(board)
    board._stdout = s
    dev = RamFlash()
    cwd = _mount(dev, mkfs=True)
    try:
        try:
            board.fatal(ValueError("boom"))
            raise AssertionError("fatal returned")
        except machine.ResetCalled:
            pass
        with open("last_error.txt") as f:
            kept = f.read()
        assert kept.startswith("the app failed: ValueError: boom\n"), kept
        assert "ValueError: boom" in kept.split("\n", 1)[1]  # and its traceback
    finally:
        _umount(cwd)
    (mtype, seq, payload), = list(P.FrameReader().feed(bytes(s.tx)))
    assert mtype == P.FATAL and seq == 0
    assert P.unpack_text(payload)[1] == "the app failed: ValueError: boom"


# ---- the app on this board -----------------------------------------------------------------
def test_the_app_counts_injected_cubes_on_this_board():
    from shogun_fw import app

    board, _ = _board()
    machine.wire(INJECT, BEAM)
    s = _serial(board)
    dev = RamFlash()
    cwd = _mount(dev, mkfs=True)
    reader = P.FrameReader()
    frames = []

    async def host():
        task = asyncio.create_task(app.main(board))
        time.wrap_in_us(30000)           # ticks_us wraps in the middle of the throw
        s.rx += P.encode_frame(P.INJECT, 1, struct.pack("<HHH", 3, 7000, 20000))
        for _ in range(300):             # 3 s at most: the throw ends 400 ms after its last cube
            await asyncio.sleep_ms(10)
            for timer in (board._sample_timer, board._wake_timer):  # the hardware timers run
                if timer is not None and timer.callback is not None:
                    timer.fire()  # (their callbacks run at the loop's next scheduling point)
            frames.extend(reader.feed(bytes(s.tx)))
            s.tx = bytearray()
            if any(f[0] == P.THROW_END for f in frames):
                break
        # the REPL takes two steps: a nonce from the board, echoed back
        s.rx += P.encode_frame(P.REPL, 2)
        for _ in range(100):
            await asyncio.sleep_ms(10)
            nonce = [f[2] for f in reader.feed(bytes(s.tx)) if f[0] == P.REPL_NONCE]
            s.tx = bytearray()
            if nonce:
                break
        s.rx += P.encode_frame(P.REPL_CONFIRM, 3, nonce[0])
        await task

    try:
        asyncio.run(host())
    finally:
        _umount(cwd)
    # events are resent until acknowledged (this host sends no ACK): one of each sequence number
    seen = {}
    for f in frames:
        if f[0] in P.RELIABLE_TYPES:
            seen[f[1]] = f
    events = []
    for k in sorted(seen):
        events.append(seen[k])
    types = [f[0] for f in events]
    assert types.count(P.CUBE) == 3, types
    (end,) = [P.unpack_throw_end(f[2]) for f in events if f[0] == P.THROW_END]
    assert end["cubes"] == 3 and end["hw_count"] == 3, end
    assert P.ERROR not in types, events
    assert machine.WDT.last.feeds > 0          # every task showed a heartbeat
    assert machine.irq_handler(BEAM) is None   # released for the REPL
    assert len(machine.Timer.live) == 1


def test_gpio34_tells_the_score_track_which_source_feeds_the_strip():
    # R_SNS_HI/R_SNS_LO: GPIO34 high with the 5 V supply plugged in, held low without it; an
    # input-only pin, no pull of the chip's own (the divider drives it)
    from shogun_fw.score_track import ScoreTrack

    sense = PINS["power_sense"]
    board, _ = _board()
    assert sense == 34 and machine._modes[sense] == machine.Pin.IN
    assert not machine._pulls.get(sense)
    machine.drive(sense, 0)
    assert board.supply_5v() is False
    track = ScoreTrack(board)
    assert track.budget_ma == 370
    machine.drive(sense, 1)
    assert board.supply_5v() is True
    track.follow_source(False)
    t0 = time.ticks_ms()  # (the board's ticks_ms: the real clock, which the fake leaves alone)
    time.sleep_ms(400)
    track.follow_source(False)
    if time.ticks_diff(time.ticks_ms(), t0) < 520:  # (a loaded machine may sleep longer)
        assert track.budget_ma == 370  # within the hand-over
    time.sleep_ms(200)
    track.follow_source(False)
    assert track.budget_ma == 2400 and track.supply is True
    assert time.ticks_diff(time.ticks_ms(), t0) >= 520
    machine.drive(sense, 0)
    track.follow_source(False)
    assert track.budget_ma == 370 and track.supply is False


def test_the_supply_pulled_out_lowers_the_strip_in_gpio34s_own_handler():
    # Lower first: Q_SS hands the strip to USB some 20-60 ms after the jack falls; the track's
    # next look may be 100 ms away (a throw). GPIO34's falling edge schedules the track's
    # follow_source(True), which scales the strip's frame into USB's budget and writes it.
    from shogun_fw.score_track import ScoreTrack

    sense = PINS["power_sense"]
    board, _ = _board()
    machine.drive(sense, 1)
    track = ScoreTrack(board, rice_len=19, brightness=255)
    assert machine.irq_handler(sense) is not None  # (the track asked the board to watch it)
    track.follow_source(False)
    time.sleep_ms(550)
    track.follow_source(False)
    assert track.budget_ma == 2400
    track.set_segments(bytes((0, 0, 81, 7)))  # every VP LED white: 4.9 A, limited to 2.4 A
    track.render(0)
    assert 2000 < track.frame_ma <= 2400
    time.sleep_ms(5)  # (the last frame off the wire)
    writes = track.writes
    machine.drive(sense, 0)  # pulled out: the handler is queued...
    assert track.budget_ma == 2400
    machine.run_pending()  # ... and runs at the interpreter's next scheduling point
    assert track.budget_ma == 370 and track.supply is False
    assert track.writes == writes + 1 and track.frame_ma <= 370
    assert sum(track.frame) * 20 / 255 + len(track.frame) // 3 <= 370  # (power.py's model)
    machine.drive(sense, 1)  # plugged in again: no handler, the hand-over first
    machine.run_pending()
    assert track.budget_ma == 370
    board.release()
    assert machine.irq_handler(sense) is None
