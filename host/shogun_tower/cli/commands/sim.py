"""`shogun-tower sim`: run the simulated tower on a pseudo-terminal and print its port path."""

from __future__ import annotations

import argparse
import pathlib
import signal
import sys
import tempfile
import threading

from shogun_tower.device.romfs import build_image
from shogun_tower.i18n import _
from shogun_tower.sim_device import SimulatedTower, firmware_dir


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "sim", help=_("run the simulated tower (real firmware, MicroPython unix port) on a pty"),
        description=_("Starts the firmware on the MicroPython unix port behind a pseudo-terminal "
                      "and prints the port path; open it like /dev/ttyUSB0 (e.g. --port PATH). "
                      "After `shogun-tower repl --port PATH` the board offers MicroPython's REPL, "
                      "raw REPL included, with --flash-dir as its filesystem: mpremote and "
                      "`make deploy PORT=PATH` work as on a board. A flash holding a deployed "
                      "main.py and lib/ boots that firmware, as a board does."))
    p.add_argument("--seed", type=int, default=1, help=_("seed of the simulated tower (default 1)"))
    p.add_argument("--heapsize", help=_("MicroPython heap size, e.g. 64K with --romfs (as a small "
                                        "board runs; without --romfs the firmware is compiled "
                                        "into the heap, which 64K cannot hold; default: the unix "
                                        "port's own)"))
    p.add_argument("--romfs", action="store_true",
                   help=_("run the firmware from a ROMFS image in place (its bytecode out of the "
                          "heap), as a board deployed with `make deploy-romfs` runs it"))
    p.add_argument("--flash-dir", help=_("folder kept as the board's flash (default: a temporary "
                                         "folder, removed at the end)"))
    p.add_argument("--tower-profile", metavar="FILE",
                   help=_("a tower profile from 'shogun-tower tower fit': the simulated tower "
                          "falls like that tower (default: the model's own numbers)"))
    p.add_argument("--supply-5v", action="store_true",
                   help=_("start with the 5 V supply plugged in (the strip's budget follows it; "
                          "`shogun-tower tower supply in|out --port PATH` plugs it later)"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from shogun_tower.cli.odds import table_sim_options

    with tempfile.TemporaryDirectory(prefix="shogun-sim-rom-") as rom:
        image = None
        if args.romfs:
            source = firmware_dir()
            image = build_image(pathlib.Path(rom) / "firmware.romfs", source,
                                source.parent / "common")
        sim = SimulatedTower(seed=args.seed, heapsize=args.heapsize, flash_dir=args.flash_dir,
                             options=table_sim_options(args)
                             + (["--supply-5v"] if args.supply_5v else []), romfs=image)
        return _serve(sim, args)


def _serve(sim: SimulatedTower, args: argparse.Namespace) -> int:
    sim.start()
    print(sim.port, flush=True)
    if args.heapsize:
        running = (_("simulated tower running (from a ROMFS image in place, a {heap} heap); "
                     "Ctrl-C to stop") if args.romfs else
                   _("simulated tower running (compiled from source, a {heap} heap); Ctrl-C "
                     "to stop")).format(heap=args.heapsize)
    else:
        running = (_("simulated tower running (from a ROMFS image in place, the unix port's "
                     "heap); Ctrl-C to stop") if args.romfs else
                   _("simulated tower running (compiled from source, the unix port's heap); "
                     "Ctrl-C to stop"))
    print(running, file=sys.stderr, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            if sim.ended:
                print(_("simulated tower stopped: {why}").format(why=sim.death()),
                      file=sys.stderr)
                if "MemoryError" in sim.stderr_log.decode(errors="replace") and not args.romfs:
                    print(_("the firmware's source does not fit a {heap} heap (MemoryError at "
                            "boot): add --romfs to run it from a ROMFS image in place, as a "
                            "small board does").format(heap=args.heapsize or _("default")),
                          file=sys.stderr)
                return 1
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0
