"""`shogun-tower romfs OUTPUT`: the firmware as a ROMFS image, for `make deploy-romfs`.

Built with `mpremote romfs build` (mpy-cross inside); without `--simulated` the image holds what
an ESP32 runs, the simulated board left out. See docs/firmware.md (Memory).
"""

from __future__ import annotations

import argparse
import pathlib
import sys

from shogun_tower.cli.arguments import ExamplesFormatter, examples
from shogun_tower.device.romfs import build_image
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _, ngettext
from shogun_tower.sim_device import firmware_dir


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "romfs", help=_("build the firmware's ROMFS image (make deploy-romfs)"),
        formatter_class=ExamplesFormatter,
        description=_("Builds the firmware and the shared modules into one ROMFS image with "
                      "`mpremote romfs build` (compiled by mpy-cross), for a MicroPython built "
                      "with a ROMFS partition: the bytecode then runs in place from flash instead "
                      "of taking heap. `make deploy-romfs PORT=...` writes it to the board. "
                      "Without --simulated the image holds only what an ESP32 runs."),
        epilog=examples("shogun-tower romfs build/firmware.romfs",
                        "shogun-tower romfs --march rv32imc build/esp32c3.romfs",
                                "shogun-tower romfs --simulated build/sim.romfs"))
    p.add_argument("output", type=pathlib.Path, help=_("image file to write, *.romfs or *.img, "
                                                       "e.g. build/firmware.romfs"))
    p.add_argument("--simulated", action="store_true",
                   help=_("keep the simulated board in the image, for the unix port (default: "
                          "left out, as for an ESP32)"))
    p.add_argument("--march", metavar="ARCH",
                   help=_("mpy-cross -march, the CPU of native code, e.g. rv32imc (an ESP32-C3) "
                          "(default: xtensawin, an ESP32; host with --simulated)"))
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.output.suffix not in (".romfs", ".img"):
        raise ShogunError(_("{path}: name the image *.romfs or *.img (mpremote romfs deploy "
                            "takes other names for a folder to build)").format(path=args.output))
    if args.output.is_dir():
        raise ShogunError(_("{path} is a folder; give the image's file name").format(
            path=args.output))
    source = firmware_dir()
    image = build_image(args.output, source, source.parent / "common",
                        simulated=args.simulated, arch=args.march)
    size = image.stat().st_size
    print(ngettext("{image}: {n} byte", "{image}: {n} bytes", size).format(image=image, n=size),
          file=sys.stderr)
    return 0
