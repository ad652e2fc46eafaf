"""The host's calibration maths (CPython) agrees with the firmware's classifier, and refuses
what cannot work."""

from __future__ import annotations

import importlib.util
import pathlib
import random

import pytest

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.device import calibration

ROOT = pathlib.Path(__file__).parents[2]
REFLECTANCE = [(26, 24, 22, 73), (224, 52, 43, 328), (208, 173, 56, 440), (112, 56, 121, 294),
               (47, 86, 186, 328), (65, 173, 73, 320)]  # firmware/shogun_fw/boards/sim.py


def _firmware_colour():
    spec = importlib.util.spec_from_file_location("fw_colour", ROOT / "firmware" / "shogun_fw" /
                                                  "colour.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # plain Python: runs on CPython too
    return module


def _readings(n: int, noise: float, seed: int = 1) -> dict[str, list]:
    rng = random.Random(seed)
    return {c: [tuple(v * rng.uniform(0.9, 1.1) + rng.gauss(0, noise) for v in REFLECTANCE[i])
                for _ in range(n)] for i, c in enumerate(CUBE_COLOURS)}


def test_centroids_classify_like_the_firmware() -> None:
    cal = calibration.compute(_readings(20, 3.0))
    fw = _firmware_colour().Classifier(cal.centroids)
    rng = random.Random(9)
    for _ in range(500):
        i = rng.randrange(6)
        reading = tuple(v * rng.uniform(0.7, 1.3) + rng.gauss(0, 12) for v in REFLECTANCE[i])
        host = calibration.classify(cal.centroids, reading)
        code, _conf = fw.classify(*reading)
        assert host == ("unknown" if code == 255 else CUBE_COLOURS[code])
    assert fw.classify(*REFLECTANCE[3])[0] == 3


def test_report_names_the_closest_colours_and_a_positive_margin() -> None:
    cal = calibration.compute(_readings(20, 3.0))
    assert set(cal.closest) == {"black", "purple"}
    assert cal.margin > 0
    assert "closest colours: black and purple" in cal.report()


def test_an_odd_cube_among_the_readings_is_dropped() -> None:
    readings = _readings(20, 3.0)
    readings["red"].append(REFLECTANCE[4])  # a blue cube knocked loose during the red ones
    cal = calibration.compute(readings)
    assert cal.stats["red"].outliers == 1


def test_colours_too_close_are_refused_with_what_to_do() -> None:
    readings = _readings(20, 3.0)
    readings["purple"] = [tuple(v * 1.02 for v in r) for r in readings["red"]]
    with pytest.raises(calibration.CalibrationError, match="cannot be told apart.*calibrate"):
        calibration.compute(readings)


def test_too_few_readings_are_refused() -> None:
    readings = _readings(20, 3.0)
    readings["green"] = readings["green"][:2]
    with pytest.raises(calibration.CalibrationError, match="only 2 usable reading"):
        calibration.compute(readings)


def test_calibrate_without_a_port_says_what_to_do(capsys: pytest.CaptureFixture[str]) -> None:
    from shogun_tower.cli import main

    assert main(["calibrate"]) == 2
    assert "give --port PORT" in capsys.readouterr().err


def test_calibrate_on_the_simulated_tower_stores_and_reads_back(
        capsys: pytest.CaptureFixture[str]) -> None:
    from shogun_tower.cli import main

    # 20 cubes a colour: the simulated tower samples colour in real time, so on a loaded machine
    # one late sample can catch a cube half in the window; calibration allows 10% of such
    # readings (MIN_SELF_MATCH), which 8 cubes a colour cannot absorb.
    assert main(["calibrate", "--sim", "--cubes", "20", "--colours", "red,blue,black"]) == 0
    out = capsys.readouterr().out
    assert "closest colours:" in out and "read back: 3 colours" in out
