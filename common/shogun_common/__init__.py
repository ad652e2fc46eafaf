# Code that runs unchanged on CPython (host) and MicroPython (firmware, simulated board).
