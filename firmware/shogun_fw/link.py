# The device's end of the serial link. It owns the transport: framing, the commands' duplicates
# and the outbox of events. The app's components register the commands they serve
# (commands.py); the link calls them once per command, whatever the wire repeats.
#
# Exactly once: a command that changes something is applied at most once per (boot, sequence
# number). Its reply is kept in a small preallocated ring; a repeat (the host lost the reply and
# sends the same frame again) gets the kept reply and nothing runs again. A refusal applied
# nothing, so only that it was refused is kept: its repeat is checked again (the same reason,
# without keeping every reason's text). The ring belongs to the host's link session (HELLO): a
# new session starts it empty. With each reply the command's digest (its frame's CRC-32) is
# kept: a number used again for another command is refused (E_REUSED), never
# answered with the first one's reply.
#
# The window: a session's numbers count up from its HELLO's. A command numbered up to
# _SEQ_WINDOW past the newest number seen is new (and the newest); one up to _SEQ_WINDOW
# before it is a repeat (its kept reply), or one never seen (run) unless it is older than a
# reply the ring has let go (E_STALE, never run). Any other number is refused without being
# kept, run or remembered (E_AHEAD, E_STALE): a stray or forged frame locks nothing out, and a
# HELLO of the same session takes its number as the newest again.
#
# mpremote talking to the running app (its raw REPL's Ctrl-A, without `shogun-tower repl`
# first): the app answers in mpremote's own terms, the banner, a soft reboot and every command
# refused with a line that names the handshake, so mpremote stops at once saying what to do
# (on a pseudo-terminal it waits for the banner without a timeout). It never leaves the app.
#
# A silent host: the outbox holds a fixed number of events in a ring taken at boot. When it is
# full the link keeps counting instead (cubes per colour, throw ends, other events) and sends one
# SUMMARY event as soon as the host's ACKs make room, before any newer event.
#
# Memory: every function and attribute here costs heap on the board (the firmware runs in a
# 64K heap), so the link's own commands share one handler and the rings are flat byte arrays.
#
# CPU (an asyncio resumption costs 200-380 us on an ESP32): nothing here wakes on a
# clock while nothing comes. An event is framed once, straight into the outbox's ring, and
# written in the step that made it; the receiving task sleeps in asyncio's poller until the
# host's bytes come (in a throw it reads every _BATCH_MS), reads what is waiting, at most
# _READ_MOST bytes a step, and opens only the newest of its ACKs (they are cumulative); STATUS
# and PING are each answered in a step of their own, every other command gets three: its
# dispatch, its handler, its reply (the ESP32's 2 ms stall budget);
# the housekeeping (resends, the watchdog, the heap) runs on a slow timer and collects the heap
# only between throws. Nothing is allocated per event, ACK, STATUS or PING: preallocated
# buffers, viper and native code (a bytecode function whose frame needs more than 11 slots takes
# it from the heap at every call).
import array
import asyncio
import gc
import struct

import micropython
from micropython import const

from shogun_common import protocol as P

