"""Hardware-in-loop fixtures: the simulated tower by default, a real one with --port."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from collections.abc import Iterator

import pytest

from shogun_tower.device.link import DeviceLink, LinkError
from shogun_tower.sim_device import SimulatedTower


def connect(port: str, wait_s: float = 5.0) -> DeviceLink:
    link = DeviceLink(port)
    try:
        link.handshake(wait_s)
    except LinkError:
        link.close()
        raise
    return link


@pytest.fixture(scope="module")
def real_port(request: pytest.FixtureRequest) -> str | None:
    return request.config.getoption("--port")


@pytest.fixture(scope="module")
def device(real_port: str | None) -> Iterator[DeviceLink]:
    """A connected, handshaken link to the tower under test."""
    if real_port:
        link = connect(real_port)
        yield link
        link.close()
        return
    with SimulatedTower(seed=7) as sim:
        link = connect(sim.port)
        link.simulated_tower = sim  # type: ignore[attr-defined]
        yield link
        link.close()


@pytest.fixture
def sim_only(real_port: str | None) -> None:
    if real_port:
        pytest.skip("needs the simulated tower's model (a real tower is thrown by hand)")


def drain(link: DeviceLink) -> None:
    while not link.events.empty():
        link.events.get_nowait()


def run_probe(port: str, probe: pathlib.Path, tag: str) -> dict:
    """Hand the board to its REPL, run ``probe`` on it (a script that prints one line
    ``TAG {json}``), reset it back into the app; the probe's result."""
    link = connect(port)
    try:
        link.enter_repl()
    finally:
        link.close()
    mpremote = [sys.executable, "-m", "mpremote", "connect", port]
    proc = subprocess.run(mpremote + ["run", str(probe)], capture_output=True, text=True,
                          timeout=120)
    subprocess.run(mpremote + ["reset"], capture_output=True, timeout=30)
    lines = [line for line in proc.stdout.splitlines() if line.startswith(tag + " ")]
    assert lines, f"the probe printed no result:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    return json.loads(lines[-1][len(tag) + 1:])


def sensor_probe(real_port: str | None, probe: pathlib.Path, marker: str, what: str) -> dict:
    """A colour-sensor probe's result on the board at ``real_port``: skipped without a board
    (``what`` the probe settles), failed when the board has no TCS34725."""
    if not real_port:
        pytest.skip(f"needs a real board: {what} (run with --port PORT)")
    result = run_probe(real_port, probe, marker)
    if not result["sensor"]:
        pytest.fail("no TCS34725 at 0x29 on I2C 0 (SDA 21, SCL 22)")
    return result
