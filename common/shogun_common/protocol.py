# The serial protocol between the tower (firmware) and the laptop (host). This one module runs
# unchanged on CPython and on MicroPython; both sides import it. See docs/protocol.md.
#
# A frame on the wire:   0x00  COBS( type:u8  seq:u16  payload  crc32:u32 )  0x00
# COBS removes every zero byte from the body, so 0x00 only ever delimits frames: boot logs and
# REPL text (which hold no zero byte) fall between delimiters, fail the CRC and are skipped.
# All integers are little-endian.
import array
import struct

try:
    from binascii import crc32 as _crc32
except ImportError:  # a MicroPython build without binascii.crc32
    _crc32 = None

try:
    from micropython import const
    # MicroPython: a compile-time 0, so the `if _HOST:` block at the end (what only the host
    # needs) is not even compiled: the firmware's 64K heap holds the bytecode of every module.
    _HOST = const(0)
except ImportError:  # CPython: the host
    def const(x):
        return x
    globals()["_HOST"] = 1  # (an assignment would be a syntax error to MicroPython's const())

# 2: exactly-once commands (host session in HELLO), REPL nonce handshake, SUMMARY, FATAL.
PROTOCOL_VERSION = const(2)
# The ESP32's stdin ring buffer holds 260 bytes: a whole encoded frame plus delimiters fits.
MAX_PAYLOAD = const(200)
MAX_ENCODED = const(MAX_PAYLOAD + 7 + 3)  # body + COBS overhead for <254 bytes
_DELIM = b"\x00"

# Message type ranges: 0x00-0x7F commands (host -> device), 0x80-0x8F replies, 0x90-0xFF events
# (device -> host, reliable): a host meeting an event type it does not know still acknowledges it.
EVENTS_FROM = const(0x90)

# ---- message types: host -> device (commands; the device answers each with a reply) ----------
HELLO = const(0x01)         # <BI protocol, host_session>     -> HELLO_REPLY
ACK = const(0x02)           # <HI seq, boot_id>  every event of that boot up to seq received
PING = const(0x03)          # <I host_us>                     -> PONG
SCORES = const(0x10)        # n x <BHB colour, vp, rice>      -> OK
LED_READ = const(0x11)      # <HH offset, count>              -> LED_DATA
TRACK_CONFIG = const(0x12)  # <HHHHBB vp_len,rice_len,rice_start,budget_ma,brightness,flags> -> OK
REPL = const(0x13)          # (empty)                         -> REPL_NONCE (first step)
STATUS_GET = const(0x14)    # (empty)                         -> STATUS
ANIMATE = const(0x15)       # <BB kind, colour>               -> OK
CAL_SAMPLE = const(0x16)    # <B colour>  calibration mode for that colour (255: off) -> OK; then
                            #   every cube also comes as a CAL_READING event
CAL_STORE = const(0x17)     # centroids, see pack_centroids    -> OK (atomic write to flash)
CAL_GET = const(0x18)       # (empty)                         -> CAL_DATA
REPL_CONFIRM = const(0x19)  # <I nonce> within REPL_NONCE_MS  -> OK, then the board's REPL
SIM_THROW = const(0x20)     # <6B counts per cube colour>     -> OK  (simulated board only)
SIM_TOWER = const(0x21)     # (empty)                         -> SIM_TOWER_DATA (sim only)
INJECT = const(0x22)        # <HHH count, block_us, gap_us>   -> OK  (synthetic beam pulses:
                            #   the inject pin on a real board, the beam itself on the sim)
SEGMENTS = const(0x1A)      # n x <HBB start, count, colour> -> OK: the strip shows only these
                            #   runs of LEDs (colour: a cube colour 0-5, 6 grey, 7 white), no
                            #   score track; no run: a dark strip. SCORES brings the score
                            #   track back, TRACK_CONFIG clears the runs. Boards that serve it
                            #   say CAP_SEGMENTS (Samurai's bands, issue 18).
SIM_LOAD = const(0x23)      # <6B counts per cube colour>     -> OK  (simulated board only): the
                            #   tower then holds exactly these cubes (the game's state restored)