_TICK_MS = const(100)   # housekeeping: resends (_RTO_MS), the watchdog (8 s), the heap
_THROW_TICK_MS = const(400)  # ... in a throw (the receiving task resends)
_BATCH_MS = const(40)   # in a throw the host's bytes are read this often (its ACKs come at
#                         most every 20 ms): one wake-up for a few frames, the newest ACK
#                         opened. Each step costs the ESP32 0.3 ms of asyncio alone, and the
#                         ESP32 drains its stdin a byte at a time (~11 us a byte): at 60 ms a
#                         read's step came to 2.3-3.5 ms, over the 2 ms stall budget; at 30 ms
#                         the load rose 5 points for no shorter stall. The ESP32's
#                         stdin ring holds 260 bytes; 40 ms bring up to ~110
_READ_MOST = const(64)  # bytes a read takes in one step, the rest in the next step (not
#                         _BATCH_MS later): the ESP32 drains its stdin a byte at a time, 9 us
#                         a byte at its high estimate (14 before the drain was viper), so a
#                         host's burst (its stdin ring holds 260 bytes) would hold the loop
#                         2.4 ms in one step. Not fewer: a throw's batch of ACKs, STATUS and
#                         PING comes to 60 bytes at most, and at 32 the extra steps cost more
#                         load (+1.2 points by count; 5-8 by time in an earlier trial) than the
#                         shorter read saved (1.66 -> 1.62 ms by count)
_RTO_MS = const(100)    # resend after this long without an ACK: more than _BATCH_MS + the
#                         host's ACK pacing (20 ms) and reads (5 ms), so a batch's ACK comes
#                         before any resend
_WINDOW = const(32)     # events in flight: an event's ACK is opened at most 67 ms after it
#                         left (the same sum), 22 events at a cube every 3 ms; a full window
#                         would hold the next ones back (latency)
_GC_IDLE_MS = const(10000)  # between throws, the heap is collected at least this often
_LIVE_LATE_MS = const(20)   # what a collection left is read only this soon after it (see below)
_NO_SEQ = const(0x10000)    # _V_GC_SEQ for "try again": no event has this number
_ALL_BEATS = const(7)  # detector (1), colour sampling (2), score track (4)
_EVENT_SLOTS = const(32)    # events the outbox holds (a throw of 30 cubes and its end)...
_EVENT_ROOM = const(768)    # ...in this many bytes of frames (a cube event's takes 23: 33)
_KEPT = const(8)            # replies kept for repeats: more than the host has in flight
_KEPT_SIZE = const(12)      # a kept reply: seq (2), type, payload length, payload (up to 4),
#                             the command's digest (4)
_DIGEST = const(8)          # (where in a slot)
_BOOT_AT = const(96)        # _kept[96:100]: the boot id, little-endian (ACKs compare it)
_KEPT_ALL = const(100)
_FRESH = const(0x100)       # kept_slot: a new command, its reply to be kept in slot r - _FRESH
_NONE = const(0x10000)      # _V_TOP, _V_FLOOR: no number (no command numbers are 17 bits)
_SEQ_WINDOW = const(256)    # command numbers this far past the newest are new, this far
#                             before it may be repeats; others are refused
_CHANGES = const(0x80)      # in the command table: the command changes something
_TYPES = const(0x25)        # the command table's length: the command types 0x00-0x24
# The link's numbers, in one array (a MicroPython instance table past 23 entries takes a
# 464-byte block of the heap): STATUS's heap figures, the counters, the REPL handshake's
# nonce, the host's session, then the tally of what a full outbox did not hold.
_V_HEAP_LIVE = const(0)     # bytes in use after the last collection
_V_HEAP_FREE = const(1)     # ... and free then (STATUS: no scan of the heap's table)
_V_LIVE_MAX = const(2)
_V_PEAK = const(3)          # the most bytes ever seen in use (garbage included)
_V_GC_MS = const(4)         # the last collection: when (the heap's rounds are timed from it)
_V_COMMANDS = const(5)
_V_REPEATS = const(6)       # commands answered from the kept replies
_V_SESSION = const(7)       # the host's link session (HELLO)
_V_NONCE = const(8)         # the REPL handshake's, while one is open
_V_NONCE_MS = const(9)
_V_KEPT_NEXT = const(10)
_V_COUNTING = const(11)     # the outbox was full: events are counted in the tally
_V_WAITING = const(12)      # a command opened in the reader's body, for the next step: its size
_V_GC_SEQ = const(13)       # the next event's number at the last collection
_V_GC_STAGE = const(14)     # the heap's work left, a step each: 1 collect, 2 live, 3 free
_V_GC_CMDS = const(15)      # the commands handled at the last collection
# (16-28: the tally, below)
_V_HELLO_SEQ = const(29)    # the number of the HELLO being handled
_V_RAW = const(30)          # mpremote's raw REPL as the app answers it: 0 none, 1 at its
#                             prompt, 2 a command on its way
_V_TOP = const(31)          # the session's newest command number (the window's), or _NONE
_V_FLOOR = const(32)        # the newest number the ring of replies let go, or _NONE
_T = const(16)              # the tally: cubes per colour 0-5, unknown (6), then
_UNKNOWN = const(6)
_T_FIRST = const(_T + 7)    #   the first and last cube numbers counted,
_T_LAST = const(_T + 8)
_T_THROWS = const(_T + 9)   #   throw ends, their last throw number,
_T_THROW_NO = const(_T + 10)
_T_OTHER = const(_T + 11)   #   other events left out (errors, calibration readings)
_T_HW = const(_T + 12)      #   the hardware count of the last throw end
_T_END = const(_T + 13)
_V_SIZE = const(_T + 17)
_STATUS_SIZE = const(40)    # protocol.pack_status's bytes


