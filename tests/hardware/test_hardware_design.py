"""The sensing geometry, the build's numbers and the power budget in hardware/README.md are the
ones hardware/design.py and hardware/power.py compute from geometry.json and the parts list;
the rules hold; the BOM has what the build needs."""

from __future__ import annotations

import csv

import pytest
from hardware_helpers import HARDWARE, load

design = load("design")
power = load("power")
geometry = load("geometry")


def _bom() -> dict[str, dict[str, str]]:
    return {r["ref"]: r for r in csv.DictReader((HARDWARE / "bom.csv").open())}


def test_design_rules_hold() -> None:
    assert design.problems() == []


def test_readme_shows_the_computed_tables() -> None:
    readme = (HARDWARE / "README.md").read_text()
    for t in (design.geometry_table(), design.build_table(), power.power_table(),
              power.source_table()):
        assert t in readme, "README is stale: make -C hardware readme"
    assert " ".join(power.SOURCE_SENSE.split()) in " ".join(readme.split())


def test_the_soft_start_keeps_usb_inrush_and_hands_over_to_the_supply() -> None:
    ss = power.soft_start()
    assert power.source_problems(ss) == []
    # the strip rail's ramp is the gate current through C_GD: i = C dV/dt by hand
    plateau, vbus = 1.5, 5.0
    i_gate = (vbus - plateau) / (ss.r_g + ss.r_sense) - plateau / ss.r_gs
    assert ss.ramp_v_per_s(vbus, plateau) == pytest.approx(i_gate / (ss.c_gd * 1e-6))
    assert ss.inrush_ma(vbus, plateau) == pytest.approx(
        ss.c_rail * 1e-6 * i_gate / (ss.c_gd * 1e-6) * 1000)
    assert 0 < ss.handover_s(vbus) < 1.0
    # without C_GS the gate starts at the drain's 0 V: Q_SS would switch on at once
    bare = power.SoftStart(**{**ss.__dict__, "c_gs": 0.0})
    assert any("held off" in p or "hold" in p for p in power.source_problems(bare))
    # a tenth of C_GD: ten times the inrush
    fast = power.SoftStart(**{**ss.__dict__, "c_gd": ss.c_gd / 10})
    assert any("inrush" in p for p in power.source_problems(fast))


def test_the_budget_follows_the_source() -> None:
    assert power.PSU_STRIP_BUDGET_MA == round(power.PSU_MA * power.PSU_DERATE)
    assert power.STRIP_BUDGET_MA + sum(power.LOADS_MA.values()) <= power.USB2_MA
    assert str(power.PSU_STRIP_BUDGET_MA) in power.SOURCE_SENSE
    assert f"GPIO{power.SENSE_GPIO}" in power.SOURCE_SENSE


def test_block_time_follows_free_fall() -> None:
    geo = geometry.load()
    # from rest, 60 mm: v = sqrt(2 g h) = 1.085 m/s; a 10 mm cube takes about 9 ms
    assert geometry.speed(geo, 60, 0) == pytest.approx(1.085, abs=0.001)
    assert 8.5 < design.block_ms(geo, 60, 10, 0) < 9.5


def test_viewed_band_uses_the_collars_channel_and_pocket() -> None:
    geo = geometry.load()
    h, d = geo.num("colour_slit_height"), geo.num("colour_slit_depth")
    p, det = geo.num("colour_pocket_depth"), geo.num("colour_detector_w")
    gap = (geo.num("chute_width") - geo.num("cube_edge")) / 2
    band = h + (h + det) * (gap + p) / (d - p)  # the rays from the array through the channel
    assert f"{band:.1f} mm, fills it" in design.geometry_table(geo)
    # the simulated board takes the band as a plain slit's h' + 2 g h' / d': the same band
    h2, d2 = geometry.slit_equivalent(geo)
    for g in (0.0, gap, 2 * gap):
        assert h2 + 2 * g * h2 / d2 == pytest.approx(geometry.band(geo, g))


