# The simulated board's REPL: what MicroPython offers on a board's USB serial once main.py has
# returned, and what the unix port lacks (its own REPL is a terminal line editor without a raw
# REPL, so mpremote could not talk to it). `make deploy`, mpremote and a person at
# `mpremote repl` get what a board gives them:
# - the friendly REPL: ">>> ", continuation lines "... ", Ctrl-E paste mode, Ctrl-B banner,
#   Ctrl-C drops the line, Ctrl-D soft reboot (a board then runs main.py: here the launcher
#   boots the board again);
# - the raw REPL (Ctrl-A): source up to Ctrl-D, then "OK", its output, 0x04, its error, 0x04,
#   ">"; Ctrl-D on an empty entry is a soft reboot that stays in the raw REPL; Ctrl-B leaves;
# - raw-paste mode (Ctrl-E "A" Ctrl-A in the raw REPL) with its flow-control window;
# - the board's flash folder as its filesystem, mounted at "/" ("/lib" on sys.path, as on a
#   board);
# - `machine` (sim_machine.py): machine.reset() ends the process with the reset exit code, and
#   the launcher boots the board again.
# The behaviour follows MicroPython's docs/reference/repl.rst and shared/runtime/pyexec.c.
# Ctrl-C also interrupts code that runs: the unix port takes keyboard interrupts from SIGINT only,
# so while code runs a thread watches the serial input, and on Ctrl-C asks the launcher
# (host: sim_device.py) on stderr for a SIGINT; the other bytes are kept for the REPL, as a
# board's input buffer keeps them. Only while keyboard interrupts are on, as on a board: code that
# turns them off (micropython.kbd_intr(-1), as the app does) has the serial input to itself.
# Simulation only: it lives beside sim_main.py, outside shogun_fw, and is never deployed.
import _thread
import gc
import io
import os
import select
import sys
import time

import micropython
import sim_machine
import vfs
from micropython import const

_CTRL_A = const(1)
_CTRL_B = const(2)
_CTRL_C = const(3)
_CTRL_D = const(4)
_CTRL_E = const(5)
_ESC = const(27)
_ENTER = const(13)
_S_IFREG = const(0x8000)
# Raw-paste flow control: half of a 256-byte stdin buffer, as MicroPython's boards announce.
_WINDOW = const(128)

# What a REPL mode ends with: the next mode, or a soft reboot.
_FRIENDLY = const(0)
_RAW = const(1)
_SOFT_REBOOT = const(2)

# Asks the launcher for a SIGINT (host: sim_device.INTERRUPT_REQUEST).
_INTERRUPT_REQUEST = "sim_repl: Ctrl-C, SIGINT please\n"

_BANNER_END = b'\r\nType "help()" for more information.\r\n'
_COMPOUND = ("if", "while", "for", "try", "with", "def", "class", "async")

_stdin = sys.stdin.buffer
_stdout = sys.stdout.buffer
_one = bytearray(1)
_poll = select.poll()
_poll.register(sys.stdin, select.POLLIN)


class _Watch:
    """While code runs: Ctrl-C on the wire becomes a KeyboardInterrupt, other bytes wait."""

    running = False
    watching = False
    asked = False  # a SIGINT was asked for and has not been taken yet
    yielded = False  # the code turned interrupts off: it read the serial itself
    held = bytearray()


# Opened before the flash is mounted at "/": whether SIGINT is caught tells whether keyboard
# interrupts are on (the unix port's kbd_intr(-1) gives SIGINT back its default).
_status = open("/proc/self/status")


def _interrupts_on():
    _status.seek(0)
    for line in _status.read().split("\n"):
        if line.startswith("SigCgt:"):
            return int(line[7:].strip(), 16) & (1 << 1)  # bit 1: signal 2, SIGINT
    return False


def _watch():
    try:
        _watch_input()
    finally:
        _Watch.watching = False  # even when it failed: the REPL waits for this


def _watch_input():
    one = bytearray(1)
    poll = select.poll()
    poll.register(sys.stdin, select.POLLIN)
    while _Watch.running:
        if not _interrupts_on():
            # The code reads the serial itself (the app) and 0x03 is its data: leave it alone
            # for the rest of its run, costing it nothing.
            _Watch.yielded = True
            break
        if poll.poll(20) and _stdin.readinto(one):
            if one[0] == _CTRL_C and not _Watch.asked and _interrupts_on():
                _Watch.asked = True
                sys.stderr.write(_INTERRUPT_REQUEST)
            elif one[0] != _CTRL_C:
                _Watch.held.append(one[0])


def _run_watched(code, namespace):
    _Watch.running = _Watch.watching = True
    _Watch.asked = _Watch.yielded = False
    _thread.start_new_thread(_watch, ())
    try:
        exec(code, namespace)
    except KeyboardInterrupt:
        _Watch.asked = False
        raise
    finally:
        _Watch.running = False
        while _Watch.watching:
            time.sleep_ms(2)
        if _Watch.yielded:
            _Watch.held = bytearray()  # bytes taken before the code had the serial were its own
        _take_late_interrupt()


