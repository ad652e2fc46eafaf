# The host-only part of protocol.py (`if _HOST:` there: MicroPython never compiles it into the
# firmware) compiled here, for the firmware tests that decode what the firmware sends: the very
# same source text, not a copy. `import host_part` once, then P.unpack_cube & co. exist.
from shogun_common import protocol as P

if not hasattr(P, "unpack_cube"):
    # (line by line: the whole file as one string needs a free run the size of it, which a
    # test module's 256K heap may not have)
    _block = []
    with open("../../common/shogun_common/protocol.py") as f:
        for _line in f:
            if _block:
                _block.append(_line[4:])
            elif _line == "if _HOST:\n":
                _block.append("\n")
    exec("".join(_block), P.__dict__)
    del _block, _line
