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


def _board(sensor=True, period_us=2400, init_us=0):
    machine.reset_state()
    machine.wire(CAPTURE_CLOCK, CAPTURE_CLOCK_IN)  # the tower's clock jumper
    chip = None
    if sensor:
        chip = TCS34725Chip(ident=0x44, light=lambda: (100, 200, 300, 700))
        chip.period_us = period_us  # its own oscillator
        chip.init_us = init_us
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
    assert abs(time.ticks_diff(t1, t0) - 2400) <= 2  # (the sensor's period as the board learnt it)
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


CLOCK_ERR_US = 150  # detector.py _CLOCK_ERR_US: what the detector allows the stamps to be off


def _stamps_against_the_chip(board, chip, ring, n, gap_us):
    """n samples taken a gap apart at fast rate: each one's stamped end against the end of the
    integration the chip had ended when it was read, and how late the read came after it."""
    timer = board._sample_timer
    errors, lates = [], []
    seen = ring.times[-1]
    for q in range(n):
        time.sleep_us(gap_us + 97 * (q % 7))  # (at every phase of the sensor's clock)
        before = time.ticks_us()
        timer.fire()
        machine.run_pending()
        if ring.times[-1] == seen:
            continue  # the same integration as the last sample: no burst
        seen = ring.times[-1]
        read_at = chip.last_latch
        if time.ticks_diff(read_at, before) > 600:
            continue  # this machine stalled the callback (on the board only an ISR can)
        true_end = chip.end_before(read_at)
        end = ring.samples()[-1][1]
        errors.append(time.ticks_diff(end, true_end))
        lates.append(time.ticks_diff(read_at, true_end))
    return errors, lates


def _learnt(board):
    # (start_sampling learnt the clock; a test machine that stalled six looks in a row - other
    # processes, a collection of the fakes' garbage - gets two more tries, as a board would
    # not need them: nothing else runs at its start)
    for _ in range(2):
        if board._lock[1]:
            break
        board.learn_clock()
    return board._lock


def test_samples_are_stamped_on_the_sensors_own_clock():
    # The sensor integrates on its own oscillator (here 2 % fast, its first integration late):
    # the board learns the clock from the status's AINT before it samples, and stamps each
    # sample with the integration the burst read, not with the read's time.
    board, chip = _board(period_us=2352, init_us=700)
    ring = _Ring(board)
    lock = _learnt(board)
    assert lock[1] != 0, list(lock)  # learnt
    assert abs(lock[1] + lock[2] / 256 - 2352) < 1.0, list(lock)
    assert 0xE6 in chip.commands  # (AINT cleared for each look)
    board.sampling(True)
    errors, lates = _stamps_against_the_chip(board, chip, ring, 40, 2400)
    assert len(errors) >= 25, errors
    assert max(abs(e) for e in errors) < CLOCK_ERR_US, errors
    # what a stamp by the read would have been off: most of a step at some phases
    assert max(lates) > 1000, lates
    for s in ring.samples()[-len(errors):]:
        assert abs(time.ticks_diff(s[1], s[0]) - 2352) <= 1, s


def test_between_throws_the_board_looks_at_the_sensors_clock_again():
    # Its oscillator drifts (heat): a look every few slow samples sets the clock again, so a
    # throw starts on it. Here the learnt end is put 600 us off; the next look corrects it (a
    # look something ran in the middle of is taken again at the next: up to three rounds here).
    board, chip = _board(period_us=2448)
    ring = _Ring(board)
    lock = _learnt(board)
    assert lock[1] != 0, list(lock)
    base, count = lock[4], lock[5]
    lock[0] = time.ticks_add(lock[0], 600)
    timer = board._sample_timer
    off = 600
    for _ in range(3 * 8):  # (boards/esp32.py _RESYNC_SLOW; half a slow period apart at least)
        time.sleep_ms(SLOW_US // 2000 + 1)
        timer.fire()
        machine.run_pending()
        off = time.ticks_diff(lock[0], chip.end_before(time.ticks_add(lock[0], 200)))
        if lock[3] == 0 and abs(off) < CLOCK_ERR_US:
            break
    assert abs(off) < CLOCK_ERR_US, (list(lock), off)
    # a lost end starts a new baseline; a found one counts on from learn_clock's
    assert lock[4] == lock[0] and lock[5] == 0 or lock[4] == base and lock[5] > count, list(lock)
    board.sampling(True)
    errors, _lates = _stamps_against_the_chip(board, chip, ring, 12, 2400)
    assert errors and max(abs(e) for e in errors) < CLOCK_ERR_US, (errors, list(lock))


def test_a_sensor_whose_clock_cannot_be_learnt_is_stamped_by_its_reads():
    # (no integration ends: AEN cleared behind the board's back) the board samples as before,
    # each sample one step before its read
    board, chip = _board()
    chip.init_us = 10 ** 8
    ring = _Ring(board)
    assert board._lock[1] == 0
    board.sampling(True)
    time.sleep_ms(3)
    before = time.ticks_us()
    board._sample_timer.fire()
    machine.run_pending()
    t0, t1 = ring.samples()[-1][:2]
    assert time.ticks_diff(t1, t0) == 2400 and 0 <= time.ticks_diff(t1, before) < 2000


def ref_last_end(lock, t):
    """boards/esp32.py _last_end in plain Python, every intermediate asserted to fit 32 bits."""
    def fit(x):
        assert -(1 << 31) <= x < (1 << 31), x
        return x

    if lock[1] == 0:
        return -1
    d = fit(((fit(t - lock[0]) + (1 << 29)) & 0x3FFFFFFF) - (1 << 29))
    if d < 0:
        return -1
    m = d // lock[1]
    e = fit(fit(m * lock[1]) + (fit(m * lock[2]) >> 8))
    while e > d:
        m -= 1
        e = fit(fit(m * lock[1]) + (fit(m * lock[2]) >> 8))
    assert 0 <= d - e <= lock[1]  # the last end: within a period
    return fit(lock[0] + e) & 0x3FFFFFFF


def test_last_end_matches_its_32_bit_reference():
    lock = array.array("i", (0, 2400, 0, 0))
    for a in (0, 5, (1 << 30) - 7, 1 << 29):
        for p, fr in ((2270, 0), (2400, 0), (2560, 255), (2351, 128)):
            for d in (0, 1, p - 1, p, p + 1, 1000003, (1 << 29) - 1, (1 << 29), -1, -5000):
                lock[0], lock[1], lock[2] = a, p, fr
                t = (a + d) & 0x3FFFFFFF
                assert board_mod._last_end(lock, t) == ref_last_end(lock, t), (a, p, fr, d)
    lock[1] = 0
    assert board_mod._last_end(lock, 12345) == -1


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
    board._lock[1] = 0  # (the clock forgotten: the clock jumps below; stamps by the read)
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
        time.sleep_ms(3)  # (past one integration of the sensor: every fire reads a new one)
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
