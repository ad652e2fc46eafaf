# Simulated tower entry point for the MicroPython unix port (`shogun-tower sim` runs this on a
# pseudo-terminal). Options:
#   --seed N  --flash-dir DIR  --quiet-ms MS  --double-ms MS (the detector's double threshold)
#   tower:    --pass-p P --knock-p P
#   outlet:   --gap-ms LO HI --double-p P --stuck-p P --late-p P --chatter-p P --tumble-p P
#             (block lengths follow from hardware/geometry.json)
#   sensor:   --noise COUNTS --drift FRACTION
#   --faithful: every hazard of a real outlet at once (boards/sim.py FAITHFUL); later options
#               override it
import gc
import os
import sys

# While the firmware is imported, collect after every 2 KB allocated: each module's garbage (its
# dictionaries' old tables as they grow) is then freed before the next module's objects come and
# reused by them, instead of being left between them as holes too short for the app's buffers.
# Started in 70K instead of 72K (ROMFS, docs/firmware.md Memory).
gc.threshold(2048)


def _argument(name, default):
    for i in range(1, len(sys.argv) - 1):
        if sys.argv[i] == name:
            return sys.argv[i + 1]
    return default


_flash = _argument("--flash-dir", "sim_flash")
_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."


def _deployed(flash):
    # What `make deploy` leaves on a board: main.py and the firmware's .mpy files under lib/.
    try:
        os.stat(flash + "/main.py")
        os.stat(flash + "/lib/shogun_fw/app.mpy")
        return True
    except OSError:
        return False


# The simulated board's ROM partition (host: shogun_tower/romfs.py), mounted where MicroPython
# mounts a board's ROMFS: the firmware's bytecode then runs in place, out of the heap.
_rom = os.getenv("SHOGUN_ROMFS")
_from_flash = False
if _rom:
    import uctypes
    import vfs

    _at, _size = _rom.split(":")
    vfs.mount(vfs.VfsRom(uctypes.bytearray_at(int(_at), int(_size))), "/rom")
    sys.path[:] = ["/rom", ".frozen"]  # the firmware from the ROM and nowhere else
    del _at, _size, uctypes, vfs
elif _deployed(_flash):
    # Boot as a board does: the firmware `make deploy` put in the flash, not the checkout's.
    # Its main.py starts the ESP32 board, which this board has no parts for: the app runs from
    # the flash's lib/ on the simulated board, the only module taken from the simulator.
    _from_flash = True
    sys.path[:] = [_flash + "/lib", ".frozen", _here]
del _rom

try:
    if _from_flash:
        import shogun_fw.boards

        shogun_fw.boards.__path__ = _here + "/shogun_fw/boards"
    from shogun_fw import app  # from /rom or the flash when there is one
    from shogun_fw.boards.sim import boot
except Exception as exc:  # noqa: BLE001 - say it on stderr, where the launcher reads it
    if not _from_flash:
        raise
    # E.g. .mpy files built for an ESP32's native code (-march=xtensawin).
    sys.stderr.write("sim_main: the firmware deployed in %s/lib does not load on the unix "
                     "port (%s: %s); deploy it for the simulated board: make deploy PORT=... "
                     "MPY_ARCH=host\n" % (_flash, type(exc).__name__, exc))
    raise SystemExit(1) from None

# The options are read by the simulated board's module (boards/sim.py boot): from a ROMFS its
# bytecode stays in the image, while this script is compiled into the heap (a 64K heap).
gc.threshold(-1)  # (the app collects as it needs from here: link.py housekeeping)
boot(sys.argv, app.start)
del app, boot
# Back here only when the host asked for the REPL: the board's REPL, raw REPL included, over its
# flash (sim_repl.py), as a board's MicroPython offers it once main.py returns. A hard reset
# there (machine.reset()) ends the process with exit code 3, and the launcher boots it again.
if _here not in sys.path:
    sys.path.append(_here)  # (a ROMFS boot reads only /rom: the REPL is the simulator's own)
import sim_repl  # noqa: E402

sim_repl.run(_flash)
