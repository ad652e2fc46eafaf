# Cube colour classification by chromaticity against calibrated centroids. A reading that is not
# close enough to one colour - or about as close to two - is `unknown`, never a guess.
#
# Features of a reading (R, G, B, C already corrected for ambient light):
#   x = R / (R+G+B), y = G / (R+G+B)   (chromaticity: independent of how much of the cube is seen)
#   z = C / 1024                        (brightness: tells black from the colours)
# Centroids are (colour, x, y, z, threshold), all in 1/10000, as on the wire (pack_centroids).
import json

from shogun_common.colours import UNKNOWN

CALIBRATION_FILE = "calibration.json"
_Z_WEIGHT = 0.5       # brightness varies more than chromaticity with cube position
_AMBIGUITY = 0.55     # best distance must be below this fraction of the second best's
FULL_SCALE = 1024     # counts per 2.4 ms integration step: the TCS34725 saturates here

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


def features(r, g, b, c):
    s = r + g + b
    if s <= 0:
        return None
    return r / s, g / s, c / FULL_SCALE


class Classifier:
    def __init__(self, centroids=None):
        self.calibrated = centroids is not None
        self._set(centroids or DEFAULT_CENTROIDS)

    def _set(self, centroids):
        self.centroids = [tuple(c) for c in centroids]
        # Precomputed in floats once, so that classify allocates nothing but its result.
        self._f = [(c[0], c[1] / 10000, c[2] / 10000, c[3] / 10000, c[4] / 10000)
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

    def classify(self, r, g, b, c):
        """(colour code or UNKNOWN, confidence 0-100)."""
        f = features(r, g, b, c)
        if f is None:
            return UNKNOWN, 0
        x, y, z = f
        best = second = 1e9
        colour = threshold = 0
        for code, cx, cy, cz, limit in self._f:
            dx = x - cx
            dy = y - cy
            dz = (z - cz) * _Z_WEIGHT
            d = (dx * dx + dy * dy + dz * dz) ** 0.5
            if d < best:
                second = best
                best = d
                colour = code
                threshold = limit
            elif d < second:
                second = d
        if best > threshold or best > second * _AMBIGUITY:
            return UNKNOWN, 0
        return colour, int(100 * (1 - best / threshold))


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
