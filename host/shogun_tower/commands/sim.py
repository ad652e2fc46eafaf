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
                    "and prints the port path; open it like /dev/ttyUSB0 (e.g. --port PATH).")
    p.add_argument("--seed", type=int, default=1, help="seed of the simulated tower (default 1)")
    p.add_argument("--heapsize", help="MicroPython heap size, e.g. 64K (as on a small board)")
    p.add_argument("--flash-dir", help="folder kept as the board's flash (default: temporary)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    sim = SimulatedTower(seed=args.seed, heapsize=args.heapsize, flash_dir=args.flash_dir)
    sim.start()
    print(sim.port, flush=True)
    print("simulated tower running; Ctrl-C to stop", file=sys.stderr, flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        while not stop.wait(0.5):
            if sim.ended:
                print("simulated tower stopped:\n" + sim.stderr_log.decode(errors="replace"),
                      file=sys.stderr)
                return 1
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0
