# The real board's boot path (boards/esp32.py run, safe_mode, fatal; app.py start) on the strict
# fakes of the ESP32 port, with failures injected where a real tower meets them: a start-up
# failure is reported once and leaves the board up at its REPL (no reset loop), the failure kept
# on flash; the next start that succeeds tells the host once, then forgets it.
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
sys.path.insert(0, _HERE + "/fake_machine")

import asyncio  # noqa: E402
import struct  # noqa: E402

import host_part  # noqa: E402,F401 - the host-only decoders
import machine  # noqa: E402 - the fake
from fake_serial import FakeSerial  # noqa: E402
from fake_serial import attach as _serial  # noqa: E402
from ram_flash import RamFlash, mount, umount  # noqa: E402
from tcs34725_chip import TCS34725Chip  # noqa: E402

from shogun_common import protocol as P  # noqa: E402
from shogun_fw import app  # noqa: E402
from shogun_fw.boards import esp32 as board_mod  # noqa: E402
from shogun_fw.boards.esp32_config import PINS  # noqa: E402

BEAM = PINS["beam_upper"]
LOWER = PINS["beam_lower"]


class OldAttach(board_mod.Esp32Board):
    """The board as it was: its beams armed with hard=True, which v1.28.0 refuses."""

    def attach(self):
        self._beam.irq(self._on_edge, machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING,
                       hard=True)


def _board(cls=board_mod.Esp32Board):
    machine.reset_state()
    machine.i2c_devices[0x29] = TCS34725Chip(ident=0x44, light=lambda: (10, 20, 30, 60))
    board = cls()
    return board, _serial(board)


def _frames(serial):
    return list(P.FrameReader().feed(bytes(serial.tx)))


def _kept():
    try:
        with open(board_mod.KEPT) as f:
            return f.read()
    except OSError:
        return None


class _Flash:
    def __enter__(self):
        self.cwd = mount(RamFlash(), mkfs=True)
        return self

    def __exit__(self, *exc):
        umount(self.cwd)


def test_a_refused_attach_is_reported_once_and_the_board_stays_at_its_repl():
    with _Flash():
        board, serial = _board(OldAttach)
        wdt = machine.WDT.last
        app.start(board)  # returns: no machine.reset() (that would raise ResetCalled here)
        frames = _frames(serial)
        fatal = [f for f in frames if f[0] == P.FATAL]
        assert len(fatal) == 1, frames
        code, text = P.unpack_text(fatal[0][2])
        assert code == P.E_EXCEPTION
        assert text == "start-up failed: TypeError: extra keyword arguments given", text
        kept = _kept()
        assert kept.startswith("start-up failed: TypeError: extra keyword arguments given\n")
        assert "Traceback" in kept
        assert b"SAFE MODE - start-up failed: TypeError: extra keyword arguments given" \
            in serial.tx
        # interrupts released; the watchdog, which nothing stops, fed from a soft timer
        assert machine.irq_handler(BEAM) is None and machine.irq_handler(LOWER) is None
        assert [t.id for t in machine.Timer.live] == [0]
        feeder = machine.Timer.live[0]
        assert feeder.mode == machine.Timer.PERIODIC and feeder.period < wdt.timeout
        fed = wdt.feeds
        feeder.fire()
        machine.run_pending()
        assert wdt.feeds == fed + 1


def test_a_board_that_cannot_be_built_stays_at_its_repl_too():
    # (its watchdog is the last thing it starts: here the port refuses it)
    with _Flash():
        machine.reset_state()
        out = FakeSerial()
        real_stdout, real_wdt = board_mod.sys, machine.WDT

        class Sys:  # the board module's sys, its stdout's bytes into ``out``
            stdout = type("Stdout", (), {"buffer": out})()

            def __getattr__(self, name):
                return getattr(sys, name)

        def no_watchdog(**kw):
            return real_wdt(timeout=0)  # ValueError: WDT timeout too short

        machine.WDT = no_watchdog
        board_mod.sys = Sys()
        try:
            board_mod.run()  # returns: the REPL, not a reset
        finally:
            machine.WDT, board_mod.sys = real_wdt, real_stdout
        (fatal,) = [f for f in _frames(out) if f[0] == P.FATAL]
        assert P.unpack_text(fatal[2])[1] == "start-up failed: ValueError: WDT timeout too short", \
            P.unpack_text(fatal[2])
        assert _kept().startswith("start-up failed: ValueError: WDT timeout too short\n"), _kept()
        assert b"SAFE MODE" in out.tx


