# Simulated tower entry point for the MicroPython unix port (`shogun-tower sim` runs this on a
# pseudo-terminal). Options: --seed N --pass-p P --knock-p P --block-ms LO HI --gap-ms LO HI
#                            --flash-dir DIR --quiet-ms MS
import sys

from shogun_fw import app
from shogun_fw.boards.sim import SimBoard


def _options(argv):
    opts = {}
    i = 1
    while i < len(argv):
        key = argv[i]
        if key in ("--block-ms", "--gap-ms"):
            opts[key[2:].replace("-", "_")] = (float(argv[i + 1]), float(argv[i + 2]))
            i += 3
        elif key in ("--seed", "--quiet-ms"):
            opts[key[2:].replace("-", "_")] = int(argv[i + 1])
            i += 2
        elif key in ("--pass-p", "--knock-p", "--noise", "--drift", "--stuck-p"):
            opts[key[2:].replace("-", "_")] = float(argv[i + 1])
            i += 2
        elif key == "--flash-dir":
            opts["flash_dir"] = argv[i + 1]
            i += 2
        else:
            raise SystemExit("sim_main: unknown option " + key)
    return opts


_opts = _options(sys.argv)
_quiet = _opts.pop("quiet_ms", None)
app.start(SimBoard(**_opts), quiet_ms=_quiet)
