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
    import micropython
    from micropython import const
    # MicroPython: a compile-time 0, so the `if _HOST:` block at the end (what only the host
    # needs) is not even compiled: the firmware's 64K heap holds the bytecode of every module.
    _HOST = const(0)
    _VIPER = const(1)  # the byte loops in viper (both the unix port and the ESP32 have it)
    # (the decorators and const() are the compiler's: their names would only take two entries
    # of this module's globals, whose table is the board's heap)
    del micropython, const
except ImportError:  # CPython: the host
    def const(x):
        return x

    class micropython:  # noqa: N801 - stands for the module: @micropython.native does nothing
        native = staticmethod(lambda f: f)
    # (an assignment would be a syntax error to MicroPython's const())
    globals()["_HOST"] = 1
    globals()["_VIPER"] = 0

# 2: exactly-once commands (host session in HELLO), REPL nonce handshake, SUMMARY, FATAL.
PROTOCOL_VERSION = const(2)
# The ESP32's stdin ring buffer holds 260 bytes: a whole encoded frame plus delimiters fits.
# (Private: the firmware reads it nowhere else, and one more public name here would grow this
# module's table of globals past 97 entries, 480 bytes of the 64K heap; the host's MAX_PAYLOAD is
# in its part at the end.)
_MAX_PAYLOAD = const(200)

# Message type ranges: 0x00-0x7F commands (host -> device), 0x80-0x8F replies, 0x90-0xFF events
# (device -> host, reliable): a host meeting an event type it does not know still acknowledges it.
# (The host's names that the firmware never reads, EVENTS_FROM, RELIABLE_TYPES and others, are
# defined in the host's part at the end: every public name and function here is heap on the 64K
# board.)

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
                            #   say CAP_SEGMENTS (Samurai's bands).
SIM_LOAD = const(0x23)      # <6B counts per cube colour>     -> OK  (simulated board only): the
                            #   tower then holds exactly these cubes (the game's state restored)
SIM_SUPPLY = const(0x24)    # <B plugged>                     -> OK  (simulated board only): the
                            #   5 V supply plugged into the barrel jack (1) or unplugged (0)

# ---- device -> host: replies (unreliable: the host repeats the command if no reply comes) ------
OK = const(0x80)            # (empty)
HELLO_REPLY = const(0x81)   # <BIHB protocol, boot_id, next_event_seq, capabilities> + "fw\0board"
PONG = const(0x83)          # <II host_us, device_us>
LED_DATA = const(0x84)      # <HH offset, total> + RGB bytes
STATUS = const(0x85)        # see pack_status
REFUSED = const(0x87)       # <B code> + reason text
CAL_DATA = const(0x89)      # centroids, see pack_centroids
SIM_TOWER_DATA = const(0x8A)  # <6B cubes inside the tower per colour> + <I throws run>
                              #   + <II frames its LED strip took, ms since the last>
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
                            #   pack_summary_into

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
FLAG_SATURATED = const(2)   # the colour reading clipped (told by the channels that did not)
FLAG_STUCK = const(4)       # the cube blocked the beam far longer than a falling cube (held)
FLAG_RECOVERED = const(8)   # counted by the hardware counter only: its beam edges were lost
FLAG_NO_SAMPLE = const(16)  # no clean colour sample of this cube (the colour is then unknown)
CAL_OFF = const(255)        # CAL_SAMPLE colour that ends calibration mode

# Error / refusal codes (1, E_BAD_FRAME, is reserved: the host's part)
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
E_AHEAD = const(13)         # a command number far ahead of the session's (not run, not kept)
E_REUSED = const(14)        # a command number the session used for another command (not run)

# Animations
ANIM_BATTLE = const(1)


class ProtocolError(ValueError):
    pass


# ---- frames -------------------------------------------------------------------------------------
# The firmware frames and unframes in preallocated buffers with no allocation (a board's
# CPU and heap): a body (type, seq, payload, then its CRC) is sealed into a frame in place, and a
# received block is opened into a body. On MicroPython, viper does the byte loops (_seal, _open,
# _blocks); the host's CPython runs the plain versions at the end of this module, which give the
# same bytes (tests/firmware/mpy_test_protocol.py compares them on MicroPython).
_BODY = const(_MAX_PAYLOAD + 7)   # the longest body: type, seq, payload, CRC
_BLOCK = const(_BODY + 1)        # ... COBS-encoded: one code byte more (a body under 254 bytes)
_NO_BLOCK = const(0xFFFF)

# The CRC's table a nibble at a time, its 32-bit entries as two 16-bit halves (low halves, then
# high): the viper CRC never holds a value past 16 bits, so a 32-bit board computes what a
# 64-bit one does, and allocates no integer past 2**30.
def _nibbles():
    t = array.array("H", bytes(64))
    for i in range(16):
        c = i
        for _ in range(4):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        t[i] = c & 0xFFFF
        t[16 + i] = c >> 16
    return t


_CRC16 = _nibbles()
del _nibbles  # (run once: its function object would stay in the heap)

