"""Colour calibration: from cube readings of known colour to the tower's centroids.

Pure computation, no I/O. The features and the distance are those of the firmware's classifier
(firmware/shogun_fw/colour.py; tests/host/test_calibration.py checks that they agree):

    x = R / (R+G+B),  y = G / (R+G+B),  z = C / 1024,  d = sqrt(dx² + dy²)

Brightness is no distance (where the cube passes scales it 0.13-1.54x: hardware/optics.py), only
a gate: a colour is considered for a reading from BRIGHT[0] to BRIGHT[1] times its centroid's z.
A reading is classified as the nearest such centroid when it lies within that colour's threshold
plus the reading's own noise (NOISE / z), clearly nearer to it than to the second nearest (best
< 0.55 · second) and nearer by more than half that noise (all of it when only a rare pose, below
COMMON, makes the best colour this dim; none when that is so of the second only); otherwise
`unknown`.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _, ngettext
from shogun_tower.lines import cells
from shogun_tower.words import colour_word

FULL_SCALE = 1024      # counts per 2.4 ms integration step (TCS34725)
BRIGHT = (0.165, 2.5)  # colour.py _BRIGHT_LO, _BRIGHT_HI
HIDDEN = 0.04          # colour.py _HIDDEN: the lower gate is BRIGHT[0] x z less this
DIM = 0.0075           # colour.py _DIM: a dim pose's shift, DIM / (z over the centroid's)
COMMON = 0.37          # colour.py _COMMON_LO: dimmer only at a rare pose
RAREST = 0.2           # colour.py _RARE_LO: ... only at the rarest
NOISE = 0.02           # colour.py _NOISE, in chromaticity x brightness
ALLOW_MAX = 0.5        # colour.py _ALLOW_MAX
AMBIGUITY = 0.55
SCALE = 10000          # centroids travel and are stored in 1/10000
MIN_READINGS = 3       # per colour, after outliers are dropped
THRESHOLD_SPREADS = 4.0    # a colour's threshold: this many times its readings' spread...
MIN_THRESHOLD = 0.02       # ...but at least this...
MAX_THRESHOLD_SHARE = 0.35  # ...and at most this share of the distance to the nearest colour
MIN_SEPARATION = 1.0   # the closest two colours' centres: at least their summed spreads apart
MIN_SELF_MATCH = 0.9   # the calibration readings must not come out as another colour more often
#                        than 1 - this

Reading = tuple[float, float, float, float]
Features = tuple[float, float, float]
Centroid = tuple[int, int, int, int, int]


class CalibrationError(ShogunError):
    pass


def features(r: float, g: float, b: float, c: float) -> Features | None:
    s = r + g + b
    if s <= 0:
        return None
    return r / s, g / s, c / FULL_SCALE


def distance(a: Features, b: Features) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def classify(centroids: Sequence[Centroid], reading: Reading) -> str:
    """The firmware's decision for one reading: a colour name or ``unknown``."""
    f = features(*reading)
    if f is None or f[2] <= 0:
        return "unknown"
    ranked = sorted((distance(f, (cx / SCALE, cy / SCALE, cz / SCALE)), colour,
                     t / SCALE + DIM * cz / SCALE / f[2],
                     f[2] < COMMON * cz / SCALE, f[2] < RAREST * cz / SCALE)
                    for colour, cx, cy, cz, t in centroids
                    if BRIGHT[0] * cz / SCALE - HIDDEN <= f[2] <= BRIGHT[1] * cz / SCALE)
    if not ranked:
        return "unknown"
    best, colour, threshold, rare, _rarest = ranked[0]
    second, rare2 = (ranked[1][0], ranked[1][4]) if len(ranked) > 1 else (math.inf, False)
    noise = NOISE / f[2]
    margin = noise if rare else (0 if rare2 else noise / 2)
    if (best > min(threshold + noise, ALLOW_MAX) or best > second * AMBIGUITY
            or second - best < margin):
        return "unknown"
    return CUBE_COLOURS[colour]


@dataclasses.dataclass
class ColourStats:
    colour: str
    readings: int          # used
    outliers: int          # dropped: far from the others (a cube of another colour, a double)
    centre: Features
    spread: float          # rms distance of the readings from the centre
    threshold: float = 0.0
    self_match: float = 0.0
    other: float = 0.0     # share of its readings classified as another colour


@dataclasses.dataclass
class Calibration:
    stats: dict[str, ColourStats]
    closest: tuple[str, str]
    distance: float         # between the two closest colours' centres
    separation: float       # that distance in units of the two colours' summed spreads
    margin: float           # distance minus both thresholds: room left between the two colours

    @property
    def centroids(self) -> list[Centroid]:
        return [(CUBE_COLOURS.index(s.colour), _fixed(s.centre[0]), _fixed(s.centre[1]),
                 _fixed(s.centre[2]), max(1, _fixed(s.threshold)))
                for s in self.stats.values()]

    def report(self) -> str:
        """The calibration as a table, one colour a line, in the players' language."""
        # Translators: the calibration table's headings, each one word
        heads = [_("colour"), _("cubes"), _("dropped"), "x", "y", "z", _("spread"),
                 _("threshold"), _("self-test")]
        rows = [[colour_word(s.colour), f"{s.readings:d}", f"{s.outliers:d}",
                 *(f"{v:.3f}" for v in s.centre), f"{s.spread:.4f}", f"{s.threshold:.4f}",
                 f"{s.self_match:.0%}"] for s in self.stats.values()]
        widths = [max(cells(row[i]) for row in [heads, *rows])
                  for i in range(len(heads))]

        def line(row: list[str]) -> str:
            first = row[0] + " " * (widths[0] - cells(row[0]))  # the colour: left
            return " ".join([first] + [" " * (w - cells(v)) + v
                                       for v, w in zip(row[1:], widths[1:], strict=True)])

        a, b = self.closest
        closing = _("closest colours: {a} and {b}, {distance} apart ({separation} times their "
                    "spread); margin between their thresholds {margin}").format(
                        a=colour_word(a), b=colour_word(b), distance=f"{self.distance:.4f}",
                        separation=f"{self.separation:.1f}", margin=f"{self.margin:.4f}")
        return "\n".join([line(heads), *(line(r) for r in rows), closing])


