# The ESP32 board's colour sampling (boards/esp32.py start_sampling, sampling, _on_sample) RUN
# on the MicroPython unix port against the fakes of tests/firmware/fake_machine (as
# mpy_test_esp32_board.py, whose module is near the 256K heap its tests run in): the timer's
# callback reads the sensor's burst straight into the detector's sample ring.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_machine")

import array  # noqa: E402
import struct  # noqa: E402
import time  # noqa: E402 - the fake (ESP32 ticks)

import machine  # noqa: E402 - the fake
import micropython  # noqa: E402
from tcs34725_chip import TCS34725Chip  # noqa: E402

from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import CAPTURE_CLOCK, CAPTURE_CLOCK_IN  # noqa: E402


def _board(sensor=True):
    machine.reset_state()
    machine.wire(CAPTURE_CLOCK, CAPTURE_CLOCK_IN)  # the tower's clock jumper
    chip = None
    if sensor:
        chip = TCS34725Chip(ident=0x44, light=lambda: (100, 200, 300, 700))
        machine.i2c_devices[0x29] = chip
    return board_mod.Esp32Board(), chip


SLOW_US = 48000  # boards/esp32.py _SLOW_US: a colour sample between throws


class _Ring:
    """A sample ring of 32 as the detector's (times: start, end of each, then the count;
    words: C, R, G, B of each), and what the board wrote into it."""

    def __init__(self, board, slots=32):
        self.times = array.array("i", bytes(4 * (2 * slots + 1)))
        self.words = array.array("H", bytes(8 * slots))
        self.errors = []
        self.slots = slots
        assert board.start_sampling(self.times, self.words, self.errors.append)
        self.timer = board._sample_timer
        assert self.timer in machine.Timer.live and self.timer.id != 0  # (0: the REPL's)

    def samples(self):
        """[t_start, t_end, C, R, G, B] of the samples in the ring, oldest first."""
        n = self.times[-1]
        out = []
        for k in range(max(0, n - self.slots), n):
            i = k & (self.slots - 1)
            out.append([self.times[2 * i], self.times[2 * i + 1]]
                       + list(self.words[4 * i:4 * i + 4]))
        return out


def _sampler(board):
    ring = _Ring(board)
    return ring, ring.errors, ring.timer


def test_colour_is_sampled_from_a_timer_in_one_burst_a_sample():
    # no task wakes and no status is polled per sample - the timer's soft callback
    # reads the latest integration in one 8-byte burst and hands it over.
    board, chip = _board()
    chip.light = None
    chip.rgbc = [321, 654, 987, 1000]
    ring, errors, timer = _sampler(board)
    assert timer.mode == machine.Timer.PERIODIC
    assert abs(timer.freq - 1000000 / SLOW_US) < 1e-6  # between throws: slowly
    board.sampling(True)
    assert abs(timer.freq - 1000000 / 2400) < 1e-6   # a cube may be in view: each integration
    assert machine.Timer.live.count(timer) == 1
    time.sleep_ms(3)
    chip.reads.clear()
    chip.commands.clear()
    chip.writes.clear()
    timer.fire()
    machine.run_pending()  # (soft: the callback runs at a scheduling point)
    assert chip.reads == [(0x80 | 0x20 | 0x14, 8)], chip.reads   # no STATUS read
    assert chip.commands == [] and chip.writes == []               # no interrupt to clear
    samples = ring.samples()
    assert len(samples) == 1 and not errors
    t0, t1 = samples[0][0], samples[0][1]
    assert time.ticks_diff(t1, t0) == 2400
    assert samples[0][2:] == [1000, 321, 654, 987], samples  # (C, R, G, B: the burst's order)
    board.sampling(False)
    assert abs(timer.freq - 1000000 / SLOW_US) < 1e-6


def test_a_late_callback_and_the_one_queued_behind_it_read_one_sample():
    # The scheduler can run a late timer callback and the next one back to back: the second
    # would read the same integration again.
    board, _ = _board()
    ring, _errors, timer = _sampler(board)
    board.sampling(True)
    time.sleep_ms(3)
    time.freeze()  # back to back: a loaded machine must not let an integration end between
    try:
        timer.fire()
        timer.fire()
        machine.run_pending()  # the two queued callbacks, back to back
        assert ring.times[-1] == 1
        time.advance_us(3000)
        timer.fire()
        machine.run_pending()
        assert ring.times[-1] == 2
    finally:
        time.thaw()


