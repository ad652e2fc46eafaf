"""A client of the tower's serial protocol, written from docs/protocol.md alone.

Nothing here is imported from the project: it is the page's own test, the way a maker with
another language would read it. Where the page left a choice open, the comment says which one
this client took.
"""

from __future__ import annotations

import os
import struct
import threading
import time
import zlib
from dataclasses import dataclass, field

import serial

# Frames: "0x00 COBS( type:u8 seq:u16 payload:0..200 bytes crc32:u32 ) 0x00".
MAX_PAYLOAD = 200
MIN_BODY, MAX_BODY = 7, 207
MIN_BLOCK, MAX_BLOCK = 8, 208

PROTOCOL_VERSION = 2
TRIES = 5
TRY_S = 0.5
GAP_RESYNC_S = 1.0
# ACKs: at most 20 ms after the first event not yet acknowledged, at most one every 20 ms, at
# once when 16 wait ("When to send one").
ACK_EVERY_S = 0.020
ACK_AT_ONCE = 16

# Message types (the Messages table).
HELLO = 0x01
ACK = 0x02
PING = 0x03
SCORES = 0x10
LED_READ = 0x11
TRACK_CONFIG = 0x12
REPL = 0x13
STATUS_GET = 0x14
ANIMATE = 0x15
CAL_SAMPLE = 0x16
CAL_STORE = 0x17
CAL_GET = 0x18
REPL_CONFIRM = 0x19
SEGMENTS = 0x1A
SIM_THROW = 0x20
SIM_TOWER = 0x21
INJECT = 0x22
SIM_LOAD = 0x23

OK = 0x80
HELLO_REPLY = 0x81
PONG = 0x83
LED_DATA = 0x84
STATUS = 0x85
REFUSED = 0x87
CAL_DATA = 0x89
SIM_TOWER_DATA = 0x8A
REPL_NONCE = 0x8B
FATAL = 0x8C

CUBE = 0x90
THROW_END = 0x91
ERROR = 0x92
BOOT = 0x93
CAL_READING = 0x94
SUMMARY = 0x95

# Error codes (refused, error).
E_BAD_FRAME = 1
E_UNKNOWN_TYPE = 2
E_BAD_PAYLOAD = 3
E_UNSUPPORTED = 4
E_COUNT_MISMATCH = 5
E_SENSOR = 6
E_EXCEPTION = 7
E_OVERFLOW = 8
E_VERSION = 9
E_NONCE = 10
E_STALE = 11
E_BUSY = 12
E_AHEAD = 13
E_REUSED = 14

CAP_SIMULATED = 8

# Colours in wire order: black, red, yellow, purple, blue, green (farmers).
COLOURS = ("black", "red", "yellow", "purple", "blue", "green")


def crc32(data: bytes) -> int:
    """CRC-32 as zlib's (IEEE 802.3)."""
    return zlib.crc32(data) & 0xFFFFFFFF


def cobs_encode(body: bytes) -> bytes:
    """Original COBS: one code byte (piece length + 1) per piece cut at each zero.

    A piece of 254 non-zero bytes gets code 0xFF and no zero after it; nothing is appended
    after the last piece.
    """
    out = bytearray()
    piece = bytearray()
    for byte in body:
        if byte == 0:
            out.append(len(piece) + 1)
            out += piece
            piece.clear()
        else:
            piece.append(byte)
            if len(piece) == 254:
                out.append(0xFF)
                out += piece
                piece.clear()
    out.append(len(piece) + 1)
    out += piece
    return bytes(out)


def cobs_decode(block: bytes) -> bytes | None:
    """The inverse of `cobs_encode`; None for a block that is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(block)
    while i < n:
        code = block[i]
        if code == 0:
            return None
        end = i + code
        if end > n:
            return None
        out += block[i + 1:end]
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


def frame_body(msg_type: int, seq: int, payload: bytes = b"") -> bytes:
    head = struct.pack("<BH", msg_type, seq & 0xFFFF) + payload
    return head + struct.pack("<I", crc32(head))


def encode_frame(msg_type: int, seq: int, payload: bytes = b"") -> bytes:
    """A whole frame on the wire: a delimiter, the COBS block, a delimiter."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes: at most {MAX_PAYLOAD}")
    return b"\x00" + cobs_encode(frame_body(msg_type, seq, payload)) + b"\x00"


