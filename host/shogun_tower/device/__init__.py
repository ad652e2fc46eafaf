"""The tower seen from the laptop: the serial link (`link.py`), the throws it reports
(`throws.py`, `tower.py`), the colour sensor's calibration, the MicroPython unix port and the
ROMFS image the simulated tower runs on."""
