"""`shogun-tower repl --port PORT`: hand a running tower back to its MicroPython REPL.

The firmware treats Ctrl-C as data, so mpremote cannot interrupt it; this asks it to stop.
`make deploy` runs it before mpremote.
"""

from __future__ import annotations

import argparse
import sys

from shogun_tower.cli.arguments import ExamplesFormatter, examples
from shogun_tower.device.link import DeviceLink, LinkError
from shogun_tower.i18n import _


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "repl", help=_("hand the tower back to its MicroPython REPL (before mpremote)"),
        formatter_class=ExamplesFormatter,
        description=_("Asks the firmware running on the tower to stop and leave the board at its "
                      "MicroPython REPL (a two-step handshake, so no stray frame can do it), so "
                      "that mpremote can reach the board: `make deploy` runs this first. A board "
                      "already at its REPL is left as it is. The simulated tower (`shogun-tower "
                      "sim`) offers the same REPL, raw REPL included, over its flash folder."),
        epilog=examples("shogun-tower repl --port /dev/ttyUSB0",
                                "mpremote connect /dev/ttyUSB0 fs ls"))
    p.add_argument("--port", required=True,
                   help=_("serial port of the tower, e.g. /dev/ttyUSB0 (no default)"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    with DeviceLink(args.port, retries=2, timeout=0.4) as link:
        try:
            link.hello(any_version=True)  # an older firmware too: deploying replaces it
        except LinkError:
            print(_("no Shogun Tower firmware answered on {port}: its REPL is free "
                    "already").format(port=args.port), file=sys.stderr)
            return 0
        link.enter_repl()
    print(_("the tower on {port} is at its REPL; `make deploy` or mpremote can use "
            "it").format(port=args.port), file=sys.stderr)
    return 0
