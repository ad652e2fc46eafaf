"""The flow from the tower's outlet through the beams (hardware/flow.py) against the detector's
assumptions: the model's physics on cases with a known answer, the verdicts on the collar as
built, and what they say of a collar without its guide or of a detector that assumes too much."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hardware_helpers import HARDWARE, load

flow = load("flow")
geometry = load("geometry")
collar = load("collar")


@pytest.fixture(scope="module")
def runs():
    """The report's simulated runs (the script's default: the cases at the ranges' ends, then
    SINGLE_RUNS seeded single cubes and as many pairs, each pair also without the guide),
    made once for the tests that read them."""
    return flow.simulate(flow.load())


def test_a_cube_falling_clear_of_the_walls_is_what_the_detector_assumes() -> None:
    # From rest at the fall start in the middle of the chute: free fall, no strike, flat.
    f = flow.load()
    a = f.edge
    body = flow.Body(f.width / 2, a / 2, a)
    t = 0.0
    while body.z > -(f.lo + a):
        f.step([body], flow.Case(0.0, 0.4, 0.3), t)
        t += flow.STEP
        f.observe(body, t)
    d = f.detector(body)
    geo = f.geo
    tc = geometry.centre_time(geo, geo.num("beam_lower_drop"), 0.0) - geometry.centre_time(
        geo, geo.num("beam_upper_drop"), 0.0)
    assert body.strikes == []
    assert d["tc"] == pytest.approx(tc, abs=2 * flow.STEP)
    assert d["extent"] == pytest.approx(a * 1000, abs=0.15)
    # (the window's share of the transit is the nominal speed's: from rest it is 0.17 ms off)
    assert abs(d["window_error"]) < 0.25e-3
    assert body.tilt["lower"] == pytest.approx(0, abs=1e-6)


def test_a_strike_turns_the_cube_and_slows_its_fall() -> None:
    # A flat cube moving sideways into the far wall while falling: friction at the struck
    # corner takes from its fall and spins it; restitution sends it back slower.
    f = flow.load()
    a = f.edge
    body = flow.Body(f.width - a / 2 - 1e-4, -0.03, a, vx=0.5, vz=-0.8)
    steps = 0
    while not body.strikes and steps < 100:
        f.step([body], flow.Case(0.0, 0.5, 0.5), 0.0)
        steps += 1
    free_fall = -0.8 - f.g * flow.STEP * steps
    assert body.strikes
    assert body.vx == pytest.approx(-0.25, abs=0.03)
    assert body.vz > free_fall + 0.1   # the wall's friction took from the fall
    assert abs(body.w) > 1             # rad/s: and turned the cube


def test_without_the_guide_two_cubes_wedge_at_the_throat(runs) -> None:
    # The far wall straight up past the ramp's end: two touching cubes find room side by
    # side there and one hangs against the wall, held by the other on the ramp. (The
    # report's pairs: each seeded case thrown without the guide, then with it.)
    wedged = [n for n, stuck in enumerate(runs.pairs_unguided) if stuck]
    assert wedged
    assert not any(runs.pairs[n][2] for n in wedged)
    f = flow.load()  # the other pair size of each wedged case, with the guide
    assert not any(f.run_case(runs.pairs[n][0], pair=2 - n % 2)[1] for n in wedged)


def test_slowed_cubes_need_the_window_for_the_slowest_speed(tmp_path) -> None:
    # A detector that assumes every cube falls from rest (beam_speed_min above the free
    # fall's 1.13 m/s) drops the cubes the walls slow out of its pairing window.
    data = json.loads((HARDWARE / "geometry.json").read_text())
    data["values"]["beam_speed_min"]["value"] = 2.0
    path = tmp_path / "geometry.json"
    path.write_text(json.dumps(data))
    f = flow.Flow(geometry.load(path), collar.load_build(path))
    rows = {r[0]: r for r in flow.verdict_rows(f, flow.simulate(f, runs=0))}
    assert rows["upper-to-lower transit (block centres)"][-1].startswith("NOT MET")
    assert rows["vertical speed at the upper beam"][-1] == "NOT MET"


def test_the_cubes_leave_turned_by_up_to_45_degrees(runs) -> None:
    f = flow.load()
    ends = runs.singles[:len(f.cases())]  # the cases at the ranges' ends
    tilts = [max(b.tilt.values()) for _, b, stuck in ends if not stuck]
    assert max(tilts) > f.geo.num("tilt_max") - 5  # the ramp turns them: 25 was too few
    assert f.geo.num("tilt_max") == 45


def test_the_report_is_the_tables_that_the_readme_shows(runs) -> None:
    text, bad = flow.report(flow.load(), runs)
    # every verdict holds (the script exits 1 on one that does not), over the default runs
    assert bad == [], text
    assert "| two touching cubes leaving together: wedged in the chute | 0 of 40 runs |" in text
    readme = (HARDWARE / "README.md").read_text()
    tables = text.strip().split("\n\n")
    assert len(tables) == 2 and tables[1].startswith("| the detector assumes |")
    for table in tables:
        assert table in readme


def test_the_script_prints_the_report() -> None:
    # `--runs 0`: the cases at the ranges' ends alone, whose table is the README's first
    out = subprocess.run([sys.executable, str(HARDWARE / "flow.py"), "--runs", "0"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    f = flow.load()
    assert out.stdout == flow.report(f, flow.simulate(f, runs=0))[0]
    assert out.stdout.split("\n\n")[0] in (HARDWARE / "README.md").read_text()


def test_a_downward_outlet_is_said_to_be_outside_the_model(tmp_path) -> None:
    data = json.loads((HARDWARE / "geometry.json").read_text())
    data["values"]["exit_direction"]["value"] = "down"
    path = tmp_path / "geometry.json"
    path.write_text(json.dumps(data))
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import flow, geometry, collar, "
            "pathlib; p = pathlib.Path(sys.argv[2]); "
            "flow.load = lambda: flow.Flow(geometry.load(p), collar.load_build(p)); "
            "sys.exit(flow.main([]))")
    out = subprocess.run([sys.executable, "-c", code, str(HARDWARE), str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "not modelled for a downward outlet" in out.stdout
