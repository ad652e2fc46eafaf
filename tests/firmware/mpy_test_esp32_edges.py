# The ESP32 board's edge path (boards/esp32.py _on_edge, _on_edge_lower, take_edges: viper)
# RUN on the MicroPython unix port against the fakes of tests/firmware/fake_machine, compared
# with a plain-Python reference on extreme inputs (its own module: mpy_test_esp32_board.py is
# near the 256K heap its tests run in). On the ESP32 a viper int is 32 bits, here 64: the
# reference asserts that every intermediate fits 32 bits.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_machine")

import array  # noqa: E402

import machine  # noqa: E402 - the fake

from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import PINS  # noqa: E402

BEAM = PINS["beam_upper"]
LOWER = PINS["beam_lower"]


def _board():
    machine.reset_state()
    return board_mod.Esp32Board()

_M30 = (1 << 30) - 1


def _fit(x):
    # on the ESP32 a viper int is 32 bits (here 64): every intermediate must fit
    assert -(1 << 31) <= x < (1 << 31), "a viper int overflows 32 bits: %d" % x
    return x


class _RefRing:
    """What _on_edge / _on_edge_lower / take_edges do, step by step in plain Python, each
    intermediate checked against 32 bits; the counts mod 2^30 as the board keeps them."""

    def __init__(self, w, lost):
        self.t = [0] * 64
        self.v = [0] * 64
        self.w = w
        self.r = w
        self.lost = lost

    def edge(self, tick, tag):
        i = self.w & 63
        self.t[i] = tick
        self.v[i] = tag
        self.w = _fit(self.w + 1) & _M30

    def take(self, cap):
        d = _fit(self.w - self.r) & _M30
        r = self.r
        if d > 64:
            self.lost = _fit(_fit(self.lost + d) - 64)
            r = _fit(self.w - 64) & _M30
            d = 64
        n = min(d, cap)
        out = []
        for k in range(n):
            i = _fit(r + k) & 63
            out.append((self.t[i], self.v[i]))
        self.r = _fit(r + n) & _M30
        return out


class _Ticks:
    # stands for the board module's `time`: ticks_us gives the value the test chose
    def __init__(self):
        self.now = 0

    def ticks_us(self):
        return self.now


def test_viper_edge_path_matches_the_reference_on_extreme_inputs():
    # The counts start just below their 2^30 wrap, the ticks cross theirs (0 and 2^30 - 1
    # among them), bursts of 0-150 edges between two takes overflow the ring of 64 (edges_lost
    # starting near its own bound), the caller's room from 1 to 100.
    ticks = _Ticks()
    real_time = board_mod.time
    board_mod.time = ticks
    try:
        seed = 12345

        def rand(n):
            nonlocal seed
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            return (seed >> 8) % n

        for w0, lost0 in ((0, 0), (_M30 - 2, 0), (_M30 - 63, 1000), (_M30 - 130, (1 << 30) - 5000),
                          (_M30, 7)):
            board = _board()
            board.attach()
            upper = machine.irq_handler(BEAM)
            lower = machine.irq_handler(LOWER)
            upin = machine._irqs[BEAM][2]
            lpin = machine._irqs[LOWER][2]
            board._edge_w = board._edge_r = w0
            board.edges_lost = lost0
            ref = _RefRing(w0, lost0)
            ticks.now = _M30 - 40
            ts = array.array("i", [0] * 100)
            vs = bytearray(100)
            for _ in range(60):
                burst = rand(151) if rand(4) == 0 else rand(9)
                for _ in range(burst):
                    pick = rand(10)
                    ticks.now = (0, _M30, (ticks.now + 1 + rand(5000)) & _M30)[min(pick, 2)]
                    level = rand(2)
                    board.edge_flag.clear()
                    if rand(2):
                        machine.set_level_quietly(BEAM, level)
                        upper(upin)
                        ref.edge(ticks.now, 0 if level else 1)
                    else:
                        machine.set_level_quietly(LOWER, level)
                        lower(lpin)
                        ref.edge(ticks.now, 2 if level else 3)
                    assert board.edge_flag.state
                cap = 1 + rand(100)
                want = ref.take(cap)
                got = board.take_edges(memoryview(ts)[:cap], memoryview(vs)[:cap])
                assert got == len(want), (w0, got, len(want))
                assert [(ts[k], vs[k]) for k in range(got)] == want, w0
                assert board.edges_lost == ref.lost
                assert board._edge_w == ref.w and board._edge_r == ref.r
            board.release()
    finally:
        board_mod.time = real_time


def test_each_handler_wraps_the_ring_count_at_2_30():
    # Both handlers cross the count's wrap themselves (the random walk above may not pick the
    # handler that does), at the tick's own ends.
    ticks = _Ticks()
    real_time = board_mod.time
    board_mod.time = ticks
    try:
        board = _board()
        board.attach()
        ts = array.array("i", [0] * 4)
        vs = bytearray(4)
        for gpio, tags in ((BEAM, (1, 0)), (LOWER, (3, 2))):
            handler = machine.irq_handler(gpio)
            pin = machine._irqs[gpio][2]
            board._edge_w = board._edge_r = _M30
            for level, tick in ((0, _M30), (1, 0)):
                ticks.now = tick
                machine.set_level_quietly(gpio, level)
                handler(pin)
            assert board._edge_w == 1, board._edge_w
            assert board.take_edges(ts, vs) == 2
            assert (ts[0], vs[0], ts[1], vs[1]) == (_M30, tags[0], 0, tags[1])
            assert board._edge_r == 1 and board.edges_lost == 0
        board.release()
    finally:
        board_mod.time = real_time
