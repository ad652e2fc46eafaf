"""The jam and geometry check (hardware/jamcheck.py): its tables are the ones in
hardware/README.md, and it catches a chute that can wedge a cube and a geometry where a single
cube can be taken for two."""

from __future__ import annotations

import dataclasses
import math
import subprocess
import sys

import pytest
from hardware_helpers import HARDWARE, load

jamcheck = load("jamcheck")
geometry = load("geometry")
collar = load("collar")


def _sweep(**values: object) -> object:
    geo = geometry.load()
    changed = geometry.Geometry({**geo.values, **values}, geo.status)
    return jamcheck.Sweep(changed, collar.load_build())


def test_readme_shows_the_jam_check() -> None:
    readme = (HARDWARE / "README.md").read_text()
    for table in jamcheck.report().strip().split("\n\n"):
        assert table in readme, "README is stale: make -C hardware readme"


def test_the_script_prints_the_report() -> None:
    run = subprocess.run([sys.executable, str(HARDWARE / "jamcheck.py")], capture_output=True,
                         text=True, timeout=60)
    assert run.stdout.startswith(jamcheck.report())
    assert run.returncode == (1 if jamcheck.load().problems() else 0)


def test_tilt_makes_a_cube_taller_up_to_its_face_diagonal() -> None:
    assert jamcheck.tilted_extent(10, 0) == pytest.approx(10)
    assert jamcheck.tilted_extent(10, 45) == pytest.approx(10 * math.sqrt(2))
    assert jamcheck.tilted_extent(10, 25) < jamcheck.tilted_extent(10, 30)


def test_a_narrow_chute_is_reported_as_wedging() -> None:
    sweep = _sweep(chute_width=17.9)
    rows = sweep.chute_rows()
    assert rows[0][-1] == "ok"  # 17.9 > 17.84 as drawn
    assert all(r[-1] == "may wedge" for r in rows[1:])  # printed 0.2 / 0.4 mm small
    assert any("may wedge" in p for p in sweep.problems())


def test_a_chute_wide_enough_for_two_cubes_is_reported() -> None:
    rows = _sweep(chute_width=19.6).chute_rows()
    assert rows[0][-1] == "two side by side"


def test_loose_cube_tolerance_leaves_no_margin_between_single_and_double() -> None:
    m = _sweep(cube_tolerance=0.6).margins()
    assert m["double_min"] - m["single_max"] < 2 * m["error"]
    assert any("double" in p for p in _sweep(cube_tolerance=0.6).problems())


def test_block_time_alone_cannot_tell_single_from_double_but_length_can() -> None:
    m = jamcheck.load().margins()
    assert m["time_overlap"] > 0       # why the detector uses length (time x speed)
    assert m["gap"] > 0 and m["left"] > 0


def test_the_split_is_the_detectors() -> None:
    sweep = jamcheck.load()
    timing = geometry.firmware_timing(sweep.geo)
    assert round(sweep.margins()["split"] * 100) == timing["SPLIT_CU"]


def test_a_steep_funnel_from_a_wide_outlet_is_reported() -> None:
    sweep = _sweep(outlet_width=120.0)
    assert sweep.funnel_angle() > sweep.steepest_funnel()
    assert any("funnel" in p for p in sweep.problems())
    assert jamcheck.load().funnel_angle() <= jamcheck.load().steepest_funnel()


def test_a_cube_keeps_less_speed_the_steeper_the_wall() -> None:
    sweep = jamcheck.load()
    assert sweep.kept_speed(0) == pytest.approx(1)
    assert sweep.kept_speed(10) > sweep.kept_speed(30) > sweep.kept_speed(60)


def test_the_heap_of_cubes_under_the_chute_is_checked() -> None:
    sweep = jamcheck.load()
    h = sweep.pile_height()
    # 30 cubes of about 10 mm at 60 % packing: about 50 cm^3, a cone at 40 deg about 33 mm high
    assert 25 < h < 40
    assert not [p for p in sweep.problems() if "heap" in p]
    low = dataclasses.replace(sweep.build, values={**sweep.build.values, "tray_clearance": h})
    assert any("heap" in p for p in jamcheck.Sweep(sweep.geo, low).problems())


def test_two_cubes_can_wedge_where_the_throat_closes_in_gently() -> None:
    sweep = jamcheck.load()
    phi = sweep.friction_angle()
    assert sweep.pair_can_lock(phi - 1) and not sweep.pair_can_lock(phi + 1)
    assert not sweep.pair_can_lock(sweep.funnel_angle())
    long_ramp = dataclasses.replace(sweep.build, values={**sweep.build.values, "ramp_run": 30.0})
    assert any("wedge" in p for p in jamcheck.Sweep(sweep.geo, long_ramp).problems())
