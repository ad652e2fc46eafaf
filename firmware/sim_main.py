# Simulated tower entry point for the MicroPython unix port (`shogun-tower sim` runs this on a
# pseudo-terminal). Options:
#   --seed N  --flash-dir DIR  --quiet-ms MS  --double-ms MS (the detector's double threshold)
#   tower:    --pass-p P --knock-p P
#   outlet:   --block-ms LO HI --gap-ms LO HI --double-p P --stuck-p P --late-p P --chatter-p P
#   sensor:   --noise COUNTS --drift FRACTION
#   --faithful: every hazard of a real outlet at once (boards/sim.py FAITHFUL); later options
#               override it
import os
import sys

# The simulated board's ROM partition (host: shogun_tower/romfs.py), mounted where MicroPython
# mounts a board's ROMFS: the firmware's bytecode then runs in place, out of the heap.
_rom = os.getenv("SHOGUN_ROMFS")
if _rom:
    import uctypes
    import vfs

    _at, _size = _rom.split(":")
    vfs.mount(vfs.VfsRom(uctypes.bytearray_at(int(_at), int(_size))), "/rom")
    sys.path[:] = ["/rom", ".frozen"]  # the firmware from the ROM and nowhere else
    del _at, _size, uctypes, vfs
del _rom

from shogun_fw import app  # noqa: E402 - from /rom when there is one
from shogun_fw.boards.sim import FAITHFUL, SimBoard  # noqa: E402

_PAIRS = ("--block-ms", "--gap-ms")
_INTS = ("--seed", "--quiet-ms")
_FLOATS = ("--pass-p", "--knock-p", "--noise", "--drift", "--stuck-p", "--double-p", "--late-p",
           "--chatter-p", "--double-ms")


def _options(argv):
    opts = {}
    i = 1
    while i < len(argv):
        key = argv[i]
        name = key[2:].replace("-", "_")
        if key in _PAIRS:
            opts[name] = (float(argv[i + 1]), float(argv[i + 2]))
            i += 3
        elif key in _INTS:
            opts[name] = int(argv[i + 1])
            i += 2
        elif key in _FLOATS:
            opts[name] = float(argv[i + 1])
            i += 2
        elif key == "--flash-dir":
            opts["flash_dir"] = argv[i + 1]
            i += 2
        elif key == "--faithful":
            for k, v in FAITHFUL.items():
                opts.setdefault(k, v)
            i += 1
        else:
            raise SystemExit("sim_main: unknown option " + key)
    return opts


_opts = _options(sys.argv)
_quiet = _opts.pop("quiet_ms", None)
_double = _opts.pop("double_ms", None)
app.start(SimBoard(**_opts), quiet_ms=_quiet, double_ms=_double)
# Back here only when the host asked for the REPL: the interpreter then starts its REPL, as a
# real board's does. (Not `micropython -i`: with it, the sys.exit(3) of a reset would end in the
# REPL too instead of ending the process.)
os.putenv("MICROPYINSPECT", "1")
