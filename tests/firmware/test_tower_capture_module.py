"""The tower build's C module (firmware/micropython-build/shogun_capture/shogun_capture.c) writes
the capture's ring as boards/__init__.py describes it, and its fake (fake_tower/) as the C does:
their figures are read from the sources here (the C is built only with ESP-IDF)."""

from __future__ import annotations

import pathlib
import re

from shogun_tower.sim_device import firmware_dir

ROOT = pathlib.Path(__file__).parents[2]
C_FILE = ROOT / "firmware" / "micropython-build" / "shogun_capture" / "shogun_capture.c"


def _consts(path: pathlib.Path) -> dict[str, int]:
    found = re.findall(r"^(_\w+) = const\((0x[0-9A-Fa-f]+|\d+)\)", path.read_text(), re.M)
    return {name: int(value, 0) for name, value in found}


def test_the_c_handler_writes_the_ring_as_the_capture_reads_it() -> None:
    py = _consts(firmware_dir() / "shogun_fw" / "boards" / "__init__.py")
    c = {m[1]: int(m[2], 0) for m in re.finditer(
        r"#define SHOGUN_CAPTURE_(\w+) \((0x[0-9A-Fa-f]+|\d+)\)", C_FILE.read_text())}
    assert c["FIELDS"] == py["_RF"] and c["STATUS_W"] == py["_S_W"]
    assert c["TICKS_MASK"] == py["_MASK"]
    # the reading's fields in put()'s order: the ticks' two halves, G, F, R, the beam
    slots = dict(re.findall(r"slot\[(\d)\] = (.+);", C_FILE.read_text()))
    assert [slots[str(i)] for i in range(6)] == [
        "t & 0xFFFF", "(t >> 16) & 0x3FFF", "g", "f", "r", "b"], slots
    fake = (ROOT / "tests" / "firmware" / "fake_tower" / "shogun_capture.py").read_text()
    assert f"_FIELDS = {c['FIELDS']}" in fake
    assert int(re.search(r"^_MASK = (0x\w+)", fake, re.M)[1], 0) == c["TICKS_MASK"]

def test_the_board_passes_its_units_in_the_order_the_c_handler_reads_them() -> None:
    esp32 = _consts(firmware_dir() / "shogun_fw" / "boards" / "esp32.py")
    assert (esp32["_U_FALLS"], esp32["_U_RISES"], esp32["_U_BLOCKED"]) == (0, 2, 4)
    text = (firmware_dir() / "shogun_fw" / "boards" / "esp32.py").read_text()
    assert "_UNITS = (0, 1, 2, 3, 4, 5)" in text
    c = C_FILE.read_text()
    assert "capture.unit[4 + b]" in c and "capture.unit[b]" in c and "capture.unit[2 + b]" in c
