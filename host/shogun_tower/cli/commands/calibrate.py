"""`shogun-tower calibrate`: teach the tower its cube colours, colour by colour.

For each colour the tower is put in calibration mode (CAL_SAMPLE): every cube that falls out
then also comes as a `cal_reading` event with its ambient-corrected R, G, B, C. From N readings
per colour the host computes centroids and thresholds (shogun_tower.device.calibration), refuses a
calibration that leaves two colours too close, stores it on the board's flash (CAL_STORE: an
atomic write) and reads it back (CAL_GET).
"""

from __future__ import annotations

import argparse
import queue
import time

from shogun_common import protocol as P
from shogun_common.colours import CUBE_COLOURS
from shogun_tower.device import calibration
from shogun_tower.device.link import DeviceLink
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _, ngettext
from shogun_tower.sim_device import SimulatedTower
from shogun_tower.words import colour_word

_USABLE = ~(P.FLAG_SATURATED | P.FLAG_NO_SAMPLE | P.FLAG_RECOVERED) & 0xFF


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "calibrate", help=_("calibrate the tower's colour sensor with cubes of each colour"),
        description=_("Asks for N cubes of each colour in turn, computes the colour centroids, "
                      "stores them on the tower's flash and reports the margin between the two "
                      "closest colours."))
    p.add_argument("--port", help=_("serial port of the tower, e.g. /dev/ttyUSB0"))
    p.add_argument("--sim", action="store_true",
                   help=_("calibrate the simulated tower (it throws the cubes itself)"))
    p.add_argument("--cubes", type=int, default=20, help=_("cubes per colour (default 20)"))
    p.add_argument("--colours", default=",".join(CUBE_COLOURS),
                   help=_("colours to calibrate, comma-separated (default: all six)"))
    p.add_argument("--timeout", type=float, default=120.0,
                   help=_("seconds to wait for each colour's cubes on a real tower (default 120)"))
    p.add_argument("--dry-run", action="store_true", help=_("compute and report, store nothing"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not args.port and not args.sim:
        raise ShogunError(_("calibrate needs the tower: give --port PORT (e.g. /dev/ttyUSB0), "
                            "or --sim for the simulated tower"))
    if args.cubes < calibration.MIN_READINGS:
        raise ShogunError(_("--cubes must be at least {n}").format(n=calibration.MIN_READINGS))
    colours = [c.strip() for c in args.colours.split(",") if c.strip()]
    bad = [c for c in colours if c not in CUBE_COLOURS]
    if bad or len(colours) < 2:
        raise ShogunError(_("--colours: give two or more of {colours} (not {given})").format(
            colours=", ".join(CUBE_COLOURS), given=", ".join(bad) or repr(args.colours)))
    if args.sim:
        # Cubes dropped straight down the chute (nothing lodges on the ledges), with the
        # outlet's noise and drifting stray light.
        options = ["--pass-p", "1", "--drift", "1.0"]
        with SimulatedTower(seed=1, options=options) as sim, DeviceLink(sim.port) as link:
            _handshake(link)
            return _calibrate(link, colours, args, simulated=True)
    with DeviceLink(args.port) as link:
        _handshake(link)
        return _calibrate(link, colours, args, simulated=False)


def _handshake(link: DeviceLink) -> None:
    info = link.handshake(wait_s=5)
    if not info["caps"] & P.CAP_CALIBRATION:
        raise ShogunError(_("this tower's colour sensor does not answer (no calibration "
                            "capability): check the sensor's I2C wiring, then reset the tower"))


def _calibrate(link: DeviceLink, colours: list[str], args: argparse.Namespace,
               simulated: bool) -> int:
    readings: dict[str, list[tuple[float, float, float, float]]] = {}
    try:
        for colour in colours:
            readings[colour] = _collect(link, colour, args.cubes, args.timeout, simulated)
    finally:
        link.calibration_mode(None)
    try:
        cal = calibration.compute(readings)
    except calibration.CalibrationError:
        for colour, rs in readings.items():
            print(ngettext("{colour}: {n} reading, e.g. {readings}",
                           "{colour}: {n} readings, e.g. {readings}", len(rs)).format(
                               colour=colour_word(colour), n=len(rs), readings=rs[:3]))
        raise
    print(cal.report())
    if args.dry_run:
        print(_("dry run: nothing stored"))
        return 0
    link.store_calibration(cal.centroids)
    stored = link.get_calibration()
    if sorted(stored) != sorted(cal.centroids):
        raise ShogunError(_("the tower stored different centroids than sent: run calibrate "
                            "again"))
    print(ngettext("stored on the tower's flash and read back: {n} colour",
                   "stored on the tower's flash and read back: {n} colours", len(stored)).format(
                       n=len(stored)))
    return 0


def _collect(link: DeviceLink, colour: str, n: int, timeout: float, simulated: bool
             ) -> list[tuple[float, float, float, float]]:
    while not link.events.empty():
        link.events.get_nowait()
    link.calibration_mode(colour)
    got: list[tuple[float, float, float, float]] = []
    if simulated:
        print(ngettext("{colour}: the simulated tower throws {n} {colour} cube",
                       "{colour}: the simulated tower throws {n} {colour} cubes", n).format(
                           colour=colour_word(colour), n=n), flush=True)
    else:
        print(ngettext("throw {n} {colour} cube into the tower, a few at a time…",
                       "throw {n} {colour} cubes into the tower, a few at a time…", n).format(
                           colour=colour_word(colour), n=n), flush=True)
    deadline = time.monotonic() + timeout
    thrown = 0
    in_flight = False  # simulated: a throw whose end has not come yet
    while len(got) < n or in_flight:
        if simulated and not in_flight and len(got) < n and thrown < 4 * n:
            # Some cubes stay in the tower: throw again until n were read.
            link.sim_throw({colour: min(n - len(got), 10)})
            thrown += min(n - len(got), 10)
            in_flight = True
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            event = link.events.get(timeout=min(left, 1.0))
        except queue.Empty:
            in_flight = False  # a throw where every cube stayed inside: nothing comes
            continue
        if event.kind == "throw_end":
            in_flight = False
        if event.kind == "cal_reading" and event.data["colour"] == colour and len(got) < n:
            if event.data["flags"] & ~_USABLE:
                continue
            d = event.data
            got.append((d["r"], d["g"], d["b"], d["c"]))
            if not simulated:
                print(f"\r  {len(got)}/{n}", end="", flush=True)
    if not simulated:
        print()
    if len(got) < calibration.MIN_READINGS:
        raise ShogunError(ngettext(
            "only {n} {colour} cube was read in {seconds} s: throw {colour} cubes while the "
            "command waits, or raise --timeout",
            "only {n} {colour} cubes were read in {seconds} s: throw {colour} cubes while the "
            "command waits, or raise --timeout", len(got)).format(
                n=len(got), colour=colour_word(colour), seconds=f"{timeout:.0f}"))
    return got