# FrameReader's marks (_blocks fills 0-6 and the pairs)
_M_RESUME = const(0)    # where the unfinished tail starts (or where _blocks stopped early)
_M_NEWEST = const(1)    # the newest block of the type in _M_TYPE: start, end (_M_NEWEST + 1)
_M_TYPE = const(3)
_M_SUPERSEDED = const(4)
_M_ROOM = const(5)
_M_MORE = const(6)      # _blocks stopped early: more blocks follow _M_RESUME
_M_NEXT = const(7)      # the next pair to open...
_M_COUNT = const(8)     # ... of this many
_M_JOINED = const(9)    # a block begun in an earlier read, finished by this one: its length
_M_PAIRS = const(10)    # then (start, end) of each block


if _VIPER:
    @micropython.viper
    def _seal(body: ptr8, n: int, dst: ptr8, at: int) -> int:
        # body[0:n] gets its CRC-32 in body[n:n+4]; then 0x00 COBS(body[0:n+4]) 0x00 goes to
        # dst from ``at``; returns the frame's length. The caller gives n <= _BODY - 4 and room
        # for n + 7 bytes at dst[at] (a body under 254 bytes takes one COBS code byte). Every
        # value here stays below 2**16 (CRC halves, indices < 512): the same on 32 and 64 bits.
        t = ptr16(_CRC16)
        lo = 0xFFFF
        hi = 0xFFFF
        k = 0
        while k < n:
            b = body[k]
            x = (lo ^ b) & 0xF
            lo = ((lo >> 4) | ((hi & 0xF) << 12)) ^ t[x]
            hi = (hi >> 4) ^ t[16 + x]
            x = (lo ^ (b >> 4)) & 0xF
            lo = ((lo >> 4) | ((hi & 0xF) << 12)) ^ t[x]
            hi = (hi >> 4) ^ t[16 + x]
            k += 1
        lo ^= 0xFFFF
        hi ^= 0xFFFF
        body[n] = lo & 0xFF
        body[n + 1] = lo >> 8
        body[n + 2] = hi & 0xFF
        body[n + 3] = hi >> 8
        n += 4
        dst[at] = 0
        code_at = at + 1
        o = at + 2
        code = 1
        k = 0
        while k < n:
            b = body[k]
            k += 1
            if b == 0:
                dst[code_at] = code
                code_at = o
                o += 1
                code = 1
            else:
                dst[o] = b
                o += 1
                code += 1
                if code == 0xFF:
                    dst[code_at] = code
                    code_at = o
                    o += 1
                    code = 1
        dst[code_at] = code
        dst[o] = 0
        return o + 1 - at

    @micropython.viper
    def _open(src: ptr8, i: int, end: int, body: ptr8) -> int:
        # COBS block src[i:end] (no delimiters) into body (room: _BODY bytes), its CRC checked;
        # the length of type + seq + payload, or <0: -1 broken COBS, -2 too short, -3 too long,
        # -4 a wrong CRC. Values stay below 2**16 (indices, CRC halves).
        o = 0
        while i < end:
            code = src[i]
            i += 1
            if code == 0:
                return -1
            e = i + code - 1
            if e > end:
                return -1
            if o + code - 1 > _BODY:
                return -3
            while i < e:
                body[o] = src[i]
                o += 1
                i += 1
            if code != 0xFF and i < end:
                if o == _BODY:
                    return -3
                body[o] = 0
                o += 1
        if o < 7:
            return -2
        n = o - 4
        t = ptr16(_CRC16)
        lo = 0xFFFF
        hi = 0xFFFF
        k = 0
        while k < n:
            b = body[k]
            x = (lo ^ b) & 0xF
            lo = ((lo >> 4) | ((hi & 0xF) << 12)) ^ t[x]
            hi = (hi >> 4) ^ t[16 + x]
            x = (lo ^ (b >> 4)) & 0xF
            lo = ((lo >> 4) | ((hi & 0xF) << 12)) ^ t[x]
            hi = (hi >> 4) ^ t[16 + x]
            k += 1
        lo ^= 0xFFFF
        hi ^= 0xFFFF
        if (body[n] | (body[n + 1] << 8)) != lo or (body[n + 2] | (body[n + 3] << 8)) != hi:
            return -4
        return n

    @micropython.viper
    def _blocks(src: ptr8, i: int, n: int, out: ptr16) -> int:
        # The delimited blocks of src[i:n] into FrameReader's marks: where the unfinished tail
        # starts (n: none), the last block whose type is out[_M_TYPE] (a cumulative ACK; or
        # _NO_BLOCK) and how many of that type it passed over, then (start, end) of every other
        # block, in order, as many as out[_M_ROOM]; returns how many. Stops early when they
        # are that many (out[_M_MORE] = 1, out[_M_RESUME] says where). Empty blocks are skipped.
        # Indices < 2**16.
        room = int(out[_M_ROOM])
        newest = int(out[_M_TYPE])
        count = 0
        start = i
        while i < n:
            if src[i] == 0:
                if i > start:
                    if i - start > 1 and src[start] > 1 and src[start + 1] == newest:
                        if out[_M_NEWEST] != _NO_BLOCK:
                            out[_M_SUPERSEDED] = out[_M_SUPERSEDED] + 1
                        out[_M_NEWEST] = start
                        out[_M_NEWEST + 1] = i
                    else:
                        if count == room:
                            out[_M_RESUME] = start
                            out[_M_MORE] = 1
                            return count
                        out[_M_PAIRS + 2 * count] = start
                        out[_M_PAIRS + 1 + 2 * count] = i
                        count += 1
                start = i + 1
            i += 1
        out[_M_RESUME] = start
        return count


    @micropython.viper
    def _find0(src: ptr8, i: int, n: int) -> int:
        # the first zero byte of src[i:n], or n
        while i < n:
            if src[i] == 0:
                return i
            i += 1
        return n


