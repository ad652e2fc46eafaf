"""Helpers for the hardware-in-loop tests."""

from __future__ import annotations

import queue

from shogun_tower.device.link import DeviceLink


def collect_until_throw_end(link: DeviceLink, timeout: float = 5.0) -> tuple[list, list]:
    cubes: list[dict] = []
    ends: list[dict] = []
    while True:
        try:
            event = link.events.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no throw end after {len(cubes)} cubes") from None
        if event.kind == "cube":
            cubes.append(event.data)
        elif event.kind == "throw_end":
            ends.append(event.data)
            return cubes, ends
