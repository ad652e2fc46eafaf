# ESP32 entry point (copied to the board's root by `make deploy`): the real tower's board.
# An exception in the running app reports itself and resets the board; one in start-up leaves
# the board in safe mode at its REPL, the failure kept in last_error.txt (boards/esp32.py).
import gc

# While the firmware is imported, collect after every 2 KB allocated: each module's garbage (its
# dictionaries' old tables as they grow) is freed before the next module's objects come and
# reused by them, instead of being left between them as holes too short for the app's buffers
# (as the simulated board's sim_main.py does; docs/firmware.md, Memory). Then the firmware
# decides when to collect: between throws only (link.py housekeeping), never inside one.
gc.threshold(2048)
try:
    from shogun_fw import app  # noqa: F401 - imported here, under the threshold
    from shogun_fw.boards.esp32 import run
except Exception as exc:  # noqa: BLE001 - the firmware does not import (a bad deploy): keep why
    import sys

    try:
        with open("last_error.txt", "w") as f:
            f.write("the firmware did not import: %s: %s\n" % (type(exc).__name__, exc))
            sys.print_exception(exc, f)
    except OSError:
        pass
    print("shogun: SAFE MODE - the firmware did not import: %r (last_error.txt). The REPL is "
          "free: `make deploy` again." % exc)
    run = None
gc.threshold(-1)
if run is not None:
    run()