# Scratch buffers of the one thread that frames (the board's loop; the host's threads frame
# with encode_frame, which has its own): a body, and the frame made of it.
SCRATCH = bytearray(_BODY)
_TX = bytearray(_BLOCK + 2)


def sealed(mtype, seq, n, write=None):
    """The frame (a view of a buffer reused by the next call: write it at once) of the n
    payload bytes already in SCRATCH[3:3 + n]; nothing allocated but the view. With ``write``
    (a board's serial_write) the frame is written as (buffer, 0, length) instead: nothing
    allocated at all."""
    # (few locals and a shallow stack: a frame over 11 words would be taken from the heap)
    SCRATCH[0] = mtype
    SCRATCH[1] = seq & 0xFF
    SCRATCH[2] = (seq >> 8) & 0xFF
    n = _seal(SCRATCH, n + 3, _TX, 0)
    if write is None:
        return memoryview(_TX)[:n]
    write(_TX, 0, n)


def frame(mtype, seq, payload=b""):
    """As sealed(), for a payload given apart (copied into SCRATCH)."""
    n = len(payload)
    if n > _MAX_PAYLOAD:
        raise ProtocolError("payload of %d bytes exceeds %d" % (n, _MAX_PAYLOAD))
    SCRATCH[3:3 + n] = payload
    return sealed(mtype, seq, n)


def encode_frame(mtype, seq, payload=b""):
    """The bytes to write for one message, delimiters included. Buffers of its own: the host's
    reading thread (ACKs) and its other threads (commands) frame at the same time."""
    n = len(payload)
    if n > _MAX_PAYLOAD:
        raise ProtocolError("payload of %d bytes exceeds %d" % (n, _MAX_PAYLOAD))
    body = bytearray(n + 7)
    body[0] = mtype
    body[1] = seq & 0xFF
    body[2] = (seq >> 8) & 0xFF
    body[3:3 + n] = payload
    out = bytearray(n + 10)
    return bytes(out[:_seal(body, n + 3, out, 0)])


_MARKS = const(16)  # blocks one scan lists (a longer read is scanned again where it stopped)
_HELD = const(64)   # the longest read hold() keeps: the link reads at most 64 bytes a step
#                    (link.py _READ_MOST; a longer one is taken at once, hold() says False)


