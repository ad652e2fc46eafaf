# ESP32 entry point (copied to the board's root by `make deploy`): the real tower's board.
# Any exception in the app reports an ERROR frame and resets the board (boards/esp32.py).
import gc

# While the firmware is imported, collect after every 2 KB allocated: each module's garbage (its
# dictionaries' old tables as they grow) is freed before the next module's objects come and
# reused by them, instead of being left between them as holes too short for the app's buffers
# (as the simulated board's sim_main.py does; docs/firmware.md, Memory). Then the firmware
# decides when to collect: between throws only (link.py housekeeping), never inside one.
gc.threshold(2048)
from shogun_fw import app  # noqa: E402, F401 - imported here, under the threshold
from shogun_fw.boards.esp32 import run  # noqa: E402

gc.threshold(-1)
run()
