"""The whole firmware runs a 500-cube session on the unix port in a small heap (the 64K target).

Two deployed forms, each with the faithful simulated board (every hazard of a real outlet):

* from a ROMFS image (`mpremote romfs build`, as `make deploy-romfs` writes a board's ROM
  partition), its bytecode run in place outside the heap: it starts and runs its 500-cube
  session (and a silent host's 1000 cubes) in a literal ``64K``;
* as .mpy files copied into the file system (`make deploy`, stock firmware), whose bytecode the
  interpreter copies into the heap: ``-X heapsize=64wK``, 64K counted in 32-bit words as on the
  ESP32 (the 64-bit unix port doubles every pointer; docs/firmware.md, Memory).

And the firmware's names stay clear of the interpreter's next qstr pool, a 7.2 KB block.
"""

from __future__ import annotations

import os
import pathlib
import queue
import re
import shutil
import subprocess
import time

from shogun_tower.device.fault_relay import FaultyLink
from shogun_tower.device.link import DeviceLink
from shogun_tower.device.romfs import build_image, launch_command
from shogun_tower.sim_device import SimulatedTower, compile_firmware, firmware_dir

from .conftest import connect

FAITHFUL = ["--faithful", "--late-p", "0", "--gap-ms", "3", "12"]
# The target was a literal 64K from ROMFS (56 KB live) and 64wK as .mpy (83.5 KB live).
# The CPU budget work lost it (ac6ae5c on: 72K to start, 72.5 KB live): mostly the qstr pools
# (QSTR_POOLS below), and the objects of the viper/native work. Regained (61.9 KB live at most),
# then lost again to the link's command window and the capture's counters (63.6 KB live at boot:
# MemoryError at the first throw). Won back in the link, the protocol, the commands and the score
# track (60.3 KB at boot, 61.7 KB live at most in a session; docs/firmware.md, Memory). The
# simulated tower then took the room for a throw's 128 cubes at boot, 0.25 KB (a larger throw
# killed the board as it grew): 62.4 KB live at most in 4 sessions (main's own 59.8-61.7 KB in
# 3), so the guard, which holds the live heap within about 1 KB of what it is, went to 63.
START_HEAP = "64K"
ROMFS_HEAP = "64K"
ROMFS_LIVE_KB = 63
# As .mpy files the guard is a regression check, not the heap's size (64wK): 93.2 KB live at
# most in the bench's sessions, 96.4 KB once in a whole suite on a loaded machine (a reading
# taken after the session: what moves it run to run is not known), so it stands 2 KB above.
MPY_LIVE_KB = 98
# MicroPython interns every name (functions, attributes, globals, arguments, short strings) in
# qstr pools that double as they fill: on this interpreter (the 64-bit unix port from PyPI) 20,
# 40, 80, 160 and 320 entries, then one of 640, a 7.2 KB block the firmware has no room for.
QSTR_POOLS = 620
QSTR_MAX = 612  # 591 at boot with this test's options, 1 more in a session
THROW = {"red": 6, "blue": 6, "green": 6, "black": 6, "yellow": 6}


def _session(sim: SimulatedTower, cubes_wanted: int = 500) -> dict[str, int]:
    link: DeviceLink = connect(sim.port)
    cubes = 0
    try:
        while cubes < cubes_wanted:
            link.sim_throw(THROW)
            while True:
                try:
                    event = link.events.get(timeout=5)
                except queue.Empty:
                    raise AssertionError(f"no throw end after {cubes} cubes:\n"
                                         f"{sim.stderr_log.decode(errors='replace')}") from None
                assert event.kind != "error", (event.data,
                                               sim.stderr_log.decode(errors="replace"))
                if event.kind == "cube":
                    cubes += 1
                elif event.kind == "throw_end":
                    break
        # its heap is collected between throws, a few idle ticks after one (this host throws
        # again at once: none need come in the session, but on a loaded machine one may, with
        # a throw's schedule still live): the figure is the collection after the session's end
        time.sleep(3)
        status = link.status_with_heap()
    finally:
        link.close()
    assert sim.running and sim.resets == 0, sim.stderr_log.decode(errors="replace")
    assert b"MemoryError" not in sim.stderr_log
    assert status["cubes"] == cubes and status["mismatches"] == 0
    return status


def _check_romfs_session(tmp_path: pathlib.Path, heap: str, live_kb: int) -> None:
    """A 500-cube session from a ROMFS image in ``heap``: its live heap under ``live_kb``."""
    source = firmware_dir()
    image = build_image(tmp_path / "firmware.romfs", source, source.parent / "common")
    with SimulatedTower(seed=5, heapsize=heap, options=FAITHFUL, romfs=image) as sim:
        status = _session(sim)
    # most of the firmware's RAM is its objects, not its bytecode
    assert 0 < status["heap_live"] < live_kb * 1024, status
    assert status["heap_peak"] <= int(heap[:-1]) * 1024


