"""The firmware's ESP32 pin map (firmware/shogun_fw/boards/esp32_config.py) and the wiring
(hardware/wiring.yml) agree pin for pin, and every pin can do its job."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from hardware_helpers import HARDWARE, HINT, load

pinmap = load("pinmap")


def _yaml() -> Any:
    try:
        import yaml
    except ImportError:  # pragma: no cover - depends on the machine
        pytest.fail(f"PyYAML (installed with wireviz) is missing: {HINT}")
    return yaml


@pytest.fixture(scope="module")
def wiring_data() -> dict[str, Any]:
    return _yaml().safe_load((HARDWARE / "wiring.yml").read_text())


@pytest.fixture(scope="module")
def firmware() -> tuple[dict[str, int], int]:
    return pinmap.load_firmware_pins()


def test_firmware_pins_and_wiring_agree(firmware, wiring_data) -> None:
    pins, freq = firmware
    problems = pinmap.check(pins, pinmap.parse_wiring(copy.deepcopy(wiring_data)), freq)
    assert problems == []


def test_every_firmware_job_is_known(firmware) -> None:
    pins, _ = firmware
    assert set(pins) <= set(pinmap.JOB_NEEDS), "add the new job to hardware/pinmap.py"
    jumpered = set(pinmap.load_jumper_pins())
    assert set(pinmap.JOB_NEEDS) - jumpered == set(pinmap.JOB_ENDPOINTS)


def test_every_firmware_pin_can_do_its_job(firmware) -> None:
    pins, _ = firmware
    for job, gpio in pins.items():
        assert pinmap.pin_problems(job, gpio) == [], job


@pytest.mark.parametrize("job, gpio, why", [
    ("led_strip", 34, "input only"),
    ("colour_led", 39, "input only"),
    ("beam_upper", 36, "no internal pull-up"),
    ("beam_lower", 7, "flash"),
    ("inject", 12, "strapping"),
    ("i2c_sda", 0, "strapping"),
    ("i2c_scl", 2, "strapping"),
    ("led_strip", 15, "strapping"),
    ("colour_led", 5, "strapping"),
    ("i2c_sda", 1, "UART0"),
    ("beam_upper", 3, "UART0"),
    ("led_strip", 24, "does not exist"),
])
def test_capability_table_rejects_bad_pins(job: str, gpio: int, why: str) -> None:
    assert any(why in p for p in pinmap.pin_problems(job, gpio))


def test_psram_pins_are_refused_on_a_wrover_and_free_on_a_wroom() -> None:
    for gpio in (16, 17):
        assert any("PSRAM" in p for p in pinmap.pin_problems("led_strip", gpio,
                                                             "ESP32-WROVER-E"))
        assert pinmap.pin_problems("led_strip", gpio, "ESP32-WROOM-32") == []


# The pins the brief keeps for other jobs (the strip UART's RX, the beam capture) and the
# input-only ones: a new job on them passes the capability table as it stands.
@pytest.mark.parametrize("gpio", [4, 13, 14, 16, 17, 18, 19, 21, 22, 23, 25, 26, 27, 32, 33])
def test_capability_table_accepts_general_purpose_pins(gpio: int) -> None:
    for job in pinmap.JOB_NEEDS:
        assert pinmap.pin_problems(job, gpio) == []


@pytest.mark.parametrize("gpio", [34, 35, 36, 39])
def test_input_only_pins_take_an_input_driven_from_outside(gpio: int) -> None:
    assert pinmap.pin_problems("power_sense", gpio) == []
    assert any("input only" in p for p in pinmap.pin_problems("colour_led", gpio))


def test_input_only_pins_are_fine_for_an_externally_pulled_input() -> None:
    assert not pinmap.ESP32_GPIO[35].output and not pinmap.ESP32_GPIO[35].pullup
    assert pinmap.ESP32_GPIO[35].hazards == ()


# ---- the checker is not vacuous: each kind of disagreement is caught ------------------------

def _check(pins: dict[str, int], data: dict[str, Any]) -> list[str]:
    return pinmap.check(pins, pinmap.parse_wiring(data))


def test_swapped_beams_are_caught(firmware, wiring_data) -> None:
    pins = dict(firmware[0])
    pins["beam_upper"], pins["beam_lower"] = pins["beam_lower"], pins["beam_upper"]
    problems = _check(pins, copy.deepcopy(wiring_data))
    assert any("beam_upper" in p and "not wired to BEAM_UP_RX" in p for p in problems)
    assert any("beam_lower" in p for p in problems)


def test_pin_moved_in_firmware_only_is_caught(firmware, wiring_data) -> None:
    pins = dict(firmware[0])
    pins["colour_led"] = 27
    problems = _check(pins, copy.deepcopy(wiring_data))
    assert any("no wire on it" in p for p in problems)
    assert any("GPIO4, which no job" in p for p in problems)


def _rewire(data: dict[str, Any], old: dict[str, list[str]], new: dict[str, list[str]]) -> None:
    for conn_set in data["connections"]:
        for i, entry in enumerate(conn_set):
            if entry == old:
                conn_set[i] = new
                return
    raise AssertionError(f"{old} not in wiring.yml")


def test_strip_without_series_resistor_is_caught(firmware, wiring_data) -> None:
    data = copy.deepcopy(wiring_data)
    _rewire(data, {"R_DATA": ["B"]}, {"U_LVL": ["1Y"]})  # 1Y straight to DIN
    problems = _check(firmware[0], data)
    assert any("led_strip" in p and "R_DATA" in p for p in problems)


def test_short_between_gpios_is_caught(firmware, wiring_data) -> None:
    data = copy.deepcopy(wiring_data)
    _rewire(data, {"ESP32": ["GPIO33"]}, {"ESP32": ["GPIO26"]})  # inject onto beam_lower
    problems = _check(firmware[0], data)
    assert any("inject" in p for p in problems)


def test_the_capture_clock_jumper_is_drawn_and_nothing_else_on_it(firmware, wiring_data) -> None:
    # GPIO18 to GPIO19: the one net of two GPIOs allowed, and it must be there.
    jumpers = pinmap.load_jumper_pins()
    assert jumpers == {"capture_clock": 18, "capture_clock_in": 19}
    data = copy.deepcopy(wiring_data)
    data["connections"] = [c for c in data["connections"]
                           if not any("W_CLK" in entry for entry in c)]
    problems = _check(firmware[0], data)
    assert any("jumper from GPIO18 to GPIO19 is not drawn" in p for p in problems)
    data = copy.deepcopy(wiring_data)
    _rewire(data, {"ESP32": ["GPIO19"]}, {"ESP32": ["GPIO25"]})  # the clock into a beam
    problems = _check(firmware[0], data)
    assert any(p.startswith("short: GPIO18, GPIO25") for p in problems)


def test_gpio_on_a_power_rail_is_caught(firmware, wiring_data) -> None:
    data = copy.deepcopy(wiring_data)
    _rewire(data, {"COLLAR": ["3V3", "GND", "BEAM_UP"]}, {"COLLAR": ["BEAM_UP", "GND", "BEAM_UP"]})
    problems = _check(firmware[0], data)
    assert any("power net" in p for p in problems)


def _drop_part(data: dict[str, Any], part: str) -> dict[str, Any]:
    """The wiring without ``part`` and every connection set that touches it."""
    data = copy.deepcopy(data)
    del data["connectors"][part]
    data["connections"] = [cs for cs in data["connections"]
                           if not any(isinstance(e, dict) and part in e for e in cs)]
    return data


def test_i2c_at_400_khz_needs_the_pull_ups(firmware, wiring_data) -> None:
    pins, freq = firmware
    assert freq == 400_000  # decision: 2.2 kohm pull-ups keep Fast mode
    w = pinmap.parse_wiring(copy.deepcopy(wiring_data))
    assert pinmap.i2c_rise_ns(pinmap.i2c_pullup(pins, w, "i2c_sda")) < 300
    bare = _drop_part(_drop_part(wiring_data, "R_SDA"), "R_SCL")
    problems = pinmap.check(pins, pinmap.parse_wiring(bare), freq)
    assert any("i2c_sda: rise time 847 ns" in p for p in problems), problems
    assert any("i2c_scl: rise time" in p for p in problems)
    # the breakout's 10 kohm alone would do for 100 kHz (1000 ns)
    assert pinmap.i2c_problems(pins, pinmap.parse_wiring(bare), 100_000) == []


def test_strip_input_pull_down_and_usb_inrush_are_checked(firmware, wiring_data) -> None:
    w = pinmap.parse_wiring(copy.deepcopy(wiring_data))
    # C_BULK and the strip sit behind the soft start, C_PSU on the supply's side
    assert pinmap.usb_capacitance_uf(w) == 0
    assert pinmap.power_problems(w) == []
    problems = pinmap.power_problems(pinmap.parse_wiring(_drop_part(wiring_data, "R_PD")))
    assert any("pull-down" in p for p in problems)
    # the strip's rail straight on VBUS (Q_SS bridged): C_BULK's 220 uF charge at plug-in
    data = copy.deepcopy(wiring_data)
    _rewire(data, {"Q_SS": ["D"]}, {"Q_SS": ["S"]})
    problems = pinmap.power_problems(pinmap.parse_wiring(data))
    assert any("soft start" in p for p in problems) and any("inrush" in p for p in problems)


@pytest.mark.parametrize("job", ["beam_upper", "beam_lower", "i2c_sda", "i2c_scl",
                                 "colour_led"])
def test_every_long_line_to_the_collar_has_its_series_resistor(firmware, wiring_data,
                                                                 job) -> None:
    pins = firmware[0]
    assert pinmap.check(pins, pinmap.parse_wiring(copy.deepcopy(wiring_data))) == []
    part = pinmap.SERIES[job]
    data = copy.deepcopy(wiring_data)
    _rewire(data, {part: ["B"]}, {part: ["A"]})  # the resistor shorted out
    problems = pinmap.check(pins, pinmap.parse_wiring(data))
    assert any(job in p and part in p for p in problems), problems


def test_i2c_series_resistors_keep_the_low_level(firmware, wiring_data) -> None:
    pins = firmware[0]
    w = pinmap.parse_wiring(copy.deepcopy(wiring_data))
    assert pinmap.i2c_low_v(pins, w, "i2c_sda") < pinmap.I2C_VIL_MAX
    data = copy.deepcopy(wiring_data)
    data["connectors"]["R_S_SDA"]["type"] = "Resistor 2.2 kohm"
    assert any("low" in p for p in pinmap.i2c_problems(pins, pinmap.parse_wiring(data),
                                                       400_000))


def test_the_supply_sense_reaches_gpio34_through_its_divider(firmware, wiring_data) -> None:
    pins = firmware[0]
    assert pinmap.PLANNED_PINS["power_sense"] == 34
    assert pinmap.pin_problems("power_sense", 34) == []
    w = pinmap.parse_wiring(copy.deepcopy(wiring_data))
    assert pinmap.check(pins, w) == []
    # the firmware may take the job up, on the same pin only
    assert pinmap.check({**pins, "power_sense": 34}, w) == []
    assert any("power_sense" in p for p in pinmap.check({**pins, "power_sense": 35}, w))
    # the divider's top shorted: the supply's 5 V straight on an input-only pin
    data = copy.deepcopy(wiring_data)
    _rewire(data, {"R_SNS_HI": ["B"]}, {"R_SNS_HI": ["A"]})
    problems = pinmap.check(pins, pinmap.parse_wiring(data))
    assert any("power net" in p or "R_SNS_HI" in p for p in problems), problems


DIN_47100 = ["WH", "BN", "GN", "YE", "GY", "PK", "BU", "RD", "BK", "VT"]


def test_collar_cable_colours_follow_din_47100(wiring_data) -> None:
    w1 = wiring_data["cables"]["W1"]
    assert w1.get("color_code") == "DIN" or w1["colors"] == DIN_47100[:len(w1["colors"])]
    from wireviz.wv_colors import COLOR_CODES

    assert COLOR_CODES["DIN"][:w1["wirecount"]] == DIN_47100[:w1["wirecount"]]


def _readme_pin_table() -> dict[str, int]:
    text = (HARDWARE / "README.md").read_text()
    section = text.split("## Pin map", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d+) \| `(\w+)` \|", section, re.M)
    return {job: int(gpio) for gpio, job in rows}


def test_readme_pin_table_is_the_firmware_pin_map(firmware) -> None:
    pins, freq = firmware
    assert _readme_pin_table() == {**pinmap.PLANNED_PINS, **pins, **pinmap.load_jumper_pins()}
    section = (HARDWARE / "README.md").read_text().split("## Pin map", 1)[1]
    assert f"I2C {freq // 1000} kHz" in section.split("\n## ", 1)[0]


R_DATA_PLACE = "on the controller board next to the strip connector (W9)"


def test_r_data_has_one_place_in_every_file(wiring_data) -> None:
    import csv

    assert R_DATA_PLACE in wiring_data["connectors"]["R_DATA"]["subtype"]
    bom = [r for r in csv.DictReader((HARDWARE / "bom.csv").open())
           if "R_DATA" in r["ref"].split("/")]
    assert len(bom) == 1 and R_DATA_PLACE in bom[0]["notes"]
    readme = (HARDWARE / "README.md").read_text()
    assert f"R_DATA 330 ohm {R_DATA_PLACE}" in readme


def test_wiring_names_the_budget_of_each_power_source(wiring_data) -> None:
    power = load("power")
    note = wiring_data["connectors"]["J_PWR"]["notes"]
    assert re.findall(r"budget (\d+) mA", note) == [str(power.PSU_STRIP_BUDGET_MA),
                                                    str(power.STRIP_BUDGET_MA)]


def test_wiring_parses_with_the_pinned_wireviz() -> None:
    try:
        from wireviz import wireviz
    except ImportError:
        pytest.fail(f"wireviz is missing: {HINT}")
    harness = wireviz.parse(HARDWARE / "wiring.yml", return_types="harness")
    assert "ESP32" in harness.connectors and "W1" in harness.cables
