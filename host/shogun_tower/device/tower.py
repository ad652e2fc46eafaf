"""Where throws happen: the simulated tower, a real tower, or players typing the tray counts.

Every kind answers ``throw(cubes_in) -> counts that fell into the tray`` and keeps the cube
count the device reported, so callers can check that nothing was lost.
"""

from __future__ import annotations

from collections.abc import Callable

from shogun_common import protocol as P
from shogun_common.colours import CUBE_COLOURS
from shogun_tower.device.link import DeviceLink, LinkError, OutcomeUnknown
from shogun_tower.device.throws import Throw, collect_throw
from shogun_tower.i18n import _


class TowerRestarted(LinkError):
    """The board restarted during a throw: the cubes it had counted but not yet sent were lost
    with its memory, and it saw none while it booted. Its count of this throw cannot be used."""


class CubesMayBeMissing(LinkError):
    """The board reported (E_OVERFLOW) that it lost beam edges or their places during the
    throw: cubes close together may have been read as one, and the count of the throw (which
    still agrees with the hardware count) may be short. It cannot be used."""


class DeviceTower:
    """A tower behind a serial link. On the simulated board the link throws the cubes itself;
    on a real board the players throw them and the firmware counts what falls out."""

    # The board ends a throw itself (THROW_END, kept and resent until acknowledged) after its
    # own quiet window of 0.45 s; this quiet time is only the fallback for a board that never
    # does. At 0.6 s it was so close to the board's window that a board (or a simulated board
    # on a loaded laptop) held up for a few tenths of a second had the throw ended early here,
    # and its last cubes were counted in the next throw.
    def __init__(self, link: DeviceLink, quiet_s: float = 3.0,
                 prompt: Callable[[dict[str, int]], None] | None = None) -> None:
        self.link = link
        self.quiet_s = quiet_s
        self.prompt = prompt
        self.simulated = bool(link.info.get("caps", 0) & 8)
        self.last_throw: Throw | None = None
        self.cubes_counted = 0

    def throw(self, cubes_in: dict[str, int]) -> dict[str, int]:
        """Counts per colour of what fell out; ``unknown`` is there when the colour sensor could
        not tell some cubes (never guessed: the caller asks someone who can see the tray)."""
        boot = self.link.boot_id  # the board session the throw begins in
        if self.simulated:
            try:
                self.link.sim_throw(cubes_in)
            except OutcomeUnknown as err:
                # It may have run: the tower is asked (the same command under the same
                # number: its kept reply if it ran, one run if it never came), not guessed.
                self.link.ask_outcome(err)
        elif self.prompt is not None:
            self.prompt(cubes_in)
        # A simulated tower starts letting cubes out at once; a person needs time to throw.
        throw = collect_throw(self.link, quiet_s=self.quiet_s,
                              first_cube_timeout=1.5 if self.simulated else 60.0)
        self.last_throw = throw
        if not throw.device_throw_ends:
            # Ended by our quiet time, not the board's: a board still booting would go unseen,
            # so ask which boot answers (it answers once it is up).
            self.link.hello()
        # (A board's THROW_END comes after its BOOT event, if any: the boot id is current.
        # The BOOT event of the session the throw began in may still wait in the queue.)
        restarts = [r for r in throw.restarts if r.get("boot_id") != boot]
        if restarts or self.link.boot_id != boot:
            cause = restarts[-1].get("cause", "") if restarts else ""
            raise TowerRestarted(
                _("the tower restarted during the throw ({cause}); the cubes it had counted "
                  "were lost with it").format(cause=cause) if cause else
                _("the tower restarted during the throw; the cubes it had counted were lost "
                  "with it"))
        self.cubes_counted += len(throw.cubes)
        # A count mismatch comes as cubes of unknown colour, which someone names at the tray;
        # an overflow may have merged cubes into one, and nobody can tell which: never taken.
        overflows = [e.get("text", "") for e in throw.errors if e.get("code") == P.E_OVERFLOW]
        if overflows:
            raise CubesMayBeMissing(_("the tower may have missed cubes: {why}").format(
                why="; ".join(overflows)))
        counts = throw.counts
        out = {c: counts[c] for c in CUBE_COLOURS}
        if throw.unknown:
            out["unknown"] = throw.unknown
        return out


class ManualTower:
    """Players throw the cubes into the physical tower and type what lies in the tray."""

    def __init__(self, ask: Callable[[dict[str, int]], dict[str, int]]) -> None:
        self.ask = ask
        self.last_throw = None
        self.cubes_counted = 0

    def throw(self, cubes_in: dict[str, int]) -> dict[str, int]:
        counts = self.ask(cubes_in)
        self.cubes_counted += sum(counts.values())
        return {c: counts.get(c, 0) for c in CUBE_COLOURS}