class FrameReader:
    """Feeds on raw bytes, yields whole valid frames; skips everything else and counts it.

    Without allocation (the board): ``scan(data)``, then ``next()`` until it says 0: each opens
    the next frame into ``body`` (type, seq lo, seq hi, payload) and gives its length (3 + the
    payload's). ``data`` must stay as it is until then. ``feed(data)`` does both and copies.
    (The methods a board runs for every read keep few locals: a bytecode frame of more than 11
    slots is taken from the heap at every call.)"""

    def __init__(self):
        self.frames = 0
        self.bad_frames = 0      # delimited blocks that failed COBS/CRC (noise, boot logs, REPL)
        self.skipped_bytes = 0
        self.superseded = 0      # frames left unopened: a newer one of their type came (scan)
        self.body = bytearray(_BODY)
        self._buf = bytearray(_BLOCK)  # a block begun in an earlier read...
        self._n = 0              # ... this long (-1: too long to be a frame, skipped)
        self._m = array.array("H", bytes(2 * (_M_PAIRS + 2 * _MARKS)))
        self._src = b""
        self._held = memoryview(bytearray(_HELD))  # hold()

    @micropython.native
    def scan(self, data, newest_only=0):
        """Take ``data`` (bytes read, at most 32 KB) in. ``newest_only``: a message type of
        which only the last frame of ``data`` matters (a cumulative ACK): the others of that
        type are not opened (counted in ``superseded``), and the last one comes first, once the
        read is scanned whole."""
        m = self._m
        self._src = data
        i = self._join(data) if self._n else 0
        m[_M_RESUME] = i
        m[_M_NEWEST] = _NO_BLOCK
        m[_M_TYPE] = newest_only
        m[_M_SUPERSEDED] = 0
        m[_M_ROOM] = _MARKS
        m[_M_MORE] = 0
        m[_M_NEXT] = 0
        m[_M_COUNT] = _blocks(data, i, len(data), m) if i < len(data) else 0

    def hold(self):
        """Copy the data scanned into the reader's own buffer, for next() calls after the
        caller let others run (a board may reuse its buffer when its bytes come, not only when
        read again); False when it is longer than that buffer (then take it all now)."""
        n = len(self._src)
        if n > _HELD:
            return False
        self._held[:n] = self._src
        self._src = self._held[:n]
        return True

    def _join(self, data):
        # the block begun in an earlier read: finished here, or not yet; where this read's own
        # blocks start
        n = len(data)
        j = _find0(data, 0, n)
        k = self._n
        if k >= 0 and k + j <= _BLOCK:
            self._buf[k:k + j] = data[:j]
            k += j
        elif k >= 0:
            self.skipped_bytes += k + j
            k = -1
        else:
            self.skipped_bytes += j
        if j == n:
            self._n = k
            return n
        self._n = 0
        if k < 0:
            self.bad_frames += 1
        else:
            self._m[_M_JOINED] = k
        return j + 1

    @micropython.native
    def next(self):
        """Opens the next valid frame into ``body``: its length (type, seq, payload), or 0 when
        the data scanned holds no more."""
        m = self._m
        if m[_M_JOINED]:
            k = m[_M_JOINED]
            m[_M_JOINED] = 0
            r = self._open(self._buf, 0, k)
            if r:
                return r
        while True:
            if m[_M_NEWEST] != _NO_BLOCK and not m[_M_MORE]:
                # The newest cumulative ACK first, once the whole read is scanned: a status
                # asked in the same read then counts the outbox as the host left it (it names
                # only events sent before it, so no command of the read can change it).
                k = m[_M_NEWEST]
                m[_M_NEWEST] = _NO_BLOCK
                self.superseded += m[_M_SUPERSEDED]
                r = self._open(self._src, k, m[_M_NEWEST + 1])
                if r:
                    return r
            if not (m[_M_NEXT] < m[_M_COUNT] or m[_M_MORE]):
                break
            if m[_M_NEXT] == m[_M_COUNT]:  # _blocks stopped early: on from there
                m[_M_MORE] = 0
                m[_M_NEXT] = 0
                m[_M_COUNT] = _blocks(self._src, m[_M_RESUME], len(self._src), m)
                continue
            k = _M_PAIRS + 2 * m[_M_NEXT]
            m[_M_NEXT] += 1
            r = self._open(self._src, m[k], m[k + 1])
            if r:
                return r
        if m[_M_RESUME] < len(self._src):
            self._keep()
        self._src = b""
        return 0

    def _keep(self):
        # the start of a block the next read finishes
        at = self._m[_M_RESUME]
        n = len(self._src)
        k = n - at
        if k > _BLOCK:
            self.skipped_bytes += k
            self._n = -1
        else:
            self._buf[:k] = self._src[at:n]
            self._n = k
        self._m[_M_RESUME] = n

    @micropython.native
    def _open(self, src, start, end):
        r = _open(src, start, end, self.body)
        if r > 0:
            self.frames += 1
            return r
        self.bad_frames += 1
        self.skipped_bytes += end - start
        return 0


# ---- reliable delivery of device events -------------------------------------------------------
# The outbox's state, in one array (few attributes: a board's instance tables are heap)
_O_HEAD = const(0)    # slot of the oldest event
_O_N = const(1)       # events held
_O_OUT = const(2)     # the oldest this many are on the wire (go-back-N: always a prefix)
_O_SLOTS = const(3)
_O_ROOM = const(4)
_O_SEQ = const(5)     # the next event's sequence number
_O_WINDOW = const(6)
_O_FROM = const(7)    # _run: the bytes to write, [from, to) of the ring
_O_TO = const(8)
_O_SENT = const(9)    # the oldest this many have been on the wire at least once (an ACK may
#                       name no other: one past them names an event not sent)

if _VIPER:
    @micropython.viper
    def _place(st: ptr16, ring: ptr16, size: int, mtype: int) -> int:
        # Room for a frame of ``size`` bytes after the newest event, or from the ring's start,
        # never over the oldest's bytes: its offset (the slot taken, SCRATCH's header written
        # with the event's type and number), or -1. ring: offsets [0, slots), lengths [slots,
        # 2 slots). Values < 2**17.
        head = int(st[_O_HEAD])
        k = int(st[_O_N])
        slots = int(st[_O_SLOTS])
        room = int(st[_O_ROOM])
        if k >= slots or size > room:
            return -1
        at = 0
        if k:
            newest = (head + k - 1) % slots
            start = int(ring[head])
            at = int(ring[newest]) + int(ring[slots + newest])
            if int(ring[newest]) < start:  # wrapped: the free bytes are [at, start)
                if at + size > start:
                    return -1
            elif at + size > room:         # one run [start, at): wrap to the ring's start
                if size > start:
                    return -1
                at = 0
        i = (head + k) % slots
        ring[i] = at
        ring[slots + i] = size
        st[_O_N] = k + 1
        seq = int(st[_O_SEQ])
        st[_O_SEQ] = (seq + 1) & 0xFFFF
        s = ptr8(SCRATCH)
        s[0] = mtype
        s[1] = seq & 0xFF
        s[2] = seq >> 8
        return at

    @micropython.viper
    def _run(st: ptr16, ring: ptr16, sent: ptr32, now: int) -> int:
        # The next frames to write (from the first not on the wire, within the window, while
        # they lie one after another in the ring): marked sent at ``now`` (ms, < 2**30), on the
        # wire, their bytes in st[_O_FROM:_O_TO]; how many. Values < 2**30.
        head = int(st[_O_HEAD])
        k = int(st[_O_N])
        slots = int(st[_O_SLOTS])
        out = int(st[_O_OUT])
        last = int(st[_O_WINDOW])
        if k < last:
            last = k
        count = 0
        end = 0
        while out < last:
            i = (head + out) % slots
            at = int(ring[i])
            if count == 0:
                st[_O_FROM] = at
            elif at != end:
                break
            end = at + int(ring[slots + i])
            sent[i] = now
            out += 1
            count += 1
        st[_O_OUT] = out
        st[_O_TO] = end
        if out > int(st[_O_SENT]):
            st[_O_SENT] = out
        return count


