// The Shogun Tower's MicroPython (see mpconfigboard.cmake).

#define MICROPY_HW_BOARD_NAME "Shogun Tower (ESP32)"
#define MICROPY_HW_MCU_NAME "ESP32"

// The firmware's bytecode runs in place from the ROM partition (`make deploy-romfs`), so the
// heap holds only its objects: the collection between throws marks less.
#define MICROPY_VFS_ROM (1)

#include "shogun_gc.h"
