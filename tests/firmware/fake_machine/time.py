# Fake `time` for running boards/esp32.py on the unix port (tests only): the real module, but
# ticks_us wraps at 2**30 as on the ESP32 (the 64-bit unix port's ticks run to 2**62, which the
# board's array('i') edge ring could not hold). `wrap_in_us(n)` moves the clock so that ticks_us
# wraps n microseconds from now: the tests cross the wrap on purpose. ticks_ms is left alone
# (it wraps after 12 days on the ESP32; asyncio's C task queue compares it with the unix port's
# own period). `freeze()` stops ticks_us where it is and `advance_us(n)` moves it on: for a test
# that checks a window of a few hundred microseconds (a loaded machine could sleep past it);
# `thaw()` gives the running clock back.
#
# The sleeps are the port's (mp_hal_delay_us, mp_hal_delay_ms): queued interrupt handlers run
# while they wait (in sleep_us only while more than 150 us remain); the unix port's own sleeps
# run none. ticks_us, like every call that is C on the port, is no scheduling point (_port.py).
#
# No call allocates on a 32-bit port either, as the ESP32's C ticks functions do not: the
# board's hard interrupt handlers call ticks_us with the heap locked. There a small int holds
# less than 2**30, so a sum such as ticks + offset (up to 2**31) would be a long integer; a
# 32-bit port's own ticks already wrap at 2**30, so its C ticks_add and ticks_diff are the
# ESP32's and are used as they are.
import sys

import _port

_path = sys.path
sys.path = ()
try:
    from time import *  # noqa: F403 - the built-in module
    from time import sleep_us as _real_sleep_us
    from time import ticks_add as _real_add
    from time import ticks_diff as _real_diff
    from time import ticks_us as _real_us
finally:
    sys.path = _path
    del _path

_MASK = (1 << 30) - 1
_HALF = 1 << 29
_NATIVE = sys.maxsize < (1 << 31)  # a 32-bit port: its ticks period is the ESP32's 2**30
_off_us = 0  # in [-2**29, 2**29): a ticks_diff, which C's ticks_add takes
_frozen = None

def ticks_us():
    _port.busy += 1
    try:
        if _frozen is not None:
            return _frozen
        if _NATIVE:
            return _real_add(_real_us(), _off_us)
        return (_real_us() + _off_us) & _MASK
    finally:
        _port.busy -= 1


_THIS_OVERHEAD_US = 5   # ports/esp32/mphalport.c mp_hal_delay_us: below it, no wait at all
_PEND_OVERHEAD_US = 150  # ... and no queued handler runs in a wait's last 150 us


def sleep_us(us):
    """mp_hal_delay_us: a busy wait (on the real clock, even when ticks_us is frozen) whose
    loop is a scheduling point while more than 150 us remain."""
    if us < _THIS_OVERHEAD_US:
        return
    us -= _THIS_OVERHEAD_US
    t0 = _real_us()
    while True:
        left = us - _real_diff(_real_us(), t0)
        if left <= 0:
            return
        if left <= _PEND_OVERHEAD_US:
            _port.busy += 1
            try:
                while _real_diff(_real_us(), t0) < us:
                    pass
            finally:
                _port.busy -= 1
            return
        _real_sleep_us(min(100, left - _PEND_OVERHEAD_US))


def sleep_ms(ms):
    """mp_hal_delay_ms: queued handlers run while it waits (the ISR wakes the task)."""
    sleep_us(ms * 1000 + _THIS_OVERHEAD_US if ms > 0 else 0)


def sleep(s):
    sleep_ms(int(s * 1000))


def freeze():
    global _frozen
    _frozen = ticks_us()


def advance_us(n):
    global _frozen
    _frozen = ticks_add(_frozen, n)


def thaw():
    global _frozen, _off_us
    if _frozen is not None:
        _off_us = ticks_diff(_frozen, _real_us())  # on from where it stood
        _frozen = None

if not _NATIVE:
    def ticks_add(t, delta):
        return (t + delta) & _MASK

    def ticks_diff(a, b):
        return ((a - b + _HALF) & _MASK) - _HALF

def wrap_in_us(n):
    global _off_us
    # the offset that puts ticks_us at 2**30 - n now: -(real + n)
    _off_us = ticks_diff(0, ticks_add(_real_us(), n))
