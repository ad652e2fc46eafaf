# The serial protocol between the tower (firmware) and the laptop (host). This one module runs
# unchanged on CPython and on MicroPython; both sides import it. See docs/protocol.md.
#
# A frame on the wire:   0x00  COBS( type:u8  seq:u16  payload  crc32:u32 )  0x00
# COBS removes every zero byte from the body, so 0x00 only ever delimits frames: boot logs and
# REPL text (which hold no zero byte) fall between delimiters, fail the CRC and are skipped.
# All integers are little-endian.
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

PROTOCOL_VERSION = 1
# The ESP32's stdin ring buffer holds 260 bytes: a whole encoded frame plus delimiters fits.
MAX_PAYLOAD = const(200)
MAX_ENCODED = const(MAX_PAYLOAD + 7 + 3)  # body + COBS overhead for <254 bytes
_DELIM = b"\x00"

# ---- message types: host -> device (commands; the device answers each with a reply) ----------
HELLO = const(0x01)         # <B protocol>                    -> HELLO_REPLY
ACK = const(0x02)           # <HI seq, boot_id>  every event of that boot up to seq received
PING = const(0x03)          # <I host_us>                     -> PONG
SCORES = const(0x10)        # n x <BHB colour, vp, rice>      -> OK
LED_READ = const(0x11)      # <HH offset, count>              -> LED_DATA
TRACK_CONFIG = const(0x12)  # <HHHHBB vp_len,rice_len,rice_start,budget_ma,brightness,flags> -> OK
REPL = const(0x13)          # (empty)                         -> OK, then the board's REPL
STATUS_GET = const(0x14)    # (empty)                         -> STATUS
ANIMATE = const(0x15)       # <BB kind, colour>               -> OK
CAL_SAMPLE = const(0x16)    # <B colour>  calibration mode for that colour (255: off) -> OK; then
                            #   every cube also comes as a CAL_READING event
CAL_STORE = const(0x17)     # centroids, see pack_centroids    -> OK (atomic write to flash)
CAL_GET = const(0x18)       # (empty)                         -> CAL_DATA
SIM_THROW = const(0x20)     # <6B counts per cube colour>     -> OK  (simulated board only)
SIM_TOWER = const(0x21)     # (empty)                         -> SIM_TOWER_DATA (sim only)
INJECT = const(0x22)        # <HHH count, block_us, gap_us>   -> OK  (synthetic beam pulses:
                            #   the inject pin on a real board, the beam itself on the sim)
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
SIM_TOWER_DATA = const(0x8A)  # <6B cubes inside the tower per colour>

# ---- device -> host: events (reliable: kept and resent until the host ACKs them) ----------------
CUBE = const(0x90)          # <IIBBHB cube_no, t_us, colour, confidence, block_us, flags>
THROW_END = const(0x91)     # <IHI throw_no, cubes, hw_count>
ERROR = const(0x92)         # <B code> + text
BOOT = const(0x93)          # <I boot_id> + reset cause text; always the first event of a boot
CAL_READING = const(0x94)   # <IBHHHHB cube_no, colour calibrated, r, g, b, clear, flags>: the
                            #   cube's reading, ambient removed, scaled to the whole cube

RELIABLE_TYPES = (CUBE, THROW_END, ERROR, BOOT, CAL_READING)

# Capabilities (HELLO_REPLY bit field)
CAP_COLOUR = const(1)
CAP_LED = const(2)
CAP_HW_COUNTER = const(4)
CAP_SIMULATED = const(8)
CAP_CALIBRATION = const(16)
CAP_INJECT = const(32)

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

    def feed(self, data):
        frames = []
        for b in data:
            if b == 0:
                if self._buf and not self._overflow:
                    try:
                        frames.append(decode_body(bytes(self._buf)))
                        self.frames += 1
                    except ProtocolError:
                        self.bad_frames += 1
                        self.skipped_bytes += len(self._buf)
                elif self._overflow:
                    self.bad_frames += 1
                self._buf = bytearray()
                self._overflow = False
            elif self._overflow:
                self.skipped_bytes += 1
            elif len(self._buf) >= MAX_ENCODED:
                # Too long to be a frame: a boot log or REPL text; drop it until the next delimiter.
                self.skipped_bytes += len(self._buf) + 1
                self._buf = bytearray()
                self._overflow = True
            else:
                self._buf.append(b)
        return frames


def seq_after(a, b):
    """True when 16-bit sequence number a comes after b (wrap-around aware)."""
    d = (a - b) & 0xFFFF
    return d != 0 and d < 0x8000


