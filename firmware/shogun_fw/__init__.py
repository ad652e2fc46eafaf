# Shogun Tower firmware: runs on an ESP32 (boards/esp32.py) and on the MicroPython unix port
# (boards/sim.py). Nothing in this package imports `machine` except boards/esp32.py.
VERSION = "0.1.0"
