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
# (docs/firmware.md, Memory: it saves about 2 KB of heap at start-up.)
gc.threshold(2048)


# Few names of its own: every identifier and short string of this script is a qstr, and the
# firmware's qstrs fill the interpreter's pools to within a few entries of a new 7 KB one.
_flash = sys.argv[sys.argv.index("--flash-dir") + 1] if "--flash-dir" in sys.argv else "sim_flash"
_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."

# The simulated board's ROM partition (host: shogun_tower/romfs.py), mounted where MicroPython
# mounts a board's ROMFS: the firmware's bytecode then runs in place, out of the heap.
_rom = os.getenv("SHOGUN_ROMFS")
if _rom:
    import uctypes
    import vfs

    _rom = _rom.split(":")
    vfs.mount(vfs.VfsRom(uctypes.bytearray_at(int(_rom[0]), int(_rom[1]))), "/rom")
    sys.path[:] = ["/rom", ".frozen"]  # the firmware from the ROM and nowhere else
    del uctypes, vfs
else:
    try:
        # What `make deploy` leaves on a board: main.py and the firmware's .mpy files under
        # lib/. Booted from as a board does (sim_machine.py), not from the checkout.
        os.stat(_flash + "/main.py")
        os.stat(_flash + "/lib/shogun_fw/app.mpy")
        _rom = _flash
    except OSError:
        pass
    if _rom:
        import sim_machine

        sim_machine.boot_from_flash(_flash, _here)
del _rom
try:
    from shogun_fw import app  # noqa: E402 - from /rom (or the flash: imported already)
    from shogun_fw.boards.sim import boot  # noqa: E402
except MemoryError:
    # (said on stderr, the host's: the pty's reader may be no one yet)
    sys.stderr.write("MemoryError: the firmware does not fit this heap as source or .mpy "
                     "loaded into it\n")
    sys.exit(1)

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
