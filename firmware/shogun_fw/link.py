# The device's end of the serial link: reads frames, answers commands, and keeps every event in
# the outbox until the host acknowledges it.
import asyncio
import gc
import struct

from micropython import const

from shogun_common import protocol as P

_POLL_MS = 1
_LED_CHUNK = 60  # LEDs per LED_DATA reply (180 bytes of RGB)
_GC_MS = const(200)  # a small collection this often keeps pauses short and measures the heap
_ALL_BEATS = const(7)  # detector (1), colour sampling (2), score track (4)


class Link:
    def __init__(self, board, version):
        self.board = board
        self.version = version
        self.reader = P.FrameReader()
        self.outbox = P.Outbox()
        self.boot_id = board.random32()
        self.running = True
        self.detector = None
        self.track = None
        self.classifier = None
        self.commands = 0
        self.failure = None      # an exception in another task: the app resets the board
        self.heap_live = 0       # bytes in use after the last collection
        self.heap_live_max = 0
        self.heap_peak = 0       # the most bytes ever seen in use (garbage included)
        self._gc_ms = board.ticks_ms()

    def send_event(self, mtype, payload):
        self.outbox.push(mtype, payload)

    def reply(self, mtype, seq, payload=b""):
        self.board.serial_write(P.encode_frame(mtype, seq, payload))

    def refuse(self, seq, code, reason):
        self.reply(P.REFUSED, seq, P.pack_text(code, reason))

    async def run(self):
        board = self.board
        while self.running:
            data = board.serial_read()
            if data:
                for mtype, seq, payload in self.reader.feed(data):
                    try:
                        self.handle(mtype, seq, payload)
                    except (ValueError, IndexError, TypeError) as exc:
                        # struct.error is a ValueError: a well-framed but malformed payload
                        self.refuse(seq, P.E_BAD_PAYLOAD, "type 0x%02x: %s" % (mtype, exc))
            now = board.ticks_ms()
            for frame in self.outbox.due(now, board.ticks_diff):
                board.serial_write(frame)
            if self.failure is not None:
                raise self.failure
            self.housekeeping(now)
            await asyncio.sleep_ms(_POLL_MS)

    def housekeeping(self, now):
        # The watchdog is fed only while every task shows it is alive: a task stuck in a loop
        # (or dead) resets the board.
        beats = self.detector.beats | (4 if self.track.beat else 0)
        if beats == _ALL_BEATS:
            self.board.feed_watchdog()
            self.detector.beats = 0
            self.track.beat = False
        used = gc.mem_alloc()
        if used > self.heap_peak:
            self.heap_peak = used
        if self.board.ticks_diff(now, self._gc_ms) >= _GC_MS:
            self._gc_ms = now
            gc.collect()
            self.heap_live = gc.mem_alloc()
            if self.heap_live > self.heap_live_max:
                self.heap_live_max = self.heap_live

    def handle(self, mtype, seq, payload):
        self.commands += 1
        if mtype == P.ACK:
            seq, boot_id = P.unpack_ack(payload)
            if boot_id == self.boot_id:  # an ACK meant for an earlier boot acknowledges nothing
                self.outbox.ack(seq)
        elif mtype == P.HELLO:
            # A (re)connecting host: everything not yet acknowledged goes out again, in order.
            self.outbox.rewind()
            self.reply(P.HELLO_REPLY, seq, P.pack_hello_reply(
                self.boot_id, self.outbox.oldest_seq(), self.board.caps, self.version,
                self.board.name))
        elif mtype == P.PING:
            (host_us,) = struct.unpack("<I", payload)
            self.reply(P.PONG, seq, struct.pack("<II", host_us, self.board.ticks_us()))
        elif mtype == P.SCORES:
            self.track.set_scores(P.unpack_scores(payload))
            self.reply(P.OK, seq)
        elif mtype == P.LED_READ:
            offset, count = struct.unpack("<HH", payload)
            frame = self.track.frame
            total = len(frame) // 3
            count = min(count, _LED_CHUNK, max(0, total - offset))
            self.reply(P.LED_DATA, seq, struct.pack("<HH", offset, total)
                       + bytes(frame[offset * 3:(offset + count) * 3]))
        elif mtype == P.TRACK_CONFIG:
            error = self.track.configure(*struct.unpack("<HHHHBB", payload))
            if error:
                self.refuse(seq, P.E_BAD_PAYLOAD, error)
            else:
                self.reply(P.OK, seq)
        elif mtype == P.ANIMATE:
            kind, colour = struct.unpack("<BB", payload)
            self.track.animate(kind, colour)
            self.reply(P.OK, seq)
        elif mtype == P.STATUS_GET:
            self.reply(P.STATUS, seq, self.status())
        elif mtype == P.REPL:
            self.reply(P.OK, seq)
            self.running = False
        elif mtype == P.CAL_SAMPLE:
            colour = payload[0]
            if colour > 5 and colour != P.CAL_OFF:
                self.refuse(seq, P.E_BAD_PAYLOAD, "cal_sample: colour %d is not 0-5 or 255 "
                            "(calibration off)" % colour)
            elif not self.board.caps & P.CAP_COLOUR:
                self.refuse(seq, P.E_UNSUPPORTED, "cal_sample: no colour sensor answers")
            else:
                self.detector.calibration_colour = colour
                self.reply(P.OK, seq)
        elif mtype == P.CAL_STORE:
            centroids = P.unpack_centroids(payload)
            error = self.classifier.store(self.board, centroids)
            if error:
                self.refuse(seq, P.E_BAD_PAYLOAD, error)
            else:
                self.reply(P.OK, seq)
        elif mtype == P.CAL_GET:
            self.reply(P.CAL_DATA, seq, P.pack_centroids(self.classifier.centroids))
        elif mtype == P.SIM_THROW:
            if not self.board.caps & P.CAP_SIMULATED:
                self.refuse(seq, P.E_UNSUPPORTED, "sim_throw: this is a real tower, throw cubes")
            else:
                self.board.sim_throw(payload)
                self.reply(P.OK, seq)
        elif mtype == P.SIM_TOWER:
            if not self.board.caps & P.CAP_SIMULATED:
                self.refuse(seq, P.E_UNSUPPORTED, "sim_tower: this is a real tower")
            else:
                self.reply(P.SIM_TOWER_DATA, seq, self.board.sim_tower())
        elif mtype == P.SIM_LOAD:
            if not self.board.caps & P.CAP_SIMULATED:
                self.refuse(seq, P.E_UNSUPPORTED, "sim_load: this is a real tower")
            elif len(payload) != 6:
                self.refuse(seq, P.E_BAD_PAYLOAD, "sim_load: 6 counts, one per cube colour")
            else:
                self.board.sim_load(payload)
                self.reply(P.OK, seq)
        elif mtype == P.INJECT:
            count, block_us, gap_us = struct.unpack("<HHH", payload)
            if not self.board.caps & P.CAP_INJECT:
                self.refuse(seq, P.E_UNSUPPORTED, "inject: no inject pin configured")
            elif block_us < 1000 or gap_us < 1000:
                self.refuse(seq, P.E_BAD_PAYLOAD, "inject: blocks and gaps must be >= 1000 us")
            else:
                self.board.inject(count, block_us, gap_us)
                self.reply(P.OK, seq)
        else:
            self.refuse(seq, P.E_UNKNOWN_TYPE, "unknown message type 0x%02x" % mtype)

    def status(self):
        d = self.detector
        t = self.track
        return P.pack_status(gc.mem_free(), d.cubes, d.hardware_count(), d.mismatches, t.frame_ma,
                             t.budget_ma, 1 if t.dimmed else 0, t.brightness, len(self.outbox),
                             self.heap_live_max, self.heap_peak, self.board.edges_lost,
                             d.sensor_errors, d.chatter, d.calibration_colour)
