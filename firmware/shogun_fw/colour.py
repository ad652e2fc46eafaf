# Cube colour classification by chromaticity against calibrated centroids. A reading that is not
# close enough to one colour - or about as close to two - is `unknown`, never a guess.
#
# Features of a reading (R, G, B, C already corrected for ambient light):
#   x = R / (R+G+B), y = G / (R+G+B)   (chromaticity: independent of how much of the cube is seen)
#   z = C / 1024                        (brightness: tells black from the colours)
# Centroids are (colour, x, y, z, threshold), all in 1/10000, as on the wire (pack_centroids).
#
# The firmware classifies in integers (1/10000 units, squared distances): no float is made per
# cube (floats are heap objects on the ESP32) and no square root but one integer one for the
# confidence. host/shogun_tower/calibration.py computes the same features in floats. On the board
# the detector calls of_counts, the same integers as machine code (viper: 32-bit on the ESP32,
# every intermediate below 2^31 with its bound in a comment); classify is the plain-Python form
# (floats too: the host) and the reference tests/firmware/mpy_test_colour.py holds it to.
import array
import json

from shogun_common.colours import UNKNOWN

try:
    import micropython
    from micropython import const
except ImportError:  # CPython: the host's calibration checks its centroids with this classifier
    def const(x):
        return x

    class micropython:  # noqa: N801 - stands for the module: @micropython.native does nothing
        native = staticmethod(lambda f: f)
        viper = staticmethod(lambda f: f)  # (_isqrt and _ratio are plain Python too)

CALIBRATION_FILE = "calibration.json"
_Z_WEIGHT = 0.5       # brightness varies more than chromaticity with cube position: distances
#                       are taken x2 (4 dx^2 + 4 dy^2 + dz^2) so the weight stays exact
_AMBIGUITY = 0.55     # best distance must be below this fraction of the second best's
_FULL_SCALE = const(1024)  # counts per 2.4 ms integration step: the TCS34725 saturates here
FULL_SCALE = _FULL_SCALE   # (a private const too: viper inlines only those)
_UNIT = const(10000)  # features in 1/10000
_FAR = const(0x3FFFFFFF)  # the largest small integer on the ESP32: farther is never best
_Z_MAX = const(20000)  # brightness is clipped at twice full scale (saturated readings are
#                        refused before): squared distances stay small integers
# of_counts in 32 bits: a centroid's x, y at most _UNIT, z at most _Z_MAX, its threshold at most
# _T_MAX (validate), so a difference past _D_MAX (x2 units) puts a reading farther than
# _D_MAX^2 = 4 * 10^8 >= 400/121 x the largest squared threshold (4 _T_MAX^2 = 10^8) from that
# centroid: it can be neither the best of a known reading nor a second that decides one; its
# distance is then _FAR, and three differences within _D_MAX sum below 1.2 * 10^9 < 2^31.
_T_MAX = const(5000)
_D_MAX = const(20000)

# Factory defaults: the centroids of the simulated board's cube model (boards/sim.py
# REFLECTANCE). A real tower must be calibrated (`shogun-tower calibrate`); these only make an
# uncalibrated board usable. The closest two (black, purple) are 0.230 apart; the ambiguity rule
# (best < 0.55 x second) refuses whatever lies between them, whatever the thresholds.
DEFAULT_CENTROIDS = [
    (0, 3613, 3361, 1191, 1200),  # black: a dim cube, its chromaticity is noisy
    (1, 7030, 1617, 5342, 800),   # red
    (2, 4753, 3956, 7168, 800),   # yellow
    (3, 3872, 1946, 4785, 800),   # purple
    (4, 1482, 2702, 5342, 800),   # blue
    (5, 2085, 5560, 5205, 800),   # green
]


