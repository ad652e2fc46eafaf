"""The colour window's optics: how much of what the TCS34725 sees is lit by its white LED, and
how strong the reading is, for a cube face anywhere across the chute.

The model (ray geometry and radiometry, no fitted numbers):
- The sensor's photodiode array and the LED's die are small squares on the board's face, at
  the back of the wall (geometry.json's colour_slit_depth behind the chute face).
- Each looks into the chute through its own straight channel (a hull between a rear opening at
  the board and a front opening `colour_pocket_depth` behind the chute face; the LED's is
  tilted towards the sensor's), and both channels end in one shared pocket that opens into the
  chute. A ray passes a channel when it passes each opening (the openings are convex, the
  walls between them straight).
- The sensor's response to a ray at angle t from its normal is cos t (a flat photodiode's
  projected area; the TCS3472 datasheet, TAOS135, figure 'normalized responsivity vs. angular
  displacement'); the LED is a Lambertian emitter (intensity cos t, a plain SMD white LED).
- The cube is a box of geometry.json's edge, anywhere across the chute, tilted about the
  horizontal axis along the window wall (pitch) and turned about the vertical (yaw); its
  painted faces reflect as Lambertian surfaces (radiance = reflectance x irradiance / pi).
  What a ray from the sensor misses of the cube it finds on the far wall (matte black,
  `wall_reflectance`), lit by the same LED.
- The lit share is the share of the sensor's response (on the cube) that falls on parts of
  the cube the LED reaches (each such part weighted by the share of the LED's die it sees).

`reading(...)` turns this into (R, G, B, C) counts; `scale_grid` tabulates the scale over gap
and pitch and `grid_reading(grid, reflectance, gap, tilt, white, ambient)` is the same reading
in pure Python (for the simulated board, which has no numpy; `python hardware/optics.py
--grid` prints the table as JSON); `table`
prints the lit share, the view's fill and the reading's scale across the chute
(`python hardware/optics.py`, part of `make hardware`).

Coordinates here: u into the chute from the window wall's inner face (u = 0; the far wall at
u = chute_width), x along the wall (the collar's x), z up, z = 0 at the window's centre. mm.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import collar  # noqa: E402
import geometry  # noqa: E402

LIT_SHARE_MIN = 0.60  # the least lit share of the sensor's view anywhere across the chute
DIVIDER_MIN = 1.2     # mm: three lines of a 0.4 mm nozzle, printable and opaque


@dataclass(frozen=True)
class Rect:
    """An opening in a plane u = const: x0..x1 along the wall, z0..z1 vertically."""

    x0: float
    x1: float
    z0: float
    z1: float

    @property
    def w(self) -> float:
        return self.x1 - self.x0


@dataclass(frozen=True)
class Optics:
    """The colour window as built, every length in mm."""

    chute: float           # chute width: the far wall at u = chute
    edge: float            # cube edge
    depth: float           # board face behind the chute face (the wall plus the recess)
    pocket: float          # the shared pocket's depth: the channels end this far behind
    sensor_x: float        # the photodiode array's centre along the board
    led_x: float           # the LED die's centre
    detector: float        # side of the photodiode array
    die: float             # side of the LED's emitting area
    sensor_rear: Rect      # the sensor channel at the board
    sensor_front: Rect     # ... where it meets the pocket
    led_rear: Rect
    led_front: Rect
    mouth: Rect            # the pocket's opening in the chute face
    wall_reflectance: float

    def dividers(self) -> tuple[float, float]:
        """Thickness of the wall between the two channels at the board and at the pocket."""
        def gap(a: Rect, b: Rect) -> float:
            return b.x0 - a.x1 if a.x0 < b.x0 else a.x0 - b.x1
        return gap(self.sensor_rear, self.led_rear), gap(self.sensor_front, self.led_front)

    def problems(self) -> list[str]:
        out = []
        rear, front = self.dividers()
        if min(rear, front) < DIVIDER_MIN:
            out.append(f"the divider between the LED's and the sensor's channels is "
                       f"{min(rear, front):.2f} mm thick, below {DIVIDER_MIN} mm")
        def uncovers(r: Rect, x: float, side: float) -> bool:
            h = side / 2
            return r.x0 <= x - h and x + h <= r.x1 and r.z0 <= -h and h <= r.z1

        if not uncovers(self.sensor_rear, self.sensor_x, self.detector):
            out.append("the sensor channel's rear opening does not uncover the whole "
                       "photodiode array")
        if not uncovers(self.led_rear, self.led_x, self.die):
            out.append("the LED channel's rear opening does not uncover the LED's die")
        if not 0 <= self.pocket < self.depth:
            out.append("colour_pocket_depth must lie between 0 and the board's depth")
        return out


def from_geometry(geo: geometry.Geometry, b: collar.Build) -> Optics:
    """The window as geometry.json describes it (the openings: collar.colour_openings, the
    same numbers collar.scad cuts)."""
    op = {k: Rect(*v) for k, v in collar.colour_openings(geo, b).items()}
    return Optics(
        chute=geo.num("chute_width"), edge=geo.num("cube_edge"),
        depth=geo.num("colour_slit_depth"), pocket=geo.num("colour_pocket_depth"),
        sensor_x=b.num("colour_sensor_x"), led_x=b.num("colour_led_x"),
        detector=geo.num("colour_detector_w"), die=b.num("colour_led_die_w"),
        sensor_rear=op["sensor"], sensor_front=op["sensor"],
        led_rear=op["led_rear"], led_front=op["led_front"], mouth=op["mouth"],
        wall_reflectance=b.num("wall_reflectance"),
    )


def load() -> Optics:
    return from_geometry(geometry.load(), collar.load_build())


def parallel_windows(o: Optics, width: float = 4.0, height: float = 2.0,
                     depth: float = 7.0) -> Optics:
    """The window before this design: two straight 4 x 2 mm channels side by side through a
    7 mm wall, no pocket: for comparison in the table."""
    s = Rect(o.sensor_x - width / 2, o.sensor_x + width / 2, -height / 2, height / 2)
    led = Rect(o.led_x - width / 2, o.led_x + width / 2, -height / 2, height / 2)
    mouth = Rect(min(s.x0, led.x0), max(s.x1, led.x1), -height / 2, height / 2)
    return replace(o, depth=depth, pocket=0.0, sensor_rear=s, sensor_front=s, led_rear=led,
                   led_front=led, mouth=mouth)


# ---- rays ------------------------------------------------------------------------------------
def _grid(lo: float, hi: float, n: int) -> np.ndarray:
    return lo + (hi - lo) * (np.arange(n) + 0.5) / n


def _square(cx: float, side: float, n: int) -> np.ndarray:
    """n x n points (x, z) spread over a square of ``side`` centred on (cx, 0)."""
    g = _grid(-side / 2, side / 2, n)
    x, z = np.meshgrid(cx + g, g, indexing="ij")
    return np.stack([x.ravel(), z.ravel()], axis=1)


def _at(p0: np.ndarray, d: np.ndarray, u: float) -> np.ndarray:
    """(x, z) where rays from p0 (x, u, z) along d cross the plane u."""
    t = (u - p0[..., 1]) / d[..., 1]
    return np.stack([p0[..., 0] + t * d[..., 0], p0[..., 2] + t * d[..., 2]], axis=-1)


def _inside(xz: np.ndarray, r: Rect) -> np.ndarray:
    return ((xz[..., 0] >= r.x0) & (xz[..., 0] <= r.x1)
            & (xz[..., 1] >= r.z0) & (xz[..., 1] <= r.z1))


@dataclass(frozen=True)
class Cube:
    """Where the cube is: the gap between its face and the window wall (mm) at its centre
    line, how far its centre is along the wall from the sensor's axis (mm), its pitch about
    the axis along the wall and its yaw about the vertical (degrees), and how far its centre
    is above the window's centre (mm)."""

    gap: float
    lateral: float = 0.0
    pitch: float = 0.0
    yaw: float = 0.0
    height: float = 0.0

    def axes(self, edge: float) -> tuple[np.ndarray, np.ndarray]:
        """The box's centre and its rotation (columns: its x, u, z axes in chute space)."""
        p, y = math.radians(self.pitch), math.radians(self.yaw)
        rx = np.array([[1, 0, 0], [0, math.cos(p), -math.sin(p)], [0, math.sin(p), math.cos(p)]])
        rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
        rot = rz @ rx
        # the face towards the window is `gap` from it along the centre line
        centre = np.array([self.lateral, self.gap + edge / 2 / math.cos(p) / math.cos(y),
                           self.height])
        return centre, rot

    def fits(self, edge: float, chute: float) -> bool:
        """Whether the tilted box stays inside the chute (u between the walls)."""
        centre, rot = self.axes(edge)
        half = np.abs(rot) @ np.full(3, edge / 2)
        return centre[1] - half[1] >= -1e-9 and centre[1] + half[1] <= chute + 1e-9


