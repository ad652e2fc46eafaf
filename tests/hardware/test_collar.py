"""hardware/collar.scad takes every number from hardware/geometry.json (through the generated
collar_params.scad), renders to a closed STL in both variants (side and downward exit), and the
rendered part has its beams, colour slit, divider, chute and fall start where geometry.json
says: rays cast through the STL find the holes at those depths and the walls beside them."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hardware_helpers import HARDWARE, HINT, load

Vertex = tuple[str, str, str]
Triangle = tuple[Vertex, Vertex, Vertex]


def read_ascii_stl(text: str) -> list[Triangle]:
    """Triangles of an ASCII STL; vertices kept as the exact strings OpenSCAD wrote, so shared
    vertices compare equal without any tolerance."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip()]
    if not lines or lines[0][0] != "solid":
        raise ValueError("not an ASCII STL")
    tris: list[Triangle] = []
    loop: list[Vertex] = []
    for parts in lines[1:]:
        if parts[0] == "vertex":
            if len(parts) != 4:
                raise ValueError(f"bad vertex line: {parts}")
            loop.append((parts[1], parts[2], parts[3]))
        elif parts[0] == "endloop":
            if len(loop) != 3:
                raise ValueError(f"facet with {len(loop)} vertices")
            tris.append((loop[0], loop[1], loop[2]))
            loop = []
    return tris


def closedness_problems(tris: list[Triangle]) -> list[str]:
    """A closed surface: every edge is shared by exactly two triangles, which run it in
    opposite directions (consistent orientation), and no triangle is degenerate."""
    problems: list[str] = []
    undirected: Counter[frozenset[Vertex]] = Counter()
    directed: Counter[tuple[Vertex, Vertex]] = Counter()
    for a, b, c in tris:
        if len({a, b, c}) < 3:
            problems.append(f"degenerate triangle {a} {b} {c}")
            continue
        for u, v in ((a, b), (b, c), (c, a)):
            undirected[frozenset((u, v))] += 1
            directed[(u, v)] += 1
    for edge, n in undirected.items():
        if n != 2:
            problems.append(f"edge {sorted(edge)} is shared by {n} triangles")
    for (u, v), n in directed.items():
        if n != 1 or directed.get((v, u), 0) != 1:
            problems.append(f"edge {u}->{v} is not matched by one opposite edge")
    return problems[:20]


def test_closedness_checker_on_small_shapes() -> None:
    p = ("0", "0", "0"), ("1", "0", "0"), ("0", "1", "0"), ("0", "0", "1")
    o, x, y, z = p
    tetra = [(o, y, x), (o, x, z), (o, z, y), (x, y, z)]
    assert closedness_problems(tetra) == []
    assert closedness_problems(tetra[:3])  # one face missing: open
    flipped = [(o, x, y), *tetra[1:]]
    assert closedness_problems(flipped)  # inconsistent orientation


collar = load("collar")
geometry = load("geometry")


def render(tmp: Path, *defines: str) -> tuple[Path, str]:
    openscad = shutil.which("openscad")
    if openscad is None:
        pytest.fail(f"openscad is not installed: {HINT}")
    out = tmp / "collar.stl"
    cmd = [openscad, "--export-format", "asciistl", "-o", str(out)]
    for d in defines:
        cmd += ["-D", d]
    run = subprocess.run([*cmd, str(HARDWARE / "collar.scad")], capture_output=True, text=True,
                         timeout=180)
    assert run.returncode == 0, run.stderr
    assert "WARNING" not in run.stderr, run.stderr
    return out, run.stderr


@pytest.fixture(scope="module")
def geo():
    return geometry.load()


@pytest.fixture(scope="module")
def build():
    return collar.load_build()


def variant_geometry(geo, variant: str):
    return geometry.Geometry({**geo.values, "exit_direction": variant}, geo.status)


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory, geo, build) -> dict[str, tuple[Path, str]]:
    """The collar as geometry.json configures it, and the other variant (-D exit_side, with
    the stand's cut-out and top that variant gets)."""
    configured = geo.exit_direction
    other = "down" if configured == "side" else "side"
    flag = "true" if other == "side" else "false"
    g = variant_geometry(geo, other)
    hole = "[" + ", ".join(f"{v:g}" for v in collar.hole(g, build)) + "]"
    return {configured: render(tmp_path_factory.mktemp(configured)),
            other: render(tmp_path_factory.mktemp(other), f"exit_side={flag}",
                          f"stand_hole={hole}",
                          f"stand_top_z={collar.stand_top_z(g, build):g}")}


