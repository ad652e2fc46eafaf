"""The host's end of the serial link: handshake, commands with retries, exactly-once cube events.

A background thread reads the port, parses frames, acknowledges device events (each accepted
exactly once, in order) and queues them; commands wait for their reply and are repeated when a
reply is lost. The same code talks to a real tower (`/dev/ttyUSB0`) and to the simulated one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import queue
import re
import secrets
import struct
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import serial

from shogun_common import protocol as P
from shogun_common.colours import CUBE_COLOURS, colour_code, colour_name
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _, ngettext

log = logging.getLogger(__name__)
_T = TypeVar("_T")

# ACKs are cumulative: one acknowledges every event before it. The board reads the host's bytes
# one at a time (its stdin), so in a throw - a cube event every 3 ms - one ACK every read (5 ms)
# would cost it more than the events: the host acknowledges at most every ACK_EVERY_S, and at once
# when ACK_AT_ONCE events wait (half the board's window). Both well inside the board's resend
# time (firmware link.py _RTO_MS, 100 ms) and its window (32 events).
ACK_EVERY_S = 0.020
ACK_AT_ONCE = 16
# An event missing while later ones arrive is sent again by the board within its resend time
# (100 ms); one still missing after this long is no longer held by the board (acknowledged by
# a stray or forged ACK, or by another host): the host asks the board (hello) and says which
# events were lost instead of waiting for them for the rest of the boot.
GAP_RESYNC_S = 1.0


@dataclasses.dataclass
class DeviceEvent:
    kind: str  # "cube", "throw_end", "error", "boot", "cal_reading", "summary"
    data: dict
    received: float


class LinkError(ShogunError):
    pass


class NoAnswer(LinkError):
    """A command got no answer after every try. ``mtype``, ``seq`` and ``payload`` are the
    command's: :meth:`DeviceLink.ask_outcome` sends it again under the same number."""

    def __init__(self, message: str, mtype: int, seq: int, payload: bytes) -> None:
        super().__init__(message)
        self.mtype = mtype
        self.seq = seq
        self.payload = payload


class OutcomeUnknown(NoAnswer):
    """A command that changes something got no answer: the tower may or may not have run it.
    Ask the tower (:meth:`DeviceLink.ask_outcome`, or its state), never guess."""


class Refused(LinkError):
    """The tower refused a command: ``code`` (protocol E_*) and its reason."""

    def __init__(self, message: str, code: int, reason: str) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason


def _is_pty(port: str) -> bool:
    """A pseudo-terminal's slave (Linux /dev/pts/N, the BSDs' /dev/ttysNNN)."""
    return port.startswith(("/dev/pts/", "/dev/ttys"))


