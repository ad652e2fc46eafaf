// The collector's settings of the Shogun Tower's MicroPython, in one place (mpconfigboard.h
// includes this file).
//
// MicroPython marks the heap depth first with a stack of 64 blocks by default. The firmware's
// heap goes deeper (modules, classes and the board's instance each push their members at once),
// and past 64 the collector scans the whole heap's table and marks every marked block again:
// a third more work in a collection. 256 entries cost 2 KB of static RAM on the ESP32 (each
// entry keeps its heap area's pointer too). Whether the firmware's heap stays within them is
// settled on a board (tests/hil/test_cpu_budget.py times the collection between throws).
#define MICROPY_ALLOC_GC_STACK_SIZE (256)
