# The simulated board's `machine` module, as its REPL offers it (sim_repl.py puts it in
# sys.modules["machine"]). Simulation only: it lives beside sim_main.py, outside shogun_fw, so
# neither `make deploy` nor the ROMFS image ever holds it. The firmware never imports `machine`
# (the board is injected); only what the REPL's users run does: mpremote's `reset`
# (`import time, machine; time.sleep_ms(100); machine.reset()`) and people at the prompt.

import machine as _unix  # the unix port's own module (mem8, Signal, ...), kept underneath
from micropython import const

# The board's reset as the simulated tower's launcher sees it (host: sim_device._RESET_EXIT):
# the process ends with this code and is started again on the same pseudo-terminal.
RESET_EXIT = const(3)

# Reset causes, numbered as on the ESP32 port.
PWRON_RESET = const(1)
HARD_RESET = const(2)
WDT_RESET = const(3)
DEEPSLEEP_RESET = const(4)
SOFT_RESET = const(5)

mem8 = _unix.mem8
mem16 = _unix.mem16
mem32 = _unix.mem32
Signal = _unix.Signal
idle = _unix.idle
time_pulse_us = _unix.time_pulse_us

reset_requested = False  # read by the REPL: a SystemExit that is a reset, not a soft reboot


def reset():
    """Hard reset: the process ends with RESET_EXIT and the launcher boots the board again."""
    global reset_requested
    reset_requested = True
    raise SystemExit(RESET_EXIT)


def soft_reset():
    # As on a board: a SystemExit, which the REPL turns into a soft reboot.
    raise SystemExit


def reset_cause():
    return PWRON_RESET


def unique_id():
    return b"\x5e\x00\x00\x00\x00\x01"  # the simulated tower's one and only board


def freq(hz=None):
    if hz is None:
        return 240000000
    return None


def boot_from_flash(flash, here):
    """sim_main.py's boot when the flash holds `make deploy`'s files: the firmware from the
    flash's lib/, as a board boots. Their main.py starts the ESP32 board, which this board has
    no parts for: the app runs from lib/ on the simulated board, the only module taken from the
    simulator. (Here, not in sim_main.py: a script is compiled into the heap and stays there,
    a ROMFS boot never imports this module before the REPL.)"""
    import sys

    sys.path[:] = [flash + "/lib", ".frozen", here]
    try:
        import shogun_fw.boards

        shogun_fw.boards.__path__ = here + "/shogun_fw/boards"
        import shogun_fw.app
        import shogun_fw.boards.sim  # noqa: F401
    except Exception as exc:  # noqa: BLE001 - say it on stderr, where the launcher reads it
        # E.g. .mpy files built for an ESP32's native code (-march=xtensawin).
        sys.stderr.write("sim_main: the firmware deployed in %s/lib does not load on the unix "
                         "port (%s: %s); deploy it for the simulated board: make deploy PORT=... "
                         "MPY_ARCH=host\n" % (flash, type(exc).__name__, exc))
        raise SystemExit(1) from None