@pytest.fixture(scope="module")
def as_configured(variants, geo) -> tuple[Path, str]:
    return variants[geo.exit_direction]


VARIANTS = ["side", "down"]


# ---- one source: geometry.json --------------------------------------------------------------

def test_collar_params_are_generated_from_geometry_json(geo, build) -> None:
    text = (HARDWARE / "collar_params.scad").read_text()
    assert text == collar.render_params(geo, build), \
        "collar_params.scad is stale: python hardware/collar.py --write"
    for name, value in geometry.collar_params(geo).items():  # geometry's own list, verbatim
        assert re.search(rf"^{name} = {value:g};$", text, re.M), name


def test_collar_scad_sets_no_number_of_its_own() -> None:
    src = (HARDWARE / "collar.scad").read_text()
    own = re.findall(r"^(\w+)\s*=\s*-?[\d.]+\s*;", src, re.M)
    assert set(own) <= {"eps"}, f"collar.scad sets {own}: put them in geometry.json"
    assert "include <collar_params.scad>" in src


def test_a_changed_geometry_value_reaches_the_collar(geo, build) -> None:
    changed = geometry.Geometry({**geo.values, "beam_upper_drop": 58.0}, geo.status)
    assert "beam_upper_drop = 58;" in collar.render_params(changed, build)
    assert collar.render_params(changed, build) != collar.render_params(geo, build)


def test_collar_echoes_the_geometry(as_configured, geo) -> None:
    m = re.search(r"ECHO: collar_echo = \[(.*)\]", as_configured[1])
    assert m, as_configured[1]
    side, up, lo, win, slit_h, slit_d, width, bottom = (x.strip() for x in m.group(1).split(","))
    assert (side == "true") == (geo.exit_direction == "side")
    assert [float(x) for x in (up, lo, win, slit_h, slit_d, width, bottom)] == [
        -geo.num("beam_upper_drop"), -geo.num("beam_lower_drop"),
        -geo.num("colour_window_drop"), geo.num("colour_slit_height"),
        geo.num("colour_slit_depth"), geo.num("chute_width"), -geo.num("chute_bottom_drop")]


# ---- the rendered part -----------------------------------------------------------------------

Tri = tuple[tuple[float, float, float], ...]


def triangles(stl: Path) -> list[Tri]:
    return [tuple(tuple(float(c) for c in v) for v in t) for t in read_ascii_stl(stl.read_text())]


def hits(tris: list[Tri], origin: tuple[float, float, float],
         direction: tuple[float, float, float]) -> list[float]:
    """Distances along the ray at which it crosses the surface (Moller-Trumbore)."""
    out = []
    ox, oy, oz = origin
    dx, dy, dz = direction
    for (ax, ay, az), (bx, by, bz), (cx, cy, cz) in tris:
        e1 = (bx - ax, by - ay, bz - az)
        e2 = (cx - ax, cy - ay, cz - az)
        p = (dy * e2[2] - dz * e2[1], dz * e2[0] - dx * e2[2], dx * e2[1] - dy * e2[0])
        det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2]
        if abs(det) < 1e-12:
            continue
        t0 = (ox - ax, oy - ay, oz - az)
        u = (t0[0] * p[0] + t0[1] * p[1] + t0[2] * p[2]) / det
        if not 0 <= u <= 1:
            continue
        q = (t0[1] * e1[2] - t0[2] * e1[1], t0[2] * e1[0] - t0[0] * e1[2],
             t0[0] * e1[1] - t0[1] * e1[0])
        v = (dx * q[0] + dy * q[1] + dz * q[2]) / det
        if v < 0 or u + v > 1:
            continue
        t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det
        if t > 1e-9:
            out.append(t)
    return sorted(out)


def test_both_variants_are_closed(variants) -> None:
    for stl, _ in variants.values():
        tris = read_ascii_stl(stl.read_text())
        assert len(tris) > 100
        assert closedness_problems(tris) == []