def decode_block(block: bytes) -> tuple[int, int, bytes] | None:
    """(type, seq, payload) of one block between delimiters, or None when it is not a frame."""
    if not MIN_BLOCK <= len(block) <= MAX_BLOCK:
        return None
    body = cobs_decode(block)
    if body is None or not MIN_BODY <= len(body) <= MAX_BODY:
        return None
    head, (crc,) = body[:-4], struct.unpack("<I", body[-4:])
    if crc32(head) != crc:
        return None
    msg_type, seq = struct.unpack("<BH", head[:3])
    return msg_type, seq, bytes(head[3:])


class FrameReader:
    """Cuts a byte stream at zero bytes; skips and counts whatever is not a frame."""

    def __init__(self) -> None:
        self._block = bytearray()
        self._too_long = False
        self.bad_frames = 0

    def feed(self, data: bytes) -> list[tuple[int, int, bytes]]:
        frames = []
        for byte in data:
            if byte != 0:
                if self._too_long:
                    continue
                self._block.append(byte)
                if len(self._block) > MAX_BLOCK:
                    # Text longer than a frame: dropped until the next delimiter.
                    self._too_long = True
                    self._block.clear()
                continue
            if self._too_long:
                self.bad_frames += 1
            elif self._block:
                frame = decode_block(bytes(self._block))
                if frame is None:
                    self.bad_frames += 1
                else:
                    frames.append(frame)
            self._block.clear()
            self._too_long = False
        return frames


def seq_diff(a: int, b: int) -> int:
    """a − b in 16-bit sequence space, in −32768…32767."""
    return ((a - b + 0x8000) & 0xFFFF) - 0x8000


class LinkError(Exception):
    """Anything that went wrong on the link, in one line."""


class Refused(LinkError):
    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"refused, code {code}: {reason}")
        self.code = code
        self.reason = reason


class NoAnswer(LinkError):
    """A command that changes nothing got no answer after every try."""


class OutcomeUnknown(LinkError):
    """A changing command got no answer: it may or may not have run."""


CHANGING = {SIM_THROW, SIM_LOAD, INJECT, ANIMATE, SEGMENTS, CAL_SAMPLE, CAL_STORE, SCORES,
            TRACK_CONFIG, REPL, REPL_CONFIRM}


@dataclass
class HelloReply:
    protocol: int
    boot_id: int
    next_event_seq: int
    capabilities: int
    firmware: str
    board: str


def parse_hello_reply(payload: bytes) -> HelloReply:
    protocol, boot_id, next_seq, caps = struct.unpack_from("<BIHB", payload)
    # "+ firmware\0board": one zero byte, the board's name to the payload's end.
    firmware, _, board = payload[8:].partition(b"\x00")
    return HelloReply(protocol, boot_id, next_seq, caps,
                      firmware.decode("utf-8", "replace"), board.decode("utf-8", "replace"))


@dataclass
class Event:
    seq: int
    type: int
    payload: bytes
    boot_id: int


@dataclass
class Cube:
    number: int
    block_start_us: int
    colour: int
    confidence: int
    block_us: int
    flags: int


def parse_cube(payload: bytes) -> Cube:
    return Cube(*struct.unpack_from("<IIBBHB", payload))


def parse_throw_end(payload: bytes) -> tuple[int, int, int]:
    """(throw number, cubes in the throw, hardware count since boot)."""
    return struct.unpack_from("<IHI", payload)


@dataclass
class Status:
    heap_free: int
    cubes: int
    hardware_count: int
    mismatches: int
    frame_ma: int
    budget_ma: int
    dimmed: int
    brightness: int
    events_waiting: int
    extra: tuple = field(default=())  # heap_live, heap_peak, edges_lost, sensor_errors, ...

    @property
    def calibrating(self) -> int | None:
        """The colour of `cal_sample`, 255 = off; None from a nine-field firmware."""
        return self.extra[5] if self.extra else None


