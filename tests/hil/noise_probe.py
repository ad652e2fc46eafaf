# Runs ON the board (MicroPython), started by tests/hil/test_sensor_noise.py through
# `mpremote run`: the colour sensor's read noise, the figure the simulated tower assumes (6 counts
# a channel, boards/sim.py _sense) and every unknown colour of the benches rests on. With the
# chute empty: N fresh one-step (2.4 ms) readings with the LED off (the sensor's own noise, no
# light's shot noise) and on (the far wall lit), at 16x and at the boards' gain (60x), each
# channel's mean and standard deviation. Prints one line: "NOISE_PROBE {json}".
#   mpremote connect PORT run tests/hil/noise_probe.py
import json
import math
import time

from shogun_fw.boards.esp32 import Esp32Board

N = 200


def spread(sensor, n):
    """Per channel (R, G, B, C): [mean, standard deviation] over n fresh readings."""
    raw = [0, 0, 0, 0]
    s = [0, 0, 0, 0]
    sq = [0, 0, 0, 0]
    got = 0
    while got < n:
        if not sensor.ready():
            time.sleep_us(200)
            continue
        sensor.read_raw(raw)
        got += 1
        for i in range(4):
            s[i] += raw[i]
            sq[i] += raw[i] * raw[i]
    return [[s[i] / n, math.sqrt(max(0.0, sq[i] / n - (s[i] / n) ** 2))] for i in range(4)]


def main():
    board = Esp32Board()
    sensor = board._sensor
    out = {"sensor": sensor is not None}
    if sensor is None:
        print("NOISE_PROBE " + json.dumps(out))
        return
    gain = sensor.gain
    for g in (16, 60):  # (the boards' gain is 60x: 16x is what tells whether it grows with it)
        sensor.set_gain(g)
        for lit in (0, 1):
            board._colour_led(lit)
            time.sleep_ms(10)
            sensor.clear()
            out[("on_" if lit else "off_") + str(g)] = spread(sensor, N)
    sensor.set_gain(gain)
    board._colour_led(1)
    out["gain"] = gain
    out["saturation"] = sensor.saturation
    print("NOISE_PROBE " + json.dumps(out))


main()
