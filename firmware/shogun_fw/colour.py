# Cube colour classification by chromaticity against calibrated centroids. A reading that is not
# close enough to one colour - or about as close to two - is `unknown`, never a guess.
#
# What the optics say varies (hardware/optics.py; the simulated board reads through the same
# model): where the cube passes across the chute and how it is tilted scale its signal from
# 0.0875 to 1.54 times a centred flat cube's, and the detector's share of the view it credits a
# sample with is off when the sensor's own clock ended the integration earlier than it was read.
# What varies little is the ratio of the channels. So:
#   x = R / (R+G+B), y = G / (R+G+B)   (chromaticity: the distance is taken on these alone)
#   z = C / 1024                        (brightness: only a gate - a colour is not considered
#                                        for a reading brighter than _BRIGHT_HI or dimmer than
#                                        _BRIGHT_LO times its centroid's z less _HIDDEN, the
#                                        optics' range with room for the light the detector
#                                        credits wrongly and the far wall the cube hides)
# and each reading's own noise widens what counts as close: the sensor's read noise moves the
# chromaticity of a dim cube (black, or any cube at a poor pose) more, by about _NOISE / z; and
# at a dim pose the room light the cube reflects and the lit wall it hides (both the same at
# every pose) shift it by up to _DIM / (its brightness over its centroid's). The
# nearest colour must also beat the second by a margin against that noise: half of it; all of
# it when only a rare pose (the dimmest 5 % of the optics' poses, _COMMON_LO) makes the nearest
# this dim; none when only the rarest poses (_RARE_LO) make the second this dim
# and not the nearest. That is what tells black (dim at every pose) from purple and yellow (that
# dim only at a rare pose) by brightness without taking brightness as a distance. (Waiving the
# margin for the second at any rare pose, _COMMON_LO, gave a purple at a dim pose as black 3
# times in 10,000 under the read noise: its chromaticity is black's there.)
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
# (distances are taken in x2 units: 4 dx^2 + 4 dy^2; the best must be below 0.55 x the
# second best, compared squared as 121/400. No float global for it, no public alias of
# _FULL_SCALE: each would be a name, a qstr, and the firmware's fill the pools to within a few
# of a new 7 KB one, docs/firmware.md Memory)
_FULL_SCALE = const(1024)  # counts per 2.4 ms integration step: the TCS34725 saturates here
_UNIT = const(10000)  # features in 1/10000
_FAR = const(0x3FFFFFFF)  # the largest small integer on the ESP32: farther is never best
_Z_MAX = const(20000)  # brightness is clipped at twice full scale (saturated readings are
#                        refused before): squared distances stay small integers
# of_counts in 32 bits: a centroid's x, y at most _UNIT, z at most _Z_MAX, its threshold at most
# _T_MAX (validate), so a difference past _D_MAX (x2 units) puts a reading farther than
# _D_MAX^2 = 4 * 10^8 >= 400/121 x the largest squared threshold (4 _T_MAX^2 = 10^8) from that
# centroid: it can be neither the best of a known reading nor a second that decides one; its
# distance is then _FAR (past any margin too), and two differences within _D_MAX sum below
# 8 * 10^8 < 2^31.
_T_MAX = const(5000)
_D_MAX = const(20000)
_BRIGHT_LO = const(165)   # in 1/1000 of a centroid's z, less _HIDDEN: the least a colour
_BRIGHT_HI = const(2500)  # reads, over the optics' poses, paints and room light, is 0.166 x
#                           its centroid's z less 0.034 (hardware/optics.py's reading: the
#                           room light the cube reflects adds in proportion, the lit far wall
#                           it hides, which the ambient the detector takes off still holds, is
#                           the same for every colour; black reads down to 0.04 x its
#                           centroid, purple 0.135, yellow 0.145), less the read noise (0.006);
#                           the most (1.54), the room light at its strongest and the share of a
#                           sample the detector credits short (the sensor's clock)
_HIDDEN = const(400)      # 1/10000 (above)
_DIM = const(150)         # x2 units x brightness: what the light a cube reflects from the room
#                           (not the LED) and the far wall it hides move its chromaticity past
#                           its threshold at a pose f times its centroid's brightness, _DIM / f
#                           at most (hardware/optics.py's reading, the room light up to twice
#                           its base: 0.0069 / f for black, red 0.0059, purple 0.0047)
_NOISE = const(4000000)   # x2 units x z: 3 x the chromaticity's spread from the sensor's read
#                           noise (about 6 counts a channel) at a brightness z, for one
#                           integration (a reading summed from more: _noise)
_COMMON_LO = const(370)   # 1/1000 of z: dimmer than this only at a rare pose (5 % of them)
_RARE_LO = const(200)     # ... than this only at the rarest (the optics' 0.13-0.2: 1 %)
_ALLOW_MAX = const(10000)  # x2 units: the widest allowance (2 x _T_MAX), its square 10^8
_ONE = const(1024)         # a reading's share (Q10) when it is one integration the cube filled