def parse_status(payload: bytes) -> Status:
    head = struct.unpack_from("<IIIIHHBBH", payload)
    extra: tuple = ()
    # The table's second part follows the first nine fields (24 bytes).
    if len(payload) >= 24 + 15:
        extra = struct.unpack_from("<IIHHHB", payload, 24)
    return Status(*head, extra=extra)


@dataclass
class SimTower:
    inside: tuple[int, ...]
    throws_run: int
    strip_frames: int
    ms_since_frame: int


def parse_sim_tower(payload: bytes) -> SimTower:
    fields = struct.unpack_from("<6BIII", payload)
    return SimTower(tuple(fields[:6]), *fields[6:])


class TowerClient:
    """One link session with a tower: hello, numbered commands with retries, events and ACKs.

    A reading thread takes every frame: replies go to the command that waits for them, events
    are taken in order and acknowledged as the page's ACK rule says (ACK_EVERY_S, ACK_AT_ONCE).
    """

    def __init__(self, port: str, session: int | None = None, first_seq: int = 1) -> None:
        self.port_path = port
        self.session = session if session is not None else int.from_bytes(os.urandom(4), "little")
        self._seq = (first_seq - 1) & 0xFFFF  # the number of the last command sent
        self._port: serial.Serial | None = None
        self._reader = FrameReader()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()
        self._request_lock = threading.Lock()
        self._waiting: int | None = None  # command number a reply is awaited for
        self._reply: tuple[int, bytes] | None = None
        self._hello_seq: int | None = None
        # Event side.
        self.boot_id: int | None = None
        self.expected: int | None = None  # E: the next event number to take
        self.last_taken: int | None = None
        self.events: list[Event] = []
        self.acks_sent: list[int] = []
        self.repeats = 0  # event frames dropped as already taken
        self.out_of_order = 0  # event frames dropped as ahead of E
        self.lost: list[tuple[int, int]] = []  # events the board no longer holds
        self.late_replies = 0
        self.fatal: list[bytes] = []
        # Every hello_reply taken, with the expected event number E before and after it.
        self.hello_log: list[tuple[HelloReply, int | None, int | None]] = []
        self._gap_since: float | None = None
        self._hold_acks = False
        self._unacked = 0  # event frames read since the last ACK
        self._acked_at = 0.0
        self.trace: list[tuple[float, str, int, int]] = []  # (time, "in"/"out", type, seq)

    # -- the port ----------------------------------------------------------------------------

    def open(self) -> None:
        # 115200 baud, 8N1, no flow control lines.
        # (reads time out after 10 ms: an ACK is due at most 20 ms after its first event)
        self._port = serial.Serial(self.port_path, 115200, bytesize=8, parity="N", stopbits=1,
                                   timeout=0.01, rtscts=False, dsrdtr=False, xonxoff=False)
        self._reader = FrameReader()
        self._stop.clear()
        self._thread = threading.Thread(target=self._read_loop, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None
        if self._port is not None:
            self._port.close()
            self._port = None

    def __enter__(self) -> TowerClient:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, data: bytes) -> None:
        with self._write_lock:
            if self._port is not None:
                self._port.write(data)

    def send_frame(self, msg_type: int, seq: int, payload: bytes = b"") -> None:
        self.trace.append((time.monotonic(), "out", msg_type, seq))
        self._write(encode_frame(msg_type, seq, payload))

    # -- reading -----------------------------------------------------------------------------

    def _read_loop(self) -> None:
        while not self._stop.is_set():
            try:
                data = self._port.read(256) if self._port is not None else b""
            except (serial.SerialException, OSError):
                time.sleep(0.05)
                continue
            for msg_type, seq, payload in self._reader.feed(data or b""):
                self.trace.append((time.monotonic(), "in", msg_type, seq))
                if msg_type >= 0x90:
                    self._on_event(msg_type, seq, payload)
                    self._unacked += 1
                else:
                    self._on_reply(msg_type, seq, payload)
            if self._unacked and (self._unacked >= ACK_AT_ONCE
                                  or time.monotonic() - self._acked_at >= ACK_EVERY_S):
                self._send_ack()

    def _on_reply(self, msg_type: int, seq: int, payload: bytes) -> None:
        if msg_type == FATAL:
            with self._cond:
                self.fatal.append(payload)
                self._cond.notify_all()
            return
        with self._cond:
            if msg_type == HELLO_REPLY and seq == self._hello_seq and self._reply is None:
                # Taken here, in the reading thread, before the next frame: the board's events
                # follow the reply at once.
                self._on_hello_reply(parse_hello_reply(payload))
            if self._waiting is not None and seq == self._waiting and self._reply is None:
                self._reply = (msg_type, payload)
                self._cond.notify_all()
            else:
                self.late_replies += 1

    def _on_hello_reply(self, reply: HelloReply) -> None:
        before = self.expected
        self._follow_hello_reply(reply)
        self.hello_log.append((reply, before, self.expected))

    def _follow_hello_reply(self, reply: HelloReply) -> None:
        if reply.protocol != PROTOCOL_VERSION:
            return
        nxt = reply.next_event_seq
        if reply.boot_id != self.boot_id or self.expected is None:
            # A new boot id: a new sequence.
            self.boot_id = reply.boot_id
            self.expected = nxt
            self.last_taken = None
        elif seq_diff(nxt, self.expected) > 0:
            # The board no longer holds E … next − 1: lost, said, and E moves on.
            self.lost.append((self.expected, (nxt - 1) & 0xFFFF))
            self.expected = nxt
        # Equal, or before E: go on from E (the repeats are dropped as they come).
        self._gap_since = None

    def _on_event(self, msg_type: int, seq: int, payload: bytes) -> None:
        with self._cond:
            if msg_type == BOOT and len(payload) >= 4:
                (boot_id,) = struct.unpack_from("<I", payload)
                if boot_id != self.boot_id:
                    # The board restarted: its events start again at this boot event's seq.
                    self.boot_id = boot_id
                    self.expected = seq
                    self.last_taken = None
            if self.expected is None:
                return  # no hello yet: nothing to compare with
            if seq == self.expected:
                self.events.append(Event(seq, msg_type, payload, self.boot_id))
                self.last_taken = seq
                self.expected = (seq + 1) & 0xFFFF
                self._gap_since = None
                self._cond.notify_all()
            elif seq_diff(seq, self.expected) < 0:
                self.repeats += 1
            else:
                self.out_of_order += 1
                if self._gap_since is None:
                    self._gap_since = time.monotonic()

    def _send_ack(self) -> None:
        self._unacked = 0
        self._acked_at = time.monotonic()
        with self._cond:
            if self._hold_acks or self.boot_id is None or self.expected is None:
                return
            # Before any event is taken: next_event_seq − 1, which is E − 1 then as well.
            last = (self.expected - 1) & 0xFFFF
            boot_id = self.boot_id
        self.send_frame(ACK, 0, struct.pack("<HI", last, boot_id))
        with self._cond:
            self.acks_sent.append(last)
            self._cond.notify_all()

    def ack(self) -> None:
        """Acknowledge the last event taken (or next_event_seq − 1 before any) now."""
        self._send_ack()

    def hold_acks(self, hold: bool) -> None:
        """Stop acknowledging (a laptop about to lose its cable), or start again."""
        with self._cond:
            self._hold_acks = hold

    # -- commands ----------------------------------------------------------------------------

    def next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFFFF
        return self._seq

    @property
    def last_seq(self) -> int:
        return self._seq

    def exchange(self, msg_type: int, seq: int, payload: bytes = b"", tries: int = TRIES,
                 try_s: float = TRY_S, before: bytes = b"") -> tuple[int, bytes] | None:
        """Send one frame, the very same again on each timeout; the reply, or None.
        ``before``: frames written with the first send, in the same write."""
        frame = encode_frame(msg_type, seq, payload)
        with self._request_lock:
            with self._cond:
                self._waiting = seq
                self._reply = None
                if msg_type == HELLO:
                    self._hello_seq = seq
            try:
                for _ in range(tries):
                    self.trace.append((time.monotonic(), "out", msg_type, seq))
                    self._write(before + frame)
                    before = b""
                    deadline = time.monotonic() + try_s
                    with self._cond:
                        while self._reply is None:
                            left = deadline - time.monotonic()
                            if left <= 0:
                                break
                            self._cond.wait(left)
                        if self._reply is not None:
                            return self._reply
                return None
            finally:
                with self._cond:
                    self._waiting = None
                    self._hello_seq = None

    def request(self, msg_type: int, payload: bytes = b"", seq: int | None = None) -> bytes:
        """A numbered command: its reply's payload; `Refused` for a refusal."""
        if seq is None:
            seq = self.next_seq()
        reply = self.exchange(msg_type, seq, payload)
        if reply is None:
            if msg_type in CHANGING:
                raise OutcomeUnknown(
                    f"command 0x{msg_type:02x} seq {seq}: no answer; it may or may not have run")
            raise NoAnswer(f"command 0x{msg_type:02x} seq {seq}: no answer")
        reply_type, reply_payload = reply
        if reply_type == REFUSED:
            code = reply_payload[0] if reply_payload else 0
            raise Refused(code, reply_payload[1:].decode("utf-8", "replace"))
        return reply_payload

    def hello(self, tries: int = 20, version: int = PROTOCOL_VERSION) -> HelloReply:
        """The handshake: hello with the next number, repeated every 0.5 s until answered."""
        seq = self.next_seq()
        reply = self.exchange(HELLO, seq, struct.pack("<BI", version, self.session), tries=tries)
        if reply is None:
            raise NoAnswer("hello: no hello_reply")
        reply_type, payload = reply
        if reply_type == REFUSED:
            raise Refused(payload[0], payload[1:].decode("utf-8", "replace"))
        parsed = parse_hello_reply(payload)
        if parsed.protocol != PROTOCOL_VERSION:
            raise LinkError(f"the tower speaks protocol {parsed.protocol}, this client "
                            f"{PROTOCOL_VERSION}")
        # Acknowledge at once what we hold (next_event_seq − 1 before anything is taken).
        self.ack()
        return parsed

    def reconnect(self) -> HelloReply:
        """Open the port again and say hello with the same session."""
        self.close()
        self.open()
        return self.hello()

    # -- the commands a test needs ------------------------------------------------------------

    def status(self) -> Status:
        return parse_status(self.request(STATUS_GET))

    def sim_tower(self) -> SimTower:
        return parse_sim_tower(self.request(SIM_TOWER))

    def sim_load(self, counts: list[int]) -> None:
        self.request(SIM_LOAD, bytes(counts))

    def sim_throw(self, counts: list[int]) -> None:
        self.request(SIM_THROW, bytes(counts))

    # -- waiting for events --------------------------------------------------------------------

    def resync_if_gap(self) -> bool:
        """A gap still open after 1 s: hello, and follow the reconnect rule."""
        with self._cond:
            stale = (self._gap_since is not None
                     and time.monotonic() - self._gap_since > GAP_RESYNC_S)
        if stale:
            self.hello()
        return stale

    def wait_acked(self, seq: int, timeout: float = 2.0) -> bool:
        """Wait until an ACK naming `seq` or a later event has been written."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (self.acks_sent and seq_diff(self.acks_sent[-1], seq) >= 0):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def wait_for_event(self, msg_type: int, start: int = 0, timeout: float = 10.0) -> Event | None:
        """The first event of that type taken at index `start` or later, or None."""
        deadline = time.monotonic() + timeout
        while True:
            with self._cond:
                for event in self.events[start:]:
                    if event.type == msg_type:
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(min(left, 0.1))
            self.resync_if_gap()