def test_a_sensor_that_stops_answering_is_reported_by_the_sampling_callback():
    board, chip = _board()
    ring, errors, timer = _sampler(board)
    chip.fail = True
    time.sleep_ms(50)
    timer.fire()
    machine.run_pending()
    assert ring.times[-1] == 0 and len(errors) == 1 and isinstance(errors[0], OSError)
    assert ring.times[0] == 0 and list(ring.words[:4]) == [0, 0, 0, 0]  # nothing written


def ref_on_sample(times, words, now, step, burst):
    """The ring after boards/esp32.py _on_sample read ``burst`` (4 words) at ``now``: the same
    steps in plain Python, every intermediate asserted to fit 32 bits (the ESP32's viper ints;
    64 here), ticks wrapping at 2^30."""
    def fit(x):
        assert -(1 << 31) <= x < (1 << 31), x
        return x

    k = fit(len(times) - 1)
    n = times[k]
    assert 0 <= n < (1 << 31)  # (read through ptr32: never negative)
    i = fit(n & fit((k >> 1) - 1))
    for q in range(4):
        words[fit(4 * i + q)] = burst[q]
    times[fit(2 * i)] = fit(now - step) & 0x3FFFFFFF
    times[fit(2 * i + 1)] = now
    times[k] = fit(n + 1)


def test_the_sampling_callback_writes_the_ring_as_its_32_bit_reference():
    # viper: across the 2^30 tick wrap, the ring's own wrap and the largest count,
    # 16-bit readings at their extremes (the bus's burst stands in for the chip, which clips)
    board, _chip = _board()
    ring, errors, timer = _sampler(board)
    board.sampling(True)
    burst = [0, 0, 0, 0]  # C, R, G, B

    def read(address, register, buf):
        assert (address, register, len(buf)) == (0x29, 0xB4, 8)
        buf[:] = struct.pack("<HHHH", *burst)

    board._ring = board._ring[:3] + (read, 0x29)
    values = ([0, 0, 0, 0], [65535, 65535, 65535, 65535], [4, 1, 2, 3], [7, 1023, 0, 65535])
    for start in (0, 31, 32, (1 << 30) - 3):
        ring.times[-1] = start
        time.wrap_in_us(6000)  # ticks_us wraps (2^30) among these samples
        board._sample_at = time.ticks_add(time.ticks_us(), -SLOW_US)  # (the clock jumped)
        for k in range(6):
            burst[:] = values[k % len(values)]
            want_t = array.array("i", ring.times)
            want_w = array.array("H", ring.words)
            time.sleep_ms(3)
            timer.fire()
            machine.run_pending()
            i = (start + k) & 31
            now = ring.times[2 * i + 1]
            assert 0 <= now < (1 << 30)
            ref_on_sample(want_t, want_w, now, 2400, burst)
            assert ring.times == want_t and ring.words == want_w, (start, k)
    assert not errors


def test_a_board_without_its_sensor_samples_nothing():
    board, _ = _board(sensor=False)
    assert board.start_sampling(array.array("i", bytes(4 * 65)), array.array("H", bytes(256)),
                                lambda e: None) is False
    board.sampling(True)  # (the detector may still ask)
    assert machine.Timer.live == []


def test_the_sampling_callback_and_the_detector_allocate_nothing_per_sample():
    from shogun_fw.colour import Classifier
    from shogun_fw.detector import Detector

    board, _ = _board()
    if not hasattr(micropython, "heap_lock"):
        print("SKIP heap_lock: not in this build")
        return

    def burst(address, register, buf):  # the sensor's burst without the fake chip's own
        buf[0] = 7                      # bookkeeping (it allocates)

    det = Detector(board, Classifier(), lambda t, p: None)
    assert det._start_sampling() is True
    board._ring = board._ring[:3] + (burst, 0x29)
    board.sampling(True)
    timer = board._sample_timer
    failed = False
    for _ in range(5):
        time.sleep_ms(2)
        micropython.heap_lock()
        try:
            timer.fire()
            machine.run_pending()
        except MemoryError:
            failed = True
        finally:
            micropython.heap_unlock()
    assert not failed, "a sample allocated"
    assert det._n == 5 and det._sv[0] == 7  # (C is the burst's first word)


def test_release_stops_the_sampling_timer():
    board, _ = _board()
    _sampler(board)
    board.attach()
    board.release()
    assert [t.id for t in machine.Timer.live] == [0]  # only the REPL's watchdog feeder