# Factory defaults: the centroids of the simulated board's cube model (boards/sim.py
# reflectance(): a centred flat cube). A real tower must be calibrated (`shogun-tower calibrate`);
# these only make an uncalibrated board usable. The closest two in chromaticity (black, yellow)
# are 0.131 apart, black and purple 0.142; the ambiguity rule (best < 0.55 x second) refuses
# whatever lies between them, whatever the thresholds.
DEFAULT_CENTROIDS = [
    (0, 3611, 3333, 2674, 500),   # black: dim, its chromaticity noisy (the noise term widens it)
    (1, 7022, 1630, 12012, 500),  # red
    (2, 4760, 3959, 16113, 500),  # yellow (its clear channel clips: z from R + G + B)
    (3, 3875, 1938, 10766, 500),  # purple
    (4, 1473, 2696, 12012, 500),  # blue
    (5, 2090, 5563, 11719, 500),  # green
]


class Classifier:
    def __init__(self, centroids=None):
        self.calibrated = centroids is not None
        self._set(centroids or DEFAULT_CENTROIDS)

    def _set(self, centroids):
        self.centroids = [tuple(c) for c in centroids]
        # (colour, x, y in x2 units, z, threshold in x2 units) in 1/10000, once per
        # calibration: five ints a colour (below 2^31: validate's ranges)
        f = self._f = array.array("i", bytes(20 * len(centroids)))
        for i, c in enumerate(self.centroids):
            j = 5 * i
            f[j] = c[0]
            f[j + 1] = 2 * c[1]
            f[j + 2] = 2 * c[2]
            f[j + 3] = c[3]
            f[j + 4] = 2 * c[4]

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
    def classify(self, r, g, b, c, share=_ONE):
        """(colour code or UNKNOWN, confidence 0-100); r, g, b, c counts (ints or floats) of a
        full integration, estimated from samples whose shares' squares sum to ``share`` (Q10:
        one sample the cube filled all of, _ONE)."""
        s = r + g + b
        if s <= 0:
            return UNKNOWN, 0
        if isinstance(s, int) and isinstance(c, int):
            # x2 features, rounded: 2x = round(2 r / s) in 1/10000 (all in small integers)
            x = (4 * _UNIT * r + s) // (2 * s)
            y = (4 * _UNIT * g + s) // (2 * s)
            z = (_UNIT * c + _FULL_SCALE // 2) // _FULL_SCALE
        else:  # a corrected reading in floats: rounded once into the same units
            x = int(2 * _UNIT * r / s + 0.5)
            y = int(2 * _UNIT * g / s + 0.5)
            z = int(_UNIT * c / _FULL_SCALE + 0.5)
        if z > _Z_MAX:
            z = _Z_MAX
        if z <= 0:
            return UNKNOWN, 0
        noise = _noise(z, share)
        best = second = _FAR
        colour = allow = 0
        rare = rarest = rare2 = 0
        f = self._f
        for i in range(0, len(f), 5):
            zc = f[i + 3]
            if 1000 * (z + _HIDDEN) < zc * _BRIGHT_LO or 1000 * z > zc * _BRIGHT_HI:
                continue  # no pose makes this colour that bright, or that dim
            dx = x - f[i + 1]
            dy = y - f[i + 2]
            d = dx * dx + dy * dy
            odd = 1000 * z < zc * _COMMON_LO  # only a rare pose makes it this dim
            odder = 1000 * z < zc * _RARE_LO  # ... only the rarest
            if d < best:
                second = best
                rare2 = rarest
                best = d
                rare = odd
                rarest = odder
                colour = f[i]
                allow = f[i + 4] + _DIM * zc // z
            elif d < second:
                second = d
                rare2 = odder
        allow += noise
        if allow > _ALLOW_MAX:
            allow = _ALLOW_MAX
        # best > allowance^2, or best > 0.55 x second: compared squared (0.55^2 = 121/400),
        # without a product past the ESP32's small integers
        if best > allow * allow or best > second // 400 * 121 + second % 400 * 121 // 400:
            return UNKNOWN, 0
        near = _isqrt(best)
        # The second must be farther than the reading's own noise can move it: by half the
        # allowance; by all of it when only a rare pose makes the best this dim; not at all
        # when only the rarest make the second this dim and not the best.
        margin = noise if rare else (0 if rare2 else noise // 2)
        if second < _FAR and _isqrt(second) - near < margin:
            return UNKNOWN, 0
        return colour, 100 - 100 * near // allow

    @micropython.viper
    def of_counts(self, r: int, g: int, b: int, c: int, share: int) -> int:
        """classify(r, g, b, c, share) for the detector's integers, as colour | confidence << 8:
        R, G, B in one scale, each of magnitude below 2^19 (the detector's: x4 counts), C in
        counts, below 2^17, share (Q10) 256 to 2^15 (tests/firmware/mpy_test_colour.py: the
        same answers as classify)."""
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
        if z <= 0:
            return int(UNKNOWN)
        noise = int(_noise(z, share))
        f = ptr32(self._f)  # (all of it >= 0: the same read on x64 and the xtensa)
        n = int(len(self._f))
        best = _FAR
        second = _FAR
        colour = 0
        allow = 0
        rare = 0
        rarest = 0
        rare2 = 0
        i = 0
        while i < n:
            zc = f[i + 3]
            # (1000 (z + _HIDDEN) and zc x 2500 below 5 * 10^7)
            if 1000 * (z + _HIDDEN) < zc * _BRIGHT_LO or 1000 * z > zc * _BRIGHT_HI:
                i += 5
                continue
            dx = x - f[i + 1]
            dy = y - f[i + 2]
            if dx > _D_MAX or dx < -_D_MAX or dy > _D_MAX or dy < -_D_MAX:
                d = _FAR
            else:
                d = dx * dx + dy * dy  # (2 * _D_MAX^2 < 2^31)
            odd = 0
            if 1000 * z < zc * _COMMON_LO:
                odd = 1
            odder = 0
            if 1000 * z < zc * _RARE_LO:
                odder = 1
            if d < best:
                second = best
                rare2 = rarest
                best = d
                rare = odd
                rarest = odder
                colour = f[i]
                allow = f[i + 4] + _DIM * zc // z  # (150 * 2 * 10^4 below 2^22)
            elif d < second:
                second = d
                rare2 = odder
            i += 5
        allow += noise  # (below 10^4 + 3 * 10^6 + 4 * 10^6)
        if allow > _ALLOW_MAX:
            allow = _ALLOW_MAX
        # (second // 400 * 121 below 3.3 * 10^8; best <= allow^2 <= 10^8 below)
        if best > allow * allow or best > second // 400 * 121 + second % 400 * 121 // 400:
            return int(UNKNOWN)
        near = int(_isqrt(best))
        margin = noise
        if not rare:
            margin = 0 if rare2 else noise // 2
        if second < _FAR and int(_isqrt(second)) - near < margin:
            return int(UNKNOWN)
        return colour | (100 - 100 * near // allow) << 8


@micropython.viper
def _noise(z: int, share: int) -> int:
    # What the read noise moves the chromaticity of a reading of brightness z by: _NOISE / z
    # for one integration the cube filled; a reading summed from several by least squares has
    # the noise of one over the root of their shares' squares summed (share, Q10, clipped to
    # 1/4-32 integrations: below 2^31 in every product). In x2 units.
    if share < _ONE // 4:
        share = _ONE // 4
    if share > 32 * _ONE:
        share = 32 * _ONE
    return (_NOISE // z) * 32 // int(_isqrt(share))  # (4 * 10^6 * 32 < 2^31; isqrt(_ONE) = 32)


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
