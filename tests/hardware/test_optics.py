"""The colour window's optical model (hardware/optics.py): its rays and radiometry agree with
hand calculations, the window as built keeps the lit share everywhere across the chute where
the old side-by-side windows lit nothing near the wall, and the reading follows reflectance,
position and ambient light as the simulator's colour model needs it."""

from __future__ import annotations

import math
import subprocess
import sys
from dataclasses import replace

import pytest
from hardware_helpers import HARDWARE, load

optics = load("optics")
geometry = load("geometry")
collar = load("collar")


@pytest.fixture(scope="module")
def built():
    return optics.load()


def test_the_irradiance_of_a_small_led_is_cos_cos_over_r_squared(built) -> None:
    # No channel in the way (huge openings), a die far smaller than the distance: the LED's
    # irradiance on a surface is I cos(emission) cos(incidence) / r^2.
    big = optics.Rect(-100, 100, -100, 100)
    o = replace(built, die=0.01, led_rear=big, led_front=big, mouth=big, led_x=0.0)
    m = optics.Model(o, n_led=1)
    np = pytest.importorskip("numpy")
    for x, u in ((0.0, 5.0), (4.0, 8.0), (-6.0, 3.0)):
        p = np.array([[x, u, 0.0]])
        normal = np.array([[0.0, -1.0, 0.0]])  # facing the board
        e, seen = m.irradiance(p, normal)
        r = math.hypot(x, u + o.depth)
        cos = (u + o.depth) / r
        assert e[0] == pytest.approx(cos * cos / r ** 2, rel=1e-6)
        assert seen[0] == 1.0


def test_a_face_that_fills_the_view_gives_the_same_signal_at_any_distance(built) -> None:
    # Radiance invariance: a uniformly lit Lambertian face that fills the sensor's view gives
    # the same signal wherever it is. Light it evenly (the LED far away behind a wide
    # channel) and move the face: the signal stays within the sampling's error.
    big = optics.Rect(-100, 100, -100, 100)
    far = replace(built, led_rear=big, led_front=big, mouth=big, led_x=built.sensor_x, die=0.01)
    m = optics.Model(far)
    near = m.view(optics.Cube(gap=0.0))
    farther = m.view(optics.Cube(gap=4.0))
    assert near.fill == pytest.approx(1.0) and farther.fill == pytest.approx(1.0)
    # all that changes is the LED's irradiance on the face: cos^2 / r^2, on the axis 1/r^2
    assert farther.face / near.face == pytest.approx(
        (built.depth / (built.depth + 4.0)) ** 2, rel=0.03)


def test_the_old_side_by_side_windows_light_nothing_near_the_wall(built) -> None:
    old = optics.parallel_windows(built)
    rows = {round(r["gap"], 1): r for r in optics.sweep(old, (0.0,))}
    assert rows[0.0]["lit"] == 0.0 and rows[2.0]["lit"] == 0.0
    assert max(r["lit"] for r in rows.values()) < 0.5


def test_the_window_as_built_keeps_the_lit_share_everywhere(built) -> None:
    assert optics.problems(built) == []
    tilt = geometry.load().num("tilt_max")
    rows = optics.sweep(built, (tilt / 2, tilt))
    assert min(r["lit_min"] for r in rows) >= optics.LIT_SHARE_MIN
    assert [r["gap"] for r in rows][0] == 0.0  # the cube sliding along the window wall
    assert rows[-1]["gap"] == pytest.approx(built.chute - built.edge)


def test_the_check_catches_a_thin_divider_and_a_misplaced_led(built) -> None:
    geo, b = geometry.load(), collar.load_build()
    thin = collar.Build({**b.values, "colour_led_aim_x": 2.5}, b.status)
    assert any("divider" in p for p in optics.from_geometry(geo, thin).problems())
    # an LED channel aimed straight ahead (no lean) leaves the view near the wall dark
    straight = collar.Build({**b.values, "colour_led_aim_x": b.num("colour_led_x")}, b.status)
    assert any("lit share" in p for p in optics.problems(optics.from_geometry(geo, straight)))


def test_reading_is_linear_in_reflectance_and_adds_the_ambient(built) -> None:
    cube = optics.Cube(gap=2.0, lateral=1.0)
    white = (400.0, 500.0, 450.0, 1300.0)
    dark = optics.reading((0.0, 0.0, 0.0, 0.0), cube, white, o=built)
    half = optics.reading((0.5, 0.5, 0.5, 0.5), cube, white, o=built)
    full = optics.reading((1.0, 1.0, 1.0, 1.0), cube, white, o=built)
    for d, h, f in zip(dark, half, full, strict=True):
        assert h - d == pytest.approx((f - d) / 2)
        assert d >= 0  # the far wall beside the cube
    ref = optics.reading((1.0, 1.0, 1.0, 1.0), optics.reference(built), white, o=built)
    assert ref[3] == pytest.approx(white[3] * (1 + built.wall_reflectance
                                               * optics.scale(built, optics.reference(built))[1]))
    lamp = optics.reading((0.5, 0.5, 0.5, 0.5), cube, white, (10.0, 10.0, 10.0, 30.0), o=built)
    assert all(la > h for la, h in zip(lamp, half, strict=True))


def test_reading_scale_falls_with_distance_and_with_a_turned_face(built) -> None:
    near = optics.scale(built, optics.Cube(gap=1.0))[0]
    far = optics.scale(built, optics.Cube(gap=8.0))[0]
    assert near > far > 0
    turned = optics.scale(built, optics.Cube(gap=4.5, yaw=25.0))[0]
    assert 0 < turned < optics.scale(built, optics.Cube(gap=4.5))[0] * 1.2


def test_the_script_prints_the_table_that_the_readme_shows(built) -> None:
    run = subprocess.run([sys.executable, str(HARDWARE / "optics.py")], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    table = optics.table(built)  # (built is what the script loads)
    assert run.stdout.startswith(table)
    assert table in (HARDWARE / "README.md").read_text()


def test_the_tabulated_scale_gives_the_ray_models_reading(built) -> None:
    grid = optics.scale_grid(built)
    white, refl = (400.0, 500.0, 450.0, 1300.0), (0.6, 0.2, 0.1, 0.3)
    g = grid["gaps"][3]
    for tilt in (0.0, grid["tilts"][-1]):
        direct = optics.reading(refl, optics.Cube(gap=g, pitch=tilt), white, o=built)
        tabled = optics.grid_reading(grid, refl, g, tilt, white)
        assert tabled == pytest.approx(direct, rel=1e-3)
    # between the grid's points: between its neighbours' readings
    mid = (grid["gaps"][3] + grid["gaps"][4]) / 2
    a, b = (optics.grid_reading(grid, refl, x, 0.0, white)[3] for x in grid["gaps"][3:5])
    assert min(a, b) <= optics.grid_reading(grid, refl, mid, 0.0, white)[3] <= max(a, b)
    # off the grid: clamped to its edge, never extrapolated
    assert optics.grid_reading(grid, refl, -5.0, 0.0, white) == optics.grid_reading(
        grid, refl, 0.0, 0.0, white)


def test_the_grid_is_printed_as_json() -> None:
    import json

    run = subprocess.run([sys.executable, str(HARDWARE / "optics.py"), "--grid"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    grid = json.loads(run.stdout)
    assert len(grid["scale"]) == len(grid["gaps"]) and len(grid["scale"][0]) == len(grid["tilts"])