# ---- reliable delivery of device events -------------------------------------------------------
class Outbox:
    """The sender's side: events keep their sequence number and are resent until acknowledged.

    Go-back-N: at most ``window`` events are in flight; when the oldest has waited ``rto_ms``
    without an ACK, every event in flight is sent again, in order.
    """

    def __init__(self, window=16, rto_ms=60, first_seq=0):
        self.window = window
        self.rto_ms = rto_ms
        self.next_seq = first_seq & 0xFFFF
        self._queue = []       # [seq, type, payload, last_sent_ms or None], oldest first
        self.resent = 0

    def __len__(self):
        return len(self._queue)

    def oldest_seq(self):
        return self._queue[0][0] if self._queue else self.next_seq

    def push(self, mtype, payload):
        seq = self.next_seq
        self._queue.append([seq, mtype, payload, None])
        self.next_seq = (seq + 1) & 0xFFFF
        return seq

    def ack(self, seq):
        """Cumulative: drops every event up to and including seq. Returns how many were dropped."""
        n = 0
        q = self._queue
        while q and not seq_after(q[0][0], seq):
            q.pop(0)
            n += 1
        return n

    def due(self, now_ms, ticks_diff=None):
        """Frames (encoded bytes) to write now."""
        diff = ticks_diff or _plain_diff
        q = self._queue
        out = []
        if not q:
            return out
        first_sent = q[0][3]
        if first_sent is not None and diff(now_ms, first_sent) >= self.rto_ms:
            for item in q[: self.window]:
                if item[3] is not None:
                    self.resent += 1
                item[3] = None
        for item in q[: self.window]:
            if item[3] is None:
                out.append(encode_frame(item[1], item[0], item[2]))
                item[3] = now_ms
        return out

    def rewind(self):
        """Send everything in flight again at the next ``due`` (after a reconnect)."""
        for item in self._queue:
            item[3] = None


def _plain_diff(a, b):
    return a - b


# ---- payloads -----------------------------------------------------------------------------------
def pack_hello_reply(boot_id, next_seq, caps, firmware, board):
    return struct.pack("<BIHB", PROTOCOL_VERSION, boot_id, next_seq, caps) + (
        firmware + "\x00" + board).encode()


def unpack_ack(p):
    return struct.unpack("<HI", p)


def unpack_scores(p):
    if len(p) % 4 or len(p) > 4 * 5:
        raise ProtocolError("scores payload must hold 1-5 players of 4 bytes")
    return [struct.unpack("<BHB", p[i:i + 4]) for i in range(0, len(p), 4)]


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
    n = p[0]
    if len(p) != 1 + 9 * n:
        raise ProtocolError("centroid payload length does not match its count")
    return [struct.unpack("<BHHHH", p[1 + 9 * i:10 + 9 * i]) for i in range(n)]


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
        CAL_SAMPLE: "cal_sample", CAL_READING: "cal_reading", CAL_STORE: "cal_store",
        CAL_GET: "cal_get",
        SIM_THROW: "sim_throw", SIM_TOWER: "sim_tower", INJECT: "inject", SIM_LOAD: "sim_load",
        OK: "ok", HELLO_REPLY: "hello_reply", PONG: "pong", LED_DATA: "led_data", STATUS: "status",
        REFUSED: "refused", CAL_DATA: "cal_data",
        SIM_TOWER_DATA: "sim_tower_data",
        CUBE: "cube", THROW_END: "throw_end", ERROR: "error", BOOT: "boot",
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

    def unpack_hello_reply(p):
        proto, boot_id, next_seq, caps = struct.unpack("<BIHB", p[:8])
        text = bytes(p[8:]).decode()
        firmware, _, board = text.partition("\x00")
        return {"protocol": proto, "boot_id": boot_id, "next_seq": next_seq, "caps": caps,
                "firmware": firmware, "board": board}

    def pack_ack(seq, boot_id):
        return struct.pack("<HI", seq, boot_id)

    def pack_scores(players):
        """players: list of (colour code, victory points, rice)."""
        out = b""
        for colour, vp, rice in players:
            out += struct.pack("<BHB", colour, vp, rice)
        return out

    def unpack_cube(p):
        cube_no, t_us, colour, confidence, block_us, flags = struct.unpack(_CUBE, p)
        return {"cube_no": cube_no, "t_us": t_us, "colour": colour, "confidence": confidence,
                "block_us": block_us, "flags": flags}

    def unpack_throw_end(p):
        throw_no, cubes, hw_count = struct.unpack("<IHI", p)
        return {"throw_no": throw_no, "cubes": cubes, "hw_count": hw_count}

    def unpack_text(p):
        try:
            return p[0], bytes(p[1:]).decode()
        except UnicodeError:
            return p[0], repr(bytes(p[1:]))

    def unpack_status(p):
        n = struct.calcsize(_STATUS)
        out = dict(zip(_STATUS_KEYS, struct.unpack(_STATUS, p[:n])))
        if len(p) >= n + struct.calcsize(_STATUS_MORE):  # an older firmware sends the first 9 only
            out.update(zip(_STATUS_MORE_KEYS, struct.unpack(_STATUS_MORE, p[n:])))
        return out

    def unpack_cal_reading(p):
        cube_no, colour, r, g, b, c, flags = struct.unpack(_CAL, p)
        return {"cube_no": cube_no, "colour": colour, "r": r, "g": g, "b": b, "c": c,
                "flags": flags}
