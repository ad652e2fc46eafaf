# ESP32 entry point (copied to the board's root by `make deploy`): the real tower's board.
from shogun_fw import app
from shogun_fw.boards.esp32 import Esp32Board

app.start(Esp32Board())
