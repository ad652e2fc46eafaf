# Runs ON the board (MicroPython), started by tests/hil/test_sensor_clock.py through
# `mpremote run`: the colour sensor's own clock as the board learns it (boards/esp32.py
# learn_clock), checked two ways only the part can answer:
# - against the sensor's status: after the clock is learnt, fresh looks at AINT some time later
#   (no look between), how far the ends it foretold were off;
# - against the light itself: the colour LED switched on at a known point of an integration as
#   the board places it, the reading of that integration shows the LED's light for the share of
#   it after the switch (the stamps are where the light was gathered, not where the status says).
# The LED's light must come back to the sensor: the empty chute's far wall does, a white card in
# the window more. Prints one line: "CLOCK_PROBE {json}".
#   mpremote connect PORT run tests/hil/clock_probe.py
import json
import time

from shogun_fw.boards.esp32 import Esp32Board, _last_end

AFTER_MS = (400, 1000, 2000, 4000)  # how long after a look the foretold end is checked
SHARES = (250, 500, 750)            # where in an integration the LED comes on (1/1000)


def foretold(board, after_ms):
    """How far the end foretold after_ms after the last look is from a fresh look (us)."""
    board._resync()  # (a look now: the clock as a throw would start on it)
    time.sleep_ms(after_ms)
    lock = board._lock
    now = time.ticks_us()
    due = time.ticks_add(_last_end(lock, now), lock[1])
    got = board._look_near(due)
    return None if got is None else time.ticks_diff(got, due)


def clear_channel(board):
    raw = board._raw
    board._sensor.read_raw(raw)
    return raw[3]


def lit_share(board, share):
    """The clear channel of the integration the LED came on in, as a share (1/1000) of the
    LED's whole light: the LED on `share` of the way through it as the board places it."""
    lock, led, sensor = board._lock, board._colour_led, board._sensor
    period = lock[1]
    led(0)
    time.sleep_ms(10)
    dark = clear_channel(board)
    led(1)
    time.sleep_ms(10)
    full = clear_channel(board)
    led(0)
    time.sleep_ms(10)
    end = _last_end(lock, time.ticks_us())
    start = time.ticks_add(end, period)  # the next integration's start
    on_at = time.ticks_add(start, period * share // 1000)
    while time.ticks_diff(on_at, time.ticks_us()) > 0:
        pass
    led(1)
    done = time.ticks_add(start, period + 300)  # its end, and the burst after it
    while time.ticks_diff(done, time.ticks_us()) > 0:
        pass
    sensor.read_into(board._burst)
    b = board._burst
    seen = b[0] | b[1] << 8  # C: the burst's first word
    return (1000 * (seen - dark)) // max(1, full - dark), full - dark


def main():
    board = Esp32Board()
    out = {"sensor": board._sensor is not None}
    if board._sensor is None:
        print("CLOCK_PROBE " + json.dumps(out))
        return
    t0 = time.ticks_ms()
    out["learnt"] = board.learn_clock()
    out["learn_ms"] = time.ticks_diff(time.ticks_ms(), t0)
    lock = board._lock
    out["period_us"] = lock[1] + lock[2] / 256
    out["foretold_us"] = [[ms, foretold(board, ms)] for ms in AFTER_MS for _ in range(3)]
    # the bracket of a look: two status polls apart (the board's error on an end: half of it)
    s = board._sensor
    t = time.ticks_us()
    for _ in range(20):
        s.ready()
    out["poll_us"] = time.ticks_diff(time.ticks_us(), t) // 20
    out["shares"] = [[share] + list(lit_share(board, share)) for share in SHARES
                     for _ in range(3)]
    board._colour_led(1)
    print("CLOCK_PROBE " + json.dumps(out))


main()
