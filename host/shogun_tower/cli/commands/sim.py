"""`shogun-tower sim`: run the simulated tower on a pseudo-terminal and print its port path."""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from shogun_tower.sim_device import SimulatedTower


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "sim", help="run the simulated tower (real firmware, MicroPython unix port) on a pty",
        description="Starts the firmware on the MicroPython unix port behind a pseudo-terminal "
                    "and prints the port path; open it like /dev/ttyUSB0 (e.g. --port PATH). "
                    "After `shogun-tower repl --port PATH` the board offers MicroPython's REPL, "
                    "raw REPL included, with --flash-dir as its filesystem: mpremote and "
                    "`make deploy PORT=PATH` work as on a board. A flash holding a deployed "
                    "main.py and lib/ boots that firmware, as a board does.")
    p.add_argument("--seed", type=int, default=1, help="seed of the simulated tower (default 1)")
    p.add_argument("--heapsize", help="MicroPython heap size, e.g. 64K (as on a small board; "
                                      "default: the unix port's own)")
    p.add_argument("--flash-dir", help="folder kept as the board's flash (default: a temporary "
                                       "folder, removed at the end)")
    p.add_argument("--tower-profile", metavar="FILE",
                   help="a tower profile from 'shogun-tower tower fit': the simulated tower "
                        "falls like that tower (default: the model's own numbers)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from shogun_tower.cli.odds import table_sim_options

    sim = SimulatedTower(seed=args.seed, heapsize=args.heapsize, flash_dir=args.flash_dir,
                         options=table_sim_options(args))
    sim.start()
    print(sim.port, flush=True)
    print("simulated tower running; Ctrl-C to stop", file=sys.stderr, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            if sim.ended:
                print(f"simulated tower stopped: {sim.death()}", file=sys.stderr)
                return 1
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0