def _fixed(v: float) -> int:
    return max(0, min(0xFFFF, round(v * SCALE)))


def _median(values: list[float]) -> float:
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def _centre(points: list[Features]) -> Features:
    n = len(points)
    return (sum(p[0] for p in points) / n, sum(p[1] for p in points) / n,
            sum(p[2] for p in points) / n)


def compute(readings: Mapping[str, Iterable[Reading]]) -> Calibration:
    """Centroids, thresholds and the margin between the closest two colours.

    Raises CalibrationError (one line: what and what to do) when a colour has too few usable
    readings or two colours are too close to be told apart.
    """
    if len(readings) < 2:
        raise CalibrationError(_("calibration needs readings of at least two colours"))
    stats: dict[str, ColourStats] = {}
    points_of: dict[str, list[Features]] = {}
    for colour, rs in readings.items():
        if colour not in CUBE_COLOURS:
            raise CalibrationError(_("{colour!r} is not a cube colour ({colours})").format(
                colour=colour, colours=", ".join(CUBE_COLOURS)))
        pts = [f for f in (features(*r) for r in rs) if f is not None]
        if len(pts) < MIN_READINGS:
            raise CalibrationError(ngettext(
                "only {n} usable reading of {colour} cubes, {needed} needed: check that the "
                "colour sensor's LED is on and throw more {colour} cubes",
                "only {n} usable readings of {colour} cubes, {needed} needed: check that the "
                "colour sensor's LED is on and throw more {colour} cubes", len(pts)).format(
                    n=len(pts), colour=colour_word(colour), needed=MIN_READINGS))
        # Robust centre first (coordinate-wise median), then drop what lies far from it: a cube
        # of another colour knocked loose inside the tower, two cubes read as one.
        med = (_median([p[0] for p in pts]), _median([p[1] for p in pts]),
               _median([p[2] for p in pts]))
        dists = [distance(p, med) for p in pts]
        limit = max(3 * sorted(dists)[(3 * len(dists)) // 4], MIN_THRESHOLD / 2)
        kept = [p for p, d in zip(pts, dists, strict=True) if d <= limit]
        if len(kept) < MIN_READINGS:
            raise CalibrationError(_("the {colour} readings disagree with each other: throw "
                                     "only {colour} cubes, one at a time, and calibrate "
                                     "again").format(colour=colour_word(colour)))
        centre = _centre(kept)
        spread = math.sqrt(sum(distance(p, centre) ** 2 for p in kept) / len(kept))
        stats[colour] = ColourStats(colour, len(kept), len(pts) - len(kept), centre, spread)
        points_of[colour] = kept

    names = list(stats)
    best_pair = (names[0], names[1])
    best_d = math.inf
    nearest = {c: math.inf for c in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            d = distance(stats[a].centre, stats[b].centre)
            nearest[a] = min(nearest[a], d)
            nearest[b] = min(nearest[b], d)
            if d < best_d:
                best_d, best_pair = d, (a, b)
    for c, s in stats.items():
        s.threshold = min(max(THRESHOLD_SPREADS * s.spread, MIN_THRESHOLD),
                          MAX_THRESHOLD_SHARE * nearest[c])
    a, b = best_pair
    separation = best_d / max(stats[a].spread + stats[b].spread, 1e-9)
    margin = best_d - stats[a].threshold - stats[b].threshold
    cal = Calibration(stats, best_pair, best_d, separation, margin)
    cents = cal.centroids
    for c, s in stats.items():
        # Self-test with the very rounding the board will use.
        # (features scaled back to counts: chromaticity as it was, C as it was)
        got = [classify(cents, (p[0] * p[2] * FULL_SCALE, p[1] * p[2] * FULL_SCALE,
                                (1 - p[0] - p[1]) * p[2] * FULL_SCALE, p[2] * FULL_SCALE))
               for p in points_of[c]]
        s.self_match = got.count(c) / len(got)
        s.other = sum(1 for g in got if g not in (c, "unknown")) / len(got)
    # A dim cube (black) is mostly unknown by design (too dim to tell by chromaticity at most
    # poses: colour.py), never another colour: the calibration fails when readings come out as
    # another colour (the self-test column says how many come out as their own).
    worst = max(stats.values(), key=lambda s: (s.other, -s.self_match))
    if separation < MIN_SEPARATION:
        worst = stats[a] if stats[a].self_match <= stats[b].self_match else stats[b]
    if worst.other > 1 - MIN_SELF_MATCH or separation < MIN_SEPARATION:
        raise CalibrationError(_(
            "{colour} cubes cannot be told apart from another colour ({recognised} of their "
            "readings recognised, {other} read as another colour; closest colours {a}/{b}, "
            "{distance} apart): shield the sensor from stray light, check its LED, and "
            "calibrate again").format(colour=colour_word(worst.colour),
                                      recognised=f"{worst.self_match:.0%}",
                                      other=f"{worst.other:.0%}", a=colour_word(a),
                                      b=colour_word(b), distance=f"{best_d:.4f}"))
    return cal
