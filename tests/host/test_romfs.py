"""The firmware's ROMFS image (`shogun-tower romfs`, `make deploy-romfs`) and the unix port's
ROM partition (shogun_tower.device.romfs)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

from shogun_tower.cli import main
from shogun_tower.device.romfs import launch_command

LIST_ROM = """
import os, uctypes, vfs
at, size = os.getenv("SHOGUN_ROMFS").split(":")
vfs.mount(vfs.VfsRom(uctypes.bytearray_at(int(at), int(size))), "/rom")
def walk(d):
    for name in sorted(os.listdir(d)):
        p = d + "/" + name
        if os.stat(p)[0] & 0x4000:
            walk(p)
        else:
            print(p)
walk("/rom")
"""


def _files_in(image: pathlib.Path, tmp_path: pathlib.Path) -> list[str]:
    script = tmp_path / "list_rom.py"
    script.write_text(LIST_ROM)
    proc = subprocess.run(launch_command(image, [str(script)]), capture_output=True,
                          text=True, timeout=60, env={**os.environ, "MICROPYPATH": ".frozen"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.split()


def test_the_board_image_holds_the_compiled_firmware_without_the_simulated_board(
        tmp_path: pathlib.Path, capsys) -> None:
    image = tmp_path / "firmware.romfs"
    assert main(["romfs", str(image)]) == 0
    files = _files_in(image, tmp_path)
    assert "/rom/shogun_fw/detector.mpy" in files
    assert "/rom/shogun_fw/boards/esp32.mpy" in files
    assert "/rom/shogun_common/protocol.mpy" in files
    assert all(f.endswith(".mpy") for f in files), files
    assert not any("sim" in f.rsplit("/", 1)[1] for f in files), files
    assert f"{image}: " in capsys.readouterr().err


def test_the_simulated_image_keeps_the_simulated_board(tmp_path: pathlib.Path) -> None:
    image = tmp_path / "firmware.romfs"
    assert main(["romfs", "--simulated", str(image)]) == 0
    files = _files_in(image, tmp_path)
    assert "/rom/shogun_fw/boards/sim.mpy" in files
    assert "/rom/shogun_fw/boards/simtime.mpy" in files


def test_the_rom_is_read_only_and_outside_the_heap(tmp_path: pathlib.Path) -> None:
    image = tmp_path / "firmware.romfs"
    assert main(["romfs", str(image)]) == 0
    script = tmp_path / "probe.py"
    script.write_text(
        "import gc, os, uctypes\n"
        "at, size = os.getenv('SHOGUN_ROMFS').split(':')\n"
        "gc.collect()\n"
        "print(gc.mem_alloc() + gc.mem_free(), int(size))\n"
        "rom = uctypes.bytearray_at(int(at), int(size))\n"
        "print(bytes(rom[:3]) == b'\\xd2\\xcd\\x31')\n"
        "rom[0] = 0\n")
    proc = subprocess.run(launch_command(image, ["-X", "heapsize=16K", str(script)]),
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    heap, size = (int(v) for v in proc.stdout.split()[:2])
    assert heap <= 16 * 1024 < size, (heap, size)  # the image is bigger than the whole heap
    assert proc.stdout.split()[2] == "True"
    assert proc.returncode != 0  # writing into the ROM kills the process, as on flash


def test_bad_names_and_files_get_one_line_errors(tmp_path: pathlib.Path, capsys) -> None:
    assert main(["romfs", str(tmp_path / "firmware.bin")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "*.romfs" in err
    assert not (tmp_path / "firmware.bin").exists()
    not_an_image = tmp_path / "x.romfs"
    not_an_image.write_bytes(b"MicroPython .mpy, not ROMFS")
    proc = subprocess.run([sys.executable, "-m", "shogun_tower.device.romfs", str(not_an_image),
                           "-c", "print(1)"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "is not a ROMFS image" in proc.stderr


def _sim_cli(*args: str) -> subprocess.Popen[str]:
    cli = str(pathlib.Path(sys.executable).parent / "shogun-tower")
    return subprocess.Popen([cli, "sim", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def test_sim_runs_a_64k_board_from_romfs_as_a_real_one_runs() -> None:
    # `shogun-tower sim --heapsize 64K --romfs`: the firmware's bytecode from a ROMFS image in
    # place, as the tower's own MicroPython build runs it, in a literal 64K heap; every request
    # a game makes is answered by the same boot.
    import struct

    from shogun_common import protocol as P
    from shogun_tower.device.link import DeviceLink

    proc = _sim_cli("--heapsize", "64K", "--romfs", "--seed", "3")
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        assert port.startswith("/dev/"), (port, proc.stderr.read() if proc.poll() else "")
        with DeviceLink(port) as link:
            info = link.handshake(30)
            boot = link.boot_id
            for _ in range(10):
                link.push_scores([("red", 12, 3), ("blue", 40, 1)])
                assert len(link.read_led_frame()) >= 81 * 3
                link.request(P.LED_READ, struct.pack("<HH", 0, 60), expect=P.LED_DATA)
                link.status()
            assert link.boot_id == boot and info["board"] == "sim"
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=20)
    assert "from a ROMFS image" in err, err


def test_sim_says_why_a_small_heap_without_romfs_cannot_start() -> None:
    # Without --romfs the firmware's source is compiled into the heap: 64K cannot hold it. The
    # CLI says so in one line with the board's own words (MemoryError), not "printed nothing".
    proc = _sim_cli("--heapsize", "64K", "--seed", "3")
    try:
        _out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 1
    last = err.strip().splitlines()[-1]
    assert "MemoryError" in last and "--romfs" in last, err
