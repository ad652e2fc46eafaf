"""The colour sensor's gain is the tower's one setting (boards/esp32_config.py): the simulated
board models the same tower, so its counts must be at that gain, and the real board must set it."""

from __future__ import annotations

import re

from shogun_tower.sim_device import firmware_dir

BOARDS = firmware_dir() / "shogun_fw" / "boards"


def _config_gain() -> int:
    found = re.search(r"^SENSOR_GAIN = (\d+)$", (BOARDS / "esp32_config.py").read_text(), re.M)
    assert found, "esp32_config.py sets no SENSOR_GAIN"
    return int(found.group(1))


def test_the_simulated_board_reads_at_the_towers_gain() -> None:
    found = re.search(r"^_GAIN = const\((\d+)\)", (BOARDS / "sim.py").read_text(), re.M)
    assert found, "boards/sim.py has no _GAIN"
    assert int(found.group(1)) == _config_gain()


def test_the_real_board_sets_the_towers_gain() -> None:
    source = (BOARDS / "esp32.py").read_text()
    assert "gain=SENSOR_GAIN" in source
    assert _config_gain() in (1, 4, 16, 60)  # the TCS34725's gains
