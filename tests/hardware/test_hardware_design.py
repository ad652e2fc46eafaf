"""The sensing geometry and the power budget in hardware/README.md are the ones that
hardware/design.py computes from collar.scad, and the design rules hold."""

from __future__ import annotations

import re

import pytest
from hardware_helpers import HARDWARE, ROOT, load

design = load("design")


def test_design_rules_hold() -> None:
    assert design.Geometry(design.scad_params()).problems() == []


def test_readme_shows_the_computed_tables() -> None:
    readme = (HARDWARE / "README.md").read_text()
    for t in (design.geometry_table(), design.power_table()):
        assert t in readme, "README is stale: paste `python hardware/design.py`"


def test_block_time_follows_free_fall() -> None:
    # from rest, 60 mm: v = sqrt(2 g h) = 1.085 m/s; a 10 mm cube takes about 9 ms
    assert design.speed(60, 0) == pytest.approx(1.085, abs=0.001)
    assert 8.5 < design.block_ms(60, 10, 0) < 9.5


def test_firmware_budget_matches() -> None:
    src = (ROOT / "firmware" / "shogun_fw" / "score_track.py").read_text()
    m = re.search(r"DEFAULT_BUDGET_MA\s*=\s*const\((\d+)\)", src)
    assert m, "DEFAULT_BUDGET_MA not found in score_track.py"
    assert int(m.group(1)) == design.STRIP_BUDGET_MA, "update STRIP_BUDGET_MA and the README"


@pytest.mark.parametrize("name", ["wiring.svg", "wiring.png", "collar.png"])
def test_readme_pictures_are_committed(name: str) -> None:
    assert (HARDWARE / "images" / name).stat().st_size > 1000
    assert f"images/{name}" in (HARDWARE / "README.md").read_text()


def test_bom_lists_every_part_with_quantity_and_price() -> None:
    import csv

    rows = list(csv.DictReader((HARDWARE / "bom.csv").open()))
    assert rows
    for r in rows:
        assert r["name"] and r["part_number"], r
        assert float(r["qty"]) > 0 and float(r["unit_price_eur"]) >= 0, r
    text = " ".join(r["name"] + " " + r["part_number"] for r in rows).lower()
    for needed in ("esp32", "break-beam", "tcs34725", "ws2812b", "level shifter",
                   "330 ohm", "1000 uf", "5 v 3 a power supply", "cable", "jst"):
        assert needed in text, needed
    strip_m = sum(float(r["qty"]) for r in rows if "ws2812b" in r["name"].lower())
    assert strip_m * 60 >= 81 + 19  # 60 LED/m: score track and rice track
