# The firmware's own collection, timed on the unix port: app.main on the real board's code
# (boards/esp32.py, with the test fakes of machine and the sensor, tests/firmware/fake_machine)
# after scores for five players and a throw of 40 cubes through the inject pin, acknowledged as
# the host does. bench_cpu.py scales it to the ESP32: a collection is C code, marking every
# word of every live block. (Its worst-case run cannot say this: its heap also holds the
# simulated tower and the profiler's records, which a board does not have.) From the
# firmware's .mpy files its bytecode lives in the heap, as `make deploy` leaves it; with
# SHOGUN_ROMFS (a ROMFS image mapped by host/shogun_tower/romfs.py) it stays in the ROM
# partition, as with `make deploy-romfs`. The heap: an ESP32's (bench_cpu.py GC_HEAP).
#   micropython -X heapsize=112wK gc_cost.py FAKE_MACHINE_DIR   (MICROPYPATH: the .mpy files)
# Prints one JSON line: the least of 9 collections and of 9 scans of the heap's table
# (gc.mem_alloc) (us), live and heap bytes, the fakes' share of the live bytes (their objects
# are no board's), cubes reported. With SHOGUN_MARK_DEPTH, on bench/mark_depth.py's probe twin
# only, also the mark stack's depth in three marks (`mark_depth`).
import gc
import os
import sys

_rom = os.getenv("SHOGUN_ROMFS")
if _rom:
    import uctypes
    import vfs

    _rom = _rom.split(":")
    vfs.mount(vfs.VfsRom(uctypes.bytearray_at(int(_rom[0]), int(_rom[1]))), "/rom")
    sys.path[:] = ["/rom", ".frozen"]
    del uctypes, vfs
sys.path.insert(0, sys.argv[1])
gc.collect()
_before = gc.mem_alloc()

import machine  # noqa: E402 - the fake
from fake_serial import attach  # noqa: E402
from tcs34725_chip import TCS34725Chip  # noqa: E402

gc.collect()
_fakes = gc.mem_alloc() - _before

import asyncio  # noqa: E402
import json  # noqa: E402
import struct  # noqa: E402
import time  # noqa: E402 - the fake (ESP32 ticks)

from shogun_common import protocol as P  # noqa: E402
from shogun_fw import app  # noqa: E402
from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import PINS  # noqa: E402

CUBES = 40
_FAKES = ("machine", "fake_serial", "tcs34725_chip", "time", "esp32")
# the fakes' instances that are static C objects on an ESP32 (its pins, sys.stdout's buffer)
_STATIC = ("Pin", "FakeSerial")


def _rom_objects(board, every_instance):
    """The fakes' objects that are C objects in an ESP32's ROM (bench/mark_depth.py): their
    modules, module data, classes and functions, and the instances the board holds that are
    static there (all of them with ``every_instance``)."""
    rom = []
    classes = []
    for name in _FAKES:
        module = sys.modules.get(name)
        if module is None:
            continue
        rom.append(module)
        rom.append(module.__dict__)
        for value in module.__dict__.values():
            if isinstance(value, (int, str)) or value is None:
                continue
            rom.append(value)
            if type(value) is type:
                classes.append(value)
                for member in value.__dict__.values():
                    if not isinstance(member, (int, str)) and member is not None:
                        rom.append(member)

    def walk(obj, depth):
        if type(obj) in classes:
            if every_instance or type(obj).__name__ in _STATIC:
                rom.append(obj)
        elif depth and isinstance(obj, (list, tuple)):
            for item in obj:
                walk(item, depth - 1)
        elif depth and type(obj) is not type and hasattr(obj, "__dict__"):
            for item in obj.__dict__.values():
                walk(item, depth - 1)

    walk(board, 3)
    return tuple(rom)


def _mark_depth(board):
    """The probe twin's three marks (bench/mark_depth.py), each called from the link's module
    as its housekeeping calls gc.collect (the first roots are the caller's globals)."""
    import micropython

    from shogun_fw import link

    exec("def _collect():\n    gc.collect()", link.__dict__)
    collect = link.__dict__.pop("_collect")
    out = {}
    for name, rom in (("heap", None), ("rom_high", _rom_objects(board, False)),
                      ("rom_low", _rom_objects(board, True))):
        micropython.probe_rom(None)
        gc.collect()
        micropython.probe_stats()
        micropython.probe_rom(rom)  # a mark with these as ROM, undone after (None: as it is)
        collect()
        micropython.probe_rom(None)
        deepest, dropped, snap = micropython.probe_stats()
        out[name] = {"deepest": deepest, "dropped": dropped, "snap": snap,
                     "rom_objects": len(rom) if rom else 0}
    return out


def main():
    machine.reset_state()
    machine.i2c_devices[0x29] = TCS34725Chip(ident=0x44)
    board = board_mod.Esp32Board()
    machine.wire(PINS["inject"], PINS["beam_upper"])
    serial = attach(board)
    reader = P.FrameReader()
    out = {}

    async def host():
        task = asyncio.create_task(app.main(board))
        serial.rx += P.encode_frame(P.SCORES, 1, bytes((0, 12, 0, 3, 1, 40, 0, 5, 2, 77, 0,
                                                        1, 3, 12, 0, 0, 4, 90, 0, 2)))
        serial.rx += P.encode_frame(P.INJECT, 2, struct.pack("<HHH", CUBES, 7000, 3000))
        end = None
        boot_id = None
        acked = None
        seq = 3
        for _ in range(600):
            await asyncio.sleep_ms(10)
            for timer in (board._sample_timer, board._wake_timer):  # the hardware timers
                if timer is not None and timer.callback is not None:
                    timer.fire()
            newest = None
            for f in reader.feed(bytes(serial.tx)):
                if f[0] == P.BOOT:
                    boot_id = P.le(f[2], 0, 4)
                if f[0] in P.RELIABLE_TYPES:
                    newest = f[1]
                if f[0] == P.THROW_END:
                    end = P.le(f[2], 4, 2)
            serial.tx = bytearray()
            if newest is not None and boot_id is not None and newest != acked:
                # acknowledged as the host does, so the link goes on sending
                serial.rx += P.encode_frame(P.ACK, seq, struct.pack("<HI", newest, boot_id))
                seq += 1
                acked = newest
            if end is not None:
                break
        if os.getenv("SHOGUN_MARK_DEPTH"):
            out["mark_depth"] = _mark_depth(board)
        best = None
        scan = None
        for _ in range(9):
            t0 = time.time_ns()
            gc.collect()
            ns = time.time_ns() - t0
            best = ns if best is None or ns < best else best
            # the link's housekeeping also reads the heap's figures around its collection
            # (gc.mem_alloc, gc.mem_free: each a scan of the heap's allocation table)
            t0 = time.time_ns()
            gc.mem_alloc()
            ns = time.time_ns() - t0
            scan = ns if scan is None or ns < scan else scan
        out["gc_us"] = best / 1000
        out["scan_us"] = scan / 1000
        out["live"] = gc.mem_alloc()
        out["heap"] = gc.mem_alloc() + gc.mem_free()
        out["fakes"] = _fakes
        out["rom"] = bool(_rom)
        out["cubes"] = end
        task.cancel()

    asyncio.run(host())
    print(json.dumps(out))


main()