def test_current_model_and_budget_are_the_firmwares() -> None:
    fw = power.firmware_model()
    assert fw["channel_ma"] == power.LED_CHANNEL_MA
    assert fw["idle_ma"] == power.LED_IDLE_MA
    assert fw["usb_budget_ma"] == power.STRIP_BUDGET_MA
    assert fw["supply_budget_ma"] == power.PSU_STRIP_BUDGET_MA == 2400


def test_the_firmwares_budgets_are_generated_from_power_py(tmp_path, monkeypatch) -> None:
    # score_track.py's block is power.py's (make hardware's `constants` fails when it is not),
    # its hand-over no shorter than the slowest the soft start's parts give
    assert not power.firmware_stale()
    ss = power.soft_start()
    handover_ms = power.firmware_constants(ss)["HANDOVER_MS"]
    assert max(ss.handover_s(v) for v in power.VBUS_V) * 1000 <= handover_ms
    stale = tmp_path / "score_track.py"
    stale.write_text(power.SCORE_TRACK.read_text().replace(
        "_SUPPLY_BUDGET_MA = const(2400)", "_SUPPLY_BUDGET_MA = const(3000)"))
    monkeypatch.setattr(power, "SCORE_TRACK", stale)
    assert power.firmware_stale()
    assert power.main(["--check"]) == 1
    assert any("stale" in p for p in power.source_problems(ss))
    monkeypatch.setattr(power, "ROOT", tmp_path)
    assert power.main(["--write"]) == 0 and not power.firmware_stale()


def test_worst_case_counts_the_idle_current_of_leds_that_exist() -> None:
    rest = sum(power.LOADS_MA.values())
    told = power.Budget(present=100, configured=100)
    untold = power.Budget(present=100, configured=81)
    assert told.worst_ma() == pytest.approx(rest + 370)
    assert untold.worst_ma() == pytest.approx(rest + 370 + 19)
    assert told.worst_ma() <= power.USB2_MA < untold.worst_ma() + 1
    # a strip of 81 told it has 100 stays below its budget, never above
    assert power.Budget(present=81, configured=100).strip_worst_ma() == 370
    frame = bytes([255, 0, 0]) * 3 + bytes(3 * 97)
    assert power.strip_ma(frame, 100) == pytest.approx(3 * 20 + 100)


def test_bom_lists_every_part_with_quantity_and_price() -> None:
    rows = list(_bom().values())
    assert rows
    for r in rows:
        assert r["name"] and r["part_number"], r
        assert float(r["qty"]) > 0 and float(r["unit_price_eur"]) >= 0, r
    text = " ".join(r["name"] + " " + r["part_number"] for r in rows).lower()
    for needed in ("esp32", "break-beam", "tcs34725", "ws2812b", "level shifter",
                   "330 ohm", "220 uf", "2.2 kohm", "10 kohm", "5 v 3 a power supply", "cable",
                   "jst", "m3 hex nut", "stand", "aluminium foil tape"):
        assert needed in text, needed
    strip_m = sum(float(r["qty"]) for r in rows if "ws2812b" in r["name"].lower())
    assert strip_m * 60 >= 81 + 19  # 60 LED/m: score track and rice track


def test_bom_has_a_nut_for_every_screw_and_the_wiring_parts() -> None:
    bom = _bom()
    assert float(bom["NUTS"]["qty"]) >= float(bom["SCREWS"]["qty"])
    assert bom["R_SDA/R_SCL"]["qty"] == "2" and "2.2 kohm" in bom["R_SDA/R_SCL"]["name"]
    assert "220 uF" in bom["C_BULK"]["name"]
    assert "socket" in bom["U_LVL socket"]["name"] and bom["U_LVL socket"]["pins"] == "14"


@pytest.mark.parametrize("name", ["wiring.svg", "wiring.png", "collar.png",
                                  "collar_section.png"])
def test_readme_pictures_are_committed(name: str) -> None:
    assert (HARDWARE / "images" / name).stat().st_size > 1000
    assert f"images/{name}" in (HARDWARE / "README.md").read_text()
