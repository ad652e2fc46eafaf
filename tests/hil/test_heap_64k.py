"""The whole firmware (.mpy, as deployed) runs a 500-cube session in 64K of heap.

64K is counted in 32-bit words as on the ESP32 (`-X heapsize=64wK`, 128 KB on the 64-bit unix
port). A literal `heapsize=64K` is not met there yet: the session needs 88K as .mpy, its live
heap peaks at 71 KB, the imported modules alone hold 54 KB (docs/firmware.md, Memory).
"""

from __future__ import annotations

import pathlib
import queue

from shogun_tower.link import DeviceLink
from shogun_tower.sim_device import SimulatedTower, compile_firmware

from .conftest import connect


def test_500_cube_session_in_64k_heap(tmp_path: pathlib.Path) -> None:
    firmware = compile_firmware(tmp_path / "build")
    options = ["--faithful", "--late-p", "0", "--gap-ms", "3", "12"]
    cubes = 0
    with SimulatedTower(seed=5, heapsize="64wK", options=options, firmware=firmware) as sim:
        link: DeviceLink = connect(sim.port)
        try:
            while cubes < 500:
                link.sim_throw({"red": 6, "blue": 6, "green": 6, "black": 6, "yellow": 6})
                while True:
                    try:
                        event = link.events.get(timeout=5)
                    except queue.Empty:
                        raise AssertionError(f"no throw end after {cubes} cubes:\n"
                                             f"{sim.stderr_log.decode(errors='replace')}"
                                             ) from None
                    assert event.kind != "error", event.data
                    if event.kind == "cube":
                        cubes += 1
                    elif event.kind == "throw_end":
                        break
            status = link.status()
        finally:
            link.close()
        assert sim.running and sim.resets == 0, sim.stderr_log.decode(errors="replace")
    assert b"MemoryError" not in sim.stderr_log
    assert status["cubes"] == cubes and status["mismatches"] == 0
    assert 0 < status["heap_live"] < 76 * 1024, "the live heap grew (71 KB measured)"
