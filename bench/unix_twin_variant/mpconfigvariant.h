// The unix twin of the tower's MicroPython (bench/unix_twin.py): the unix port's standard
// configuration, as the unix port from PyPI that runs the tests is built, plus, when
// SHOGUN_TOWER_BUILD is defined, the tower build's collector settings from their one file.
#define MICROPY_CONFIG_ROM_LEVEL (MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES)
#include "ports/unix/variants/mpconfigvariant_common.h"

#ifdef SHOGUN_TOWER_BUILD
#include "shogun_gc.h"
#endif