# ---- device -> host: replies (unreliable: the host repeats the command if no reply comes) ------
OK = const(0x80)            # (empty)
HELLO_REPLY = const(0x81)   # <BIHB protocol, boot_id, next_event_seq, capabilities> + "fw\0board"
PONG = const(0x83)          # <II host_us, device_us>
LED_DATA = const(0x84)      # <HH offset, total> + RGB bytes
STATUS = const(0x85)        # see pack_status
REFUSED = const(0x87)       # <B code> + reason text
CAL_DATA = const(0x89)      # centroids, see pack_centroids
SIM_TOWER_DATA = const(0x8A)  # <6B cubes inside the tower per colour> + <I throws run>
REPL_NONCE = const(0x8B)    # <I nonce>: echo it in REPL_CONFIRM within REPL_NONCE_MS
FATAL = const(0x8C)         # <B code> + text: the board's last words before it resets (seq 0,
                            #   unsolicited, never acknowledged)

# ---- device -> host: events (reliable: kept and resent until the host ACKs them) ----------------
CUBE = const(0x90)          # <IIBBHB cube_no, t_us, colour, confidence, block_us, flags>
THROW_END = const(0x91)     # <IHI throw_no, cubes, hw_count>
ERROR = const(0x92)         # <B code> + text
BOOT = const(0x93)          # <I boot_id> + reset cause text; always the first event of a boot
CAL_READING = const(0x94)   # <IBHHHHB cube_no, colour calibrated, r, g, b, clear, flags>: the
                            #   cube's reading, ambient removed, scaled to the whole cube
SUMMARY = const(0x95)       # <IIHHII7H> what the board counted while its outbox was full, see
                            #   pack_summary

RELIABLE_TYPES = (CUBE, THROW_END, ERROR, BOOT, CAL_READING, SUMMARY)
REPL_NONCE_MS = const(1000)  # the host echoes the nonce within this

# Capabilities (HELLO_REPLY bit field)
CAP_COLOUR = const(1)
CAP_LED = const(2)
CAP_HW_COUNTER = const(4)
CAP_SIMULATED = const(8)
CAP_CALIBRATION = const(16)
CAP_INJECT = const(32)
CAP_SEGMENTS = const(64)    # the SEGMENTS command (protocol 2 without it: an older firmware)
MAX_SEGMENTS = const(25)    # runs in one SEGMENTS command
SEG_WHITE = const(7)        # SEGMENTS colours past the cube colours: 6 grey, 7 white

# CUBE flags
FLAG_DOUBLE = const(1)      # two cubes passed together: this event is the second of the pair
FLAG_SATURATED = const(2)   # the colour reading saturated (the colour is then unknown)
FLAG_STUCK = const(4)       # the cube blocked the beam far longer than a falling cube (held)
FLAG_RECOVERED = const(8)   # counted by the hardware counter only: its beam edges were lost
FLAG_NO_SAMPLE = const(16)  # no clean colour sample of this cube (the colour is then unknown)
CAL_OFF = const(255)        # CAL_SAMPLE colour that ends calibration mode

# Error / refusal codes
E_BAD_FRAME = const(1)
E_UNKNOWN_TYPE = const(2)
E_BAD_PAYLOAD = const(3)
E_UNSUPPORTED = const(4)
E_COUNT_MISMATCH = const(5)
E_SENSOR = const(6)
E_EXCEPTION = const(7)
E_OVERFLOW = const(8)
E_VERSION = const(9)
E_NONCE = const(10)
E_STALE = const(11)
E_BUSY = const(12)

# Animations
ANIM_BATTLE = const(1)


class ProtocolError(ValueError):
    pass


# ---- CRC-32 (IEEE, as zlib) ---------------------------------------------------------------------
_table = None


def crc32(data):
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    global _table
    if _table is None:
        _table = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            _table.append(c)
    c = 0xFFFFFFFF
    for b in data:
        c = _table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


