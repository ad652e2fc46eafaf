# Fake `time` for running boards/esp32.py on the unix port (tests only): the real module, but
# ticks_us wraps at 2**30 as on the ESP32 (the 64-bit unix port's ticks run to 2**62, which the
# board's array('i') edge ring could not hold). `wrap_in_us(n)` moves the clock so that ticks_us
# wraps n microseconds from now: the tests cross the wrap on purpose. ticks_ms is left alone
# (it wraps after 12 days on the ESP32; asyncio's C task queue compares it with the unix port's
# own period). `freeze()` stops ticks_us where it is and `advance_us(n)` moves it on: for a test
# that checks a window of a few hundred microseconds (a loaded machine could sleep past it);
# `thaw()` gives the running clock back.
import sys

_path = sys.path
sys.path = ()
try:
    from time import *  # noqa: F403 - the built-in module
    from time import ticks_us as _real_us
finally:
    sys.path = _path
    del _path

_PERIOD = 1 << 30
_MASK = _PERIOD - 1
_HALF = 1 << 29
_off_us = 0
_frozen = None

def ticks_us():
    if _frozen is not None:
        return _frozen
    return (_real_us() + _off_us) & _MASK


def freeze():
    global _frozen
    _frozen = ticks_us()


def advance_us(n):
    global _frozen
    _frozen = (_frozen + n) & _MASK


def thaw():
    global _frozen, _off_us
    if _frozen is not None:
        _off_us = (_frozen - _real_us()) & _MASK  # on from where it stood
        _frozen = None

def ticks_add(t, delta):
    return (t + delta) & _MASK

def ticks_diff(a, b):
    return ((a - b + _HALF) & _MASK) - _HALF

def wrap_in_us(n):
    global _off_us
    _off_us = (_PERIOD - n - _real_us()) & _MASK