class Outbox:
    """The sender's side: events keep their sequence number and are resent until acknowledged.

    Go-back-N: at most ``window`` events are in flight; when the oldest has waited ``rto_ms``
    without an ACK, every event in flight is sent again, in order.

    Bounded and preallocated: at most ``slots`` events holding ``room`` bytes of encoded frames
    in all, in one ring of bytes taken at construction (a board's heap may be fragmented later).
    When an event does not fit, ``push`` refuses it (None) and the caller keeps count instead.
    Each event is framed once, in the ring itself, when pushed: a send writes the kept bytes,
    several frames in one write (CPU).
    """

    def __init__(self, window=16, rto_ms=60, first_seq=0, slots=32, room=512):
        self.rto_ms = rto_ms
        self.resent = 0
        self._st = array.array("H", (0, 0, 0, slots, room, first_seq & 0xFFFF, window, 0, 0,
                                     0))
        self._data = bytearray(room)
        self._ring = array.array("H", bytes(4 * slots))  # offsets, then lengths
        self._sent = array.array("i", bytes(4 * slots))  # ms each was last sent

    def __len__(self):
        return self._st[_O_N]

    def waiting(self):
        """Events held but not on the wire (the window was full)."""
        return self._st[_O_N] > self._st[_O_OUT]

    @property
    def next_seq(self):
        return self._st[_O_SEQ]

    def oldest_seq(self):
        st = self._st
        return (st[_O_SEQ] - st[_O_N]) & 0xFFFF

    def push(self, mtype, payload):
        """Keep an event; its sequence number, or None when the outbox is full."""
        n = len(payload)
        if n > _MAX_PAYLOAD:
            return None
        SCRATCH[3:3 + n] = payload
        return self.push_sealed(mtype, n)

    @micropython.native
    def push_sealed(self, mtype, n):
        """push() for the n payload bytes already in SCRATCH[3:3 + n]: the frame is made in the
        ring itself, nothing allocated."""
        # (delimiters, one COBS code, type, seq, CRC: n + 10 bytes for a body under 254)
        at = _place(self._st, self._ring, n + 10, mtype)
        if at < 0:
            return None
        _seal(SCRATCH, n + 3, self._data, at)
        return (self._st[_O_SEQ] - 1) & 0xFFFF

    @micropython.native
    def ack(self, seq):
        """Cumulative: drops every event up to and including seq. Returns how many were dropped:
        0 for an ACK of events dropped already (one before the oldest held, or up to 2**15
        before it: a repeat), -1 for one that names an event not sent (past the newest sent,
        or not yet sent at all: a stray or forged frame, a host off by one), which changes
        nothing."""
        # (the oldest held worked out here, not by a call: an ACK comes in most of the link's
        # reads; 6.5k -> 5.1k instructions. Not viper: every native or viper function
        # takes heap on the unix port, where the 64K sessions run, and IRAM on the ESP32)
        st = self._st
        k = st[_O_N]
        d = (seq - st[_O_SEQ] + k) & 0xFFFF  # 0: the oldest held; 0xFFFF: the one before it
        if d >= 0x8000:
            return 0  # older than every event held: a repeat
        if d >= st[_O_SENT]:
            return -1
        n = d + 1
        st[_O_HEAD] = (st[_O_HEAD] + n) % st[_O_SLOTS]
        st[_O_N] = k - n
        st[_O_SENT] = st[_O_SENT] - n
        st[_O_OUT] = st[_O_OUT] - n if st[_O_OUT] > n else 0
        return n

    @micropython.native
    def send_due(self, now_ms, ticks_diff, write):
        """Write the frames due now with ``write(buffer, offset, length)`` (a part of the ring,
        several frames in one: write them at once; a board's serial_write, as MicroPython's
        stream write(buf, off, n) takes them). Nothing is framed here, and nothing allocated,
        not even a view. (Native, now that it makes no slice: every cube's event and every
        resend runs it, in the detector's and the link's longest steps.)"""
        st = self._st
        if st[_O_OUT] and ticks_diff(now_ms, self._sent[st[_O_HEAD]]) >= self.rto_ms:
            self.resent += st[_O_OUT]
            st[_O_OUT] = 0
        while _run(st, self._ring, self._sent, now_ms):
            write(self._data, st[_O_FROM], st[_O_TO] - st[_O_FROM])

    def rewind(self):
        """Send everything in flight again at the next ``due`` (after a reconnect)."""
        self._st[_O_OUT] = 0


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


