# What the plain-Python references of viper code share (tests/firmware/mpy_test_*.py): on the
# ESP32 a viper int is 32 bits, here 64, so an overflow there would never show here; each
# reference does what its viper function does, step by step, asserting that every intermediate
# fits 32 bits (_fit), with ticks wrapping at 2^30 as time.ticks_us does on the ESP32.
import shogun_fw.detector
from shogun_fw.boards.simtime import consts

K = consts(shogun_fw.detector.__file__)  # the detector's private const()s


def _fit(x):
    assert -(1 << 31) <= x < (1 << 31), f"a viper int overflows 32 bits: {x}"
    return x


def _diff(a, b):
    # ((a - b + _HALF) & _MASK) - _HALF, each step 32-bit
    return _fit(_fit(_fit(a - b) + K["_HALF"]) & K["_MASK"]) - K["_HALF"]


def _add(a, d):
    return _fit(a + d) & K["_MASK"]


def _u32(x):
    # what a ptr32 load gives for a value the detector stores (never negative: see detector.py)
    assert 0 <= x < (1 << 31), x
    return x
