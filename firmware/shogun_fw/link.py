# The device's end of the serial link: reads frames, answers commands, and keeps every event in
# the outbox until the host acknowledges it.
import asyncio
import struct

from shogun_common import protocol as P

_POLL_MS = 1
_LED_CHUNK = 60  # LEDs per LED_DATA reply (180 bytes of RGB)


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
                        name = P.NAMES.get(mtype, mtype)
                        self.refuse(seq, P.E_BAD_PAYLOAD, "%s: %s" % (name, exc))
            now = board.ticks_ms()
            for frame in self.outbox.due(now, board.ticks_diff):
                board.serial_write(frame)
            board.feed_watchdog()
            await asyncio.sleep_ms(_POLL_MS)

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
            self.detector.calibration_colour = payload[0]
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
        import gc

        d = self.detector
        t = self.track
        return P.pack_status(gc.mem_free(), d.cubes, d.hardware_count(), d.mismatches, t.frame_ma,
                             t.budget_ma, 1 if t.dimmed else 0, t.brightness, len(self.outbox))
