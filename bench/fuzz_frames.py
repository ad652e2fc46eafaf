# Fuzzed frames against the shared codec, on CPython and on MicroPython (the same file runs on
# both): valid frames of random type, sequence number and payload, damaged on the way (bits and
# bytes flipped, bytes dropped, inserted or repeated, cut short, glued to noise), fed to a
# FrameReader. Every frame the reader gives back must be one that was sent (a false accept is a
# damaged frame taken for a valid one), and nothing may raise.
#
# The frames that come through are then handed on as a receiver would: on CPython to the host's
# decoders (shogun_tower's DeviceLink decodes events with them), on MicroPython to the firmware's
# link with every command registered (the board must answer, never raise, never stop).
#   python bench/fuzz_frames.py N SEED        micropython bench/fuzz_frames.py N SEED
# Prints one JSON line.
import json
import sys

from shogun_common import protocol as P
from shogun_common.rng import Rng

try:
    from micropython import const  # noqa: F401

    MICROPYTHON = True
except ImportError:
    MICROPYTHON = False


# The longest payload, as both interpreters can read it (a board keeps its name private).
MAX_PAYLOAD = len(P.SCRATCH) - 7


def _frame(rng):
    mtype = rng.randbelow(256)
    n = rng.randbelow(MAX_PAYLOAD + 1) if rng.chance(0.1) else rng.randbelow(24)
    payload = bytes(rng.randbelow(256) for _ in range(n))
    return mtype, rng.randbelow(0x10000), payload


def _damage(rng, wire):
    b = bytearray(wire)
    kind = rng.randbelow(7)
    if kind == 0:      # one bit
        i = rng.randbelow(len(b))
        b[i] ^= 1 << rng.randbelow(8)
    elif kind == 1:    # a few bytes replaced
        for _ in range(1 + rng.randbelow(3)):
            i = rng.randbelow(len(b))
            b[i] = rng.randbelow(256)
    elif kind == 2:    # a byte dropped
        i = rng.randbelow(len(b))
        b = b[:i] + b[i + 1:]
    elif kind == 3:    # a byte inserted
        i = rng.randbelow(len(b) + 1)
        b = b[:i] + bytes((rng.randbelow(256),)) + b[i:]
    elif kind == 4:    # a byte repeated
        i = rng.randbelow(len(b))
        b = b[:i + 1] + b[i:]
    elif kind == 5:    # cut short
        b = b[:rng.randbelow(len(b))]
    else:              # noise before it
        b = bytearray(rng.randbelow(256) for _ in range(rng.randbelow(40))) + b
    return bytes(b)


class _Firmware:
    """The firmware's link on the simulated board in virtual time, every command registered."""

    def __init__(self):
        from shogun_fw import commands
        from shogun_fw.boards.sim import SimBoard
        from shogun_fw.colour import Classifier
        from shogun_fw.detector import Detector
        from shogun_fw.link import Link
        from shogun_fw.score_track import ScoreTrack

        board = SimBoard(seed=1, virtual=True, serial=False, flash_dir="/tmp/shogun-fuzz-flash")
        self.written = 0
        board.serial_write = self._write
        self.link = Link(board, "fuzz")
        self.board = board
        self.detector = Detector(board, Classifier(), self.link.send_event)
        commands.serve(self.link, ScoreTrack(board), self.detector, Classifier())
        self.answered = 0
        self._reading = [0] * 6

    def _write(self, data, off=0, n=-1):
        self.written += 1

    def take(self, mtype, seq, payload):
        if mtype == P.REPL_CONFIRM:
            return  # (a right nonce by chance would end the app: 1 in 2**32)
        before = self.written
        self.link.handle(mtype, seq, payload)
        if self.written > before:
            self.answered += 1
        if not self.link.running:
            raise AssertionError("the link stopped")
        self.board.advance(1000)
        self.board.read_colour(self._reading)
        self.detector.step()


class _Host:
    def __init__(self):
        self.decoded = 0
        self.refused = 0
        import shogun_tower.device.link as host_link  # the host's decoder of every event type

        self._decode = host_link._decode_event

    def take(self, mtype, seq, payload):
        try:
            if mtype >= P.EVENTS_FROM:
                self._decode(mtype, payload, 0.0)
            elif mtype == P.HELLO_REPLY:
                P.unpack_hello_reply(payload)
            elif mtype == P.STATUS:
                P.unpack_status(payload)
            elif mtype in (P.REFUSED, P.FATAL):
                P.unpack_text(payload)
            self.decoded += 1
        except P.ProtocolError:
            self.refused += 1  # a clear refusal: what DeviceLink reports and skips


def _frames(reader, wire):
    # what feed() gives, read as the board reads (scan, then next until 0; feed() is the
    # host's only, not compiled on MicroPython)
    reader.scan(wire)
    body = reader.body
    out = []
    while True:
        n = reader.next()
        if not n:
            return out
        out.append((body[0], body[1] | body[2] << 8, bytes(body[3:n])))


def run(n, seed):
    rng = Rng(seed)
    reader = P.FrameReader()
    receiver = _Firmware() if MICROPYTHON else _Host()
    sent = damaged = delivered = false_accepts = exceptions = 0
    first_error = ""
    recent = []  # the last frames sent: a frame whose closing delimiter was lost is closed by
    for _ in range(n):  # a later one's opening delimiter (frames damaged to nothing between)
        frame_sent = _frame(rng)
        mtype, seq, payload = frame_sent
        wire = P.encode_frame(mtype, seq, payload)
        if rng.chance(0.7):
            wire = _damage(rng, wire)
            damaged += 1
        sent += 1
        try:
            for frame in _frames(reader, wire):
                if frame != frame_sent and frame not in recent:
                    false_accepts += 1
                    continue
                delivered += 1
                receiver.take(frame[0], frame[1], frame[2])
        except Exception as exc:  # noqa: BLE001 - counted: the campaign's figure
            exceptions += 1
            if not first_error:
                first_error = f"{type(exc).__name__}: {exc}"
            reader = P.FrameReader()
        recent.append(frame_sent)
        if len(recent) > 8:
            recent.pop(0)
    # the reader still works after all that
    ok = _frames(reader, P.encode_frame(P.PING, 7, b"abcd")) == [(P.PING, 7, b"abcd")]
    return {"interpreter": "micropython" if MICROPYTHON else "cpython", "frames": sent,
            "damaged": damaged, "delivered": delivered, "false_accepts": false_accepts,
            "exceptions": exceptions, "first_error": first_error,
            "bad_frames": reader.bad_frames, "reader_ok_after": ok,
            "answered": getattr(receiver, "answered", getattr(receiver, "decoded", 0))}


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]), int(sys.argv[2]))))
