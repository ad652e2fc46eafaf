# The real board (boards/esp32.py) against the strict fakes of the ESP32 port
# (tests/firmware/fake_machine: the port's arguments, pins and refusals, from its release's own
# source): everything the board asks of `machine` at start-up, attach, the strip and the REPL
# hand-over is something the released port accepts, and its interrupts are the port's (soft).
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_machine")

import _port  # noqa: E402
import machine  # noqa: E402 - the fake
from tcs34725_chip import TCS34725Chip  # noqa: E402

from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import PINS, STRIP_RX, STRIP_UART  # noqa: E402

BEAM = PINS["beam_upper"]
LOWER = PINS["beam_lower"]


def _board():
    machine.reset_state()
    machine.i2c_devices[0x29] = TCS34725Chip(ident=0x44, light=lambda: (10, 20, 30, 60))
    return board_mod.Esp32Board()


def test_the_port_release_is_the_one_the_fakes_follow():
    assert _port.RELEASE == "v1.28.0" and _port.CONTRACT_RELEASE == _port.RELEASE


def test_attach_arms_the_beams_with_what_the_port_accepts():
    # v1.28.0's Pin.irq takes handler, trigger and wake: hard=True is refused
    board = _board()
    board.attach()
    for gpio in (BEAM, LOWER):
        handler, trigger, pin = machine._irqs[gpio]
        assert trigger == machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING
        assert pin.id == gpio and handler is not None
    board.release()


def test_the_strip_uart_is_one_the_port_accepts_and_the_chip_survives():
    # v1.28.0 refuses rx=-1 ("invalid pin"); left out, UART 1's RX is GPIO 9: the flash's
    board = _board()
    board.strip_init(100)
    uart = machine.UART.live[-1]
    assert uart.id == STRIP_UART and uart.tx == PINS["led_strip"]
    assert uart.rx == STRIP_RX
    assert uart.rx not in _port.rules("Pin")["flash"] and uart.tx not in _port.rules("Pin")["flash"]


def test_every_timer_the_board_starts_is_a_soft_one_on_a_timer_the_chip_has():
    board = _board()
    times = bytearray(8 * 65)
    import array

    assert board.start_sampling(array.array("i", times[:4 * 65]), array.array("H", bytes(256)),
                                lambda e: None)
    board.sampling(True)
    board.attach()
    board.wake_in(5)
    board.release()  # (the REPL's watchdog feeder)
    ids = sorted(t.id for t in machine.Timer._by_id.values())
    assert ids == [0, 1, 2], ids
    assert all(i in _port.rules("Timer")["ids"] for i in ids)


def test_the_cpu_clock_the_board_asks_for_is_one_the_port_sets():
    _board()
    assert machine.freq() == 240000000


def test_every_pin_of_the_map_is_one_the_port_has_and_outputs_can_drive():
    rules = _port.rules("Pin")
    outputs = ("colour_led", "led_strip", "inject")
    for name, gpio in list(PINS.items()) + [("strip_rx", STRIP_RX)]:
        assert gpio in rules["valid"], (name, gpio)
        assert gpio not in rules["flash"], (name, gpio)
        if name in outputs:
            assert gpio < rules["input_only_from"], (name, gpio)
