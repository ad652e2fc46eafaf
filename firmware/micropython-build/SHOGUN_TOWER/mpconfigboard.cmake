# The Shogun Tower's MicroPython: ESP32_GENERIC's configuration, at 240 MHz, with a ROMFS
# partition and a deeper mark stack for the collector (docs/firmware.md, "The tower's own
# MicroPython build"). Built out of tree by `make firmware-image MICROPYTHON=<checkout>`.
# ESP32_GENERIC's Wi-Fi CSI is left out (the tower uses no Wi-Fi): the ROMFS layout's app
# partition is 128 KiB smaller than the stock one.
include(boards/mpconfigboard_esp32_common.cmake)

list(APPEND SDKCONFIG_DEFAULTS
    boards/sdkconfig.240mhz
    ${MICROPY_BOARD_DIR}/sdkconfig.board
)