def _check_mpy_session(tmp_path: pathlib.Path, heap: str, live_kb: int) -> None:
    """The same as .mpy files (compiled for the running port's native code)."""
    firmware = compile_firmware(tmp_path / "build")
    with SimulatedTower(seed=5, heapsize=heap, options=FAITHFUL, firmware=firmware) as sim:
        status = _session(sim)
    assert 0 < status["heap_live"] < live_kb * 1024, status


def test_500_cube_session_in_64k_heap_from_romfs(tmp_path: pathlib.Path) -> None:
    _check_romfs_session(tmp_path, ROMFS_HEAP, ROMFS_LIVE_KB)


def test_500_cube_session_as_mpy_files_in_64_kilowords(tmp_path: pathlib.Path) -> None:
    # (every function's bytecode is in the heap here: 83.5 KB live before the CPU work)
    _check_mpy_session(tmp_path, "64wK", MPY_LIVE_KB)


def test_the_romfs_firmware_starts_in_a_literal_64k_heap(tmp_path: pathlib.Path) -> None:
    source = firmware_dir()
    image = build_image(tmp_path / "firmware.romfs", source, source.parent / "common")
    with SimulatedTower(seed=5, heapsize=START_HEAP, options=FAITHFUL, romfs=image) as sim:
        link: DeviceLink = connect(sim.port)
        try:
            status = link.status()
        finally:
            link.close()
        assert sim.running and sim.resets == 0, sim.stderr_log.decode(errors="replace")
    assert b"MemoryError" not in sim.stderr_log
    assert status["cubes"] == 0 and status["mismatches"] == 0, status


def test_the_firmware_names_leave_room_in_the_qstr_pools(tmp_path: pathlib.Path) -> None:
    # sim_main.py as it boots the ROMFS firmware, up to the app's start: its own names, the
    # firmware's, the simulated board's and this test's options are all interned by then.
    source = firmware_dir()
    image = build_image(tmp_path / "firmware.romfs", source, source.parent / "common")
    boot = "boot(sys.argv, app.start)"
    text = (source / "sim_main.py").read_text()
    assert boot in text
    script = tmp_path / "sim_main.py"
    script.write_text(text.replace(boot, "import micropython\nmicropython.qstr_info()\n"
                                         "raise SystemExit", 1))
    args = [str(script), "--seed", "5", "--flash-dir", str(tmp_path / "flash"), *FAITHFUL]
    proc = subprocess.run(launch_command(image, ["-X", f"heapsize={ROMFS_HEAP}", *args]),
                          capture_output=True, text=True, timeout=60, cwd=source,
                          env={**os.environ, "MICROPYPATH": ".frozen"})
    found = re.search(r"n_pool=(\d+), n_qstr=(\d+)", proc.stdout)
    assert found, proc.stdout + proc.stderr
    pools, qstrs = int(found[1]), int(found[2])
    # One more name past QSTR_POOLS costs 7.2 KB of heap: stay QSTR_POOLS - QSTR_MAX below it
    # (remove a name for every one added: an attribute, a global, an argument).
    assert pools <= 5 and qstrs <= QSTR_MAX, (pools, qstrs)


