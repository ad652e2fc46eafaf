# Virtual time for the simulated board (tests and the benchmark, never the firmware): drives a
# Detector as the firmware's tasks would.
import time


def drive(board, detector, us, step_us=1000, sample_us=2400, timer=None):
    """Virtual time: run ``detector`` on ``board`` for ``us`` microseconds (a detector step
    every ms - finer than the firmware's wakes; the decisions follow the edges' and samples'
    own times, only a cube's emission may come a little later there - and a colour sample every
    2.4 ms, as the board's timer takes them).
    With ``timer`` (a list of one int), the microseconds spent inside the detector are added
    to timer[0]."""
    reading = detector._reading
    next_sample = sample_us
    t = 0
    clock = time.ticks_us
    while t < us:
        dt = step_us if next_sample > step_us else next_sample
        board.advance(dt)
        t += dt
        next_sample -= dt
        fresh = False
        if next_sample <= 0:
            next_sample += sample_us
            fresh = board.read_colour(reading)  # the sensor's work, not the firmware's
        if timer is not None:
            c0 = clock()
        if fresh:
            detector.add_sample(reading)
        detector.step()
        if timer is not None:
            timer[0] += time.ticks_diff(clock(), c0)
