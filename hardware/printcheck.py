"""Checks on the rendered collar (build/collar.stl, from OpenSCAD), not on its numbers:

- fit: the part's cross-section just below the stand's top lies inside the stand's cut-out
  (collar.hole), so the collar goes in from above as modelled;
- overhangs: printed upside down (its top face on the bed), every face that looks down more
  steeply than 45 degrees has material within OVERHANG_MAX of it on the layer below (a
  bridge's middle is half its span from a wall, a ledge's edge its whole width);
- stability: the part's footprint on the bed, its height, and the brim that makes it stand.

`python hardware/printcheck.py build/collar.stl` prints the three and exits 1 when a rule
breaks (`make hardware` runs it on the collar it renders).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import collar  # noqa: E402
import geometry  # noqa: E402

OVERHANG_MAX = 5.0       # mm: the widest a face may hang beyond the layer below
STEEP = math.cos(math.radians(45)) + 0.02  # faces looking down more steeply than 45 degrees
LAYER = 0.2              # mm
BRIM_RATIO = 3.0         # a part taller than 3 x its footprint's narrowest width needs a brim


def read_stl(path: Path) -> np.ndarray:
    """Triangles (n, 3, 3) of an ASCII STL."""
    verts = [tuple(float(c) for c in ln.split()[1:4]) for ln in Path(path).read_text().splitlines()
             if ln.strip().startswith("vertex")]
    return np.array(verts, dtype=float).reshape(-1, 3, 3)


def section(tris: np.ndarray, z: float) -> np.ndarray:
    """Segments (m, 2, 2) where the plane z cuts the surface."""
    d = tris[:, :, 2] - z
    out = []
    for t, dz in zip(tris, d, strict=True):
        pts = []
        for i, j in ((0, 1), (1, 2), (2, 0)):
            if (dz[i] < 0) != (dz[j] < 0):
                f = dz[i] / (dz[i] - dz[j])
                pts.append(t[i, :2] + f * (t[j, :2] - t[i, :2]))
        if len(pts) == 2:
            out.append(pts)
    return np.array(out, dtype=float).reshape(-1, 2, 2)


def below(tris: np.ndarray, z: float) -> np.ndarray:
    """(x, y) of the part below the plane z: its vertices there and where its edges cross z."""
    pts = [tris[tris[:, :, 2] < z][:, :2]]
    seg = section(tris, z)
    if len(seg):
        pts.append(seg.reshape(-1, 2))
    return np.concatenate(pts)


def fit(tris: np.ndarray, geo: geometry.Geometry, b: collar.Build) -> dict[str, float]:
    """How far the part below the stand's top reaches beyond the cut-out on each side
    (negative: inside, by that much)."""
    top = collar.stand_top_z(geo, b)
    pts = below(tris, top - 0.05)
    x0, x1, y0, y1 = collar.hole(geo, b)
    return {"-x": x0 - pts[:, 0].min(), "+x": pts[:, 0].max() - x1,
            "-y": y0 - pts[:, 1].min(), "+y": pts[:, 1].max() - y1}


def _inside(p: np.ndarray, seg: np.ndarray) -> np.ndarray:
    """Whether points p (k, 2) lie inside the closed section (ray-crossing parity)."""
    a, b = seg[:, 0], seg[:, 1]
    x, y = p[:, None, 0], p[:, None, 1]
    cross = (a[None, :, 1] > y) != (b[None, :, 1] > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        xs = a[None, :, 0] + (y - a[None, :, 1]) * (b[None, :, 0] - a[None, :, 0]) / (
            b[None, :, 1] - a[None, :, 1])
    return ((cross & (x < xs)).sum(axis=1) % 2) == 1


def _distance(p: np.ndarray, seg: np.ndarray) -> np.ndarray:
    a, b = seg[:, 0], seg[:, 1]
    ab = b - a
    t = ((p[:, None, :] - a[None]) * ab[None]).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-12)
    t = np.clip(t, 0, 1)
    q = a[None] + t[..., None] * ab[None]
    return np.sqrt(((p[:, None, :] - q) ** 2).sum(-1)).min(axis=1)


def overhangs(tris: np.ndarray, flip: bool = True) -> list[tuple[float, float, float, float]]:
    """Faces that look down more steeply than 45 degrees in the print orientation (upside
    down when `flip`) and hang more than OVERHANG_MAX beyond the layer below them:
    (x, y, height above the bed, how far) for each, in the print's coordinates."""
    t = tris.copy()
    if flip:
        t[:, :, 2] = -t[:, :, 2]
        t[:, :, 1] = -t[:, :, 1]  # a turn about x, not a mirror
    t[:, :, 2] -= t[:, :, 2].min()
    n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    area = np.linalg.norm(n, axis=1)
    keep = area > 1e-9
    nz = np.zeros(len(t))
    nz[keep] = n[keep, 2] / area[keep]
    down = (nz < -STEEP) & (t[:, :, 2].min(axis=1) > LAYER)
    out = []
    by_level: dict[float, list[np.ndarray]] = {}
    for tri in t[down]:
        # the face's points: corners and centre, pulled 0.05 mm in
        c = tri.mean(axis=0)
        pts = np.vstack([c, c + 0.95 * (tri - c)])
        for p in pts:
            by_level.setdefault(round(float(p[2]) - LAYER, 2), []).append(p)
    for z, pts in by_level.items():
        seg = section(t, z)
        p = np.array(pts)[:, :2]
        if not len(seg):
            far = np.full(len(p), np.inf)
        else:
            far = np.where(_inside(p, seg), 0.0, _distance(p, seg))
        for q, d in zip(p, far, strict=True):
            if d > OVERHANG_MAX:
                out.append((float(q[0]), float(q[1]), z + LAYER, float(d)))
    return out


