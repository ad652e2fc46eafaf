"""The sensing geometry behind the collar, from hardware/geometry.json (through
hardware/geometry.py, the one loader). `python hardware/design.py` prints the table that
hardware/README.md shows; `--check` exits non-zero if a rule of the geometry (geometry.py) or
of the build (collar.py) is broken. tests/hardware/test_hardware_design.py runs both.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import collar  # noqa: E402
import geometry  # noqa: E402
from power import table  # noqa: E402


def block_ms(geo: geometry.Geometry, beam_drop: float, length: float, v0: float) -> float:
    """How long a cube of vertical extent `length` blocks a beam `beam_drop` below the fall
    start (its bottom face starts there), the receivers' response left out."""
    return 1000 * (geometry.fall_time(geo, beam_drop + length, v0)
                   - geometry.fall_time(geo, beam_drop, v0))


def best_sample_coverage(band: float, length: float, v: float, t_int_ms: float,
                         steps: int = 240) -> float:
    """Fraction of the viewed band covered by the cube, averaged over one integration, for the
    best of the back-to-back integrations while the cube passes, in the worst phase of the
    integrations against the cube (the sensor runs free)."""
    period = t_int_ms / 1000
    t_pass = (length + band) / (v * 1000)  # from first to last overlap

    def cover(t: float) -> float:  # bottom of the cube enters the band's top at t = 0
        bottom = v * 1000 * t
        top = bottom - length
        return max(0.0, min(bottom, band) - max(top, 0.0)) / band

    worst = 1.0
    for k in range(steps):
        phase = period * k / steps
        best = 0.0
        start = -phase
        while start < t_pass:
            n = 48
            avg = sum(cover(start + period * (i + 0.5) / n) for i in range(n)) / n
            best = max(best, avg)
            start += period
        worst = min(worst, best)
    return worst


def rows(geo: geometry.Geometry) -> list[tuple[str, str]]:
    L = geo.num("cube_edge")
    up, lo = geo.num("beam_upper_drop"), geo.num("beam_lower_drop")
    win = geo.num("colour_window_drop")
    width = geo.num("chute_width")
    t_int = geo.num("colour_integration")
    start = "the ramp end" if geo.exit_direction == "side" else "the outlet lip"
    out = [
        ("tower outlet", f"{geo.exit_direction} (fall start: {start})"),
        ("cube edge / face diagonal / space diagonal",
         f"{L:g} / {L * math.sqrt(2):.1f} / {L * math.sqrt(3):.1f} mm"),
        ("chute inner width", f"{width:g} mm"),
        ("beams below the fall start", f"{up:g} mm and {lo:g} mm (spacing {lo - up:g} mm)"),
        ("colour window centre below the fall start", f"{win:g} mm"),
        ("colour slit height / depth", f"{geo.num('colour_slit_height'):g} / "
                                       f"{geo.num('colour_slit_depth'):g} mm"),
    ]
    v0s = sorted({*geo.range("exit_speed"), geo.mid("exit_speed")})
    for v0 in v0s:
        tc = 1000 * (geometry.centre_time(geo, lo, v0) - geometry.centre_time(geo, up, v0))
        tw = 1000 * (geometry.centre_time(geo, win, v0) - geometry.centre_time(geo, up, v0))
        out += [
            (f"leaving at {v0:.1f} m/s: speed at upper / lower beam",
             f"{geometry.speed(geo, up, v0):.2f} / {geometry.speed(geo, lo, v0):.2f} m/s"),
            (f"leaving at {v0:.1f} m/s: flat cube blocks upper / lower beam",
             f"{block_ms(geo, up, L, v0):.1f} / {block_ms(geo, lo, L, v0):.1f} ms"),
            (f"leaving at {v0:.1f} m/s: centre from upper beam to window / to lower beam",
             f"{tw:.1f} / {tc:.1f} ms"),
        ]
    fall_lo, _ = geo.range("receiver_fall_delay")
    _, rise_hi = geo.range("receiver_rise_delay")
    gap = geo.num("cube_gap_min")
    out += [
        ("receiver response: output falls / rises after the light",
         f"{geo.range('receiver_fall_delay')[0]:g}-{geo.range('receiver_fall_delay')[1]:g} / "
         f"{geo.range('receiver_rise_delay')[0]:g}-{rise_hi:g} ms"),
        (f"shortest gap ({gap:g} ms) left at the receiver's output",
         f"{gap - (rise_hi - fall_lo):.1f} ms (debounce "
         f"{geometry.firmware_timing(geo)['DEBOUNCE_US'] / 1000:g} ms)"),
        (f"{gap:g} ms gap at the upper beam: from rest / slowed by the walls",
         f"{gap * geometry.speed(geo, up, geo.range('exit_speed')[0]):.1f} / "
         f"{gap * geometry.slowest_at_upper(geo):.1f} mm "
         f"(beam aperture {geo.num('beam_aperture'):g} mm)"),
    ]
    v_win = geometry.speed(geo, win + L / 2, geo.range("exit_speed")[0])
    for label, gap_mm in (("centred", (width - L) / 2), ("far wall", width - L)):
        band = geometry.band(geo, gap_mm)
        full = (L - band) / v_win
        cov = best_sample_coverage(band, L, v_win, t_int)
        out.append((f"colour: viewed band, cube {label} ({gap_mm:g} mm from slit)",
                    f"{band:.1f} mm, fills it for {full:.1f} ms at {v_win:.2f} m/s"))
        out.append((f"colour: best {t_int:g} ms sample, cube {label}, worst phase",
                    f"{100 * cov:.0f} % cube"))
    return out


def geometry_table(geo: geometry.Geometry | None = None) -> str:
    return table(rows(geo or geometry.load()), ("sensing geometry (from geometry.json)", "value"))


def build_table() -> str:
    return table(collar.build_rows(geometry.load(), collar.load_build()),
                 ("the build (from geometry.json)", "value"))


def problems() -> list[str]:
    import optics  # numpy: loaded only for the check

    geo = geometry.load()
    return geometry.problems(geo) + collar.problems(geo, collar.load_build()) + optics.problems()


def main(argv: list[str]) -> int:
    try:
        if "--check" in argv:
            bad = problems()
            for p in bad:
                print("PROBLEM:", p)
            print("design rules:", "broken" if bad else "ok")
            return 1 if bad else 0
        print(geometry_table())
        print()
        print(build_table())
    except geometry.GeometryError as exc:
        print(f"design: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
