# WS2812B LEDs on a UART's TX line. The frame is encoded into UART bytes and handed to the UART
# driver's buffer; the driver's interrupt then sends it while the loop goes on. machine.bitstream,
# which neopixel uses, holds the loop for the whole wire time instead: 2.9 ms for the tower's 100
# LEDs, the longest stall the firmware had (docs/firmware.md). As in micropython-lib's
# drivers, the bus is passed in: a machine.UART made as the board does it (uart_args below).
#
# The encoding is the one toitware/toit-pixel-strip's UartPixelStrip uses on an ESP32. At 2.5 Mbaud
# a UART bit lasts 400 ns, and a frame of 7 data bits is 9 bits: start, d0..d6 (LSB first), stop.
# With TX inverted, the line idles low (the strip's reset), the start bit is high and the stop bit
# low. So one UART frame is three WS2812B bits, each three UART bits: high, the bit, low.
#   0: 400 ns high, 800 ns low        1: 800 ns high, 400 ns low
# The datasheet asks for 400/850 ns and 800/450 ns, each +-150 ns.
import time

import micropython
from micropython import const

BAUD = const(2500000)
BITS = const(7)
WIRE_PER_LED = const(8)      # UART bytes per LED: 24 bits, three a byte
_NS_PER_LED = const(28800)   # 8 frames x 9 UART bits x 400 ns
_RESET_US = const(400)       # low before the next frame: WS2812B-V5 latches after 280 us; the
#                              rest covers a late interrupt at the frame's end
# Three WS2812B bits abc (a sent first) as the 7 data bits before inversion: d0 = not a, d1 = 1,
# d2 = 0, d3 = not b, d4 = 1, d5 = 0, d6 = not c.
_CODE = b"\x5b\x1b\x53\x13\x5a\x1a\x52\x12"


def uart_args(n):
    """machine.UART's keyword arguments for a strip of n LEDs (the pin comes from the board). The
    TX buffer holds a whole frame, so a write only copies (ESP-IDF's ring buffer sends in pieces
    of a quarter of its size, and needs room for their headers)."""
    return {"baudrate": BAUD, "bits": BITS, "parity": None, "stop": 1,
            "txbuf": 2 * WIRE_PER_LED * n + 256}


def wire_us(n):
    """How long a frame of n LEDs takes on the wire."""
    return n * _NS_PER_LED // 1000


@micropython.viper
def encode(wire, frame, n: int):
    """frame: R, G, B per LED, n bytes -> wire: the strip's G, R, B as 8 UART bytes per LED.
    Viper: 100 LEDs in a bytecode loop would cost an ESP32 several milliseconds. x < 2^24."""
    w = ptr8(wire)
    f = ptr8(frame)
    code = ptr8(_CODE)
    i = 0
    o = 0
    while i < n:
        x = (f[i + 1] << 16) | (f[i] << 8) | f[i + 2]
        w[o] = code[x >> 21]
        w[o + 1] = code[(x >> 18) & 7]
        w[o + 2] = code[(x >> 15) & 7]
        w[o + 3] = code[(x >> 12) & 7]
        w[o + 4] = code[(x >> 9) & 7]
        w[o + 5] = code[(x >> 6) & 7]
        w[o + 6] = code[(x >> 3) & 7]
        w[o + 7] = code[x & 7]
        i += 3
        o += 8


class Strip:
    def __init__(self, uart, n):
        self._uart = uart
        self._wire = bytearray(WIRE_PER_LED * n)
        self._n = 3 * n
        self._busy_us = wire_us(n) + _RESET_US
        self._sent = 0
        self._sending = False

    def idle(self):
        """True once the last frame is out and the line has been low long enough to latch it."""
        if self._sending:
            if (time.ticks_diff(time.ticks_us(), self._sent) < self._busy_us
                    or not self._uart.txdone()):
                return False
            self._sending = False
        return True

    def write(self, frame):
        """Send a frame (R, G, B per LED). False, and nothing sent, while the last frame is still
        going out: two frames back to back would read as one frame of twice the LEDs, and the
        second would be lost. The caller keeps the frame and tries again."""
        if not self.idle():
            return False
        encode(self._wire, frame, self._n)
        self._uart.write(self._wire)
        self._sent = time.ticks_us()
        self._sending = True
        return True
