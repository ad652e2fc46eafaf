# Runs ON the board (MicroPython), started by tests/hil/test_cpu_budget.py through
# `mpremote run`: the firmware's own tasks (detector, colour sampling, score track animating) on
# the real board while the inject pin sends throws of cube-sized pulses through the jumper, and
# what only the part can say about them:
# - the capture: every pulse counted, how many of its edges came late (a soft handler after
#   the next edge of its beam), the 1 MHz clock counted on its own pad while the beam is
#   blocked, and a block longer than the 16-bit counter's 65.5 ms placed right;
# - the longest loop stall and the longest gap between two colour samples;
# - how long a strip write holds the loop, a collection of this heap, and the CPU's clock.
# The link's tasks are not run and its frames are dropped (the serial port is mpremote's while
# this runs). Prints one line: "CPU_PROBE {json}".
#   mpremote connect PORT run tests/hil/cpu_probe.py
import array
import asyncio
import gc
import json
import time

from shogun_common import protocol as P
from shogun_fw import VERSION
from shogun_fw.boards.esp32 import Esp32Board
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector
from shogun_fw.link import Link
from shogun_fw.score_track import ScoreTrack

THROWS = 3
CUBES = 40
BLOCK_US = 6000
GAP_US = 3000
IDLE_MS = 2000
LONG_US = 70000  # a block past the blocked counter's limit
COUNT_LIMIT = 32000  # each counter's max= (boards/__init__.py _LIMIT: a const, no attribute)


class Stats:
    def __init__(self):
        self.stall_us = 0         # longest loop stall
        self.stall_throw_us = 0   # ... while a throw was going on
        self.gap_us = 0           # longest gap between two samples, in a throw
        self.last_end = None
        self.samples = 0
        self.in_throw = False


def clock_check(board):
    """The blocked counter's microseconds for a 5 ms and a 70 ms pulse through the jumper, and
    the edges the capture gives for them: (counted, placed) pairs in us."""
    out = []
    pin = board._inject
    ts = array.array("i", [0] * 32)
    vs = bytearray(32)
    for us in (5000, LONG_US):
        board.take_edges(ts, vs)
        g0 = board._units[4].value()
        pin(0)
        time.sleep_us(us)
        pin(1)
        time.sleep_ms(2)
        counted = (board._units[4].value() - g0) % COUNT_LIMIT
        n = board.take_edges(ts, vs)
        placed = time.ticks_diff(ts[n - 1], ts[n - 2]) if n >= 2 else -1
        out.append((counted, placed))
    return out


def main():
    gc.collect()
    board = Esp32Board()
    # (mpremote's port: only the JSON line goes out)
    board.serial_write = lambda data, off=0, n=-1: None
    board.attach()
    clock = clock_check(board)
    stats = Stats()
    classifier = Classifier.load(board)
    track = ScoreTrack(board)
    link = Link(board, VERSION)
    detector = Detector(board, classifier, link.send_event)
    late0 = board.capture.status[2]  # (boards/__init__.py _S_LATE)
    taken0 = board.capture.status[5]  # (_S_TAKEN)
    # The board's sampling callback writes each sample straight into the detector's ring
    # (boards/esp32.py start_sampling: 2 times a slot, then the count): the gaps are read from
    # there, every loop turn (the ring holds 77 ms of samples; a turn is far shorter).
    times = detector._st
    slots = (len(times) - 1) // 2
    looked = [0]

    def new_samples():
        n = times[-1]
        k = looked[0] if n - looked[0] <= slots else n - slots
        while k < n:
            end = times[2 * (k & (slots - 1)) + 1]
            if stats.in_throw and stats.last_end is not None:
                gap = time.ticks_diff(end, stats.last_end)
                if gap > stats.gap_us:
                    stats.gap_us = gap
            stats.last_end = end
            stats.samples += 1
            k += 1
        looked[0] = n

    async def probe():
        # A task that only yields: between two of its turns every other task ran once; the
        # longest such interval is the longest stall the loop made anyone wait.
        last = time.ticks_us()
        while True:
            await asyncio.sleep_ms(0)
            new_samples()
            now = time.ticks_us()
            d = time.ticks_diff(now, last)
            last = now
            if d > stats.stall_us:
                stats.stall_us = d
            if stats.in_throw and d > stats.stall_throw_us:
                stats.stall_throw_us = d

    async def throws():
        for _ in range(THROWS):
            track.animate(P.ANIM_BATTLE, 1)
            stats.in_throw = True
            board.inject(CUBES, BLOCK_US, GAP_US)
            await asyncio.sleep_ms(CUBES * (BLOCK_US + GAP_US) // 1000 + 50)
            stats.in_throw = False
            await asyncio.sleep_ms(IDLE_MS)

    async def run():
        tasks = [asyncio.create_task(detector.run()), asyncio.create_task(detector.run_colour()),
                 asyncio.create_task(track.run()), asyncio.create_task(probe())]
        await throws()
        for t in tasks:
            t.cancel()

    asyncio.run(run())
    board.release()
    # A strip write on the real UART: how long it holds the loop (the encoding and the copy into
    # the UART driver's buffer), and how long until the next frame may go (its wire time and the
    # reset, drivers/ws2812_uart.py).
    frame = track.frame
    strip = board._strip
    while not strip.idle():
        pass
    t0 = time.ticks_us()
    wrote = board.strip_write(frame)
    write_us = time.ticks_diff(time.ticks_us(), t0)
    while not strip.idle():
        pass
    busy_us = time.ticks_diff(time.ticks_us(), t0)
    # A collection of this heap: it holds every soft handler up (docs/firmware.md, Capture)
    gc_us = 0
    for _ in range(3):
        t0 = time.ticks_us()
        gc.collect()
        gc_us = max(gc_us, time.ticks_diff(time.ticks_us(), t0))
    try:
        import machine

        freq = machine.freq()
    except (ImportError, AttributeError):
        freq = 0
    print("CPU_PROBE " + json.dumps({
        "gc_us": gc_us, "cpu_hz": freq, "clock": clock, "long_us": LONG_US, "limit": COUNT_LIMIT,
        "late_edges": board.capture.status[2] - late0,
        "edges": board.capture.status[5] - taken0, "tower_build": board._cap is not None,
        "stall_us": stats.stall_us, "stall_throw_us": stats.stall_throw_us,
        "sample_gap_us": stats.gap_us, "samples": stats.samples, "cubes": detector.cubes,
        "hw_count": detector.hardware_count(), "throws": THROWS, "cubes_per_throw": CUBES,
        "mem_free": gc.mem_free(), "strip_leds": len(frame) // 3, "strip_wrote": wrote,
        "strip_write_us": write_us, "strip_busy_us": busy_us}))


main()