_SUMMARY_SIZE = const(34)


@micropython.native
def pack_summary_into(first_cube, last_cube, throws, other, last_throw, hw_count, counts, at):
    """What the board counted instead of sending while its outbox was full: the cube numbers
    first..last (0, 0: none), throw ends, other events (errors, calibration readings) left out,
    the last throw's number, the hardware count, and cubes per colour, counts[at:at + 7] (wire
    order, then unknown). Packed into SCRATCH[3:3 + _SUMMARY_SIZE] for push_sealed, nothing
    allocated: the board sends it when its heap may be at its most broken up (a 120-byte
    argument list once failed there in a 64K heap). Returns its size. The counts
    wrap at 2**16."""
    s = SCRATCH
    struct.pack_into("<IIHHII", s, 3, first_cube, last_cube, throws & 0xFFFF, other & 0xFFFF,
                     last_throw, hw_count)
    i = 0
    while i < 7:
        n = counts[at + i]
        s[23 + 2 * i] = n & 0xFF
        s[24 + 2 * i] = (n >> 8) & 0xFF
        i += 1
    return _SUMMARY_SIZE


def pack_cube(cube_no, t_us, colour, confidence, block_us, flags):
    return struct.pack("<IIBBHB", cube_no, t_us & 0xFFFFFFFF, colour, confidence,
                       min(block_us, 0xFFFF), flags)


_CUBE_SIZE = const(13)


@micropython.native
def pack_cube_into(cube_no, t_us, colour, confidence, block_us, flags):
    """pack_cube()'s bytes (t_us: ticks, below 2**32) into SCRATCH[3:3 + 13], for an
    outbox's push_sealed (the firmware's link: send_event(CUBE, 13)) right after: nothing
    allocated. Returns their size, 13 (CUBE_SIZE)."""
    struct.pack_into("<IIBBHB", SCRATCH, 3, cube_no, t_us, colour, confidence,
                     block_us if block_us < 0xFFFF else 0xFFFF, flags)
    return _CUBE_SIZE


def pack_throw_end(throw_no, cubes, hw_count):
    return struct.pack("<IHI", throw_no, cubes, hw_count)


@micropython.native
def pack_throw_end_into(throw_no, cubes, hw_count):
    """pack_throw_end()'s bytes into SCRATCH[3:3 + 10], for an outbox's push_sealed (the
    firmware's link: send_event(THROW_END, 10)) right after, as pack_cube_into: nothing
    allocated, and the throw's end costs its step no struct.pack and no copy. Returns 10."""
    struct.pack_into("<IHI", SCRATCH, 3, throw_no, cubes, hw_count)
    return 10


def pack_text(code, text):
    data = text.encode()[: _MAX_PAYLOAD - 1]
    return bytes((code,)) + data


def pack_centroids(centroids):
    """centroids: list of (colour code, x, y, z, threshold), all in 1/10000 (colour.py)."""
    # (packed in place: one object, not a longer copy per centroid, a board's CAL_GET)
    out = bytearray(1 + 9 * len(centroids))
    out[0] = len(centroids)
    for k in range(len(centroids)):
        c = centroids[k]
        struct.pack_into("<BHHHH", out, 1 + 9 * k, c[0], c[1], c[2], c[3], c[4])
    return bytes(out)


def unpack_centroids(p):
    if not p or len(p) != 1 + 9 * p[0]:
        raise ProtocolError("centroid payload length does not match its count")
    return [(p[k], le(p, k + 1, 2), le(p, k + 3, 2), le(p, k + 5, 2), le(p, k + 7, 2))
            for k in range(1, len(p), 9)]


def pack_cal_reading(cube_no, colour, r, g, b, c, flags):
    return struct.pack("<IBHHHHB", cube_no, colour, _u16(r), _u16(g), _u16(b), _u16(c), flags)


def _u16(v):
    v = int(v + 0.5)
    return 0 if v < 0 else (0xFFFF if v > 0xFFFF else v)


