"""The firmware and the simulated board take the outlet's geometry from hardware/geometry.json
and nowhere else: the generated blocks are current, the simulator's fall matches the free fall
geometry.py computes, and the detector's limits bracket what the geometry lets happen."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shogun_tower.sim_device import micropython_executable, repo_root

ROOT = repo_root()


def _load_geometry():
    spec = importlib.util.spec_from_file_location("hardware_geometry",
                                                  ROOT / "hardware" / "geometry.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules["hardware_geometry"] = mod  # (dataclasses look their module up there)
    spec.loader.exec_module(mod)
    return mod


geometry = _load_geometry()
GEO = geometry.load()
TIMING = geometry.firmware_timing(GEO)


def test_generated_blocks_are_current() -> None:
    assert geometry.stale_files(GEO) == [], "run: python hardware/geometry.py --write"
    detector = (ROOT / "firmware" / "shogun_fw" / "detector.py").read_text()
    for name, value in TIMING.items():
        assert f"_{name} = const({value})" in detector, name


def test_every_value_is_measured_or_assumed_with_a_reason() -> None:
    raw = json.loads((ROOT / "hardware" / "geometry.json").read_text())["values"]
    assert set(raw) == set(geometry.FIELDS)
    for name, entry in raw.items():
        assert entry["status"] in ("measured", "assumed"), name
        assert entry.get("how" if entry["status"] == "measured" else "why"), name


@pytest.mark.parametrize(("change", "message"), [
    (lambda v: v.pop("cube_edge"), "cube_edge is missing"),
    (lambda v: v["beam_upper_drop"].update(unit="cm"), "unit must be 'mm'"),
    (lambda v: v["chute_width"].update(status="guessed"), "status must be"),
    (lambda v: v["cube_edge"].update(why=""), "needs 'why'"),
    (lambda v: v["exit_speed"].update(value=[1.0, 0.5]), "[low, high]"),
    (lambda v: v["exit_direction"].update(value="up"), "one of down, side"),
    (lambda v: v["beam_lower_drop"].update(value=70.0), "further apart"),
    (lambda v: v.update(extra={"value": 1}), "unknown value(s) extra"),
])
def test_a_bad_geometry_is_refused_in_one_line(tmp_path: Path, change, message: str) -> None:
    data = json.loads((ROOT / "hardware" / "geometry.json").read_text())
    change(data["values"])
    bad = tmp_path / "geometry.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(geometry.GeometryError) as err:
        geometry.load(bad)
    text = str(err.value)
    assert message in text and "\n" not in text, text


def test_the_detectors_limits_bracket_the_geometry() -> None:
    ext = geometry.extents(GEO)
    assert ext["single_max"] * 100 < TIMING["SPLIT_CU"] < ext["double_min"] * 100
    up, lo = GEO.num("beam_upper_drop"), GEO.num("beam_lower_drop")
    for v0 in GEO.range("exit_speed"):
        transit = geometry.centre_time(GEO, lo, v0) - geometry.centre_time(GEO, up, v0)
        assert TIMING["TC_MIN_US"] < transit * 1e6 < TIMING["TC_MAX_US"]
        # the slowest tumbling pair still ends before a block counts as a cube held there
        v = geometry.speed(GEO, up, v0)
        assert ext["double_max"] / v * 1000 < TIMING["STUCK_US"]
    gap_left = (GEO.num("cube_gap_min") - GEO.range("receiver_rise_delay")[1]
                + GEO.range("receiver_fall_delay")[0]) * 1000
    assert 2 * GEO.num("chatter_max") * 1000 <= TIMING["DEBOUNCE_US"] < gap_left
    assert TIMING["QUIET_US"] > GEO.num("throw_pause_max") * 1000


_SIM_PROBE = """
from shogun_fw.boards.sim import SimBoard
b = SimBoard(seed=1, virtual=True, serial=False)
b.fall_us = 0
b.rise_us = 0
b.drop(100000, 1, None, %(v0)r, (10.0, 10.0))
t0, t1, light, win, lower = b._blocks[-7:-2]  # (sim.py: _BS ints a block)
print(t1 - t0, lower & 0x3FFFFF, lower >> 22, win & 0x3FFFFF, win >> 22 & 0x3FFFFF, win >> 44)
"""


@pytest.mark.parametrize("v0", [0.0, 0.5, 1.0])
def test_the_simulated_fall_is_the_geometrys(v0: float) -> None:
    env = dict(os.environ)
    env["MICROPYPATH"] = os.pathsep.join([str(ROOT / "firmware"), str(ROOT / "common"),
                                          ".frozen"])
    out = subprocess.run([micropython_executable(), "-c", _SIM_PROBE % {"v0": v0}],
                         capture_output=True, text=True, env=env, timeout=60, check=True)
    block, l0, l1, e0, x0, d = (int(x) for x in out.stdout.split())
    edge = GEO.num("cube_edge")
    up, lo = GEO.num("beam_upper_drop"), GEO.num("beam_lower_drop")

    def at(centre_depth: float) -> float:  # us from the upper block's start
        return 1e6 * (geometry.centre_time(GEO, centre_depth, v0)
                      - geometry.centre_time(GEO, up - edge / 2, v0))

    assert block == pytest.approx(at(up + edge / 2), abs=2)
    assert l0 == pytest.approx(at(lo - edge / 2), abs=2)
    assert l1 == pytest.approx(at(lo + edge / 2), abs=2)
    # the window: the lead enters the viewed band (its top) at e0, the trail at x0; d to cross
    top_lo = GEO.num("colour_window_drop") - geometry.band(GEO, GEO.num("chute_width") - edge) / 2
    top_hi = GEO.num("colour_window_drop") - geometry.band(GEO, 0) / 2
    assert at(top_lo - edge / 2) - 2 <= e0 <= at(top_hi - edge / 2) + 2
    assert x0 - e0 == pytest.approx(at(top_lo + edge / 2) - at(top_lo - edge / 2),
                                    rel=0.2)
    assert 0 < d < math.ceil(at(top_lo + geometry.band(GEO, 8) - edge / 2)
                             - at(top_lo - edge / 2)) + 2
