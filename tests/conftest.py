"""Shared pytest options: `--port` runs the hardware-in-loop tests on a real tower."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--port", default=None,
                     help="serial port of a real tower (e.g. /dev/ttyUSB0) for tests/hil; "
                          "default: the simulated tower")