@pytest.mark.parametrize("variant", VARIANTS)
def test_beams_pass_where_geometry_json_says(variants, variant, geo) -> None:
    tris = triangles(variants[variant][0])
    r = geo.num("beam_aperture") / 2
    for drop in (geo.num("beam_upper_drop"), geo.num("beam_lower_drop")):
        for sx in (1.0, -1.0):
            # the beam's axis is open from the chute's centre to the outside, both ways
            assert hits(tris, (0, 0, -drop), (sx, 0, 0)) == [], (drop, sx)
            assert hits(tris, (0, 0, -drop + r - 0.3), (sx, 0, 0)) == []
            # 0.5 mm above or below the aperture the chute wall stops the ray
            for dz in (r + 0.5, -(r + 0.5)):
                first = hits(tris, (0, 0, -drop + dz), (sx, 0, 0))
                assert first and first[0] == pytest.approx(geo.num("chute_width") / 2), (drop, dz)


@pytest.mark.parametrize("variant", VARIANTS)
def test_colour_channels_divider_and_pocket_follow_geometry_json(variants, variant, geo,
                                                                 build) -> None:
    # The openings hardware/optics.py traces are the ones the rendered part has: rays cast
    # through the STL along each channel's axis pass, and the walls stand where they end.
    tris = triangles(variants[variant][0])
    win = geo.num("colour_window_drop")
    half = geo.num("chute_width") / 2
    depth, pocket = geo.num("colour_slit_depth"), geo.num("colour_pocket_depth")
    op = collar.colour_openings(geo, build)
    sx = sum(op["sensor"][:2]) / 2
    # the sensor channel: open from the chute centre out through the board's recess
    assert hits(tris, (sx, 0, -win), (0, 1, 0)) == []
    # just above the sensor channel, from the board's side, the wall ends at the pocket
    top = -win + op["sensor"][3] + 0.3
    first = hits(tris, (sx, half + depth - 0.5, top), (0, -1, 0))
    assert half + depth - 0.5 - first[0] == pytest.approx(half + pocket, abs=0.05)
    # the LED channel: from the LED over the board to its end at the pocket, leaning
    rear, front = op["led_rear"], op["led_front"]
    a = ((rear[0] + rear[1]) / 2, half + depth - 0.01, -win)
    b = ((front[0] + front[1]) / 2, half + pocket + 0.01, -win)
    d = tuple(q - p for p, q in zip(a, b, strict=True))
    n = math.sqrt(sum(c * c for c in d))
    assert hits(tris, a, tuple(c / n for c in d)) == [] or \
        hits(tris, a, tuple(c / n for c in d))[0] > n
    # the divider: between the channels at the board's face a wall 1.2 mm or more thick
    mid = (op["sensor"][1] + rear[0]) / 2
    assert hits(tris, (mid, half + depth - 0.5, -win), (0, -1, 0))[0] < depth - pocket
    # the pocket's floor falls at 45 degrees towards the chute (no ledge, prints upside down)
    x = (op["pocket_back"][0] + op["pocket_back"][1]) / 2
    for into in (1.0, 3.0, 5.0):
        floor = -win + op["pocket_back"][2] - (pocket - into)
        assert hits(tris, (x, half + into, floor + 0.3), (0, 0, 1)) == [] or \
            hits(tris, (x, half + into, floor + 0.3), (0, 0, 1))[0] > 0.5
        assert hits(tris, (x, half + into, floor - 0.3), (0, 0, 1))[0] < 0.6
    # from outside, beside the channels, the board's recess ends at the board's depth
    first = hits(tris, (-5, 100, -win), (0, -1, 0))
    assert 100 - first[0] == pytest.approx(half + depth)


@pytest.mark.parametrize("variant", VARIANTS)
def test_chute_and_fall_start_follow_geometry_json(variants, variant, geo, build) -> None:
    tris = triangles(variants[variant][0])
    half = geo.num("chute_width") / 2
    below_bosses = -geo.num("chute_bottom_drop") + 2
    assert hits(tris, (0, 0, below_bosses), (1, 0, 0))[0] == pytest.approx(half)
    zs = [v[2] for t in tris for v in t]
    assert min(zs) == pytest.approx(-geo.num("chute_bottom_drop"))
    # nothing across the chute's path down to its end: from the top, or (side) from under
    # the guide's arc over the chute's axis
    top = max(zs) + 1 if variant == "down" else math.sqrt(3) / 2 * 2 * half - 0.5
    assert hits(tris, (0, 0, top), (0, 0, -1)) == []
    if variant == "side":
        # the ramp: 1 mm before its lower end it is 1 mm x tan(angle) above the fall start
        # (from just under the guide's roof, chute_width above the ramp's plane)
        a = math.radians(build.num("ramp_angle"))
        slope = math.tan(a)

        def under_roof(x: float) -> float:
            return (2 * half - (x + half) * math.sin(a)) / math.cos(a) - 0.5

        start = under_roof(-half - 1)
        down = hits(tris, (-half - 1, 0, start), (0, 0, -1))
        assert start - down[0] == pytest.approx(slope, abs=0.02)
        mouth = -half - build.num("ramp_run")
        start = under_roof(mouth + 0.5)
        down = hits(tris, (mouth + 0.5, 0, start), (0, 0, -1))
        assert start - down[0] == pytest.approx(collar.ramp_drop(build) - 0.5 * slope,
                                                abs=0.02)
    else:
        assert max(zs) == pytest.approx(0, abs=1e-6)  # the outlet lip