# ---- COBS ---------------------------------------------------------------------------------------
def cobs_encode(data):
    out = bytearray(len(data) + len(data) // 254 + 2)
    code_at = 0
    o = 1
    code = 1
    for b in data:
        if b == 0:
            out[code_at] = code
            code_at = o
            o += 1
            code = 1
        else:
            out[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                out[code_at] = code
                code_at = o
                o += 1
                code = 1
    out[code_at] = code
    return bytes(out[:o])


def cobs_decode(data):
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        i += 1
        if code == 0:
            raise ProtocolError("zero byte inside a COBS block")
        end = i + code - 1
        if end > n:
            raise ProtocolError("COBS block runs past the frame")
        out.extend(data[i:end])
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# ---- frames -------------------------------------------------------------------------------------
def encode_frame(mtype, seq, payload=b""):
    """The bytes to write for one message, delimiters included."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError("payload of %d bytes exceeds %d" % (len(payload), MAX_PAYLOAD))
    body = struct.pack("<BH", mtype, seq & 0xFFFF) + payload
    body += struct.pack("<I", crc32(body))
    return _DELIM + cobs_encode(body) + _DELIM


def decode_body(encoded):
    """(type, seq, payload) from one COBS block; ProtocolError if damaged."""
    body = cobs_decode(encoded)
    if len(body) < 7:
        raise ProtocolError("frame too short")
    if len(body) > MAX_PAYLOAD + 7:
        raise ProtocolError("payload longer than %d bytes" % MAX_PAYLOAD)
    (crc,) = struct.unpack("<I", body[-4:])
    if crc32(body[:-4]) != crc:
        raise ProtocolError("CRC mismatch")
    mtype, seq = struct.unpack("<BH", body[:3])
    return mtype, seq, body[3:-4]


class FrameReader:
    """Feeds on raw bytes, yields whole valid frames; skips everything else and counts it."""

    def __init__(self):
        self._buf = bytearray()
        self._overflow = False
        self.frames = 0
        self.bad_frames = 0      # delimited blocks that failed COBS/CRC (noise, boot logs, REPL)
        self.skipped_bytes = 0
        self.superseded = 0      # frames left undecoded: a newer one of their type came (feed)

    def feed(self, data, newest_only=0):
        """The valid frames in ``data`` (with what earlier calls left unfinished), in order.
        ``newest_only``: a message type of which only the last frame of ``data`` matters (a
        cumulative ACK): the others of that type are not decoded (counted in ``superseded``),
        and the last one comes last."""
        # Delimiters are found by C (find) and a frame that came whole is decoded straight from
        # the chunk: no Python loop over the bytes (issue 13: CPU on the board).
        frames = []
        newest = None
        chunk = data if isinstance(data, bytes) else bytes(data)
        n = len(chunk)
        i = 0
        while i < n:
            j = chunk.find(_DELIM, i)
            end = n if j < 0 else j
            if end > i:
                k = end - i
                if self._overflow:
                    self.skipped_bytes += k
                elif len(self._buf) + k > MAX_ENCODED:
                    # Too long to be a frame: a boot log or REPL text; dropped until the next
                    # delimiter.
                    self.skipped_bytes += len(self._buf) + k
                    self._buf = bytearray()
                    self._overflow = True
                elif j >= 0 and not self._buf:
                    # (the type is the block's first byte after its COBS code, unless zero)
                    if newest_only and k > 1 and chunk[i] > 1 and chunk[i + 1] == newest_only:
                        if newest is not None:
                            self.superseded += 1
                        newest = (i, end)
                    else:
                        self._decode(frames, chunk[i:end])
                    i = j + 1
                    continue
                else:
                    self._buf.extend(chunk[i:end])
            if j < 0:
                break
            if self._overflow:
                self.bad_frames += 1
                self._overflow = False
            elif self._buf:
                self._decode(frames, bytes(self._buf))
                self._buf = bytearray()
            i = j + 1
        if newest is not None:
            self._decode(frames, chunk[newest[0]:newest[1]])
        return frames

    def _decode(self, frames, block):
        try:
            frames.append(decode_body(block))
            self.frames += 1
        except ProtocolError:
            self.bad_frames += 1
            self.skipped_bytes += len(block)


def seq_after(a, b):
    """True when 16-bit sequence number a comes after b (wrap-around aware)."""
    d = (a - b) & 0xFFFF
    return d != 0 and d < 0x8000


# ---- reliable delivery of device events -------------------------------------------------------
class Outbox:
    """The sender's side: events keep their sequence number and are resent until acknowledged.

    Go-back-N: at most ``window`` events are in flight; when the oldest has waited ``rto_ms``
    without an ACK, every event in flight is sent again, in order.

    Bounded and preallocated: at most ``slots`` events holding ``room`` bytes of encoded frames
    in all, in one ring of bytes taken at construction (a board's heap may be fragmented later).
    When an event does not fit, ``push`` refuses it (None) and the caller keeps count instead.
    Each event is encoded once, when pushed: a resend writes the kept bytes (issue 13: CPU).
    """

    def __init__(self, window=16, rto_ms=60, first_seq=0, slots=32, room=512):
        self.window = window
        self.rto_ms = rto_ms
        self.next_seq = first_seq & 0xFFFF
        self.resent = 0
        self._slots = slots
        self._data = bytearray(room)
        self._mv = memoryview(self._data)
        self._len = bytearray(slots)      # per slot: the encoded frame's length
        self._off = array.array("H", bytes(2 * slots))
        self._sent = array.array("i", bytes(4 * slots))  # ms it was last sent
        self._head = 0   # slot of the oldest event
        self._n = 0      # events held
        self._out = 0    # the oldest this many are on the wire (go-back-N: always a prefix)

    def __len__(self):
        return self._n

    def oldest_seq(self):
        return (self.next_seq - self._n) & 0xFFFF

    def push(self, mtype, payload):
        """Keep an event; its sequence number, or None when the outbox is full."""
        n = self._n
        slots = self._slots
        if n >= slots or len(payload) > MAX_PAYLOAD:
            return None
        seq = self.next_seq
        frame = encode_frame(mtype, seq, payload)
        size = len(frame)
        room = len(self._data)
        if size > room or size > 255:
            return None
        at = 0
        if n:
            # after the newest event, or from the ring's start; never over the oldest's bytes
            newest = (self._head + n - 1) % slots
            start = self._off[self._head]
            at = self._off[newest] + self._len[newest]
            if self._off[newest] < start:     # wrapped: the free bytes are [at, start)
                if at + size > start:
                    return None
            elif at + size > room:            # one run [start, at): wrap to the ring's start
                if size > start:
                    return None
                at = 0
        i = (self._head + n) % slots
        self._data[at:at + size] = frame
        self._off[i] = at
        self._len[i] = size
        self._n = n + 1
        self.next_seq = (seq + 1) & 0xFFFF
        return seq

    def ack(self, seq):
        """Cumulative: drops every event up to and including seq. Returns how many were dropped."""
        d = (seq - self.oldest_seq()) & 0xFFFF
        if d >= 0x8000:
            return 0  # older than every event held: a repeat
        n = d + 1 if d < self._n else self._n
        self._head = (self._head + n) % self._slots
        self._n -= n
        self._out = self._out - n if self._out > n else 0
        return n

    def send_due(self, now_ms, ticks_diff, write):
        """Write the frames due now with ``write(bytes)`` (views into the ring: write them at
        once); how many. Nothing is encoded or allocated here but the views."""
        n = self._n
        if not n:
            return 0
        slots = self._slots
        head = self._head
        out = self._out
        if out and ticks_diff(now_ms, self._sent[head]) >= self.rto_ms:
            self.resent += out
            out = 0
        k_max = n if n < self.window else self.window
        if out >= k_max:
            return 0
        mv = self._mv
        sent = 0
        for k in range(out, k_max):
            i = (head + k) % slots
            at = self._off[i]
            write(mv[at:at + self._len[i]])
            self._sent[i] = now_ms
            sent += 1
        self._out = k_max
        return sent

    def due(self, now_ms, ticks_diff=None):
        """Frames (encoded bytes, copies) to write now."""
        frames = []
        self.send_due(now_ms, ticks_diff or _plain_diff, lambda f: frames.append(bytes(f)))
        return frames

    def rewind(self):
        """Send everything in flight again at the next ``due`` (after a reconnect)."""
        self._out = 0


def _plain_diff(a, b):
    return a - b


# ---- payloads -----------------------------------------------------------------------------------
# Every reader checks the length itself before it reads a field: struct.unpack refuses a payload
# of the wrong length on CPython but reads a longer one on MicroPython.
def le(p, at, size):
    """The little-endian unsigned integer of ``size`` bytes at ``at`` (the caller checked the
    length)."""
    v = 0
    for k in range(size - 1, -1, -1):
        v = (v << 8) | p[at + k]
    return v


def pack_hello_reply(boot_id, next_seq, caps, firmware, board):
    return struct.pack("<BIHB", PROTOCOL_VERSION, boot_id, next_seq, caps) + (
        firmware + "\x00" + board).encode()


def unpack_ack(p):
    if len(p) != 6:
        raise ProtocolError("ack: 6 bytes, got %d" % len(p))
    return le(p, 0, 2), le(p, 2, 4)


def unpack_scores(p):
    if len(p) % 4 or not 4 <= len(p) <= 4 * 5:
        raise ProtocolError("scores payload must hold 1-5 players of 4 bytes")
    return [(p[i], le(p, i + 1, 2), p[i + 3]) for i in range(0, len(p), 4)]


_SUMMARY = "<IIHHII7H"


def pack_summary(first_cube, last_cube, throws, other, last_throw, hw_count, colours):
    """What the board counted instead of sending while its outbox was full: the cube numbers
    first..last (0, 0: none), throw ends, other events (errors, calibration readings) left out,
    the last throw's number, the hardware count, and cubes per colour (wire order, then
    unknown)."""
    return struct.pack(_SUMMARY, first_cube, last_cube, throws & 0xFFFF, other & 0xFFFF,
                       last_throw, hw_count, *colours)


_CUBE = "<IIBBHB"


def pack_cube(cube_no, t_us, colour, confidence, block_us, flags):
    return struct.pack(_CUBE, cube_no, t_us & 0xFFFFFFFF, colour, confidence,
                       min(block_us, 0xFFFF), flags)


def pack_throw_end(throw_no, cubes, hw_count):
    return struct.pack("<IHI", throw_no, cubes, hw_count)


def pack_text(code, text):
    data = text.encode()[: MAX_PAYLOAD - 1]
    return bytes((code,)) + data


_STATUS = "<IIIIHHBBH"
_STATUS_MORE = "<IIHHHB"


def pack_status(heap_free, cubes, hw_count, mismatches, frame_ma, budget_ma, dimmed, brightness,
                queue, heap_live=0, heap_peak=0, edges_lost=0, sensor_errors=0, chatter=0,
                calibrating=CAL_OFF):
    """heap_live: the most bytes in use right after a collection (since boot); heap_peak: the
    most bytes ever in use, garbage included. The last three counters wrap at 2**16."""
    return struct.pack(_STATUS, heap_free, cubes, hw_count, mismatches, frame_ma, budget_ma,
                       dimmed, brightness, queue) + struct.pack(
        _STATUS_MORE, heap_live, heap_peak, edges_lost & 0xFFFF, sensor_errors & 0xFFFF,
        chatter & 0xFFFF, calibrating)


def pack_centroids(centroids):
    """centroids: list of (colour code, x, y, z, threshold), all in 1/10000 (colour.py)."""
    out = struct.pack("<B", len(centroids))
    for c in centroids:
        out += struct.pack("<BHHHH", c[0], c[1], c[2], c[3], c[4])
    return out


def unpack_centroids(p):
    if not p or len(p) != 1 + 9 * p[0]:
        raise ProtocolError("centroid payload length does not match its count")
    return [(p[k], le(p, k + 1, 2), le(p, k + 3, 2), le(p, k + 5, 2), le(p, k + 7, 2))
            for k in range(1, len(p), 9)]


_CAL = "<IBHHHHB"


def pack_cal_reading(cube_no, colour, r, g, b, c, flags):
    return struct.pack(_CAL, cube_no, colour, _u16(r), _u16(g), _u16(b), _u16(c), flags)


def _u16(v):
    v = int(v + 0.5)
    return 0 if v < 0 else (0xFFFF if v > 0xFFFF else v)


# ---- host only: names, the receiver's side of reliable delivery, decoders of device messages ---
# Never compiled on MicroPython (see _HOST above); the host's CPython gets it all.
if _HOST:
    NAMES = {
        HELLO: "hello", ACK: "ack", PING: "ping", SCORES: "scores", LED_READ: "led_read",
        TRACK_CONFIG: "track_config", REPL: "repl", STATUS_GET: "status_get", ANIMATE: "animate",
        SEGMENTS: "segments",
        CAL_SAMPLE: "cal_sample", CAL_READING: "cal_reading", CAL_STORE: "cal_store",
        CAL_GET: "cal_get", REPL_CONFIRM: "repl_confirm",
        SIM_THROW: "sim_throw", SIM_TOWER: "sim_tower", INJECT: "inject", SIM_LOAD: "sim_load",
        OK: "ok", HELLO_REPLY: "hello_reply", PONG: "pong", LED_DATA: "led_data", STATUS: "status",
        REFUSED: "refused", CAL_DATA: "cal_data", SIM_TOWER_DATA: "sim_tower_data",
        REPL_NONCE: "repl_nonce", FATAL: "fatal",
        CUBE: "cube", THROW_END: "throw_end", ERROR: "error", BOOT: "boot", SUMMARY: "summary",
    }

    _STATUS_KEYS = ("heap_free", "cubes", "hw_count", "mismatches", "frame_ma", "budget_ma",
                    "dimmed", "brightness", "queue")
    _STATUS_MORE_KEYS = ("heap_live", "heap_peak", "edges_lost", "sensor_errors", "chatter",
                         "calibrating")

    class Inbox:
        """The receiver's side: accepts each event exactly once, in order."""

        def __init__(self, expected=0):
            self.expected = expected & 0xFFFF
            self.duplicates = 0
            self.out_of_order = 0

        def accept(self, seq):
            """True when the event is new (and the next in order); False for a duplicate or a
            gap."""
            if seq == self.expected:
                self.expected = (seq + 1) & 0xFFFF
                return True
            if seq_after(seq, self.expected):
                # an earlier one was lost: it will come again, and this after it
                self.out_of_order += 1
            else:
                self.duplicates += 1
            return False

        def last_received(self):
            return (self.expected - 1) & 0xFFFF

    # Decoders of what the device sends. Each checks the length first (ProtocolError when too
    # short) and accepts a longer payload, ignoring the fields it does not know: a newer
    # firmware may append fields to an event or reply without breaking this host.
    def _fields(fmt, p, name):
        n = struct.calcsize(fmt)
        if len(p) < n:
            raise ProtocolError("%s: %d bytes, at least %d expected" % (name, len(p), n))
        return struct.unpack(fmt, bytes(p[:n]))

    def _text(b):
        # (MicroPython's decode takes no errors= keyword: the tests run this part there too)
        try:
            return bytes(b).decode()
        except UnicodeError:
            return "".join(chr(c) if 32 <= c < 127 else "?" for c in b)

    def _cube_colour(code, name):
        if code > 5 and code != 255:
            raise ProtocolError("%s: colour %d is not 0-5 or 255 (unknown)" % (name, code))
        return code

    def pack_hello(session):
        """The host's HELLO: its protocol version and its link session (a random number: the
        board keeps the replies of one session's commands)."""
        return struct.pack("<BI", PROTOCOL_VERSION, session & 0xFFFFFFFF)

    def unpack_hello_reply(p):
        proto, boot_id, next_seq, caps = _fields("<BIHB", p, "hello_reply")
        text = _text(p[8:])
        firmware, _, board = text.partition("\x00")
        return {"protocol": proto, "boot_id": boot_id, "next_seq": next_seq, "caps": caps,
                "firmware": firmware, "board": board}

    def pack_ack(seq, boot_id):
        return struct.pack("<HI", seq, boot_id)

    def pack_segments(runs):
        """runs: list of (first LED, LED count, colour 0-7), at most MAX_SEGMENTS."""
        if len(runs) > MAX_SEGMENTS:
            raise ProtocolError("segments: at most %d runs" % MAX_SEGMENTS)
        return b"".join(struct.pack("<HBB", start, count, colour)
                        for start, count, colour in runs)

    def pack_scores(players):
        """players: list of (colour code, victory points, rice)."""
        out = b""
        for colour, vp, rice in players:
            out += struct.pack("<BHB", colour, vp, rice)
        return out

    def unpack_cube(p):
        cube_no, t_us, colour, confidence, block_us, flags = _fields(_CUBE, p, "cube")
        return {"cube_no": cube_no, "t_us": t_us, "colour": _cube_colour(colour, "cube"),
                "confidence": confidence, "block_us": block_us, "flags": flags}

    def unpack_throw_end(p):
        throw_no, cubes, hw_count = _fields("<IHI", p, "throw_end")
        return {"throw_no": throw_no, "cubes": cubes, "hw_count": hw_count}

    def unpack_boot(p):
        (boot_id,) = _fields("<I", p, "boot")
        return {"boot_id": boot_id, "cause": _text(p[4:])}

    def unpack_summary(p):
        f = _fields(_SUMMARY, p, "summary")
        return {"first_cube": f[0], "last_cube": f[1], "throws": f[2], "other": f[3],
                "last_throw": f[4], "hw_count": f[5], "colours": list(f[6:13])}

    def unpack_text(p):
        if not p:
            raise ProtocolError("text message without its code")
        return p[0], _text(p[1:])

    def unpack_status(p):
        n = struct.calcsize(_STATUS)
        out = dict(zip(_STATUS_KEYS, _fields(_STATUS, p, "status")))
        if len(p) >= n + struct.calcsize(_STATUS_MORE):  # an older firmware sends the first 9 only
            out.update(zip(_STATUS_MORE_KEYS, _fields(_STATUS_MORE, p[n:], "status")))
        return out

    def unpack_cal_reading(p):
        cube_no, colour, r, g, b, c, flags = _fields(_CAL, p, "cal_reading")
        return {"cube_no": cube_no, "colour": _cube_colour(colour, "cal_reading"), "r": r,
                "g": g, "b": b, "c": c, "flags": flags}