def _hit_box(o: np.ndarray, d: np.ndarray, centre: np.ndarray, rot: np.ndarray,
             edge: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ray-box intersection (slab method): for rays o + t d, whether each hits the box, where
    (t) and the outward normal of the face it enters."""
    lo_ = (o - centre) @ rot            # ray origins and directions in the box's frame
    ld = d @ rot
    half = edge / 2
    with np.errstate(divide="ignore", invalid="ignore"):
        t1 = (-half - lo_) / ld
        t2 = (half - lo_) / ld
    tmin = np.minimum(t1, t2)
    tmax = np.maximum(t1, t2)
    tmin = np.where(np.isnan(tmin), -np.inf, tmin)
    tmax = np.where(np.isnan(tmax), np.inf, tmax)
    t_in = tmin.max(axis=-1)
    t_out = tmax.min(axis=-1)
    hit = (t_in <= t_out) & (t_in > 0)
    axis = tmin.argmax(axis=-1)
    sign = -np.sign(np.take_along_axis(ld, axis[..., None], axis=-1)[..., 0])
    local_n = np.zeros(lo_.shape)
    np.put_along_axis(local_n, axis[..., None], sign[..., None], axis=-1)
    return hit, t_in, local_n @ rot.T


@dataclass(frozen=True)
class View:
    """What the sensor sees of a cube at one position, with reflectance 1 and the LED on."""

    face: float      # signal from the cube (LED light), in the model's own unit
    wall: float      # signal from the far wall at reflectance 1 (LED light), same unit
    fill: float      # share of the sensor's response that lands on the cube
    lit: float       # share of that (on the cube) that the LED reaches


class Model:
    """The sensor's rays and the LED's points for one window, reused for every position."""

    def __init__(self, o: Optics, n_det: int = 3, n_ap: int = 14, n_led: int = 4) -> None:
        self.o = o
        u_board, u_mouth = -o.depth, -o.pocket
        det = _square(o.sensor_x, o.detector, n_det)
        ap = o.sensor_front
        ax, az = np.meshgrid(_grid(ap.x0, ap.x1, n_ap), _grid(ap.z0, ap.z1, n_ap), indexing="ij")
        cell = ap.w * (ap.z1 - ap.z0) / n_ap ** 2
        src = np.stack([det[:, 0], np.full(len(det), u_board), det[:, 1]], axis=1)
        dst = np.stack([ax.ravel(), np.full(ax.size, u_mouth), az.ravel()], axis=1)
        d = dst[None, :, :] - src[:, None, :]
        r = np.linalg.norm(d, axis=-1)
        d = d / r[..., None]
        cos_t = d[..., 1]
        # the ray must pass the rear opening (it starts inside it) and the pocket's mouth
        ok = _inside(_at(src[:, None, :], d, 0.0), o.mouth) & (cos_t > 0)
        weight = np.where(ok, cos_t * cos_t * cell / (r * r), 0.0)  # response x solid angle
        keep = weight > 0
        self.ray_o = np.broadcast_to(src[:, None, :], d.shape)[keep]
        self.ray_d = d[keep]
        self.ray_w = weight[keep]
        led = _square(o.led_x, o.die, n_led)
        self.led = np.stack([led[:, 0], np.full(len(led), u_board), led[:, 1]], axis=1)

    def irradiance(self, p: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """LED irradiance at points p with surface normals n, and the share of the die each
        point sees through the LED's channel and the pocket."""
        o = self.o
        d = p[:, None, :] - self.led[None, :, :]            # LED point -> surface point
        r = np.linalg.norm(d, axis=-1)
        d = d / r[..., None]
        cos_led = d[..., 1]                                   # LED faces +u
        through = (cos_led > 0) & _inside(_at(self.led[None, :, :], d, -o.pocket), o.led_front)
        through &= _inside(_at(self.led[None, :, :], d, 0.0), o.mouth)
        cos_in = -(d * n[:, None, :]).sum(axis=-1)
        e = np.where(through & (cos_in > 0), cos_led * cos_in / (r * r), 0.0)
        return e.sum(axis=1) / len(self.led), through.mean(axis=1)

    def view(self, cube: Cube) -> View:
        o = self.o
        centre, rot = cube.axes(o.edge)
        hit, t, n = _hit_box(self.ray_o, self.ray_d, centre, rot, o.edge)
        w = self.ray_w
        face = 0.0
        lit = 0.0
        if hit.any():
            p = self.ray_o[hit] + t[hit, None] * self.ray_d[hit]
            e, seen = self.irradiance(p, n[hit])
            face = float((w[hit] * e).sum() / math.pi)
            lit = float((w[hit] * seen).sum() / w[hit].sum())
        miss = ~hit
        wall = 0.0
        if miss.any():  # the far wall, lit by the LED (the cube's shadow not counted)
            t_w = (o.chute - self.ray_o[miss, 1]) / self.ray_d[miss, 1]
            p = self.ray_o[miss] + t_w[:, None] * self.ray_d[miss]
            normal = np.tile(np.array([0.0, -1.0, 0.0]), (len(p), 1))
            e, _ = self.irradiance(p, normal)
            wall = float((w[miss] * e).sum() / math.pi)
        return View(face=face, wall=wall, fill=float(w[hit].sum() / w.sum()), lit=lit)


@lru_cache(maxsize=8)
def model(o: Optics) -> Model:
    return Model(o)


def reference(o: Optics) -> Cube:
    """The position the reading's scale is relative to: the cube centred, flat."""
    return Cube(gap=(o.chute - o.edge) / 2)


def scale(o: Optics, cube: Cube) -> tuple[float, float, float]:
    """(cube signal, far-wall signal at reflectance 1, fill), the signals relative to the
    cube's at the reference position (`reference`)."""
    m = model(o)
    ref = m.view(reference(o)).face
    v = m.view(cube)
    return v.face / ref, v.wall / ref, v.fill


def reading(reflectance: tuple[float, float, float, float], cube: Cube,
            white: tuple[float, float, float, float],
            ambient: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
            o: Optics | None = None) -> tuple[float, float, float, float]:
    """The (R, G, B, C) counts for a cube of `reflectance` (per channel, 0-1) at `cube`.

    `white`: the counts a reflectance-1 face gives at the reference position with the LED
    (the sensor's gain, integration and the LED's spectrum in one number per channel, to be
    calibrated); `ambient`: the counts a reflectance-1 face filling the view gives under the
    room's light alone, through the open chute. The cube's share of the view reflects both;
    the rest of the view is the far wall at `wall_reflectance`."""
    o = o or load()
    s_face, s_wall, fill = scale(o, cube)
    rw = o.wall_reflectance
    return tuple(  # type: ignore[return-value]
        wc * (rc * s_face + rw * s_wall) + ac * (rc * fill + rw * (1 - fill))
        for rc, wc, ac in zip(reflectance, white, ambient, strict=True))


# ---- the interface for a colour model without numpy (the simulated board) ------------------
GRID_GAPS = 10    # gaps from the window wall to the far wall's side
GRID_TILT_STEPS = (-1.0, -0.5, 0.0, 0.5, 1.0)  # pitch, shares of geometry.json's tilt_max


def scale_grid(o: Optics, tilts: tuple[float, ...] | None = None) -> dict[str, object]:
    """The reading's scale tabulated for a colour model that cannot run the ray model (the
    simulated board on the MicroPython unix port): per gap (mm, the cube's face to the window
    wall) and pitch (degrees about the axis along the window wall; by default tilt_max either
    way), the triple (cube scale, far-wall scale, fill) that `scale` gives. Plain lists,
    JSON-ready."""
    if tilts is None:
        t = geometry.load().num("tilt_max")
        tilts = tuple(k * t for k in GRID_TILT_STEPS)
    gs = gaps(o, GRID_GAPS)
    return {
        "gaps": [round(g, 3) for g in gs], "tilts": list(tilts),
        "wall_reflectance": o.wall_reflectance,
        "scale": [[[round(v, 4) for v in scale(o, Cube(gap=g, pitch=tl))] for tl in tilts]
                  for g in gs],
    }


def _bracket(xs: list[float], x: float) -> tuple[int, float]:
    """Index i and weight w so that x = (1 - w) xs[i] + w xs[i + 1], x clamped to the range."""
    x = min(max(x, xs[0]), xs[-1])
    i = 0
    while i < len(xs) - 2 and x > xs[i + 1]:
        i += 1
    return i, (x - xs[i]) / (xs[i + 1] - xs[i])


def grid_scale(grid: dict, gap: float, tilt: float) -> tuple[float, float, float]:
    """(cube scale, far-wall scale, fill) at any gap and pitch, bilinear in `scale_grid`'s
    table; pure Python, no I/O."""
    i, wi = _bracket(grid["gaps"], gap)
    j, wj = _bracket(grid["tilts"], tilt)
    s = grid["scale"]
    return tuple(  # type: ignore[return-value]
        (1 - wi) * ((1 - wj) * s[i][j][k] + wj * s[i][j + 1][k])
        + wi * ((1 - wj) * s[i + 1][j][k] + wj * s[i + 1][j + 1][k]) for k in range(3))


def grid_reading(grid: dict, reflectance: tuple[float, float, float, float], gap: float,
                 tilt: float, white: tuple[float, float, float, float],
                 ambient: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0),
                 ) -> tuple[float, float, float, float]:
    """`reading` from the tabulated scale: the (R, G, B, C) counts of a cube face of
    `reflectance` at `gap` mm from the window wall, pitched by `tilt` degrees. Pure Python,
    no I/O: the function a simulated board's colour model calls (see `reading`)."""
    s_face, s_wall, fill = grid_scale(grid, gap, tilt)
    rw = grid["wall_reflectance"]
    return tuple(  # type: ignore[return-value]
        wc * (rc * s_face + rw * s_wall) + ac * (rc * fill + rw * (1 - fill))
        for rc, wc, ac in zip(reflectance, white, ambient, strict=True))


