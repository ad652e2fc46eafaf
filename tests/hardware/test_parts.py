"""Every part number in hardware/bom.csv is checked against the part it claims (hardware/parts.py:
the makers' ordering schemes decoded, a catalogue for the rest) and against wiring.yml."""

from __future__ import annotations

import pytest
from hardware_helpers import HARDWARE, load

parts = load("parts")


@pytest.fixture(scope="module")
def rows() -> list[dict[str, str]]:
    return parts.load_bom()


def test_the_bom_as_it_stands_checks_out(rows) -> None:
    assert parts.problems(rows) == []
    assert all(r["package"] and r["pins"].isdigit() for r in rows)


@pytest.mark.parametrize(("part_number", "facts"), [
    ("Yageo CFR-25JB-52-330R", {"ohm": 330.0}),
    ("Yageo CFR-25JB-52-2K2", {"ohm": 2200.0}),
    ("Yageo CFR-25JB-52-1M", {"ohm": 1e6}),
    ("Vishay K104K15X7RF5TL2", {"uf": 0.1, "volts": 50}),
    ("KEMET C322C225K3R5TA", {"uf": 2.2, "volts": 25}),
    ("Panasonic EEU-FR1A221", {"uf": 220, "volts": 10}),
    ("Panasonic EEU-FR1A102", {"uf": 1000, "volts": 10}),
    ("Nichicon UVR1C100MDD", {"uf": 10, "volts": 16}),
    ("JST B7B-XH-A", {"pins": 7}),
    ("Samtec SSW-119-01-T-S (generic)", {"pins": 19}),
    ("Amphenol 10129378-940001BLF (generic)", {"pins": 40}),
    ("Mill-Max 110-43-314-41-001000", {"pins": 14, "package": "DIP-14 socket"}),
    ("TI SN74AHCT125N", {"pins": 14, "package": "PDIP-14"}),
])
def test_part_numbers_decode_by_their_makers_schemes(part_number, facts) -> None:
    decoded = parts.decode(part_number)
    assert decoded is not None
    for key, value in facts.items():
        assert decoded[key] == pytest.approx(value) if isinstance(value, float) \
            else decoded[key] == value


def _with(rows, ref, **changes):
    return [{**r, **changes} if r["ref"] == ref else r for r in rows]


def test_the_old_socket_and_a_wrong_value_are_caught(rows) -> None:
    # the socket the BOM had: a number nobody here can read as 14 positions
    old = _with(rows, "U_LVL socket", part_number="TE 1-2199298-2")
    assert any("U_LVL socket" in p and "no decoder" in p for p in parts.problems(old))
    # an 8-position socket for the 14-pin buffer
    eight = _with(rows, "U_LVL socket", part_number="Mill-Max 110-43-308-41-001000")
    assert any("14" in p and "8" in p for p in parts.problems(eight))
    # a resistor whose number is another value than its name
    wrong = _with(rows, "R_SNS_LO", part_number="Yageo CFR-25JB-52-10K")
    assert any("R_SNS_LO" in p for p in parts.problems(wrong))
    # a capacitor rated below what its name asks
    low = _with(rows, "C_HUB", part_number="Nichicon UVR0J100MDD")
    assert any("rated" in p for p in parts.problems(low))


def test_every_part_the_wiring_draws_has_a_row(rows) -> None:
    without = [r for r in rows if r["ref"] != "Q_SS"]
    assert any("Q_SS" in p for p in parts.problems(without))


def test_readme_shows_the_checked_parts_list(rows) -> None:
    table = parts.table(rows)
    assert "WRONG" not in table
    assert table in (HARDWARE / "README.md").read_text(), "README is stale: make -C hardware readme"
