# The one pin map of the real tower (ESP32-DevKitC, ESP32-WROOM-32). hardware/wiring.yml must
# agree with it pin for pin (tests/hardware/test_pin_map.py checks this).
PINS = {
    # IR break-beam receivers (open collector, internal pull-up): a cube blocks the beam -> low.
    "beam_upper": 25,
    "beam_lower": 26,
    # TCS34725 colour sensor on I2C bus 0 (400 kHz) and the GPIO that switches its white LED.
    "i2c_sda": 21,
    "i2c_scl": 22,
    "colour_led": 4,
    # WS2812B score-track data line (through a 330 ohm series resistor): STRIP_UART's TX,
    # inverted (drivers/ws2812_uart.py).
    "led_strip": 13,
    # Spare output jumpered to beam_upper for hardware-in-loop tests (synthetic cube pulses).
    "inject": 33,
    # The barrel jack's 5 V through a 10k/15k divider (input only, no pull-up): high = the 5 V
    # supply feeds the strip (the score track's budget follows it: Esp32Board.supply_5v).
    "power_sense": 34,
}

I2C_FREQ = 400000
# The colour sensor's analogue gain (TCS34725: 1, 4, 16 or 60): 60x lifts a black cube's counts
# 3.75x over the read noise, and a clipped channel is left out (docs/firmware.md, the colour).
# The simulated board models the same tower (boards/sim.py's _GAIN; a test keeps them equal).
SENSOR_GAIN = 60
# UART0 is the REPL (the host's link); UART1 exists on every ESP32 (the C3 has only 0 and 1).
STRIP_UART = 1
# STRIP_UART's RX, never read, on a GPIO left unconnected (internal pull-up): MicroPython
# v1.28.0 refuses rx=-1 ("invalid pin"), and left out, UART1's RX is GPIO9, a pin of the
# module's SPI flash on an ESP32-WROOM-32: the board would crash (docs/esp32-port.md).
STRIP_RX = 27
# The beams' timebase (boards/__init__.py, the capture): an LEDC PWM output at 1 MHz on
# CAPTURE_CLOCK, jumpered (one wire) to CAPTURE_CLOCK_IN, where pulse counters gated by each
# beam count it while the beam is blocked. Not one pad for both: ESP-IDF's PCNT pin setup makes
# its pad input-only, and whether LEDC's setup keeps the input on depends on the ESP-IDF
# release (v1.28.0's machine_pwm.c re-enables it only below 5.4): a jumper works on every one.
CAPTURE_CLOCK = 18
CAPTURE_CLOCK_IN = 19
CAPTURE_HZ = 1000000