# ---- across the chute ------------------------------------------------------------------------
def gaps(o: Optics, n: int = 10) -> list[float]:
    top = o.chute - o.edge
    return [top * i / (n - 1) for i in range(n)]


def laterals(o: Optics) -> list[float]:
    top = (o.chute - o.edge) / 2
    return [-top, -top / 2, 0.0, top / 2, top]


def sweep(o: Optics, tilts: tuple[float, ...]) -> list[dict[str, float]]:
    """Per gap: the lit share (centred, and the worst over lateral offsets and tilts), the
    least fill, and the scale (centred flat, and its range)."""
    m = model(o)
    ref = m.view(reference(o)).face
    rows = []
    for g in gaps(o):
        centred = m.view(Cube(gap=g))
        lits, fills, scales = [centred.lit], [centred.fill], [centred.face / ref]
        for lat in laterals(o):
            for tilt in (0.0, *tilts):
                for pitch, yaw in {(tilt, 0.0), (0.0, tilt), (-tilt, 0.0), (0.0, -tilt)}:
                    c = Cube(gap=g, lateral=lat, pitch=pitch, yaw=yaw)
                    if not c.fits(o.edge, o.chute):
                        continue
                    v = m.view(c)
                    if v.fill > 0:
                        lits.append(v.lit)
                    fills.append(v.fill)
                    scales.append(v.face / ref)
        rows.append({"gap": g, "lit": centred.lit, "lit_min": min(lits),
                     "fill_min": min(fills), "scale": centred.face / ref,
                     "scale_min": min(scales), "scale_max": max(scales),
                     "wall": centred.wall / ref})
    return rows


