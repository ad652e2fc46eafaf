# The real board's LED strip (boards/esp32.py, drivers/ws2812_uart.py) on the MicroPython unix
# port with the fake `machine` (tests/firmware/fake_machine/): what the strip's data line does,
# decoded as a WS2812B would, from what the board hands its UART.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_machine")

import gc  # noqa: E402
import time  # noqa: E402 - the fake (ESP32 ticks)

import machine  # noqa: E402 - the fake
from tcs34725_chip import TCS34725Chip  # noqa: E402

from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import PINS, STRIP_RX  # noqa: E402


def _board():
    machine.reset_state()
    machine.i2c_devices[0x29] = TCS34725Chip(ident=0x44, light=lambda: (10, 20, 30, 60))
    return board_mod.Esp32Board()


def _line(uart):
    """What the strip's data line does, one level per UART bit (400 ns), for everything the
    UART sent: each frame is a start bit (0), the data bits LSB first and a stop bit (1), then
    the TX inversion. Independent of the driver's table. (A generator: 256 LEDs are 18,432
    levels.)"""
    flip = 1 if uart.invert & machine.UART.INV_TX else 0
    for data in uart.written:
        for byte in data:
            assert byte < 1 << uart.bits
            yield flip
            for k in range(uart.bits):
                yield ((byte >> k) & 1) ^ flip
            for _ in range(uart.stop):
                yield 1 ^ flip


def _pulses(levels):
    """(high, low) run lengths, each bit a rising edge, its high and its low."""
    high = low = 0
    for v in levels:
        if v:
            if low:
                yield high, low
                high = low = 0
            high += 1
        else:
            assert high, "the line starts low or a bit starts with a fall"
            low += 1
    if high:
        yield high, low


def _strip_reads(uart, leds):
    """What a WS2812B makes of the line: each bit is a high pulse and a low one; a short high
    (250-550 ns) is a 0, a long one (650-950 ns) a 1 (datasheet: 400/800 ns +-150 ns), each low
    within its own tolerance. Returns (R, G, B) per LED from the G, R, B on the wire."""
    ns = 1000000000 // uart.baudrate
    out = []
    grb = [0, 0, 0]
    n = 0
    for high, low in _pulses(_line(uart)):
        if 250 <= high * ns <= 550:
            bit = 0
            assert 700 <= low * ns <= 1000, (high, low)
        elif 650 <= high * ns <= 950:
            bit = 1
            assert 300 <= low * ns <= 600, (high, low)
        else:
            raise AssertionError("a %d ns high pulse is no WS2812B bit" % (high * ns))
        c = (n // 8) % 3
        grb[c] = (grb[c] << 1 | bit) & 0xFF
        n += 1
        if n % 24 == 0:
            out.append((grb[1], grb[0], grb[2]))
    assert n == 24 * leds, n
    return out


def test_the_strip_is_a_uart_tx_line_inverted_at_2_5_mbaud():
    board = _board()
    board.strip_init(100)
    uart = machine.UART.live[-1]
    assert uart.id == board_mod.STRIP_UART and uart.tx == PINS["led_strip"]
    assert uart.rx == STRIP_RX  # its RX on an unconnected pin (v1.28.0 has no "no pin")
    assert uart.baudrate == 2500000 and uart.bits == 7 and uart.stop == 1 and uart.parity is None
    assert uart.invert == machine.UART.INV_TX  # the line idles low: the strip's reset
    assert uart.txbuf >= 8 * 100 * 2  # a frame fits twice: a write only copies


def test_the_strip_reads_back_each_led_in_red_green_blue():
    board = _board()
    board.strip_init(5)
    uart = machine.UART.live[-1]
    frame = bytes(range(1, 16))          # R, G, B per LED
    assert board.strip_write(frame) is True
    assert len(uart.written) == 1 and len(uart.written[0]) == 8 * 5
    assert _strip_reads(uart, 5) == [tuple(frame[3 * i:3 * i + 3]) for i in range(5)]


def test_every_byte_value_reaches_the_strip_on_every_channel():
    # (two frames of 128 LEDs: one of 256 needs more room than the test heap has in one piece)
    for half in (0, 128):
        board = _board()
        board.strip_init(128)
        uart = machine.UART.live[-1]
        frame = bytearray(3 * 128)
        for i in range(128):
            v = half + i
            frame[3 * i:3 * i + 3] = bytes((v, 255 - v, v ^ 0x5A))
        assert board.strip_write(frame)
        assert _strip_reads(uart, 128) == [(v, 255 - v, v ^ 0x5A) for v in range(half, half + 128)]
        del board, uart, frame
        gc.collect()


def test_a_frame_waits_until_the_last_is_out_and_latched():
    # Two frames back to back would read as one of twice the LEDs: the second waits for the
    # first's wire time (100 LEDs x 28.8 us) and the low that latches it (the reset).
    board = _board()
    board.strip_init(100)
    uart = machine.UART.live[-1]
    second = bytes([7]) * 300
    time.freeze()
    try:
        assert board.strip_write(bytes(300))
        assert board.strip_write(second) is False and len(uart.written) == 1
        time.advance_us(2880)           # the wire time: out, but not latched yet
        assert uart.txdone() and board.strip_write(second) is False
        time.advance_us(280)            # WS2812B-V5's reset, and a late interrupt's margin
        assert board.strip_write(second) is False
        time.advance_us(120)
        assert board.strip_write(second) is True and len(uart.written) == 2
    finally:
        time.thaw()
    assert _strip_reads(uart, 200)[100:] == [(7, 7, 7)] * 100


def test_a_late_uart_interrupt_keeps_the_next_frame_waiting():
    board = _board()
    board.strip_init(10)
    uart = machine.UART.live[-1]
    uart.stall_us = 5000                # the FIFO ran dry for 5 ms: txdone says so
    time.freeze()
    try:
        assert board.strip_write(bytes(30))
        time.advance_us(1500)           # wire time and reset by the clock alone
        assert not uart.txdone() and board.strip_write(bytes(30)) is False
        time.advance_us(4000)
        assert uart.txdone() and board.strip_write(bytes(30)) is True
    finally:
        time.thaw()