# ---- host only: names, the receiver's side of reliable delivery, decoders of device messages ---
# Never compiled on MicroPython (see _HOST above); the host's CPython gets it all.
if _HOST:
    MAX_PAYLOAD = len(SCRATCH) - 7  # the longest payload (a body less its type, seq, CRC)
    EVENTS_FROM = 0x90          # the first event type (0x90-0xFF)
    # The events' layouts, as the board's packers spell them out (each global name of the
    # board's part is an entry of its module's table, in the 64K heap)
    _CUBE = "<IIBBHB"
    _CAL = "<IBHHHHB"
    _SUMMARY = "<IIHHII7H"
    _DELIM = b"\x00"
    RELIABLE_TYPES = (CUBE, THROW_END, ERROR, BOOT, CAL_READING, SUMMARY)
    MAX_BLOCK = len(SCRATCH) + 1  # a frame's COBS block, between its delimiters: 208 bytes
    MAX_FRAME = MAX_BLOCK + 2   # ... on the wire with its two delimiters: 210
    E_BAD_FRAME = 1             # reserved: a damaged frame is skipped and counted, not answered
    CUBE_SIZE = struct.calcsize(_CUBE)
    SUMMARY_SIZE = struct.calcsize(_SUMMARY)
    # Commands that change something: the board keeps their replies for repeats (a request that
    # gets no answer may have run; one of the others has changed nothing)
    CHANGING = (SCORES, TRACK_CONFIG, ANIMATE, SEGMENTS, CAL_SAMPLE, CAL_STORE, INJECT,
                SIM_THROW, SIM_LOAD, SIM_SUPPLY, REPL, REPL_CONFIRM)

    NAMES = {
        HELLO: "hello", ACK: "ack", PING: "ping", SCORES: "scores", LED_READ: "led_read",
        TRACK_CONFIG: "track_config", REPL: "repl", STATUS_GET: "status_get", ANIMATE: "animate",
        SEGMENTS: "segments",
        CAL_SAMPLE: "cal_sample", CAL_READING: "cal_reading", CAL_STORE: "cal_store",
        CAL_GET: "cal_get", REPL_CONFIRM: "repl_confirm",
        SIM_THROW: "sim_throw", SIM_TOWER: "sim_tower", INJECT: "inject", SIM_LOAD: "sim_load",
        SIM_SUPPLY: "sim_supply",
        OK: "ok", HELLO_REPLY: "hello_reply", PONG: "pong", LED_DATA: "led_data", STATUS: "status",
        REFUSED: "refused", CAL_DATA: "cal_data", SIM_TOWER_DATA: "sim_tower_data",
        REPL_NONCE: "repl_nonce", FATAL: "fatal",
        CUBE: "cube", THROW_END: "throw_end", ERROR: "error", BOOT: "boot", SUMMARY: "summary",
    }

    # (what the host and the tests use and the board never runs: no RAM of the board's)
    def decode_body(encoded):
        """(type, seq, payload) from one COBS block; ProtocolError if damaged."""
        body = bytearray(len(SCRATCH))
        n = _open(encoded, 0, len(encoded), body)
        if n < 0:
            raise ProtocolError(_DAMAGE[-1 - n])
        return body[0], body[1] | body[2] << 8, bytes(body[3:n])

    _DAMAGE = ("broken COBS block", "frame too short",
               "payload longer than %d bytes" % MAX_PAYLOAD, "CRC mismatch")

    def seq_after(a, b):
        """True when 16-bit sequence number a comes after b (wrap-around aware)."""
        d = (a - b) & 0xFFFF
        return d != 0 and d < 0x8000

    _STATUS = "<IIIIHHBBH"
    _STATUS_MORE = "<IIHHHB"

    def pack_status(heap_free, cubes, hw_count, mismatches, frame_ma, budget_ma, dimmed,
                    brightness, queue, heap_live=0, heap_peak=0, edges_lost=0, sensor_errors=0,
                    chatter=0, calibrating=CAL_OFF, supply=0):
        """heap_live: the most bytes in use right after a collection (since boot); heap_peak: the
        most bytes ever in use, garbage included. The last three counters wrap at 2**16.
        supply: 1 when the 5 V supply feeds the strip (budget_ma is then the supply's), 0 when
        USB does."""
        return struct.pack(_STATUS, heap_free, cubes, hw_count, mismatches, frame_ma, budget_ma,
                           dimmed, brightness, queue) + struct.pack(
            _STATUS_MORE, heap_live, heap_peak, edges_lost & 0xFFFF, sensor_errors & 0xFFFF,
            chatter & 0xFFFF, calibrating) + bytes((supply,))

    def _due(self, now_ms, ticks_diff=None):
        """Frames (encoded bytes, copies) to write now."""
        frames = []
        self.send_due(now_ms, ticks_diff or _plain_diff,
                      lambda buf, at, n: _split(frames, bytes(buf[at:at + n])))
        return frames

    def _plain_diff(a, b):
        return a - b

    def _split(frames, run):
        # a run of frames written at once, one by one (each ends with its own delimiter)
        i = 0
        while i < len(run):
            j = run.find(_DELIM, i + 1)
            frames.append(run[i:j + 1])
            i = j + 1

    Outbox.due = _due

    _SCAN_MOST = 0x8000  # the longest data one scan takes (its marks are 16-bit)

    def _feed(self, data, newest_only=0):
        """The valid frames in ``data`` (with what earlier calls left unfinished), in order, as
        (type, seq, payload) with the payload copied; ``newest_only`` as in ``scan``."""
        frames = []
        body = self.body
        data = memoryview(data)
        for at in range(0, len(data), _SCAN_MOST):  # (scan's marks are 16-bit)
            self.scan(data[at:at + _SCAN_MOST], newest_only)
            while True:
                n = self.next()
                if not n:
                    break
                frames.append((body[0], body[1] | body[2] << 8, bytes(body[3:n])))
        return frames

    FrameReader.feed = _feed

    def unpack_ack(p):
        if len(p) != 6:
            raise ProtocolError("ack: 6 bytes, got %d" % len(p))
        return le(p, 0, 2), le(p, 2, 4)

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
        m = n + struct.calcsize(_STATUS_MORE)
        if len(p) >= m:  # an older firmware sends the first 9 only
            out.update(zip(_STATUS_MORE_KEYS, _fields(_STATUS_MORE, p[n:], "status")))
        if len(p) > m:  # ... or no power source (None: not told)
            out["supply"] = p[m]
        return out

    def unpack_cal_reading(p):
        cube_no, colour, r, g, b, c, flags = _fields(_CAL, p, "cal_reading")
        return {"cube_no": cube_no, "colour": _cube_colour(colour, "cal_reading"), "r": r,
                "g": g, "b": b, "c": c, "flags": flags}

    # ---- the plain versions of the framing (CPython; MicroPython runs viper, above) ----------
    # ---- CRC-32 (IEEE, as zlib) -----------------------------------------------------------------
    try:
        from binascii import crc32 as _crc32
    except ImportError:
        _crc32 = None
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


    # ---- COBS -----------------------------------------------------------------------------------
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

    def _seal_py(body, n, dst, at):
        body[n:n + 4] = struct.pack("<I", crc32(bytes(body[:n])))
        enc = cobs_encode(bytes(body[:n + 4]))
        k = len(enc)
        dst[at] = 0
        dst[at + 1:at + 1 + k] = enc
        dst[at + 1 + k] = 0
        return k + 2

    def _open_py(src, i, end, body):
        try:
            data = cobs_decode(bytes(src[i:end]))
        except ProtocolError:
            return -1
        if len(data) < 7:
            return -2
        if len(data) > _BODY:
            return -3
        n = len(data) - 4
        if crc32(data[:n]) != struct.unpack("<I", data[n:])[0]:
            return -4
        body[:len(data)] = data
        return n

    def _find0_py(src, i, n):
        j = bytes(src[i:n]).find(0)
        return n if j < 0 else i + j

    def _blocks_py(src, i, n, out):
        data = bytes(src)
        room = out[_M_ROOM]
        newest = out[_M_TYPE]
        count = 0
        while i < n:
            j = data.find(0, i, n)
            if j < 0:
                break
            if j > i:
                if j - i > 1 and data[i] > 1 and data[i + 1] == newest:
                    if out[_M_NEWEST] != _NO_BLOCK:
                        out[_M_SUPERSEDED] += 1
                    out[_M_NEWEST] = i
                    out[_M_NEWEST + 1] = j
                else:
                    if count == room:
                        out[_M_RESUME] = i
                        out[_M_MORE] = 1
                        return count
                    out[_M_PAIRS + 2 * count] = i
                    out[_M_PAIRS + 1 + 2 * count] = j
                    count += 1
            i = j + 1
        out[_M_RESUME] = i
        return count

    def _place_py(st, ring, size, mtype):
        head, k, slots, room = st[_O_HEAD], st[_O_N], st[_O_SLOTS], st[_O_ROOM]
        if k >= slots or size > room:
            return -1
        at = 0
        if k:
            newest = (head + k - 1) % slots
            start = ring[head]
            at = ring[newest] + ring[slots + newest]
            if ring[newest] < start:
                if at + size > start:
                    return -1
            elif at + size > room:
                if size > start:
                    return -1
                at = 0
        i = (head + k) % slots
        ring[i] = at
        ring[slots + i] = size
        st[_O_N] = k + 1
        seq = st[_O_SEQ]
        st[_O_SEQ] = (seq + 1) & 0xFFFF
        SCRATCH[0:3] = bytes((mtype, seq & 0xFF, seq >> 8))
        return at

    def _run_py(st, ring, sent, now):
        head, k, slots, out = st[_O_HEAD], st[_O_N], st[_O_SLOTS], st[_O_OUT]
        last = min(k, st[_O_WINDOW])
        count = end = 0
        while out < last:
            i = (head + out) % slots
            at = ring[i]
            if count == 0:
                st[_O_FROM] = at
            elif at != end:
                break
            end = at + ring[slots + i]
            sent[i] = now
            out += 1
            count += 1
        st[_O_OUT] = out
        st[_O_TO] = end
        if out > st[_O_SENT]:
            st[_O_SENT] = out
        return count

    if "_seal" not in globals():  # CPython (tests/firmware/host_part.py runs this on
        #                             MicroPython too, where _VIPER is no name and viper stays)
        _seal = _seal_py
        _open = _open_py
        _find0 = _find0_py
        _blocks = _blocks_py
        _place = _place_py
        _run = _run_py
