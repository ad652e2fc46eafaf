// The collector's settings of the Shogun Tower's MicroPython, in one place: the ESP32 build
// (mpconfigboard.h) and the unix twin that bench/bench_cpu.py builds to measure its collection
// (bench/unix_twin.py) both include this file.
//
// MicroPython marks the heap depth first with a stack of 64 blocks by default. The firmware's
// heap goes deeper (modules, classes and the board's instance each push their members at once),
// and past 64 the collector scans the whole heap's table and marks every marked block again:
// a third more work in a collection. 256 entries cost 2 KB of static RAM on the ESP32 (each
// entry keeps its heap area's pointer too); the unix twin's collection of the firmware's heap
// does not overflow them (bench_cpu checks it every run).
#define MICROPY_ALLOC_GC_STACK_SIZE (256)