def test_the_guide_keeps_the_way_into_the_chute_a_chute_wide(variants, geo, build) -> None:
    # Over the chute the far wall curves over at chute_width about the ramp's lower edge and
    # runs on parallel to the ramp: from that edge every way up into the passage meets the
    # guide a chute's width away, so no two cubes lie side by side there (hardware/flow.py).
    tris = triangles(variants["side"][0])
    width = geo.num("chute_width")
    a = math.radians(build.num("ramp_angle"))
    edge = (-width / 2 + 0.01, 0.0, 0.01)
    for deg in (5, 20, 40, 60, 80, 100):
        phi = math.radians(deg)
        d = (math.cos(phi), 0.0, math.sin(phi))
        # up to the ramp's normal the arc, beyond it the roof (its distance from the ramp's
        # plane through the edge is chute_width)
        beyond = phi - (math.pi / 2 - a)
        want = width if beyond <= 0 else width / math.cos(beyond)
        assert hits(tris, edge, d)[0] == pytest.approx(want, abs=0.15), deg


def _top_below(tris: list[Tri], x: float, y: float, z: float) -> float:
    """z of the first surface a ray straight down from (x, y, z) meets."""
    return z - hits(tris, (x, y, z), (0, 0, -1))[0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_bosses_are_chamfered_not_flat_ledges(variants, variant, geo, build) -> None:
    # Printed upside down, a boss's top becomes an overhang: it must rise at 45 degrees
    # towards the chute, not stand out as a flat ledge.
    tris = triangles(variants[variant][0])
    half = geo.num("chute_width") / 2
    outer = half + build.num("wall")
    gap = build.num("fit_clearance") + build.num("liner_thickness")
    beam_along = build.num("beam_aperture_len") + build.num("beam_lens_len") \
        + build.num("beam_seat_depth")
    beam_top = -geo.num("beam_upper_drop") + build.num("beam_body_height") / 2 + gap \
        + build.num("wall")
    colour_along = geo.num("colour_slit_depth") + build.num("colour_board_recess")
    colour_top = -geo.num("colour_window_drop") + build.num("colour_board_h") / 2 \
        + build.num("fit_clearance") + build.num("wall")
    probes = [  # 1 mm inside the boss's outer face, 2 mm from the chute; the boss's top, depth
        ((half + beam_along - 1, outer - 0.5), (outer + 2, outer - 0.5), beam_top, beam_along),
        ((-half - beam_along + 1, outer - 0.5), (-outer - 2, outer - 0.5), beam_top,
         beam_along),
        ((-half + 0.5, half + colour_along - 1), (-half + 0.5, outer + 1), colour_top,
         colour_along),
    ]
    for far, near, top, along in probes:
        start = top + along + 1
        assert _top_below(tris, *far, start) == pytest.approx(top + 1, abs=0.05), far
        rise = _top_below(tris, *near, start) - _top_below(tris, *far, start)
        assert rise == pytest.approx(math.dist(far, near), abs=0.05), (far, near)


def test_board_recess_has_fdm_clearance(as_configured, geo, build) -> None:
    tris = triangles(as_configured[0])
    y = geo.num("chute_width") / 2 + geo.num("colour_slit_depth") + 0.5
    across = hits(tris, (0, y, -geo.num("colour_window_drop") + 5), (1, 0, 0))[0]
    assert across == pytest.approx(build.num("colour_board_w") / 2
                                   + build.num("fit_clearance"))
    assert build.num("fit_clearance") >= 0.2  # FDM: 0.1 mm was not enough


def test_build_rules_catch_a_bad_tower_or_ramp(geo, build) -> None:
    assert collar.problems(geo, build) == []
    high_sill = geometry.Geometry({**geo.values, "exit_direction": "side",
                                   "outlet_sill_height": 60.0}, geo.status)
    assert any("sill is too high" in p for p in collar.problems(high_sill, build))
    flat = collar.Build({**build.values, "ramp_angle": 30.0}, build.status)
    side = geometry.Geometry({**geo.values, "exit_direction": "side"}, geo.status)
    assert any("support" in p for p in collar.problems(side, flat))


def test_stand_follows_the_outlet(geo, build) -> None:
    side = geometry.Geometry({**geo.values, "exit_direction": "side"}, geo.status)
    higher = geometry.Geometry({**side.values, "outlet_sill_height": 10.0}, geo.status)
    assert collar.stand_height(higher, build) == pytest.approx(
        collar.stand_height(side, build) - 10)
    assert collar.stand_height(side, build) == pytest.approx(
        collar.ramp_drop(build) - geo.num("outlet_sill_height") + geo.num("chute_bottom_drop")
        + build.num("tray_clearance"))


# ---- it prints and assembles as printed (hardware/printcheck.py on the rendered part) ----------
printcheck = load("printcheck")


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_collar_goes_into_its_stand_as_modelled(variants, variant, geo, build) -> None:
    # the part's own cross-section just below the stand's top, not the numbers behind it
    tris = printcheck.read_stl(variants[variant][0])
    g = variant_geometry(geo, variant)
    beyond = printcheck.fit(tris, g, build)
    assert max(beyond.values()) <= 0, beyond
    # and the flange rests on the stand around the cut-out, with room for the screws
    top = collar.stand_top_z(g, build)
    flange = printcheck.below(tris, top + build.num("flange_thickness") / 2)
    x0, x1, y0, y1 = collar.hole(g, build)
    assert flange[:, 0].max() >= x1 + build.num("flange_margin") - 1e-6
    assert flange[:, 1].min() <= y0 - build.num("flange_margin") + 1e-6
    assert flange[:, 1].max() >= y1 + build.num("flange_margin") - 1e-6


def test_the_fit_check_sees_a_boss_wider_than_the_cut_out(variants, geo, build) -> None:
    tris = printcheck.read_stl(variants[geo.exit_direction][0])
    small = collar.Build({**build.values, "beam_seat_depth": build.num("beam_seat_depth") - 4},
                         build.status)  # a cut-out drawn for shorter bosses than the part has
    assert max(printcheck.fit(tris, geo, small).values()) > 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_overhang_hangs_over_5_mm_printed_upside_down(variants, variant) -> None:
    tris = printcheck.read_stl(variants[variant][0])
    assert printcheck.overhangs(tris) == []


def test_the_overhang_check_tells_a_ledge_from_a_bridge(tmp_path: Path) -> None:
    # a 10 mm ledge hangs 10 mm over nothing; an 8 mm bridge is 4 mm from a wall at worst
    (tmp_path / "ledge.scad").write_text(
        "cube([20, 20, 2]);\n"                                    # the bed's layer
        "translate([0, 0, 0]) cube([5, 20, 20]);\n"               # a wall
        "translate([0, 0, 18]) cube([15, 20, 2]);\n")             # 10 mm beyond it
    (tmp_path / "bridge.scad").write_text(
        "cube([2, 20, 20]); translate([10, 0, 0]) cube([2, 20, 20]);\n"
        "translate([0, 0, 18]) cube([12, 20, 2]);\n")
    found = {}
    for name in ("ledge", "bridge"):
        out = tmp_path / f"{name}.stl"
        subprocess.run([shutil.which("openscad"), "--export-format", "asciistl", "-o", str(out),
                        str(tmp_path / f"{name}.scad")], check=True, capture_output=True,
                       timeout=120)
        found[name] = printcheck.overhangs(printcheck.read_stl(out), flip=False)
    assert found["ledge"] and max(h[3] for h in found["ledge"]) == pytest.approx(10, abs=0.2)
    assert found["bridge"] == []


def test_print_orientation_footprint_and_brim(as_configured) -> None:
    fp = printcheck.footprint(printcheck.read_stl(as_configured[0]))
    assert fp["area"] > 0 and fp["height"] > 0
    b = printcheck.brim(fp)
    # the README says the brim the check computes
    text = " ".join((HARDWARE / "README.md").read_text().split())
    assert f"brim of {b:.0f} mm" in text


def test_readme_shows_the_print_check_of_the_rendered_collar(as_configured) -> None:
    table, bad = printcheck.report(as_configured[0])
    assert bad == []
    assert table in (HARDWARE / "README.md").read_text(), "README is stale: make -C hardware readme"