def _take_late_interrupt():
    # Ctrl-C came as the code ended: its SIGINT is on the way and must not hit the REPL itself.
    if not _Watch.asked:
        return
    try:
        for _ in range(200):
            time.sleep_ms(5)
    except KeyboardInterrupt:
        pass
    _Watch.asked = False


def _getc():
    if _Watch.held:
        c = _Watch.held[0]
        _Watch.held = _Watch.held[1:]
        return c
    while True:
        n = _stdin.readinto(_one)
        if n:
            return _one[0]
        _poll.poll(100)  # non-blocking stdin with nothing in it yet


def _out(data):
    _stdout.write(data)


def _banner():
    # A board says e.g. "MicroPython v1.26.0 on 2025-08-09; Generic ESP32 module with ESP32".
    version = sys.version.split("; ", 1)[-1]
    _out(version.encode() + b"; Shogun Tower simulated board (unix port)" + _BANNER_END)


def _text(data):
    # Bytes that are no UTF-8 (line noise, a stray frame) never end the REPL: they become "?",
    # and the line then fails to compile like any typo.
    try:
        return bytes(data).decode()
    except UnicodeError:
        return "".join(chr(b) if b < 128 else "?" for b in data)


def _print_exception(exc):
    text = io.StringIO()
    sys.print_exception(exc, text)
    # As a board shows it: the REPL's own frames left out, lines ending in CR LF.
    lines = [line for line in text.getvalue().split("\n") if "sim_repl.py" not in line]
    _out("\r\n".join(lines).encode())


def _execute(source, kind, namespace, eof):
    """Compile and run; True when it asks for a soft reboot (SystemExit). ``eof``: the raw
    REPL's 0x04 after the output and after the error."""
    try:
        if isinstance(source, (bytes, bytearray)):
            source = _text(source)
        _run_watched(compile(source, "<stdin>", kind), namespace)
    except SystemExit:
        if sim_machine.reset_requested:
            raise  # machine.reset(): nothing more is said, the board goes down
        if eof:
            _out(b"\x04\x04")
        return True
    except BaseException as exc:  # noqa: BLE001 - the REPL reports everything and goes on
        if eof:
            _out(b"\x04")
        _print_exception(exc)
        if eof:
            _out(b"\x04")
        return False
    if eof:
        _out(b"\x04\x04")
    return False


# ---- the friendly REPL ----------------------------------------------------------------------
def _readline(prompt):
    """One line, echoed, with backspace; (text, 0) at Enter, or (None, ctrl) for Ctrl-C
    anywhere and Ctrl-A/B/D/E on an empty line. Escape sequences (arrow keys) are dropped."""
    _out(prompt)
    line = bytearray()
    esc = 0
    while True:
        c = _getc()
        if esc:
            esc = 2 if esc == 1 and c == ord("[") else (0 if esc == 1 or 0x40 <= c <= 0x7E
                                                         else 2)
            continue
        if c == _ESC:
            esc = 1
        elif c == _CTRL_C:
            return None, c
        elif c in (_CTRL_A, _CTRL_B, _CTRL_D, _CTRL_E):
            if not line:
                return None, c
        elif c == _ENTER:
            _out(b"\r\n")
            return _text(line), 0
        elif c in (8, 127):
            if line:
                line = line[:-1]
                _out(b"\b \b")
        elif c >= 32:
            line.append(c)
            _one[0] = c
            _out(_one)


def _open_brackets(source):
    depth = 0
    quote = None
    i = 0
    while i < len(source):
        ch = source[i]
        if quote:
            if ch == "\\":
                i += 1
            elif source.startswith(quote, i):
                i += len(quote) - 1
                quote = None
        elif ch == "#":
            while i < len(source) and source[i] != "\n":
                i += 1
        elif ch in "'\"":
            quote = ch * 3 if source.startswith(ch * 3, i) else ch
            i += len(quote) - 1
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        i += 1
    return depth > 0 or (quote is not None and len(quote) == 3)


def _continues(source):
    # As MicroPython's REPL decides: open brackets or a triple-quoted string, a trailing
    # backslash, or a compound statement not yet ended by an empty line.
    if _open_brackets(source) or source.endswith("\\"):
        return True
    if source.endswith("\n"):
        return False
    words = source.split(None, 1)
    first = words[0].split(":", 1)[0] if words else ""
    return source.rstrip().endswith(":") or first in _COMPOUND or source.startswith("@")