class Classifier:
    def __init__(self, centroids=None):
        self.calibrated = centroids is not None
        self._set(centroids or DEFAULT_CENTROIDS)

    def _set(self, centroids):
        self.centroids = [tuple(c) for c in centroids]
        # (colour, x, y, z x weight, threshold squared) in 1/10000 units, once per calibration:
        # five ints a colour (below 2^31: validate's ranges)
        f = self._f = array.array("i", bytes(20 * len(centroids)))
        for i, c in enumerate(self.centroids):
            j = 5 * i
            f[j] = c[0]
            f[j + 1] = 2 * c[1]
            f[j + 2] = 2 * c[2]
            f[j + 3] = c[3]
            f[j + 4] = 4 * c[4] * c[4]

    @classmethod
    def load(cls, board):
        data = board.flash_read(CALIBRATION_FILE)
        if data:
            try:
                centroids = [tuple(c) for c in json.loads(data)["centroids"]]
                if not validate(centroids):
                    return cls(centroids)
            except (ValueError, KeyError, TypeError):
                pass  # a damaged file: fall back to defaults; the host sees calibrated=False
        return cls()

    def store(self, board, centroids):
        error = validate(centroids)
        if error:
            return error
        # (tuples go out as JSON lists: no copies, a 64K board's heap has little to spare)
        board.flash_write_atomic(CALIBRATION_FILE, json.dumps({"centroids": centroids}))
        self._set(centroids)
        self.calibrated = True
        return None

    @micropython.native  # machine code: built for the ESP32 by make deploy (-march=xtensawin)
    def classify(self, r, g, b, c):
        """(colour code or UNKNOWN, confidence 0-100); r, g, b, c counts (ints or floats)."""
        s = r + g + b
        if s <= 0:
            return UNKNOWN, 0
        if isinstance(s, int) and isinstance(c, int):
            # x2 features, rounded: 2x = round(2 r / s) in 1/10000 (all in small integers)
            x = (4 * _UNIT * r + s) // (2 * s)
            y = (4 * _UNIT * g + s) // (2 * s)
            z = (_UNIT * c + FULL_SCALE // 2) // FULL_SCALE
        else:  # a corrected reading in floats: rounded once into the same units
            x = int(2 * _UNIT * r / s + 0.5)
            y = int(2 * _UNIT * g / s + 0.5)
            z = int(_UNIT * c / FULL_SCALE + 0.5)
        if z > _Z_MAX:
            z = _Z_MAX
        best = second = _FAR
        colour = limit = 0
        f = self._f
        for i in range(0, len(f), 5):
            dx = x - f[i + 1]
            dy = y - f[i + 2]
            dz = z - f[i + 3]
            d = dx * dx + dy * dy + dz * dz
            if d < best:
                second = best
                best = d
                colour = f[i]
                limit = f[i + 4]
            elif d < second:
                second = d
        # best > threshold, or best > 0.55 x second: compared squared (0.55^2 = 121/400),
        # without a product past the ESP32's small integers
        if best > limit or best > second // 400 * 121 + second % 400 * 121 // 400:
            return UNKNOWN, 0
        return colour, 100 - 100 * _isqrt(best) // _isqrt(limit)

    @micropython.viper
    def of_counts(self, r: int, g: int, b: int, c: int) -> int:
        """classify(r, g, b, c) for the detector's integers, as colour | confidence << 8: R, G,
        B in one scale, each of magnitude below 2^19 (the detector's: x4 counts), C in counts,
        below 2^17 (tests/firmware/mpy_test_colour.py: the same answers as classify)."""
        s = r + g + b  # (below 3 * 2^19)
        if s <= 0:
            return int(UNKNOWN)
        x = int(_ratio(r, s))
        y = int(_ratio(g, s))
        if x == _FAR or y == _FAR:
            return int(UNKNOWN)  # farther than _D_MAX from every centroid
        z = (_UNIT * c + _FULL_SCALE // 2) // _FULL_SCALE  # (10^4 * 2^17 < 1.4 * 10^9)
        if z > _Z_MAX:
            z = _Z_MAX
        f = ptr32(self._f)  # (all of it >= 0: the same read on x64 and the xtensa)
        n = int(len(self._f))
        best = _FAR
        second = _FAR
        colour = 0
        limit = 0
        i = 0
        while i < n:
            dx = x - f[i + 1]
            dy = y - f[i + 2]
            dz = z - f[i + 3]
            if (dx > _D_MAX or dx < -_D_MAX or dy > _D_MAX or dy < -_D_MAX or dz > _D_MAX
                    or dz < -_D_MAX):
                d = _FAR
            else:
                d = dx * dx + dy * dy + dz * dz  # (3 * _D_MAX^2 < 2^31)
            if d < best:
                second = best
                best = d
                colour = f[i]
                limit = f[i + 4]
            elif d < second:
                second = d
            i += 5
        # (second // 400 * 121 below 3.3 * 10^8; best <= limit <= 10^8 below)
        if best > limit or best > second // 400 * 121 + second % 400 * 121 // 400:
            return int(UNKNOWN)
        return colour | (100 - 100 * int(_isqrt(best)) // int(_isqrt(limit))) << 8


@micropython.viper
def _ratio(p: int, s: int) -> int:
    # round(2 * _UNIT * p / s) as classify computes it, (4 _UNIT p + s) // 2s, without its
    # product (past 2^31 for p up to 2^19): p = q0 s + rem, 200 rem = q1 s + r1, so the
    # quotient is 2 _UNIT q0 + 100 q1 + (200 r1 + s) // 2s, every term below 2^31 for s below
    # 2^21. _FAR when it lies outside [-2 _UNIT, 4 _UNIT): farther than _D_MAX from any centroid.
    q0 = p // s
    if q0 < -1 or q0 > 1:
        return _FAR
    rem = p - q0 * s  # (in [0, s))
    t = 200 * rem     # (below 200 * 2^21 < 2^29)
    q1 = t // s
    return 2 * _UNIT * q0 + 100 * q1 + (200 * (t - q1 * s) + s) // (2 * s)


@micropython.viper
def _isqrt(n: int) -> int:
    # Integer square root (Newton): once per cube, on distances below 2^31 (x + n // x stays
    # below 2^31 as x decreases from n).
    if n <= 0:
        return 0
    x = n
    y = (x + 1) >> 1
    while y < x:
        x = y
        y = (x + n // x) >> 1
    return x


def validate(centroids):
    """None when the centroids are usable, else the reason."""
    if not centroids:
        return "no centroids"
    seen = set()
    for c in centroids:
        if len(c) != 5:
            return "a centroid needs colour, x, y, z, threshold"
        if c[0] in seen:
            return "colour %d appears twice" % c[0]
        if not 0 <= c[0] <= 5:
            return "colour code %d is not a cube colour" % c[0]
        if not 0 < c[4] <= _T_MAX:
            return "threshold of colour %d out of range (1-%d)" % (c[0], _T_MAX)
        if not (0 <= c[1] <= _UNIT and 0 <= c[2] <= _UNIT and 0 <= c[3] <= _Z_MAX):
            return "centroid of colour %d out of range (x, y 0-%d, z 0-%d)" % (
                c[0], _UNIT, _Z_MAX)
        seen.add(c[0])
    return None