def test_the_romfs_firmware_comes_from_the_image_alone(tmp_path: pathlib.Path) -> None:
    # sim_main.py keeps only /rom and the interpreter's frozen modules on sys.path: an image
    # without the detector cannot start (it would otherwise be read from the checkout).
    source = firmware_dir()
    staging = tmp_path / "firmware"
    shutil.copytree(source, staging, ignore=shutil.ignore_patterns("__pycache__"))
    (staging / "shogun_fw" / "detector.py").unlink()
    image = build_image(tmp_path / "broken.romfs", staging, source.parent / "common")
    with SimulatedTower(seed=5, heapsize=ROMFS_HEAP, romfs=image, restart_on_reset=False) as sim:
        for _ in range(200):
            if sim.ended:
                break
            time.sleep(0.05)
        assert sim.ended
        # The interpreter prints the traceback on its console, the serial port, as a board
        # does. (Read as is: pyserial would flush what waits in the port when it opens it.)
        fd = os.open(sim.port, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
        try:
            console = os.read(fd, 4000)
        finally:
            os.close(fd)
    assert b"no module named 'shogun_fw.detector'" in console, console


def test_a_silent_host_for_1000_cubes_in_64k_heap_from_romfs(tmp_path: pathlib.Path) -> None:
    # The host stops acknowledging: the board's outbox (a ring taken at boot) fills, then the
    # board counts. No reset; once the host acknowledges again, one summary event brings the
    # rest, and the host ends with the exact count of every colour.
    source = firmware_dir()
    image = build_image(tmp_path / "firmware.romfs", source, source.parent / "common")
    options = ["--gap-ms", "8", "20", "--quiet-ms", "150"]
    with SimulatedTower(seed=8, heapsize=ROMFS_HEAP, options=options, romfs=image) as sim:
        link = FaultyLink(sim.port)
        link.handshake(5.0)
        try:
            before = link.sim_tower()
            link.hold_acks = True
            thrown = dict.fromkeys(before, 0)
            while link.status()["cubes"] < 1000:
                link.sim_throw(THROW)
                for colour, n in THROW.items():
                    thrown[colour] += n
                time.sleep(0.6)
            time.sleep(1.0)
            status = link.status()
            assert status["queue"] <= 32, status
            link.hold_acks = False
            link.acknowledge()
            got = dict.fromkeys([*before, "unknown"], 0)
            summaries = 0
            while True:
                try:
                    event = link.events.get(timeout=2)
                except queue.Empty:
                    break
                if event.kind == "cube":
                    got[event.data["colour"]] += 1
                elif event.kind == "summary":
                    summaries += 1
                    for colour, n in event.data["cubes"].items():
                        got[colour] += n
                assert event.kind != "error", (event.data,
                                               sim.stderr_log.decode(errors="replace"))
            after = link.sim_tower()
        finally:
            link.close()
        assert sim.running and sim.resets == 0, sim.stderr_log.decode(errors="replace")
    assert b"MemoryError" not in sim.stderr_log
    assert summaries >= 1
    assert sum(got.values()) == status["cubes"] >= 1000
    # Every cube that fell is counted once in its colour; a cube the sensor could not tell is
    # "unknown" (never guessed), so a colour may lack exactly those.
    missing = {c: before[c] + thrown[c] - after[c] - got[c] for c in before}
    assert all(n >= 0 for n in missing.values()), (missing, got)
    assert sum(missing.values()) == got["unknown"], (missing, got)


STORE = True  # (False: the same without cal_store)


def test_every_documented_request_on_the_64k_romfs_board(tmp_path: pathlib.Path) -> None:
    # Every request of docs/protocol.md at its largest, many times, on the board as a real one
    # runs (ROMFS, a literal 64K): no reset, no MemoryError. (led_read of 60 LEDs, what
    # read_led_frame asks, reset it 19 times in 50 requests: its 184-byte reply was built in
    # the heap; the retries hid it from the caller.)
    import struct

    from shogun_common import protocol as P
    from shogun_tower.device.link import LinkError

    source = firmware_dir()
    image = build_image(tmp_path / "firmware.romfs", source, source.parent / "common")
    with SimulatedTower(seed=5, heapsize=ROMFS_HEAP, options=FAITHFUL, romfs=image) as sim:
        link: DeviceLink = connect(sim.port)
        boot = link.boot_id
        refused = 0
        memory_refusals = 0
        try:
            centroids = link.get_calibration()
            for round_ in range(40):
                assert len(link.request(P.LED_READ, struct.pack("<HH", 0, 60),
                                        expect=P.LED_DATA)) == 4 + 180
                assert len(link.read_led_frame()) >= 81 * 3
                link.push_scores([(c, 80 + round_, 18) for c in
                                  ("black", "red", "yellow", "purple", "blue")])
                link.request(P.SEGMENTS, P.pack_segments([(3 * k, 3, k % 8) for k in range(25)]))
                link.configure_track()
                link.animate_battle("red")
                link.status()
                link.ping()
                link.hello()
                link.sim_tower()
                link.sim_load({"red": 10, "blue": 10, "green": 20})
                link.calibration_mode("green")
                link.calibration_mode(None)
                link.request(P.REPL, expect=P.REPL_NONCE)  # (never confirmed: the app stays)
                if round_ % 10 == 0 and STORE:
                    # (the one request a literal 64K heap of the 64-bit unix port cannot always
                    # hold: a file's text. Refused, nothing stored, never a reset: docs/protocol.md)
                    try:
                        link.store_calibration(centroids)
                    except LinkError as err:
                        assert "cal_store: MemoryError" in str(err), err
                        memory_refusals += 1
                    assert link.get_calibration() == centroids
                    link.inject(2, 5000, 5000)
                    time.sleep(0.1)
                    link.sim_throw({"red": 1})
                for bad in ((0x7E, b""), (P.SCORES, bytes((9, 1, 0, 0))),
                            (P.LED_READ, bytes(5))):
                    try:
                        link.request(*bad)
                    except LinkError:
                        refused += 1
            status = link.status()
        finally:
            link.close()
        assert sim.running and sim.resets == 0, sim.stderr_log.decode(errors="replace")
    assert link.boot_id == boot, "the board restarted (the retries hid it)"
    assert refused == 40 * 3
    assert b"MemoryError" not in sim.stderr_log
    errors = [e.data for e in list(link.events.queue) if e.kind == "error"]
    assert not errors, errors[:3]
    assert status["heap_peak"] <= 64 * 1024