@micropython.viper
def kept_slot(kept, seq: int, v, n: int) -> int:
    """The window (the top of this file) for command ``seq``: -1 to run it; -E_* to refuse
    it (E_AHEAD, E_STALE, E_REUSED); or where its reply is kept in the ring ``kept`` (_KEPT
    slots of _KEPT_SIZE bytes: seq lo, seq hi, type (0: empty), payload length, payload,
    digest); or _FRESH + the slot a new one's reply is to be kept in (the ring's next, the reply
    it held let go: its number the floor if newer). ``v``: the link's numbers (_V_TOP, the
    session's newest, moved on to a new ``seq``; _V_FLOOR, _V_KEPT_NEXT). ``n`` < 0: a command
    that changes nothing (no ring); else its digest, the CRC-32 of its frame sealed in
    P.SCRATCH, is at SCRATCH[n:n + 4]. Slots _SEQ_WINDOW or more before the newest are emptied.
    Viper (32-bit on the ESP32): values below 2**17."""
    k = ptr8(kept)
    w = ptr32(v)
    b = ptr8(P.SCRATCH)
    top = int(w[_V_TOP])
    d = (seq - top) & 0xFFFF
    back = (top - seq) & 0xFFFF
    ahead = top == _NONE or (d > 0 and d <= _SEQ_WINDOW)
    if ahead:
        w[_V_TOP] = seq
        top = seq
    elif back >= _SEQ_WINDOW:
        return -int(P.E_AHEAD) if d < 0x8000 else -int(P.E_STALE)
    if n < 0:
        return -1
    found = -1
    i = 0
    while i < _KEPT * _KEPT_SIZE:
        if k[i + 2]:
            s = k[i] | (k[i + 1] << 8)
            if ((top - s) & 0xFFFF) >= _SEQ_WINDOW or (ahead and s == seq):
                # out of the window, or a number new to it (what the ring held of it was
                # from before the numbers wrapped round): no repeat can name it any more
                k[i + 2] = 0
            elif s == seq:
                found = i
                j = 0
                while j < 4:
                    if k[i + _DIGEST + j] != b[n + j]:
                        found = -int(P.E_REUSED)
                    j += 1
        i += _KEPT_SIZE
    if found != -1:
        return found
    if not ahead:
        if back == 0:
            return -int(P.E_REUSED)  # the newest number, not kept: a HELLO's, a STATUS's
        floor = int(w[_V_FLOOR])
        if floor != _NONE and back >= ((top - floor) & 0xFFFF):
            return -int(P.E_STALE)  # no newer than a reply the ring let go: overwritten
    i = int(w[_V_KEPT_NEXT])
    w[_V_KEPT_NEXT] = (i + _KEPT_SIZE) % (_KEPT * _KEPT_SIZE)
    if k[i + 2]:
        s = k[i] | (k[i + 1] << 8)
        floor = int(w[_V_FLOOR])
        if floor == _NONE or ((top - s) & 0xFFFF) < ((top - floor) & 0xFFFF):
            w[_V_FLOOR] = s
        k[i + 2] = 0
    k[i] = seq & 0xFF
    k[i + 1] = seq >> 8
    j = 0
    while j < 4:
        k[i + _DIGEST + j] = b[n + j]
        j += 1
    return _FRESH + i


# mpremote's raw REPL as the app answers it, one constant (each is an object in the 64K heap),
# written in parts (buffer, offset, length): a command's error (OK, its empty output, then the
# line as its error, the prompt); the line alone; the banner; a soft reboot; raw paste refused.
_RAW = (b"OK\x04\r\nShogun Tower: its app runs and keeps this port; run `shogun-tower repl "
        b"--port PORT` first (make deploy does), then mpremote\r\n\x04>"
        b"OK\r\nMPY: soft reboot\r\nraw REPL; CTRL-B to exit\r\n>R\x00")
_RAW_LINE = const(3)
_RAW_LINE_N = const(127)
_RAW_ERROR_N = const(132)
_RAW_REBOOT = const(132)
_RAW_REBOOT_N = const(49)
_RAW_BANNER = const(154)
_RAW_BANNER_N = const(27)
_RAW_PASTE = const(181)

# Why a command is refused, a reason a line (line(): one object in the 64K heap, not one each)
_W_TYPE = const(0)
_W_WINDOW = const(1)
_W_FAILED = const(2)
_W_VERSION = const(3)
_W_HELLO = const(4)
_W_PING = const(5)
_W_CONFIRM = const(6)
_W_NO_NONCE = const(7)
_W_EXPIRED = const(8)
_W_WRONG_NONCE = const(9)
_W_NO_PAYLOAD = const(10)
_WHY = ("unknown message type 0x%02x\n"
        # (the three refusals of the window, E_AHEAD, E_STALE, E_REUSED: the code says which)
        "seq %d: not run: the newest is %d (a repeat no longer kept, a number far ahead or used "
        "for another command)\n"
        "0x%02x: %s\n"
        "protocol: board %d, host %d\n"
        "hello: 5 bytes (version, session)\n"
        "ping: 4 bytes\n"
        "repl_confirm: 4 bytes (nonce)\n"
        "repl_confirm: no nonce given (send repl)\n"
        "repl_confirm: the nonce expired (1 s)\n"
        "repl_confirm: wrong nonce\n"
        "0x%02x takes no payload\n")


def readable(stream):
    """Awaited: the task sleeps in asyncio's poller until ``stream`` has bytes to read (what
    asyncio's Stream.readinto does before it reads, without importing asyncio.stream: its
    classes cost 1.9 KB of heap here, about 1 KB on a board). For the boards' serial_receive."""
    yield asyncio.core._io_queue.queue_read(stream)


def wake(task):
    """Run ``task``, which awaits a sleep_ms, at the loop's next turn instead (asyncio's own way
    to bring a sleeping task forward, as its Task.cancel does). Only for a task known to sleep:
    one that waits on anything else is in no such queue. A cancelled one is left alone: it
    carries its CancelledError in ``data``, which the queue's push would clear."""
    if task.data is None:
        queue = asyncio.core._task_queue
        queue.remove(task)
        queue.push(task)


def refuse(code, reason):
    """A handler's answer when it applies nothing."""
    return P.REFUSED, P.pack_text(code, reason)


