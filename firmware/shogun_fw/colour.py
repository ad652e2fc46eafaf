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
# confidence. host/shogun_tower/calibration.py computes the same features in floats.
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

CALIBRATION_FILE = "calibration.json"
_Z_WEIGHT = 0.5       # brightness varies more than chromaticity with cube position: distances
#                       are taken x2 (4 dx^2 + 4 dy^2 + dz^2) so the weight stays exact
_AMBIGUITY = 0.55     # best distance must be below this fraction of the second best's
FULL_SCALE = 1024     # counts per 2.4 ms integration step: the TCS34725 saturates here
_UNIT = const(10000)  # features in 1/10000
_FAR = const(0x3FFFFFFF)  # the largest small integer on the ESP32: farther is never best
_Z_MAX = const(20000)  # brightness is clipped at twice full scale (saturated readings are
#                        refused before): squared distances stay small integers

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
        # (colour, x, y, z x weight, threshold squared) in 1/10000 units, once per calibration.
        self._f = [(c[0], 2 * c[1], 2 * c[2], c[3], 4 * c[4] * c[4])
                   for c in self.centroids]

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
        board.flash_write_atomic(CALIBRATION_FILE, json.dumps(
            {"centroids": [list(c) for c in centroids]}))
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
        for code, cx, cy, cz, limit2 in self._f:
            dx = x - cx
            dy = y - cy
            dz = z - cz
            d = dx * dx + dy * dy + dz * dz
            if d < best:
                second = best
                best = d
                colour = code
                limit = limit2
            elif d < second:
                second = d
        # best > threshold, or best > 0.55 x second: compared squared (0.55^2 = 121/400),
        # without a product past the ESP32's small integers
        if best > limit or best > second // 400 * 121 + second % 400 * 121 // 400:
            return UNKNOWN, 0
        return colour, 100 - 100 * _isqrt(best) // _isqrt(limit)


@micropython.native
def _isqrt(n):
    # Integer square root (Newton): once per cube, on distances below 10^9.
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
        if not 0 < c[4] <= 10000:
            return "threshold of colour %d out of range" % c[0]
        seen.add(c[0])
    return None
