"""Shared pytest options: `--port` runs the hardware-in-loop tests on a real tower. Shared
fixture: ``micropython_32``, a 32-bit MicroPython unix port (the ESP32's word size)."""

from __future__ import annotations

import fcntl
import pathlib
import sys

import pytest

BENCH = pathlib.Path(__file__).parents[1] / "bench"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--port", default=None,
                     help="serial port of a real tower (e.g. /dev/ttyUSB0) for tests/hil; "
                          "default: the simulated tower")


@pytest.fixture(scope="session")
def micropython_32() -> str:
    """The 32-bit unix twin (bench/unix_twin.py ``stock32``), built from the MicroPython mirror
    the first time (about a minute); the test is skipped, saying why, where it cannot be built
    (no mirror: a fresh machine; no 32-bit C library: `make bench-deps`)."""
    sys.path.insert(0, str(BENCH))
    try:
        import unix_twin
    finally:
        sys.path.remove(str(BENCH))
    unix_twin.BUILD.mkdir(parents=True, exist_ok=True)
    # one build at a time: each pytest worker has its own session
    with open(unix_twin.BUILD / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            return str(unix_twin.build(("stock32",))["stock32"])
        except unix_twin.TwinUnavailable as exc:
            pytest.skip(f"no 32-bit MicroPython: {exc}")