def _paste():
    _out(b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
    text = bytearray()
    while True:
        c = _getc()
        if c == _CTRL_C:
            _out(b"\r\n")
            return None
        if c == _CTRL_D:
            _out(b"\r\n")
            return _text(text).replace("\r\n", "\n").replace("\r", "\n")
        text.append(c)
        if c == _ENTER:
            _out(b"\r\n=== ")
        else:
            _one[0] = c
            _out(_one)


def _friendly(namespace):
    _banner()
    while True:
        line, ctrl = _readline(b">>> ")
        kind = "single"
        if ctrl == _CTRL_A:
            _out(b"\r\n")
            return _RAW
        if ctrl == _CTRL_B:
            _out(b"\r\n")
            _banner()
            continue
        if ctrl == _CTRL_C:
            _out(b"\r\n")
            continue
        if ctrl == _CTRL_D:
            _out(b"\r\n")
            return _SOFT_REBOOT
        if ctrl == _CTRL_E:
            line = _paste()
            kind = "exec"
            if line is None:
                continue
        elif not line:
            continue
        else:
            while _continues(line):
                more, ctrl = _readline(b"... ")
                if ctrl == _CTRL_C:
                    _out(b"\r\n")
                    line = None
                    break
                if ctrl == _CTRL_D:
                    break
                if ctrl:
                    continue
                line += "\n" + more
            if line is None:
                continue
            if "\n" in line:
                kind = "exec"
        if _execute(line, kind, namespace, eof=False):
            return _SOFT_REBOOT


# ---- the raw REPL ---------------------------------------------------------------------------
def _raw_paste(command, namespace):
    """Raw-paste mode: True when the code asks for a soft reboot."""
    if command != ord("A"):
        _out(b"R\x00")  # a raw-paste command this board does not know
        return False
    _out(b"R\x01")
    # The window size, and a first 0x01: two windows may be sent before the next 0x01.
    _out(bytes((_WINDOW & 0xFF, _WINDOW >> 8, 1)))
    source = bytearray()
    remain = _WINDOW
    while True:
        c = _getc()
        if c == _CTRL_C or c == _CTRL_D:
            _out(b"\x04")  # the end of the data, acknowledged
            break
        source.append(c)
        remain -= 1
        if remain == 0:
            _out(b"\x01")
            remain = _WINDOW
    if c == _CTRL_C:
        _out(b"\x04")
        _print_exception(KeyboardInterrupt())
        _out(b"\x04")
        return False
    return _execute(source, "exec", namespace, eof=True)


def _raw(namespace):
    _out(b"raw REPL; CTRL-B to exit\r\n>")
    line = bytearray()
    while True:
        c = _getc()
        if c == _CTRL_A:
            if len(line) == 2 and line[0] == _CTRL_E:
                if _raw_paste(line[1], namespace):
                    return _SOFT_REBOOT
                _out(b">")
            else:
                _out(b"raw REPL; CTRL-B to exit\r\n>")
            line = bytearray()
        elif c == _CTRL_B:
            _out(b"\r\n")
            return _FRIENDLY
        elif c == _CTRL_C:
            line = bytearray()
        elif c == _CTRL_D:
            _out(b"OK")
            if not line:
                _out(b"\r\n")
                return _SOFT_REBOOT
            source = line
            line = bytearray()
            if _execute(source, "exec", namespace, eof=True):
                return _SOFT_REBOOT
            _out(b">")
        else:
            line.append(c)


# ---- the board after main.py ----------------------------------------------------------------
class _Flash(vfs.VfsPosix):
    """The flash folder as a board's filesystem: its listings carry each file's size, as a
    board's FAT or littlefs does (`mpremote fs ls` shows it), where the unix port gives none."""

    def ilistdir(self, path):
        for entry in super().ilistdir(path):
            size = 0
            if entry[1] == _S_IFREG:
                size = self.stat((path.rstrip("/") + "/" + entry[0]) if path else entry[0])[6]
            yield (entry[0], entry[1], entry[2], size)


def _mount_flash(flash_dir):
    if not flash_dir.startswith("/"):
        flash_dir = os.getcwd() + "/" + flash_dir
    try:
        os.mkdir(flash_dir)
    except OSError:
        pass
    vfs.umount("/")
    vfs.mount(_Flash(flash_dir), "/")
    os.chdir("/")
    sys.path[:] = ["", ".frozen", "/lib"]


def run(flash_dir):
    """The REPL, until a hard reset (SystemExit with sim_machine.RESET_EXIT ends the process)."""
    _mount_flash(flash_dir)
    micropython.kbd_intr(_CTRL_C)  # SIGINT becomes KeyboardInterrupt (the app had it off)
    sys.modules["machine"] = sim_machine
    booted = set(sys.modules)
    mode = _FRIENDLY
    namespace = {"__name__": "__main__"}  # kept from one REPL mode to the other, as on a board
    while True:
        try:
            result = _friendly(namespace) if mode == _FRIENDLY else _raw(namespace)
        except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - a board's REPL never dies
            _print_exception(exc)
            continue
        if result != _SOFT_REBOOT:
            mode = result
            continue
        _out(b"MPY: soft reboot\r\n")
        if mode == _FRIENDLY:
            # A board's soft reboot runs main.py: the firmware, booted by the launcher.
            raise SystemExit(sim_machine.RESET_EXIT)
        # In the raw REPL a board skips main.py and stays there, with everything forgotten.
        for name in list(sys.modules):
            if name not in booted:
                del sys.modules[name]
        namespace = {"__name__": "__main__"}
        gc.collect()
