"""The colour sensor's own clock on a real board: `pytest tests/hil/test_sensor_clock.py --port
PORT` (the colour sensor fitted, the chute empty or a white card in the window).

The TCS34725 integrates on its own oscillator; boards/esp32.py learns where its integrations end
from the status's AINT and stamps each sample with its integration, not with its read. The fake
chip (tests/firmware/fake_machine/tcs34725_chip.py) keeps a clock the same way, but what the
part does is only answered here: that the status's AINT sets when the light stops being
gathered (the light check), how long a status poll takes on the bus (the look's bracket, the
board's error), and whether the oscillator holds its period for seconds (the foretold ends).
Without --port it is skipped.
"""

from __future__ import annotations

import pathlib

import pytest

from .conftest import sensor_probe

PROBE = pathlib.Path(__file__).with_name("clock_probe.py")
CLOCK_ERR_US = 150  # firmware/shogun_fw/detector.py _CLOCK_ERR_US: what the detector allows


@pytest.fixture(scope="module")
def probe(real_port: str | None) -> dict:
    return sensor_probe(real_port, PROBE, "CLOCK_PROBE", "the TCS34725's own clock")


def test_the_board_learns_the_sensors_clock(probe: dict) -> None:
    print(f"learnt in {probe['learn_ms']} ms: period {probe['period_us']:.2f} us; a status poll "
          f"{probe['poll_us']} us")
    assert probe["learnt"], probe
    assert 2270 <= probe["period_us"] <= 2560, probe  # the datasheet's step, min to max
    # a look brackets an end between two polls: within the look's limit (boards/esp32.py
    # _BRACKET_MAX_US, 250), so a look can be taken at all
    assert probe["poll_us"] <= 250, probe


def test_the_ends_it_foretells_hold_for_a_throw(probe: dict) -> None:
    # A throw is sampled on the clock as the last look left it (looks are taken between
    # throws): the ends it foretells seconds later are where the sensor's status says.
    for after_ms, off in probe["foretold_us"]:
        assert off is not None and abs(off) < CLOCK_ERR_US, (after_ms, probe["foretold_us"])


def test_a_sample_holds_the_light_of_its_stamped_integration(probe: dict) -> None:
    # The LED on at a known share of an integration as the board places it: the reading shows
    # the LED's light for the rest of it (1000 - share), within 10 % (240 us of the clock)
    for share, seen, lit in probe["shares"]:
        assert lit > 50, f"the LED's light does not come back to the sensor ({lit} counts)"
        assert abs(seen - (1000 - share)) <= 100, probe["shares"]
