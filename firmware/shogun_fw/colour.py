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

# Factory defaults: the centroids of the simulated board's cube model. A real tower must be
# calibrated (`shogun-tower calibrate`); these only make an uncalibrated board usable.
DEFAULT_CENTROIDS = [
    (0, 3600, 3333, 1660, 900),   # black
    (1, 7027, 1622, 7420, 900),   # red
    (2, 4706, 3922, 9960, 900),   # yellow
    (3, 3880, 1940, 6640, 900),   # purple
    (4, 1486, 2703, 7420, 900),   # blue
    (5, 2083, 5556, 7230, 900),   # green
]


def features(r, g, b, c):
    s = r + g + b
    if s <= 0:
        return None
    return r / s, g / s, c / FULL_SCALE


class Classifier:
    def __init__(self, centroids=None):
        self.centroids = list(centroids or DEFAULT_CENTROIDS)
        self.calibrated = centroids is not None

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
        board.flash_write_atomic(CALIBRATION_FILE, json.dumps({"centroids": centroids}))
        self.centroids = [tuple(c) for c in centroids]
        self.calibrated = True
        return None

    def classify(self, r, g, b, c):
        """(colour code or UNKNOWN, confidence 0-100)."""
        f = features(r, g, b, c)
        if f is None:
            return UNKNOWN, 0
        x, y, z = f
        best = second = 1e9
        best_c = None
        for colour, cx, cy, cz, threshold in self.centroids:
            dx = x - cx / 10000
            dy = y - cy / 10000
            dz = (z - cz / 10000) * _Z_WEIGHT
            d = (dx * dx + dy * dy + dz * dz) ** 0.5
            if d < best:
                second = best
                best = d
                best_c = (colour, threshold / 10000)
            elif d < second:
                second = d
        colour, threshold = best_c
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