def footprint(tris: np.ndarray, flip: bool = True) -> dict[str, float]:
    """The first layer (printed upside down): its area, its narrowest width across, and the
    part's height."""
    t = tris.copy()
    if flip:
        t[:, :, 2] = -t[:, :, 2]
        t[:, :, 1] = -t[:, :, 1]
    t[:, :, 2] -= t[:, :, 2].min()
    n = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    on_bed = (t[:, :, 2].max(axis=1) < 1e-6) & (np.abs(n[:, 2]) > 1e-12)
    area = float(np.abs(n[on_bed, 2]).sum() / 2)
    pts = t[on_bed][:, :, :2].reshape(-1, 2)
    widths = []
    for a in np.radians(np.arange(0, 180, 5)):
        d = pts @ np.array([math.cos(a), math.sin(a)])
        widths.append(float(d.max() - d.min()))
    return {"area": area, "narrowest": min(widths), "height": float(t[:, :, 2].max())}


def brim(fp: dict[str, float]) -> float:
    """The brim width (mm) that makes the footprint's narrowest width a third of the height."""
    return max(0.0, (fp["height"] / BRIM_RATIO - fp["narrowest"]) / 2)


def report(stl: Path) -> tuple[str, list[str]]:
    geo, b = geometry.load(), collar.load_build()
    tris = read_stl(stl)
    f = fit(tris, geo, b)
    hx, hy = collar.cutout(geo, b)
    worst = max(f.values())
    hangs = overhangs(tris)
    fp = footprint(tris)
    rows = [
        ("stand cut-out", f"{hx:.1f} x {hy:.1f} mm"),
        ("below the stand's top, beyond the cut-out (-x, +x, -y, +y)",
         ", ".join(f"{v:+.2f}" for v in f.values()) + " mm" + (" (fits)" if worst <= 0 else "")),
        (f"overhangs steeper than 45 deg hanging over {OVERHANG_MAX:g} mm (printed upside down)",
         f"{len(hangs)}" + (f", widest {max(h[3] for h in hangs):.1f} mm" if hangs else "")),
        ("first layer (upside down): area / narrowest width / part height",
         f"{fp['area']:.0f} mm2 / {fp['narrowest']:.1f} mm / {fp['height']:.0f} mm"),
        ("brim for height <= 3 x the narrowest width", f"{brim(fp):.0f} mm"),
    ]
    bad = []
    if worst > 0:
        bad.append(f"the collar reaches {worst:.2f} mm beyond the stand's cut-out")
    for x, y, z, d in hangs[:5]:
        bad.append(f"overhang at ({x:.1f}, {y:.1f}), {z:.1f} mm above the bed, hangs {d:.1f} mm")
    from power import table

    return table(rows, ("the printed collar (build/collar.stl)", "value")), bad


def main(argv: list[str]) -> int:
    stl = Path(argv[0]) if argv else HERE / "build" / "collar.stl"
    if not stl.exists():
        print(f"printcheck: {stl} is missing: run make hardware first", file=sys.stderr)
        return 1
    text, bad = report(stl)
    print(text)
    for p in bad:
        print("PROBLEM:", p)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
