"""The real board's main.py on MicroPython (unix port): a firmware that does not even import (a
deploy gone wrong) leaves the board at its REPL, what failed kept in last_error.txt for the next
start to tell the host, instead of resetting. (Start-up failures past the imports:
mpy_test_esp32_boot.py, on the fakes of the ESP32 port.)"""

from __future__ import annotations

import os
import pathlib
import subprocess

from shogun_tower.sim_device import micropython_executable

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_a_firmware_that_does_not_import_leaves_the_board_at_its_repl(
        tmp_path: pathlib.Path) -> None:
    broken = tmp_path / "lib" / "shogun_fw"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('half a deploy')\n")
    flash = tmp_path / "flash"  # main.py at the root, as `make deploy` leaves it
    flash.mkdir()
    (flash / "main.py").write_text((ROOT / "firmware" / "main.py").read_text())
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([str(tmp_path / "lib"), ".frozen"]))
    proc = subprocess.run([micropython_executable(), "main.py"],
                          capture_output=True, text=True, env=env, cwd=flash, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr  # main.py ends: the REPL is next
    assert "SAFE MODE - the firmware did not import: ImportError('half a deploy'" in proc.stdout
    kept = (flash / "last_error.txt").read_text()
    assert kept.startswith("the firmware did not import: ImportError: half a deploy\n"), kept
    assert "Traceback" in kept