class DeviceLink:
    """One connection to a tower over a serial port (real or pseudo-terminal)."""

    def __init__(self, port: str, baudrate: int = 115200, timeout: float = 0.5,
                 retries: int = 5) -> None:
        self.port_name = port
        self.timeout = timeout
        self.retries = retries
        try:
            self.port = serial.Serial(port, baudrate, timeout=0.005)
        except (serial.SerialException, OSError) as err:
            raise LinkError(_("cannot open {port}: {error}; check the cable and the port name "
                              "(ls /dev/ttyUSB* /dev/ttyACM*)").format(port=port, error=err)
                            ) from err
        self.reader = P.FrameReader()
        self.inbox: P.Inbox | None = None
        self.boot_id: int | None = None
        self.info: dict = {}
        self.events: queue.Queue[DeviceEvent] = queue.Queue()
        self.raw_log = bytearray()  # bytes that were not frames (boot log, REPL text)
        # Commands: a sequence number each, never reused in this link session (``session``,
        # told the board in HELLO); a retry repeats its command's number, so the board answers
        # it from the reply it kept instead of running the command again.
        self.session = secrets.randbits(32)
        self._seq = 0
        self._write_lock = threading.Lock()
        self._awaiting: set[int] = set()
        self._replies: dict[int, tuple[int, bytes]] = {}
        self._reply_cv = threading.Condition()
        # One command in flight at a time (flow control): the board's input buffer (260 bytes
        # on the ESP32) then holds at most one command frame and a few ACKs, however many
        # threads ask at once and however slowly the board digests them.
        self._request_lock = threading.Lock()
        # One resumer at a time: a port that fails again at once (a board re-enumerating
        # several times while it resets) asks for another resume, which the running one takes
        # up when it is done, instead of a thread each queueing its commands before the game's.
        self._resume_lock = threading.Lock()
        self._resume_wanted = False
        self._resuming = False
        self._gap_since: float | None = None  # when an event went missing while later came
        self._resyncing = False
        self._in_flight: tuple[int, int] | None = None  # (seq, type) of the command asked
        self.late_replies = 0     # replies that came after their command gave up: dropped
        self.bad_events = 0       # events that could not be decoded: skipped, reported
        self._logged: set[tuple[int, str]] = set()
        self._stop = threading.Event()
        self._repl_mode = False
        self.on_event: Callable[[DeviceEvent], None] | None = None
        # Called (on its own thread) after the link came back from a pulled cable, or the board
        # rebooted: the place to bring the device back to the current game state.
        self.on_session: Callable[[DeviceLink], None] | None = None
        self.connected = True
        self.reconnects = 0
        self._ack_due = False
        self._unacked = 0         # events received since the last ACK
        self._acked_at = 0.0      # time.monotonic() of the last ACK
        self._thread = threading.Thread(target=self._read_loop, name="tower-link", daemon=True)
        self._thread.start()

    # ---- lifecycle -----------------------------------------------------------------------------
    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1)
        with contextlib.suppress(Exception):
            self.port.close()

    def __enter__(self) -> DeviceLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- reading -------------------------------------------------------------------------------
    def _read_loop(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.port.read(512)
            except (serial.SerialException, OSError, TypeError, AttributeError):
                if self._stop.is_set():
                    return
                self._reopen()
                continue
            if data:
                if self._repl_mode:
                    self.raw_log.extend(data)
                skipped = self.reader.skipped_bytes
                for mtype, seq, payload in self.reader.feed(data):
                    try:
                        self._dispatch(mtype, seq, payload)
                    except Exception as err:  # noqa: BLE001 - the reader must never die
                        self._report(mtype, seq, f"{type(err).__name__}: {err}")
                if not self._repl_mode and self.reader.skipped_bytes > skipped:
                    self.raw_log.extend(data)
                    del self.raw_log[:-4096]
            if (self._gap_since is not None and not self._resyncing
                    and time.monotonic() - self._gap_since >= GAP_RESYNC_S):
                self._gap_since = None
                self._resyncing = True
                threading.Thread(target=self._resync_gap, name="tower-gap", daemon=True).start()
            if self._ack_due and (
                    self._unacked >= ACK_AT_ONCE
                    or time.monotonic() - self._acked_at >= ACK_EVERY_S):
                self.acknowledge()

    def _reopen(self) -> None:
        """The port went away (cable pulled, board re-enumerating): open it again once back."""
        self.connected = False
        dead = self.port
        # A pseudo-terminal (the simulated tower) never comes back once its far end closed,
        # but its number goes to the next one opened anywhere on the machine (a terminal,
        # another simulated tower). Its dead port stays open until this one opens again: the
        # number stays ours, and its name cannot lead to someone else's. A USB serial port is
        # closed at once, so that the board re-enumerating gets its old name back.
        if not _is_pty(self.port_name):
            with contextlib.suppress(Exception):
                dead.close()
        while not self._stop.is_set():
            try:
                port = serial.Serial(self.port_name, self.port.baudrate, timeout=0.005)
            except (serial.SerialException, OSError):
                time.sleep(0.2)
                continue
            with contextlib.suppress(Exception):
                dead.close()
            with self._write_lock:
                self.port = port
            self.connected = True
            self.reconnects += 1
            self.reader = P.FrameReader()
            with self._resume_lock:
                self._resume_wanted = True
                if not self._resuming:
                    self._resuming = True
                    threading.Thread(target=self._resume_sessions, name="tower-resume",
                                     daemon=True).start()
            return

    def _resume_sessions(self) -> None:
        while True:
            with self._resume_lock:
                if not self._resume_wanted or self._stop.is_set():
                    self._resuming = False
                    return
                self._resume_wanted = False
            self._resume_session()

    def _resume_session(self) -> None:
        # HELLO makes the device send again every event we have not acknowledged.
        for _try in range(20):
            try:
                self.hello(resync=False)  # on_session follows here in any case
                break
            except LinkError:
                if self._stop.is_set() or not self.connected:
                    return
        else:
            return
        if self.on_session is not None:
            self.on_session(self)

    def _resync_gap(self) -> None:
        # The hello's reply names the board's oldest held event: _session_from says what was
        # lost and moves on to it (the board's rewind resends the rest).
        try:
            with contextlib.suppress(LinkError):
                self.hello(resync=False)
        finally:
            self._resyncing = False

    def _session_from(self, seq: int, payload: bytes, now: float) -> None:
        """Our HELLO's reply, on the reading thread: the event sequence it names is set before
        the events the board sends right after it are read. A board ahead of this host (its
        oldest held event after the one expected: acknowledged by a stray ACK or another host,
        its events dropped) is followed, and the loss said as an "error" event (``lost``: the
        first and last event numbers)."""
        try:
            info = P.unpack_hello_reply(payload)
        except P.ProtocolError:
            return  # hello() says what is wrong
        if info["protocol"] != P.PROTOCOL_VERSION:
            return
        nxt = info["next_seq"]
        if self.inbox is None or info["boot_id"] != self.boot_id:
            self.inbox = P.Inbox(nxt)  # a new board session: its oldest unacknowledged event
        elif P.seq_after(nxt, self.inbox.expected):
            first, last = self.inbox.expected, (nxt - 1) & 0xFFFF
            count = (nxt - first) & 0xFFFF
            self.inbox = P.Inbox(nxt)
            text = ngettext(
                "the tower no longer holds event {first} ({count} not received: its cubes and "
                "throw ends are lost; count the tray by hand)",
                "the tower no longer holds events {first}-{last} ({count} not received: its "
                "cubes and throw ends are lost; count the tray by hand)", count).format(
                first=first, last=last, count=count)
            self._deliver(DeviceEvent("error", {
                "code": 0, "host": True, "lost": (first, last), "text": text}, now))
        self._gap_since = None
        self.boot_id = info["boot_id"]

    def _dispatch(self, mtype: int, seq: int, payload: bytes) -> None:
        now = time.monotonic()
        if mtype < 0x80:
            return  # a command: not ours to answer
        if mtype == P.HELLO_REPLY:
            if self._in_flight == (seq, P.HELLO):
                self._session_from(seq, payload, now)
        if mtype < P.EVENTS_FROM:
            if mtype == P.FATAL:
                # The board's last words before it resets: not part of the event sequence.
                code, text = P.unpack_text(payload)
                self._deliver(DeviceEvent("error", {"code": code, "text": text}, now))
                return
            with self._reply_cv:
                if seq in self._awaiting:
                    self._replies[seq] = (mtype, payload)
                    self._reply_cv.notify_all()
                else:
                    self.late_replies += 1  # its command gave up or was answered already
            return
        if mtype == P.BOOT and len(payload) >= 4:
            # Always the first event of a boot: a new boot id starts a new event sequence.
            (boot_id,) = struct.unpack("<I", payload[:4])
            if boot_id != self.boot_id:
                rebooted = self.boot_id is not None
                self.boot_id = boot_id
                self.inbox = P.Inbox(seq)
                if rebooted and self.on_session is not None:
                    # The board lost its state: give it the game's state again.
                    threading.Thread(target=self.on_session, args=(self,), name="tower-resync",
                                     daemon=True).start()
        if self.inbox is None:
            return  # no handshake yet: the event comes again after HELLO
        gap = P.seq_after(seq, self.inbox.expected)
        if self.inbox.accept(seq):
            self._gap_since = None
            try:
                event = _decode_event(mtype, payload, now)
            except (P.ProtocolError, ValueError, IndexError, struct.error) as err:
                # Acknowledged all the same: the board must not send it for ever.
                event = self._report(mtype, seq, str(err), deliver=False)
            self._deliver(event)
        elif gap and self._gap_since is None:
            self._gap_since = now
        self._ack_due = True
        self._unacked += 1

    def acknowledge(self) -> None:
        """Acknowledge every event received so far."""
        self._ack_due = False
        self._unacked = 0
        self._acked_at = time.monotonic()
        if self.inbox is not None:
            self._send(P.ACK, P.pack_ack(self.inbox.last_received(), self.boot_id or 0))

    def _report(self, mtype: int, seq: int, why: str, deliver: bool = True) -> DeviceEvent:
        """A frame the host could not use: logged once per kind, and handed to the caller as an
        "error" event (``host``: True) so that nothing is lost silently."""
        self.bad_events += 1
        name = P.NAMES.get(mtype, f"type 0x{mtype:02x}")
        text = _("the host could not read {frame} (seq {seq}) from the tower: {why}; "
                 "skipped").format(frame=name, seq=seq, why=why)
        key = (mtype, why.split(":")[0])
        if key not in self._logged:
            self._logged.add(key)
            log.warning("%s (logged once)", text)
        event = DeviceEvent("error", {"code": P.E_BAD_PAYLOAD, "text": text, "host": True},
                            time.monotonic())
        if deliver:
            self._deliver(event)
        return event

    def _deliver(self, event: DeviceEvent) -> None:
        self.events.put(event)
        if self.on_event is not None:
            self.on_event(event)

    # ---- writing -------------------------------------------------------------------------------
    def _send(self, mtype: int, payload: bytes = b"", seq: int = 0) -> None:
        with self._write_lock:
            try:
                self.port.write(P.encode_frame(mtype, seq, payload))
            except (serial.SerialException, OSError, TypeError, AttributeError):
                # The cable is out: the reader reopens the port; a command is sent again by
                # request(), an ACK by the device's resending.
                pass

    def _new_seq(self) -> int:
        """A command's sequence number: never one used before in this link session."""
        with self._reply_cv:
            self._seq = (self._seq + 1) & 0xFFFF
            self._awaiting.add(self._seq)
            return self._seq

    def _wait_reply(self, seq: int, until: float) -> tuple[int, bytes] | None:
        with self._reply_cv:
            while seq not in self._replies:
                left = until - time.monotonic()
                if left <= 0:
                    return None
                self._reply_cv.wait(left)
            return self._replies.pop(seq)

    def _forget(self, seq: int) -> None:
        with self._reply_cv:
            self._awaiting.discard(seq)
            self._replies.pop(seq, None)

    def request(self, mtype: int, payload: bytes = b"", expect: int = P.OK,
                timeout: float | None = None) -> bytes:
        """Send a command and wait for its reply, repeating it (same sequence number: the board
        runs it once) when the reply does not come."""
        return self._exchange(mtype, payload, expect, timeout, None, self.retries)

    def ask_outcome(self, err: NoAnswer, wait_s: float = 5.0) -> bytes:
        """Ask the tower what became of a command that got no answer: the same command under
        the same number, which the board answers from the reply it kept if it ran it (and
        runs it now, once, if it never got it). Its reply's payload; OutcomeUnknown again when
        the tower still does not answer or no longer keeps the reply (the caller asks the
        tower's state, or a person)."""
        name = P.NAMES.get(err.mtype, hex(err.mtype))
        tries = max(1, int(wait_s / self.timeout))
        try:
            return self._exchange(err.mtype, err.payload, None, self.timeout, err.seq, tries)
        except Refused as refused:
            if refused.code != P.E_STALE:
                raise
            raise OutcomeUnknown(
                _("the tower no longer keeps its answer to {command} (seq {seq}): it may or "
                  "may not have run it; ask the tower its state").format(command=name,
                                                                        seq=err.seq),
                err.mtype, err.seq, err.payload) from None

    def _exchange(self, mtype: int, payload: bytes, expect: int | None,
                  timeout: float | None, seq: int | None, tries: int) -> bytes:
        timeout = self.timeout if timeout is None else timeout
        name = P.NAMES.get(mtype, hex(mtype))
        with self._request_lock:
            if seq is None:
                seq = self._new_seq()
            else:
                with self._reply_cv:
                    self._awaiting.add(seq)
            self._in_flight = (seq, mtype)
            try:
                for _try in range(tries):
                    self._wait_connected()
                    self._send(mtype, payload, seq)
                    reply = self._wait_reply(seq, time.monotonic() + timeout)
                    if reply is not None:
                        return _answer(name, reply, expect)
            finally:
                self._in_flight = None
                self._forget(seq)  # a reply coming later is dropped
        if mtype in P.CHANGING:
            raise OutcomeUnknown(
                _("the tower on {port} did not answer {command} (seq {seq}) after {tries} "
                  "tries: it may or may not have run it; ask the tower its state before going "
                  "on, and check the cable").format(port=self.port_name, command=name,
                                                    seq=seq, tries=tries),
                mtype, seq, payload)
        raise NoAnswer(_("no answer from the tower on {port} to {command} after {tries} tries "
                         "({command} changes nothing); check the cable, and that the tower's "
                         "app runs (make deploy)").format(port=self.port_name, command=name,
                                                          tries=tries), mtype, seq, payload)

    def _wait_connected(self, limit: float = 30.0) -> None:
        deadline = time.monotonic() + limit
        while not self.connected and time.monotonic() < deadline and not self._stop.is_set():
            time.sleep(0.05)

    # ---- the commands --------------------------------------------------------------------------
    def hello(self, resync: bool = True, any_version: bool = False) -> dict:
        """Handshake. When it finds the board rebooted (before its BOOT event came), the device
        is given the game's state again (on_session), unless ``resync`` is False. A board of
        another protocol version raises LinkError (one line: what to update), unless
        ``any_version`` (`shogun-tower repl`, to deploy a new firmware over an old one)."""
        before = self.boot_id
        try:
            reply = self.request(P.HELLO, P.pack_hello(self.session), expect=P.HELLO_REPLY)
        except Refused as err:
            if err.code != P.E_VERSION:
                raise
            found = re.search(r"board (\d+)", err.reason)
            board = int(found.group(1)) if found else 0
            if any_version:
                self.info = {"protocol": board}
                return self.info
            raise LinkError(version_advice(board, self.port_name)) from None
        try:
            info = P.unpack_hello_reply(reply)
        except P.ProtocolError as err:
            raise LinkError(_("the tower on {port} answered hello with a reply this host "
                              "cannot read ({error}): update the firmware (make deploy)").format(
                                  port=self.port_name, error=err)) from None
        if info["protocol"] != P.PROTOCOL_VERSION:
            if any_version:
                self.info = info
                return info
            raise LinkError(version_advice(info["protocol"], self.port_name))
        # (the reading thread took the reply's event sequence already: _session_from)
        rebooted = before is not None and info["boot_id"] != before
        self.info = info
        if rebooted and resync and self.on_session is not None:
            # Its BOOT event will not start a new session any more: this is the place.
            threading.Thread(target=self.on_session, args=(self,), name="tower-resync",
                             daemon=True).start()
        return info

    def handshake(self, wait_s: float = 5.0) -> dict:
        """HELLO until the board answers, for a board that may still be starting (just
        spawned, just reset); LinkError after ``wait_s``."""
        deadline = time.monotonic() + wait_s
        while True:
            try:
                return self.hello()
            except LinkError:
                if time.monotonic() > deadline:
                    raise

    def ping(self) -> tuple[float, int]:
        """Round-trip time in seconds, and the device clock (µs) at the middle of it."""
        t0 = time.monotonic()
        reply = self.request(P.PING, struct.pack("<I", int(t0 * 1e6) & 0xFFFFFFFF),
                             expect=P.PONG)
        t1 = time.monotonic()
        _board_us, device_us = _read("pong", lambda p: struct.unpack("<II", p[:8]), reply)
        return t1 - t0, device_us

    def push_scores(self, players: list[tuple[str, int, int]]) -> None:
        """players: (colour name, victory points, rice) for every player."""
        self.request(P.SCORES, _packed("scores", lambda: P.pack_scores(
            [(colour_code(c), vp, rice) for c, vp, rice in players])))

    def read_led_frame(self) -> bytes:
        frame = bytearray()
        offset = 0
        while True:
            reply = self.request(P.LED_READ, struct.pack("<HH", offset, 60), expect=P.LED_DATA)
            got_offset, total = _read("led_data", lambda p: struct.unpack("<HH", p[:4]), reply)
            frame.extend(reply[4:])
            offset = got_offset + (len(reply) - 4) // 3
            if offset >= total or len(reply) == 4:
                return bytes(frame)

    def configure_track(self, vp_len: int = 81, rice_len: int = 0, rice_start: int = 81,
                        budget_ma: int = 2400, brightness: int = 128, reversed_: bool = False
                        ) -> None:
        """``budget_ma``: the most the strip may draw; the tower holds it within what its power
        source gives (it senses the 5 V supply: 370 mA on USB, 2400 mA with the supply)."""
        self.request(P.TRACK_CONFIG, _packed("track_config", struct.pack, "<HHHHBB", vp_len,
                                             rice_len, rice_start, budget_ma, brightness,
                                             int(reversed_)))

    def animate_battle(self, winner: str) -> None:
        self.request(P.ANIMATE, struct.pack("<BB", P.ANIM_BATTLE, colour_code(winner)))

    def status(self) -> dict:
        return _read("status", P.unpack_status, self.request(P.STATUS_GET, expect=P.STATUS))

    def status_with_heap(self, wait_s: float = 5.0) -> dict:
        """The status once the tower has collected its heap since boot (heap_live is 0 until
        then). It collects only between throws, in steps of its own at most a second or two
        after a throw's end; a host that throws again at once can keep it from collecting for
        a whole session."""
        deadline = time.monotonic() + wait_s
        while True:
            status = self.status()
            if status["heap_live"] or time.monotonic() >= deadline:
                break
            time.sleep(0.1)
        if not status["heap_live"]:
            raise LinkError(_("the tower has not collected its heap within {seconds} s of "
                              "being idle: check its firmware's link housekeeping").format(
                                  seconds=f"{wait_s:g}"))
        return status

    def sim_throw(self, counts: dict[str, int]) -> None:
        self.request(P.SIM_THROW, _packed("sim_throw", lambda: bytes(
            counts.get(c, 0) for c in CUBE_COLOURS)))

    def inject(self, count: int, block_us: int = 7000, gap_us: int = 10000) -> None:
        """Synthetic cube pulses on the beam (real board: its inject pin, jumpered to the beam)."""
        self.request(P.INJECT, _packed("inject", struct.pack, "<HHH", count, block_us, gap_us))

    def sim_tower(self) -> dict[str, int]:
        data = self.request(P.SIM_TOWER, expect=P.SIM_TOWER_DATA)
        if len(data) < len(CUBE_COLOURS):
            raise LinkError(_("sim_tower_data of {n} bytes: update the firmware").format(
                n=len(data)))
        return {c: data[i] for i, c in enumerate(CUBE_COLOURS)}

    def sim_throws_run(self) -> int:
        """How many sim_throw commands the simulated tower has run since it started."""
        data = self.request(P.SIM_TOWER, expect=P.SIM_TOWER_DATA)
        if len(data) < 10:
            raise LinkError(_("this simulated tower does not count its throws: update it"))
        return struct.unpack("<I", data[6:10])[0]

    def sim_strip_shown(self) -> tuple[int, float]:
        """What the simulated tower's LED strip showed: how many frames it has taken, and the
        wall-clock time (time.time()) it took the last, from the tower's own "ms since" at the
        middle of the request's round trip (within half of it). The bench times the LEDs with
        it."""
        sent = time.time()
        data = self.request(P.SIM_TOWER, expect=P.SIM_TOWER_DATA)
        now = time.time()
        if len(data) < 18:
            raise LinkError(_("this simulated tower does not report its strip's frames: update "
                              "it"))
        frames, age_ms = struct.unpack("<II", data[10:18])
        return frames, (sent + now) / 2 - age_ms / 1000

    def sim_supply(self, plugged: bool) -> None:
        """Simulated tower only: plug the 5 V supply into its barrel jack, or pull it out. A
        real tower refuses it (LinkError): plug or pull the real supply."""
        self.request(P.SIM_SUPPLY, bytes((1 if plugged else 0,)))

    def sim_load(self, counts: dict[str, int]) -> None:
        """Simulated tower only: it then holds exactly ``counts`` (colour name -> cubes, at
        most the game's 62 armies a colour and 20 farmers; colours not named: none), e.g. the
        rules engine's tower after a resume or an undo. A real tower refuses it (LinkError)."""
        unknown = set(counts) - set(CUBE_COLOURS)
        if unknown:
            raise ValueError(f"sim_load: not a cube colour: {', '.join(sorted(unknown))}")
        bad = {c: n for c, n in counts.items() if not 0 <= n <= (20 if c == "green" else 62)}
        if bad:
            raise ValueError(f"sim_load: counts must be 0-62 (green 0-20), got {bad}")
        self.request(P.SIM_LOAD, bytes(counts.get(c, 0) for c in CUBE_COLOURS))

    def get_calibration(self) -> list[tuple[int, int, int, int, int]]:
        return _read("cal_data", P.unpack_centroids, self.request(P.CAL_GET, expect=P.CAL_DATA))

    def store_calibration(self, centroids: list[tuple[int, int, int, int, int]]) -> None:
        self.request(P.CAL_STORE, _packed("cal_store", P.pack_centroids, centroids), timeout=2.0)

    def calibration_mode(self, colour: str | None) -> None:
        """Calibrate ``colour``: every cube then also comes as a "cal_reading" event with its
        ambient-corrected R, G, B, C. None ends calibration mode."""
        code = P.CAL_OFF if colour is None else colour_code(colour)
        self.request(P.CAL_SAMPLE, bytes((code,)))

    # ---- the REPL ------------------------------------------------------------------------------
    def enter_repl(self, timeout: float = 3.0) -> str:
        """Hand the board back to its MicroPython REPL (for mpremote); returns the text it
        printed up to its ``>>> `` prompt.

        Two steps, so that no single stray or replayed frame can open the REPL: ``repl`` gets
        a fresh nonce from the board, ``repl_confirm`` echoes it within a second. The confirm
        is never repeated (once the board has left the app, a frame would be typed at its
        REPL): when its answer is lost, a new nonce is asked for. A board of protocol 1 (an
        older firmware, before the handshake) leaves on ``repl`` alone."""
        if self.info.get("protocol") == 1:
            self.raw_log.clear()
            self._repl_mode = True
            self.request(P.REPL)
            return self._wait_raw(b">>> ", timeout)
        for _try in range(3):
            nonce = self.request(P.REPL, expect=P.REPL_NONCE, timeout=0.3)
            asked = time.monotonic()
            self.raw_log.clear()
            self._repl_mode = True
            seq = self._new_seq()
            try:
                self._send(P.REPL_CONFIRM, nonce[:4], seq)
                while time.monotonic() - asked < P.REPL_NONCE_MS / 1000:
                    reply = self._wait_reply(seq, time.monotonic() + 0.02)
                    if reply is not None:
                        _answer("repl_confirm", reply, P.OK)
                        return self._wait_raw(b">>> ", timeout)
                    if b">>> " in self.raw_log:
                        return self.raw_log.decode(errors="replace")
            except Refused:
                pass  # the nonce came too late (or was lost): ask again
            finally:
                self._forget(seq)
            with contextlib.suppress(LinkError):
                return self._wait_raw(b">>> ", 0.5)  # the OK was lost, the prompt is late
            self._repl_mode = False
        raise LinkError(_("the tower on {port} did not leave the app for its REPL; reset it "
                          "and try again").format(port=self.port_name))

    def repl_exec(self, line: str, timeout: float = 3.0) -> str:
        self.raw_log.clear()
        with self._write_lock:
            self.port.write(line.encode() + b"\r")
        return self._wait_raw(b">>> ", timeout)

    def leave_repl(self) -> dict:
        """Start the firmware again from the REPL and handshake."""
        with self._write_lock:
            self.port.write(b"from shogun_fw import app;app.start()\r")
        self._repl_mode = False
        deadline = time.monotonic() + 5
        while True:
            try:
                return self.hello()
            except LinkError:
                if time.monotonic() > deadline:
                    raise

    def _wait_raw(self, marker: bytes, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while marker not in self.raw_log:
            if time.monotonic() > deadline:
                raise LinkError(_("the REPL prompt did not appear on {port}").format(
                    port=self.port_name))
            time.sleep(0.01)
        return self.raw_log.decode(errors="replace")


def version_advice(board: int, port: str) -> str:
    """The one line that tells the user which side to update."""
    mine = P.PROTOCOL_VERSION
    if board < mine:
        return _("the tower's firmware speaks protocol {board}, this shogun-tower speaks "
                 "{mine}: update the tower's firmware: make deploy PORT={port}").format(
                     board=board, mine=mine, port=port)
    return _("the tower's firmware speaks protocol {board}, this shogun-tower speaks {mine}: "
             "update shogun-tower on this computer (git pull && make setup)").format(
                 board=board, mine=mine)


def _answer(name: str, reply: tuple[int, bytes], expect: int | None) -> bytes:
    rtype, rpayload = reply
    if rtype == P.REFUSED:
        try:
            code, reason = P.unpack_text(rpayload)
        except P.ProtocolError:
            code, reason = 0, _("(no reason given)")
        raise Refused(_("the tower refused {command}: {reason}").format(command=name,
                                                                       reason=reason),
                      code, reason)
    if expect is not None and rtype != expect:
        raise LinkError(_("the tower answered {command} with {reply}").format(
            command=name, reply=P.NAMES.get(rtype, rtype)))
    return rpayload


def _read(name: str, decode: Callable[[bytes], _T], payload: bytes) -> _T:
    """A reply's fields, or one LinkError line: a reply too short (or malformed) for this host
    comes from a firmware of another build."""
    try:
        return decode(payload)
    except (P.ProtocolError, struct.error, ValueError, IndexError) as err:
        raise LinkError(_("the tower's {command} reply ({n} bytes) cannot be read: {error}; "
                          "update its firmware (make deploy) or this shogun-tower").format(
                              command=name, n=len(payload), error=err)) from None


def _packed(name: str, pack: Callable[..., bytes], *args: object) -> bytes:
    """A command's payload, or one LinkError line naming the argument out of the protocol's
    range (nothing is sent)."""
    try:
        return pack(*args)
    except (struct.error, ValueError, OverflowError, TypeError) as err:
        raise LinkError(_("{command}: an argument is out of the protocol's range ({error}); "
                          "see docs/protocol.md for each field's range").format(
                              command=name, error=err)) from None


def _error(payload: bytes) -> dict:
    code, text = P.unpack_text(payload)
    return {"code": code, "text": text}


def _decode_event(mtype: int, payload: bytes, now: float) -> DeviceEvent:
    """The event of a device frame; ProtocolError when it is malformed or of a type this host
    does not know (a newer firmware's)."""
    if mtype == P.CUBE:
        data = P.unpack_cube(payload)
        data["colour"] = colour_name(data["colour"])
        return DeviceEvent("cube", data, now)
    if mtype == P.THROW_END:
        return DeviceEvent("throw_end", P.unpack_throw_end(payload), now)
    if mtype == P.BOOT:
        return DeviceEvent("boot", P.unpack_boot(payload), now)
    if mtype == P.CAL_READING:
        data = P.unpack_cal_reading(payload)
        data["colour"] = colour_name(data["colour"])
        return DeviceEvent("cal_reading", data, now)
    if mtype == P.SUMMARY:
        data = P.unpack_summary(payload)
        data["cubes"] = dict(zip((*CUBE_COLOURS, "unknown"), data.pop("colours"), strict=True))
        return DeviceEvent("summary", data, now)
    if mtype == P.ERROR:
        return DeviceEvent("error", _error(payload), now)
    raise P.ProtocolError(f"unknown event type 0x{mtype:02x} (a newer firmware?)")