def _boot_and_host(board, serial, ack_at=None, steps=60):
    """app.main on ``board`` against a host that acknowledges every event (from the ``ack_at``
    step on) and asks for the REPL at the end: the events it saw, in sequence order."""
    reader = P.FrameReader()
    seen = {}

    async def host():
        task = asyncio.create_task(app.main(board))
        for step in range(steps):
            await asyncio.sleep_ms(20)
            for f in reader.feed(bytes(serial.tx)):
                if f[0] in P.RELIABLE_TYPES:
                    seen.setdefault(f[1], f)
            serial.tx = bytearray()
            if seen and (ack_at is None or step >= ack_at):
                boot_id = struct.unpack("<I", seen[min(seen)][2][:4])[0]
                serial.rx += P.encode_frame(P.ACK, 0, struct.pack("<HI", max(seen), boot_id))
        serial.rx += P.encode_frame(P.REPL, 2)
        for _ in range(100):
            await asyncio.sleep_ms(10)
            nonce = [f[2] for f in reader.feed(bytes(serial.tx)) if f[0] == P.REPL_NONCE]
            serial.tx = bytearray()
            if nonce:
                break
        serial.rx += P.encode_frame(P.REPL_CONFIRM, 3, nonce[0])
        await task

    asyncio.run(host())
    return [seen[k] for k in sorted(seen)]


def test_the_next_good_boot_tells_the_host_once_then_forgets():
    with _Flash():
        board, serial = _board(OldAttach)
        app.start(board)                          # safe mode, the failure kept
        board, serial = _board()                  # fixed (a new deploy): it starts
        events = _boot_and_host(board, serial)
        types = [f[0] for f in events]
        assert types[:2] == [P.BOOT, P.ERROR], types
        code, text = P.unpack_text(events[1][2])
        assert code == P.E_EXCEPTION
        assert text == "last boot: start-up failed: TypeError: extra keyword arguments given"
        assert types.count(P.ERROR) == 1
        assert not _kept()                        # heard: gone from the flash
        board, serial = _board()                  # and the boot after says nothing of it
        assert P.ERROR not in [f[0] for f in _boot_and_host(board, serial)]


def test_an_unheard_failure_stays_kept_until_a_host_acknowledges_it():
    with _Flash():
        board, serial = _board(OldAttach)
        app.start(board)
        board, serial = _board()
        events = _boot_and_host(board, serial, ack_at=10 ** 6)  # no host acknowledges
        assert [f[0] for f in events][:2] == [P.BOOT, P.ERROR]
        assert _kept().startswith("start-up failed: ")


def test_a_failure_of_the_running_app_resets_but_not_twice_unheard():
    class FailsRunning(board_mod.Esp32Board):
        def strip_write(self, frame):
            raise RuntimeError("strip gone")

    with _Flash():
        board, serial = _board(FailsRunning)
        try:
            app.start(board)
            raise AssertionError("no reset")
        except machine.ResetCalled:
            pass                                  # once: reset, the app starts again
        assert _kept().startswith("the app failed: RuntimeError: strip gone\n")
        board, serial = _board(FailsRunning)
        app.start(board)                          # again, the first still unheard: safe mode
        texts = [P.unpack_text(f[2])[1] for f in _frames(serial) if f[0] == P.FATAL]
        assert texts == ["failed again, the last failure unheard: RuntimeError: strip gone"], texts
        assert machine.irq_handler(BEAM) is None
