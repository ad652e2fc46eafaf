# A collection of the heap between throws at its worst moment (bench_cpu.py): the loop held up
# as a throw's first cube breaks the upper beam, played as on an ESP32 (simtime.play: the
# detector's wakes, the board's colour timer), throws of the faithful simulated outlet
# (tests/firmware/esp32_play.py, the tests' own); each stall against the truth.
#   cd tests/firmware; micropython collection_stall.py THROWS CUBES STALL_US...
#   (MICROPYPATH: tests/firmware, firmware, common)
# Prints one JSON line: for each stall (us), esp32_play.tally's counts.
import json
import sys

from esp32_play import tally


def main():
    throws = int(sys.argv[1])
    cubes = int(sys.argv[2])
    out = {}
    for stall in sys.argv[3:]:
        out[stall] = tally(throws, cubes, int(stall))
    print(json.dumps(out))


main()