def line(text, k):
    """Line ``k`` of ``text`` (each line ends in a newline): a module's refusals kept as one
    string constant, one object in the 64K heap instead of one a reason."""
    i = 0
    while k:
        i = text.find("\n", i) + 1
        k -= 1
    return text[i:text.find("\n", i)]


OK = (P.OK, b"")


class Link:
    def __init__(self, board, version):
        self.board = board
        self.version = version
        self.reader = P.FrameReader()
        self.outbox = P.Outbox(window=_WINDOW, rto_ms=_RTO_MS, slots=_EVENT_SLOTS,
                               room=_EVENT_ROOM)
        self.boot_id = board.random32()
        self.running = True
        self.detector = None     # the app's components, for the commands they serve
        self.track = None
        self.classifier = None
        self.failure = None      # an exception in another task: the app resets the board
        self._batching = None    # the receiving task while it sleeps out a batch in a throw
        self._write = board.serial_write
        # The command table: for each command type, 1 + the index of its handler in
        # _handlers (0: none), plus _CHANGES when the command changes something.
        self._table = bytearray(_TYPES)
        self._handlers = []      # handler(link, type, payload) -> (reply type, payload) or None
        self._kept = bytearray(_KEPT_ALL)  # type 0: an empty slot; the boot id, the window
        struct.pack_into("<I", self._kept, _BOOT_AT, self.boot_id)
        self._v = array.array("I", bytes(4 * _V_SIZE))
        self._v[_V_TOP] = self._v[_V_FLOOR] = _NONE
        self._v[_V_HEAP_FREE] = gc.mem_free()
        self._v[_V_GC_MS] = board.ticks_ms()
        for mtype in (P.HELLO, P.ACK, P.PING, P.STATUS_GET):
            self.serve(mtype, Link._own)
        self.serve(P.REPL, Link._own, True)
        self.serve(P.REPL_CONFIRM, Link._own, True)

    # (The tests read self._v's counters by index, _V_REPEATS, _V_COUNTING: a property here
    # cost the 64K heap about 100 bytes each.)

    def serve(self, mtype, handler, changes=False):
        """Answer commands of type ``mtype`` with ``handler(link, mtype, payload)``, which checks
        every field before it changes anything and returns (reply type, reply payload), or
        reply type << 8 | payload length for a payload it packed into P.SCRATCH, or None for
        no reply. ``changes``: the command changes something; a repeat gets the kept reply."""
        if handler not in self._handlers:
            self._handlers.append(handler)
        self._table[mtype] = 1 + self._handlers.index(handler) + (_CHANGES if changes else 0)

    # ---- events -------------------------------------------------------------------------------
    @micropython.native
    def send_event(self, mtype, payload):
        """Keep the event until the host acknowledges it, and send it now. ``payload``: its
        bytes, or how many of them are in P.SCRATCH's payload (P.pack_cube_into: nothing
        allocated)."""
        # (native: its frame on the C stack, none taken from the heap; the event is framed in
        # the outbox's ring)
        v = self._v
        outbox = self.outbox
        if not v[_V_COUNTING]:
            if type(payload) is int:
                seq = outbox.push_sealed(mtype, payload)
            else:
                seq = outbox.push(mtype, payload)
            if seq is not None:
                b = self.board
                outbox.send_due(b.ticks_ms(), b.ticks_diff, self._write)
                return
        # (counting allocates nothing: the payload is read where it is)
        at = 0
        if type(payload) is int:
            payload = P.SCRATCH
            at = 3
        v[_V_COUNTING] = 1
        if mtype == P.CUBE:
            colour = payload[at + 8]
            v[_T + (colour if colour < _UNKNOWN else _UNKNOWN)] += 1
            v[_T_LAST] = P.le(payload, at, 4)
            if not v[_T_FIRST]:
                v[_T_FIRST] = v[_T_LAST]
        elif mtype == P.THROW_END:
            v[_T_THROWS] += 1
            v[_T_THROW_NO] = P.le(payload, at, 4)
            v[_T_HW] = P.le(payload, at + 6, 4)
        else:
            v[_T_OTHER] += 1

    def _send_tally(self):
        v = self._v
        d = self.detector
        n = P.pack_summary_into(v[_T_FIRST], v[_T_LAST], v[_T_THROWS], v[_T_OTHER],
                                v[_T_THROW_NO], d.hardware_count() if d else v[_T_HW], v, _T)
        if self.outbox.push_sealed(P.SUMMARY, n) is not None:
            v[_V_COUNTING] = 0
            for i in range(_T, _T_END):
                v[i] = 0

    def failed(self, loop, context):
        """The loop's exception handler (the app sets it): an exception in a task would only end
        that task (asyncio would print it and go on); run() raises it out of asyncio.run. (A
        handler, not a wrapper coroutine per task: no generator frame of its own in the heap
        and no extra level in every resumption.)"""
        self.failure = context["exception"]

    def throw_ended(self):
        """The detector's, once a throw's end is sent: the host answers it at once (the
        verdict's SCORES), so the receiving task reads now, not at its batch's end (up to
        _BATCH_MS later); it wakes the score track, whose frames the throw held, in its step."""
        task = self._batching
        if task is not None:
            self._batching = None
            wake(task)

    # ---- the loop -----------------------------------------------------------------------------
    def _flush(self):
        b = self.board
        self.outbox.send_due(b.ticks_ms(), b.ticks_diff, self._write)

    async def run(self):
        """The link's clock: housekeeping every _TICK_MS. Returns when the host asks for the
        REPL; raises what failed in another task (the app sets self.failure)."""
        board = self.board
        receiver = asyncio.create_task(self._receive())
        try:
            while self.running:
                if self.failure is not None:
                    raise self.failure
                if self._v[_V_COUNTING]:
                    self._send_tally()
                self._flush()  # resends, when the host is silent
                self.housekeeping(board.ticks_ms())
                # (in a throw _receive reads every _BATCH_MS and resends itself when the host
                # is silent: fewer steps here)
                if self.detector.active():
                    await asyncio.sleep_ms(_THROW_TICK_MS)
                elif self._v[_V_GC_STAGE] == 2:
                    await asyncio.sleep_ms(0)  # what the collection left, before new garbage
                else:
                    await asyncio.sleep_ms(_TICK_MS)
        finally:
            receiver.cancel()

    async def _receive(self):
        # Between throws asleep until the host's bytes come (board.serial_receive: asyncio's
        # poller on the serial port); in a throw, while the host acknowledges every few ms, a
        # read every _BATCH_MS (nothing read: resends, if due). Then every frame of what was
        # waiting: in the read's step its ACKs (cumulative: only the newest is opened); in
        # the next steps each STATUS, PING and other command in a step of its own (two in one
        # step would hold the loop for both). The score track is woken here, in a step
        # of its own: after a command that gave it a new frame, and once a throw that held its
        # frames has ended.
        board = self.board
        detector = self.detector
        reader = self.reader
        track = self.track
        me = asyncio.current_task()
        throwing = False
        full = False
        try:
            while self.running:
                if detector is not None and detector.active():
                    throwing = True
                    if full:
                        await asyncio.sleep_ms(0)  # the last read left bytes waiting
                    else:
                        self._batching = me  # (the throw's end wakes it: throw_ended)
                        await asyncio.sleep_ms(_BATCH_MS)
                        self._batching = None
                    data = board.serial_read(_READ_MOST)
                else:
                    if throwing:
                        throwing = False
                        if track is not None and track.news():
                            await asyncio.sleep_ms(0)
                            track.wake()
                    data = await board.serial_receive(_READ_MOST)
                full = data is not None and len(data) == _READ_MOST
                if not data:
                    self._flush()  # a silent host: resends when due (run() waits longer now)
                    continue
                n = len(data)
                if data[n - 1] == 1 and n > 1 and data[n - 2] == 13 or self._v[_V_RAW]:
                    self._raw(data, n)  # mpremote (see the top of this file)
                reader.scan(data, P.ACK)
                more = self._take(-1)  # the ACKs; the commands in the next steps
                if more and not reader.hold():
                    while more:  # (a read too long to keep: all of it now)
                        more = self._take(1)
                        if type(more) is tuple:
                            self._apply(more, False)
                while more:
                    await asyncio.sleep_ms(0)  # (the reader keeps the bytes: a copy)
                    more = self._take(1)
                    if type(more) is tuple:
                        # a command: its handler in a step of its own, its reply in the next
                        await asyncio.sleep_ms(0)
                        r = self._apply(more, True)
                        if r is not None:
                            await asyncio.sleep_ms(0)
                            self._apply(r, False)
                if track is not None and track.news():
                    # a frame the commands made: shown now, not at the track's next beat (the
                    # wake in a step of its own: a reply's step with it came over 2 ms at R high)
                    await asyncio.sleep_ms(0)
                    track.wake()
        except Exception as exc:  # noqa: BLE001 - the app resets the board (run raises it)
            self.failure = exc
        finally:
            self._batching = None  # (cancelled in its sleep: nothing to wake)

    def _raw(self, data, n):
        # mpremote, by what a read of it ends with (one byte looked at per read otherwise),
        # _V_RAW 1 at its prompt, 2 a command on its way: Ctrl-A ("\r\x01") the banner; raw
        # paste ("\x05A\x01") not offered; Ctrl-D alone at the prompt a soft reboot; a
        # command's Ctrl-D its error, the line that says what to do. Frames (a zero byte) end
        # it. (A method of its own: _receive's bytecode in one run of the heap where the
        # firmware is compiled from source.)
        v = self._v
        last = data[n - 1]
        if P._find0(data, 0, n) < n:
            v[_V_RAW] = 0
        elif last == 1:
            if data[n - 2] == 13:
                self._write(_RAW, _RAW_LINE, _RAW_LINE_N)
                self._write(_RAW, _RAW_BANNER, _RAW_BANNER_N)
            else:
                self._write(_RAW, _RAW_PASTE, 2)
            v[_V_RAW] = 1
        elif last == 4 and n == 1 and v[_V_RAW] == 1:
            self._write(_RAW, _RAW_REBOOT, _RAW_REBOOT_N)
        elif last == 4:
            self._write(_RAW, 0, _RAW_ERROR_N)
            v[_V_RAW] = 1
        else:
            v[_V_RAW] = 2

    @micropython.native
    def _take(self, room):
        # The frames scanned, each opened into the reader's body: the newest ACK (first of
        # all: FrameReader.next); with ``room`` 0 or more one STATUS or PING too (answered
        # without allocating; whatever follows it waits for the next call); with ``room``
        # 1 one other command instead, if it comes first (whatever follows it waits):
        # handle() checks it, and returns it for its handler's step (_apply), as this does.
        # True when frames may wait for the next call (after a task switch), False when none
        # is left.
        reader = self.reader
        body = reader.body
        v = self._v
        n = v[_V_WAITING]  # a command opened by the last call
        v[_V_WAITING] = 0
        while True:
            if not n:
                n = reader.next()
                if not n:
                    return False
            mtype = body[0]
            if mtype != P.ACK:
                seq = body[1] | body[2] << 8
                # STATUS and PING: answered without allocating, each in a step of its own,
                # the ACK after it in the next (the read's step, a handler's step,
                # STATUS with PING, and STATUS with an ACK each came near the ESP32's 2 ms
                # stall budget)
                if room >= 0 and ((mtype == P.STATUS_GET and n == 3)
                                  or (mtype == P.PING and n == 7)):
                    # in the window (handle() refuses one that is not): new, the newest
                    d = (seq - v[_V_TOP]) & 0xFFFF
                    if v[_V_TOP] == _NONE or 0 < d <= _SEQ_WINDOW:
                        v[_V_TOP] = seq
                        d = 0
                    if d == 0 or d > 0x10000 - _SEQ_WINDOW:
                        v[_V_COMMANDS] += 1
                        if mtype == P.PING:
                            self._pong(seq, body)
                        else:
                            self._status(seq)
                        return True
                if room <= 0:
                    v[_V_WAITING] = n
                    return True
                room = -1
                r = self.handle(mtype, seq, bytes(body[3:n]), True)
                if r is not None:
                    return r
                n = 0
                continue
            # an ACK for an earlier boot acknowledges nothing; an ACK is never answered, not
            # even a malformed one
            v[_V_COMMANDS] += 1
            k = self._kept
            if (n == 9 and body[5] == k[_BOOT_AT] and body[6] == k[_BOOT_AT + 1]
                    and body[7] == k[_BOOT_AT + 2] and body[8] == k[_BOOT_AT + 3]):
                outbox = self.outbox
                outbox.ack(body[3] | body[4] << 8)
                if v[_V_COUNTING]:
                    self._send_tally()
                if outbox.waiting():  # the window moved on: what waited goes now
                    b = self.board
                    outbox.send_due(b.ticks_ms(), b.ticks_diff, self._write)
            n = 0

    def housekeeping(self, now):
        # The watchdog is fed only while every task shows it is alive: a task stuck in a loop
        # (or dead) resets the board.
        if (self.detector.beats | (4 if self.track.beat else 0)) == _ALL_BEATS:
            self.board.feed_watchdog()
            self.detector.beats = 0
            self.track.beat = False
        if self.detector.active():
            return  # never a collection in a throw: it is the longest stall of the loop
        # Between throws, after a throw (its events, their frames' views, the commands it
        # brought), at most every _GC_IDLE_MS / 10, and every _GC_IDLE_MS in any case. No
        # looking at the heap otherwise: gc.mem_alloc() and gc.mem_free() each scan its whole
        # allocation table (6-15 us on the unix port, 0.5-1.2 ms on an ESP32). The heap's work
        # takes four ticks, each a step of its own (the scan for the peak, the
        # collection and the two scans after it came to 4-7 ms on an ESP32 in one step; a scan
        # is a quarter of the collection's step by instruction count): the scan for the peak;
        # the collection alone; the scan of what it left (live: the loop's next pass, little
        # garbage yet); the scan for what is free, a tick later. A throw that came between
        # the collection and a scan (events sent since) left its garbage: no reading then; nor
        # of what is live when the loop's next pass came late (the loop held up, a host's
        # burst of commands: their garbage; on a loaded laptop the simulated board's catch-up
        # of its colour samples, floats). (The heap still collects by itself if it runs out.)
        # (Few locals, none for the stage: a frame over 11 words would be taken from the heap
        # at every tick, 136 bytes ten times a second between throws.)
        v = self._v
        if v[_V_GC_STAGE] == 1:
            gc.collect()
            v[_V_GC_MS] = now
            v[_V_GC_SEQ] = self.outbox.next_seq
            v[_V_GC_CMDS] = v[_V_COMMANDS]
            v[_V_GC_STAGE] = 2
            return
        if v[_V_GC_STAGE] and self.outbox.next_seq != v[_V_GC_SEQ]:
            v[_V_GC_STAGE] = 0
            return
        if v[_V_GC_STAGE] == 2:
            # (a command handled since the collection left its garbage, its payload and its
            # reply, as a throw's events do; on the simulated board, a SIM_THROW the throw's
            # schedule too: 30 KB read as live in 2 of 4 .mpy sessions of bench_firmware)
            if (self.board.ticks_diff(now, v[_V_GC_MS]) > _LIVE_LATE_MS
                    or v[_V_COMMANDS] != v[_V_GC_CMDS]):
                v[_V_GC_STAGE] = 0  # (late, or a command came: again in _GC_IDLE_MS / 10)
                v[_V_GC_SEQ] = _NO_SEQ
                return
            v[_V_HEAP_LIVE] = gc.mem_alloc()
            if v[_V_HEAP_LIVE] > v[_V_LIVE_MAX]:
                v[_V_LIVE_MAX] = v[_V_HEAP_LIVE]
            v[_V_GC_STAGE] = 3
            return
        if v[_V_GC_STAGE] == 3:
            v[_V_HEAP_FREE] = gc.mem_free()
            v[_V_GC_STAGE] = 0
            return
        since = self.board.ticks_diff(now, v[_V_GC_MS])
        if since < _GC_IDLE_MS // 10:
            return
        if self.outbox.next_seq == v[_V_GC_SEQ] and since < _GC_IDLE_MS:
            return
        used = gc.mem_alloc()
        if used > v[_V_PEAK]:
            v[_V_PEAK] = used
        v[_V_GC_STAGE] = 1

    # ---- commands -----------------------------------------------------------------------------
    def handle(self, mtype, seq, payload, later=False):
        # (bytecode: rare commands; native it would take 2.2 KB more of the ESP32's IRAM,
        # where native code lives, for ~200 B of heap a command). ``later``: the command is
        # returned, its handler and its reply for the caller's next steps (_apply: the CPU work's
        # 2 ms stall budget); a repeat or a refusal goes now.
        v = self._v
        v[_V_COMMANDS] += 1
        entry = self._table[mtype] if mtype < _TYPES else 0
        if not entry:
            answer = refuse(P.E_UNKNOWN_TYPE, line(_WHY, _W_TYPE) % mtype)
            self._write(P.frame(answer[0], seq, answer[1]))
            return None
        handler = self._handlers[(entry & ~_CHANGES) - 1]
        changes = entry & _CHANGES
        slot = -1
        if mtype == P.HELLO:
            v[_V_HELLO_SEQ] = seq  # (its handler makes it the session's newest)
        elif mtype != P.ACK:
            # the window (see the top of this file)
            if changes:
                P.frame(mtype, seq, payload)  # (its digest: the frame's CRC-32, in P.SCRATCH)
            slot = kept_slot(self._kept, seq, v, 3 + len(payload) if changes else -1)
            if slot < -1:
                # not kept, not run (one text for the three refusals: each text is an object
                # in the 64K heap; the code says which)
                answer = refuse(-slot, line(_WHY, _W_WINDOW) % (seq, v[_V_TOP]))
                self._write(P.frame(answer[0], seq, answer[1]))
                return None
            kept = self._kept
            if 0 <= slot < _FRESH and kept[slot + 2] != P.REFUSED:
                v[_V_REPEATS] += 1
                self._write(P.frame(kept[slot + 2], seq,
                                    kept[slot + 4:slot + 4 + kept[slot + 3]]))
                return None
        # (HELLO_REPLY goes before the events its rewind sends again)
        if later and mtype != P.HELLO:
            return handler, mtype, seq, payload, slot, changes
        self._apply((handler, mtype, seq, payload, slot, changes), False)
        return None

    def _apply(self, r, later):
        # ``r``: handle()'s command (handler, type, seq, payload, kept slot, changes): its
        # handler runs, and its reply goes now or (``later``) is returned; or such a reply
        # (type, seq, payload, kept slot, changes): kept for repeats, then written. A reply
        # already in P.SCRATCH (the handler's answer an int, type << 8 | payload length:
        # LED_READ's, STATUS's; nothing allocated, not even a tuple) goes at once: the next
        # step's events would overwrite it.
        if len(r) == 6:
            mtype = r[1]
            try:
                answer = r[0](self, mtype, r[3])
            except (ValueError, IndexError, TypeError) as exc:
                # (P.ProtocolError is a ValueError.) Handlers check before they change
                # anything; this only keeps a check that was forgotten from resetting the board.
                answer = refuse(P.E_BAD_PAYLOAD, line(_WHY, _W_FAILED) % (mtype, exc))
            if answer is None:
                return None
            if type(answer) is int:
                P.sealed(answer >> 8, r[2], answer & 0xFF, self._write)
                return None
            r = (answer[0], r[2], answer[1], r[4], r[5])
            if later and self.running:  # (REPL_CONFIRM's reply goes before the app stops)
                return r
        rtype, seq, rpayload, slot, changes = r
        if changes and (slot >= _FRESH or rtype != P.REFUSED):
            # Kept (its number and digest are, kept_slot's): the reply, a refusal without its
            # text. A refused command whose repeat ran after all keeps the reply in the
            # refusal's slot.
            kept = self._kept
            slot &= 0xFF
            n = 0 if rtype == P.REFUSED else len(rpayload)
            kept[slot + 2] = rtype
            kept[slot + 3] = n
            kept[slot + 4:slot + 4 + n] = rpayload[:n]  # (at most 4 bytes: OK, repl_nonce)
        self._write(P.frame(rtype, seq, rpayload))
        return None

    def _own(self, mtype, p):
        """The link's own commands: the handshake, ACKs, ping, status and the REPL."""
        board = self.board
        v = self._v
        if mtype == P.ACK:
            return None  # (opened where it is read, _take) never answered, not even a bad one
        if mtype == P.HELLO:
            if not p or p[0] != P.PROTOCOL_VERSION:
                return refuse(P.E_VERSION, line(_WHY, _W_VERSION) % (
                    P.PROTOCOL_VERSION, p[0] if p else 0))
            if len(p) != 5:
                return refuse(P.E_BAD_PAYLOAD, line(_WHY, _W_HELLO))
            session = P.le(p, 1, 4)
            kept = self._kept
            if session != v[_V_SESSION]:
                # Another host (or the same one started again): its numbers start anew.
                v[_V_SESSION] = session
                for i in range(0, _KEPT * _KEPT_SIZE, _KEPT_SIZE):
                    kept[i + 2] = 0
                v[_V_KEPT_NEXT] = 0
                v[_V_FLOOR] = _NONE
            # its number is the session's newest (a reconnect, or a host that a stray frame
            # put out of the window: this brings it back)
            v[_V_TOP] = v[_V_HELLO_SEQ]
            # A (re)connecting host: everything not yet acknowledged goes out again, in order.
            self.outbox.rewind()
            return P.HELLO_REPLY, P.pack_hello_reply(
                self.boot_id, self.outbox.oldest_seq(), board.caps, self.version, board.name)
        if mtype == P.PING:
            if len(p) != 4:
                return refuse(P.E_BAD_PAYLOAD, line(_WHY, _W_PING))
            return P.PONG, struct.pack("<II", P.le(p, 0, 4), board.ticks_us())
        if mtype == P.REPL_CONFIRM:
            nonce = v[_V_NONCE]
            v[_V_NONCE] = 0  # one try per nonce
            if len(p) != 4:
                return refuse(P.E_BAD_PAYLOAD, line(_WHY, _W_CONFIRM))
            if not nonce:
                return refuse(P.E_NONCE, line(_WHY, _W_NO_NONCE))
            if board.ticks_diff(board.ticks_ms(), v[_V_NONCE_MS]) > P.REPL_NONCE_MS:
                return refuse(P.E_NONCE, line(_WHY, _W_EXPIRED))
            if P.le(p, 0, 4) != nonce:
                return refuse(P.E_NONCE, line(_WHY, _W_WRONG_NONCE))
            self.running = False  # the app returns to the REPL after this reply
            return OK
        if p:
            return refuse(P.E_BAD_PAYLOAD, line(_WHY, _W_NO_PAYLOAD) % mtype)
        if mtype == P.REPL:
            # First step: a fresh nonce. A stray or replayed frame gets no further than this.
            v[_V_NONCE] = board.random32() | 1
            v[_V_NONCE_MS] = board.ticks_ms()
            return P.REPL_NONCE, struct.pack("<I", v[_V_NONCE])
        self._status(-1)
        return P.STATUS << 8 | _STATUS_SIZE  # (in P.SCRATCH: sealed from there)

    @micropython.native
    def _pong(self, seq, body):
        # PING's reply from the frame opened in ``body`` (its 4 bytes echoed), no allocation
        s = P.SCRATCH
        s[3] = body[3]
        s[4] = body[4]
        s[5] = body[5]
        s[6] = body[6]
        struct.pack_into("<I", s, 7, self.board.ticks_us())
        P.sealed(P.PONG, seq, 8, self._write)

    @micropython.native
    def _status(self, seq):
        """STATUS (protocol.pack_status's bytes) packed into P.SCRATCH's payload, and sent as
        the reply to ``seq`` (unless -1), without allocating."""
        d = self.detector
        t = self.track
        v = self._v
        struct.pack_into("<IIIIHHBBHIIHHHBB", P.SCRATCH, 3, v[_V_HEAP_FREE], d.cubes,
                         d.hardware_count(), d.mismatches, t.frame_ma, t.budget_ma,
                         1 if t.dimmed else 0, t.brightness, len(self.outbox), v[_V_LIVE_MAX],
                         v[_V_PEAK], self.board.edges_lost & 0xFFFF,
                         d.sensor_errors & 0xFFFF, d.chatter & 0xFFFF, d.calibration_colour,
                         1 if t.supply is True else 0)
        if seq >= 0:
            P.sealed(P.STATUS, seq, _STATUS_SIZE, self._write)


del micropython, const  # (the compiler's: two entries less in this module's table, heap)
