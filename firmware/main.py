# ESP32 entry point (copied to the board's root by `make deploy`): the real tower's board.
# Any exception in the app reports an ERROR frame and resets the board (boards/esp32.py).
from shogun_fw.boards.esp32 import run

run()
