# The host-only part of protocol.py (`if _HOST:` there: MicroPython never compiles it into the
# firmware) compiled here, for the firmware tests that decode what the firmware sends: the very
# same source text, not a copy. `import host_part` once, then P.unpack_cube & co. exist.
from shogun_common import protocol as P

if not hasattr(P, "unpack_cube"):
    with open("../../common/shogun_common/protocol.py") as f:
        _block = f.read().split("\nif _HOST:\n", 1)[1]
    exec("\n".join(line[4:] for line in _block.split("\n")), P.__dict__)
    del _block