def table(o: Optics | None = None, tilt_max: float | None = None) -> str:
    geo = geometry.load()
    o = o or load()
    tilt = geo.num("tilt_max") if tilt_max is None else tilt_max
    before = {round(r["gap"], 3): r for r in sweep(parallel_windows(o), (0.0,))}
    head = ["gap to the window wall", "lit share, centred", "lit share, worst "
            f"(lateral +-{(o.chute - o.edge) / 2:g} mm, tilt +-{tilt:g} deg)",
            "view on the cube, least", "reading scale, centred flat",
            "reading scale, range", "before: lit share (parallel windows)"]
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in sweep(o, (tilt / 2, tilt)):
        b = before[round(r["gap"], 3)]
        lines.append(f"| {r['gap']:.1f} mm | {100 * r['lit']:.0f} % | {100 * r['lit_min']:.0f} % "
                     f"| {100 * r['fill_min']:.0f} % | {r['scale']:.2f} | "
                     f"{r['scale_min']:.2f}-{r['scale_max']:.2f} | {100 * b['lit']:.0f} % |")
    return "\n".join(lines)


def problems(o: Optics | None = None) -> list[str]:
    """The window's rules: a divider that prints, both parts uncovered, and the lit share at
    or above LIT_SHARE_MIN everywhere across the chute, with the LED anywhere within
    colour_led_x_tol of where geometry.json puts it."""
    o = o or load()
    out = o.problems()
    if out:
        return out
    tilt = geometry.load().num("tilt_max")
    tol = collar.load_build().num("colour_led_x_tol")
    for dx in (0.0, -tol, tol):
        moved = replace(o, led_x=o.led_x + dx)
        bad = moved.problems()
        if bad:
            return [f"with the LED {dx:+g} mm off: {bad[0]}"]
        worst = min(sweep(moved, (tilt / 2, tilt)), key=lambda r: r["lit_min"])
        if worst["lit_min"] < LIT_SHARE_MIN:
            out.append(f"lit share {100 * worst['lit_min']:.0f} % with the cube "
                       f"{worst['gap']:.1f} mm from the window and the LED {dx:+g} mm off: "
                       f"below {100 * LIT_SHARE_MIN:.0f} %")
    return out


def main(argv: list[str]) -> int:
    try:
        o = load()
    except geometry.GeometryError as exc:
        print(f"optics: {exc}", file=sys.stderr)
        return 1
    if "--grid" in argv:  # the scale table for a colour model without numpy, as JSON
        print(json.dumps(scale_grid(o)))
        return 0
    print(table(o))
    bad = problems(o)
    for p in bad:
        print("PROBLEM:", p)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
