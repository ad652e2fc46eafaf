"""Grouping the tower's cube events into throws: a throw ends after a quiet time."""

from __future__ import annotations

import dataclasses
import queue
import time

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.device.link import DeviceEvent, DeviceLink


@dataclasses.dataclass
class Throw:
    cubes: list[dict]
    errors: list[dict]
    device_throw_ends: list[dict]
    restarts: list[dict] = dataclasses.field(default_factory=list)  # BOOT events meanwhile

    @property
    def counts(self) -> dict[str, int]:
        """Cubes that fell into the tray, per colour (``unknown`` only when there were some)."""
        out = {c: 0 for c in CUBE_COLOURS}
        for cube in self.cubes:
            out[cube["colour"]] = out.get(cube["colour"], 0) + 1
        return out

    @property
    def unknown(self) -> int:
        return sum(1 for cube in self.cubes if cube["colour"] == "unknown")


def collect_throw(link: DeviceLink, quiet_s: float = 0.6, first_cube_timeout: float = 3.0,
                  expect_cubes: int | None = None) -> Throw:
    """Wait for the cubes of one throw.

    The throw ends ``quiet_s`` after its last cube, or when the tower reports the end of the
    throw (its own quiet window), whichever comes first; a throw where nothing falls out ends
    after ``first_cube_timeout``. With ``expect_cubes`` it ends as soon as that many arrived.
    """
    throw = Throw([], [], [])
    last = time.monotonic()
    waiting_first = True
    while True:
        if not getattr(link, "connected", True):
            # The cable is out: the cubes counted meanwhile come when it is back, so the quiet
            # time only runs while the tower can be heard.
            last = time.monotonic()
        limit = first_cube_timeout if waiting_first else quiet_s
        left = last + limit - time.monotonic()
        if left <= 0 or (expect_cubes is not None and len(throw.cubes) >= expect_cubes):
            return throw
        try:
            event: DeviceEvent = link.events.get(timeout=min(left, 0.1))
        except queue.Empty:
            continue
        if event.kind == "cube":
            throw.cubes.append(event.data)
            last = time.monotonic()
            waiting_first = False
        elif event.kind == "throw_end":
            # The firmware's own quiet window closed: every cube of the throw came before this.
            throw.device_throw_ends.append(event.data)
            return throw
        elif event.kind == "summary":
            # The board's outbox was full (the host was away): what it counted meanwhile comes
            # as totals. Its cubes are numbered first..last; which number had which colour was
            # not kept, so they are listed colour by colour.
            number = event.data["first_cube"]
            for colour, n in event.data["cubes"].items():
                for _ in range(n):
                    throw.cubes.append({"colour": colour, "cube_no": number, "summary": True})
                    number += 1
            last = time.monotonic()
            waiting_first = False
            if event.data["throws"]:
                throw.device_throw_ends.append({"throw_no": event.data["last_throw"],
                                                "hw_count": event.data["hw_count"]})
                return throw
        elif event.kind == "error":
            throw.errors.append(event.data)
        elif event.kind == "boot":
            # The board restarted: what it had counted and not yet sent is gone with it.
            throw.restarts.append(event.data)
