# The firmware's link on MicroPython: every command type with boundary and out-of-range payloads
# (table below) is REFUSED with a code, applies nothing and leaves the board running; commands
# run once per sequence number; the outbox is bounded and counts what it cannot hold; the REPL
# opens only after the nonce handshake.
import struct

import host_part  # noqa: F401 - the host-only decoders, for the tests
import micropython

from shogun_common import protocol as P
from shogun_fw import commands
from shogun_fw.boards.sim import SimBoard
from shogun_fw.colour import Classifier
from shogun_fw.detector import Detector
from shogun_fw.link import Link
from shogun_fw.score_track import ScoreTrack

SESSION = struct.pack("<BI", P.PROTOCOL_VERSION, 77)
_REPEATS = 6    # link.py's _V_REPEATS, _V_COUNTING: indices of Link._v
_COUNTING = 11


class _Bench:
    """The app's objects around a link on the simulated board in virtual time (no asyncio)."""

    def __init__(self, board=None):
        self.board = board or SimBoard(seed=3, virtual=True, serial=False,
                                       flash_dir="/tmp/shogun-mpy-test-flash")
        self.written = []
        # (copies: the link writes buffers it reuses, or a part of one)
        self.board.serial_write = lambda data, off=0, n=-1: self.written.append(
            bytes(data if n < 0 else data[off:off + n]))
        self.link = Link(self.board, "test")
        self.track = ScoreTrack(self.board)
        self.classifier = Classifier()
        self.detector = Detector(self.board, self.classifier, self.link.send_event)
        commands.serve(self.link, self.track, self.detector, self.classifier)
        self.seq = 0
        self.send(P.HELLO, SESSION)

    def send(self, mtype, payload=b"", seq=None):
        """The replies (type, seq, payload) to one command."""
        if seq is None:
            self.seq += 1
            seq = self.seq
        del self.written[:]
        self.link.handle(mtype, seq, payload)
        reader = P.FrameReader()
        out = []
        for data in self.written:
            out.extend(reader.feed(data))
        return out

    def state(self):
        """Everything a command could change."""
        b = self.board
        return (bytes(self.track.scores), bytes(self.track.frame), self.track.vp_len,
                self.track.brightness, self.track.budget_ma, self.track._anim_left,
                self.track.supply, b.supply_5v(),
                self.detector.calibration_colour, list(self.classifier.centroids),
                bytes(b.sim_tower()), b.throws, len(b._blocks), b.injecting,
                self.link.running)


def _u16(*values):
    return struct.pack("<%dH" % len(values), *values)


# (command, payload, why it is refused); each row must be refused with E_BAD_PAYLOAD or
# E_UNSUPPORTED and change nothing.
REFUSED = [
    (P.HELLO, bytes((P.PROTOCOL_VERSION,)), "hello without its session"),
    (P.HELLO, SESSION + b"x", "hello with extra bytes"),
    (P.PING, b"", "ping without the host time"),
    (P.PING, bytes(5), "ping too long"),
    (P.SCORES, b"", "no player"),
    (P.SCORES, bytes((9, 1, 0, 0)), "colour 9"),
    (P.SCORES, bytes((5, 1, 0, 0)), "green is not a player"),
    (P.SCORES, bytes((1, 1, 0, 0)) * 2, "a player twice"),
    (P.SCORES, bytes((1, 1, 0, 0)) * 6, "six players"),
    (P.SCORES, bytes((1, 1, 0)), "3 bytes"),
    (P.SCORES, bytes((1, 1, 0, 0, 2)), "5 bytes"),
    (P.LED_READ, bytes(3), "led_read 3 bytes"),
    (P.LED_READ, bytes(5), "led_read 5 bytes"),
    (P.TRACK_CONFIG, _u16(82, 0, 81, 370) + bytes((128, 0)), "82 VP LEDs"),
    (P.TRACK_CONFIG, _u16(0, 0, 81, 370) + bytes((128, 0)), "no VP LED"),
    (P.TRACK_CONFIG, _u16(81, 19, 65535, 370) + bytes((128, 0)), "strip of 65554 LEDs"),
    (P.TRACK_CONFIG, _u16(81, 5, 81, 370) + bytes((128, 0)), "rice of 5"),
    (P.TRACK_CONFIG, _u16(81, 0, 81, 59) + bytes((128, 0)), "budget 59 mA"),
    (P.TRACK_CONFIG, _u16(81, 0, 81, 370) + bytes((128,)), "9 bytes"),
    (P.TRACK_CONFIG, _u16(81, 0, 81, 370) + bytes((128, 0, 0)), "11 bytes"),
    (P.ANIMATE, bytes((P.ANIM_BATTLE, 200)), "colour 200"),
    (P.ANIMATE, bytes((P.ANIM_BATTLE, 6)), "colour 6"),
    (P.ANIMATE, bytes((0, 1)), "animation 0"),
    (P.ANIMATE, bytes((P.ANIM_BATTLE,)), "1 byte"),
    (P.ANIMATE, bytes((P.ANIM_BATTLE, 1, 0)), "3 bytes"),
    (P.SEGMENTS, bytes((0, 0, 1)), "segments 3 bytes"),
    (P.SEGMENTS, bytes((0, 0, 1, 1)) * 26, "26 runs"),
    (P.SEGMENTS, _u16(80) + bytes((2, 1)), "a run past the strip's 81 LEDs"),
    (P.SEGMENTS, _u16(0) + bytes((1, 8)), "segment colour 8"),
    (P.STATUS_GET, b"\x00", "status_get with a payload"),
    (P.CAL_SAMPLE, bytes((6,)), "colour 6"),
    (P.CAL_SAMPLE, bytes((254,)), "colour 254"),
    (P.CAL_SAMPLE, b"", "no colour"),
    (P.CAL_SAMPLE, bytes((1, 1)), "2 bytes"),
    (P.CAL_STORE, b"", "empty"),
    (P.CAL_STORE, bytes((1,)), "one centroid announced, none given"),
    (P.CAL_STORE, bytes((1, 9)) + _u16(1, 1, 1, 100), "colour 9"),
    (P.CAL_STORE, bytes((1, 1)) + _u16(1, 1, 1, 0), "threshold 0"),
    (P.CAL_STORE, bytes((2, 1)) + _u16(1, 1, 1, 9) + bytes((1,)) + _u16(1, 1, 1, 9),
     "a colour twice"),
    (P.CAL_STORE, bytes((0,)), "no centroid"),
    (P.CAL_STORE, bytes((1, 1)) + _u16(1, 1, 1, 100) + b"x", "extra byte"),
    (P.CAL_GET, b"\x01", "cal_get with a payload"),
    (P.SIM_THROW, bytes(7), "extra byte"),
    (P.SIM_THROW, bytes((100, 0, 0, 0, 0, 0)), "100 black"),
    (P.SIM_THROW, bytes((0, 0, 0, 0, 0, 21)), "21 farmers"),
    (P.SIM_THROW, bytes((62, 3, 0, 0, 0, 0)), "65 cubes in one throw"),
    (P.SIM_THROW, bytes(5), "5 counts"),
    (P.SIM_LOAD, bytes((63, 0, 0, 0, 0, 0)), "63 black"),
    (P.SIM_LOAD, bytes((0, 0, 0, 0, 0, 255)), "255 farmers"),
    (P.SIM_LOAD, bytes(7), "7 counts"),
    (P.SIM_LOAD, bytes((20, 20, 20, 0, 0, 5)), "65 cubes"),
    (P.SIM_TOWER, b"\x00", "sim_tower with a payload"),
    (P.SIM_SUPPLY, b"", "sim_supply without its byte"),
    (P.SIM_SUPPLY, b"\x02", "sim_supply 2"),
    (P.SIM_SUPPLY, b"\x01\x00", "sim_supply 2 bytes"),
    (P.INJECT, _u16(10, 999, 5000), "block 999 us"),
    (P.INJECT, _u16(10, 5000, 999), "gap 999 us"),
    (P.INJECT, _u16(10, 5000), "4 bytes"),
    (P.INJECT, _u16(10, 5000, 5000) + b"x", "7 bytes"),
    (P.REPL, b"\x00", "repl with a payload"),
    (P.REPL_CONFIRM, bytes(3), "3-byte nonce"),
    (P.ACK + 0x60, b"", "unknown type 0x62"),
    (0x7F, bytes(200), "unknown type 0x7f"),
]

# (command, payload) accepted at the edge of the range.
ACCEPTED = [
    (P.SCORES, bytes((4, 0xFF, 0xFF, 0xFF)), P.OK),
    (P.SCORES, b"".join(bytes((c, 80, 0, 18)) for c in range(5)), P.OK),
    (P.ANIMATE, bytes((P.ANIM_BATTLE, 5)), P.OK),
    (P.SEGMENTS, b"", P.OK),
    (P.SEGMENTS, _u16(0) + bytes((81, 7)), P.OK),
    (P.SEGMENTS, (_u16(80) + bytes((1, 5))) * 25, P.OK),
    (P.LED_READ, _u16(65535, 65535), P.LED_DATA),
    (P.CAL_SAMPLE, bytes((P.CAL_OFF,)), P.OK),
    (P.CAL_SAMPLE, bytes((5,)), P.OK),
    (P.SIM_LOAD, bytes((10, 10, 10, 10, 4, 20)), P.OK),
    (P.SIM_THROW, bytes((62, 2, 0, 0, 0, 0)), P.OK),
    (P.INJECT, _u16(65535, 1000, 1000), P.OK),
    (P.TRACK_CONFIG, _u16(81, 19, 81, 60) + bytes((255, 1)), P.OK),
    (P.STATUS_GET, b"", P.STATUS),
    (P.SIM_TOWER, b"", P.SIM_TOWER_DATA),
    (P.SIM_SUPPLY, b"\x01", P.OK),
    (P.SIM_SUPPLY, b"\x00", P.OK),
]


def test_every_bad_payload_is_refused_and_applies_nothing():
    bench = _Bench()
    for mtype, payload, why in REFUSED:
        before = bench.state()
        replies = bench.send(mtype, payload)
        assert len(replies) == 1, (why, replies)
        rtype, _seq, rpayload = replies[0]
        assert rtype == P.REFUSED, (why, rtype)
        code, reason = P.unpack_text(rpayload)
        assert code in (P.E_BAD_PAYLOAD, P.E_UNKNOWN_TYPE, P.E_UNSUPPORTED), (why, code)
        assert reason, why
        assert bench.state() == before, why
        # and the board keeps running: the next command is served
        assert bench.send(P.STATUS_GET)[0][0] == P.STATUS, why


def test_boundary_payloads_are_accepted_and_the_board_keeps_running():
    bench = _Bench()
    for mtype, payload, answer in ACCEPTED:
        replies = bench.send(mtype, payload)
        assert [r[0] for r in replies] == [answer], (mtype, payload, replies)
        reading = [0] * 6
        for _ in range(50):  # the detector and the track go on with what was set
            bench.board.advance(2000)
            bench.board.read_colour(reading)
            bench.detector.step()
        bench.track.render(1)


def test_a_real_board_refuses_the_simulated_towers_commands():
    from fakes import FakeBoard

    board = FakeBoard()
    board.throws = 0
    link = Link(board, "test")
    commands.serve(link, None, None, None)
    for seq, (mtype, payload) in enumerate(((P.SIM_THROW, bytes(6)), (P.SIM_LOAD, bytes(6)),
                                            (P.SIM_TOWER, b""), (P.SIM_SUPPLY, b"\x01"),
                                            (P.INJECT, _u16(1, 5000, 5000)))):
        del board.written[:]
        link.handle(mtype, 1 + seq, payload)
        ((rtype, _seq, rpayload),) = P.FrameReader().feed(b"".join(board.written))
        assert rtype == P.REFUSED and rpayload[0] == P.E_UNSUPPORTED, mtype


def test_a_repeated_command_runs_once_and_gets_the_same_reply():
    bench = _Bench()
    throw = bytes((0, 5, 0, 0, 0, 0))
    first = bench.send(P.SIM_THROW, throw, seq=40)
    again = bench.send(P.SIM_THROW, throw, seq=40)
    assert first == again == [(P.OK, 40, b"")]
    assert bench.board.throws == 1
    assert bench.link._v[_REPEATS] == 1
    # a new number is a new command
    bench.send(P.SIM_THROW, throw, seq=41)
    assert bench.board.throws == 2
    # a nonce is kept too: the repeat of repl gets the same nonce
    a = bench.send(P.REPL, seq=42)
    b = bench.send(P.REPL, seq=42)
    assert a == b and a[0][0] == P.REPL_NONCE


def test_a_repeat_older_than_every_kept_reply_is_refused_not_run():
    bench = _Bench()
    for seq in range(100, 120):
        bench.send(P.SIM_LOAD, bytes(6), seq=seq)
    throws = bench.board.throws
    ((rtype, _s, rpayload),) = bench.send(P.SIM_THROW, bytes((1, 0, 0, 0, 0, 0)), seq=101)
    assert rtype == P.REFUSED and rpayload[0] == P.E_STALE
    assert bench.board.throws == throws


def test_a_new_host_session_starts_its_numbers_again():
    bench = _Bench()  # (its HELLO was command 1)
    bench.send(P.SIM_THROW, bytes((1, 0, 0, 0, 0, 0)), seq=2)
    bench.send(P.HELLO, struct.pack("<BI", P.PROTOCOL_VERSION, 78), seq=3)
    bench.send(P.SIM_THROW, bytes((1, 0, 0, 0, 0, 0)), seq=2)
    assert bench.board.throws == 2
    # the same session again (a reconnect): its numbers still count
    bench.send(P.HELLO, struct.pack("<BI", P.PROTOCOL_VERSION, 78), seq=4)
    bench.send(P.SIM_THROW, bytes((1, 0, 0, 0, 0, 0)), seq=2)
    assert bench.board.throws == 2


def test_a_refused_command_repeated_is_checked_again_and_runs_at_most_once():
    bench = _Bench()
    bench.board.inject(100, 5000, 5000)  # pulses pending: sim_throw is refused (busy)
    ((rtype, _s, rpayload),) = bench.send(P.SIM_THROW, bytes((2, 0, 0, 0, 0, 0)), seq=9)
    assert rtype == P.REFUSED and rpayload[0] == P.E_BUSY, rpayload
    reading = [0] * 6
    for _ in range(5000):  # 100 pulses of 10 ms, at most
        if not bench.board.injecting:
            break
        bench.board.advance(5000)
        bench.board.read_colour(reading)  # (the colour task's part: the board forgets blocks
        bench.detector.step()             # every reader is done with)
    assert not bench.board.injecting
    assert bench.send(P.SIM_THROW, bytes((2, 0, 0, 0, 0, 0)), seq=9)[0][0] == P.OK
    assert bench.send(P.SIM_THROW, bytes((2, 0, 0, 0, 0, 0)), seq=9)[0][0] == P.OK
    assert bench.board.throws == 1


def test_hello_of_another_version_is_refused_naming_both():
    bench = _Bench()
    for payload in (b"", bytes((1,)), struct.pack("<BI", P.PROTOCOL_VERSION + 1, 5)):
        ((rtype, _s, rpayload),) = bench.send(P.HELLO, payload)
        code, reason = P.unpack_text(rpayload)
        assert rtype == P.REFUSED and code == P.E_VERSION, payload
        assert ("board %d" % P.PROTOCOL_VERSION) in reason, reason
        assert ("host %d" % (payload[0] if payload else 0)) in reason, reason


def test_the_repl_opens_only_with_the_fresh_nonce():
    bench = _Bench()
    link = bench.link
    # a confirm without a nonce, a replayed confirm, a wrong nonce: refused, the app runs on
    ((rtype, _s, rpayload),) = bench.send(P.REPL_CONFIRM, struct.pack("<I", 1234))
    assert rtype == P.REFUSED and rpayload[0] == P.E_NONCE and link.running
    ((_t, _s, nonce),) = bench.send(P.REPL)
    wrong = struct.pack("<I", (P.le(nonce, 0, 4) + 1) & 0xFFFFFFFF)
    assert bench.send(P.REPL_CONFIRM, wrong)[0][0] == P.REFUSED and link.running
    # the nonce was spent by the wrong guess
    assert bench.send(P.REPL_CONFIRM, nonce)[0][0] == P.REFUSED and link.running
    # too late
    ((_t, _s, nonce),) = bench.send(P.REPL)
    bench.board.advance((P.REPL_NONCE_MS + 1) * 1000)
    assert bench.send(P.REPL_CONFIRM, nonce)[0][0] == P.REFUSED and link.running
    # in time
    ((_t, _s, nonce),) = bench.send(P.REPL)
    bench.board.advance(900 * 1000)
    assert bench.send(P.REPL_CONFIRM, nonce) == [(P.OK, bench.seq, b"")]
    assert not link.running
    # every nonce differs
    nonces = set()
    for _ in range(20):
        nonces.add(bytes(bench.send(P.REPL)[0][2]))
    assert len(nonces) == 20


def _events(bench):
    """The events the link wrote since the last call: it sends each event when it is made, and
    the next ones when an ACK moves the window on (as the link's receiving task does)."""
    bench.link._flush()
    out = []
    reader = P.FrameReader()
    for wire in bench.written:
        out.extend(reader.feed(wire))
    del bench.written[:]
    return [f for f in out if f[0] in P.RELIABLE_TYPES]


def test_counting_and_its_summary_allocate_nothing():
    # the board counts when its heap may be at its most broken up. In CI's 64K heap
    # the summary once failed on a 120-byte argument list, and the host got a MemoryError in
    # place of the count.
    if not hasattr(micropython, "heap_lock"):
        print("SKIP heap_lock: not in this build")
        return
    bench = _Bench()
    link = bench.link
    n = 0
    while not link._v[_COUNTING]:
        n += 1
        link.send_event(P.CUBE, P.pack_cube_into(n, 0, n % 6, 90, 7000, 0))
    counted_from = n
    failed = None
    micropython.heap_lock()
    try:
        while n < counted_from + 20:
            n += 1
            link.send_event(P.CUBE, P.pack_cube_into(n, 0, 2, 90, 7000, 0))
    except MemoryError as e:
        failed = e
    finally:
        micropython.heap_unlock()
    assert failed is None, "counting allocated"
    link.outbox.ack(link.outbox.oldest_seq() + len(link.outbox) - 1)
    micropython.heap_lock()
    try:
        link._send_tally()
    except MemoryError as e:
        failed = e
    finally:
        micropython.heap_unlock()
    assert failed is None, "the summary allocated"
    assert not link._v[_COUNTING]
    s = P.unpack_summary(_events(bench)[-1][2])
    assert (s["first_cube"], s["last_cube"]) == (counted_from, n), s
    expected = [0] * 7
    expected[counted_from % 6] += 1
    expected[2] += 20
    assert s["colours"] == expected, s


def test_a_full_outbox_counts_and_sends_one_summary_when_the_host_is_back():
    bench = _Bench()
    link = bench.link
    link.send_event(P.BOOT, struct.pack("<I", link.boot_id) + b"test")
    colours = (0, 1, 1, 2, 255, 5, 4, 3)
    for n in range(1, 201):
        link.send_event(P.CUBE, P.pack_cube(n, 0, colours[n % 8], 90, 7000, 0))
        if n % 40 == 0:
            link.send_event(P.THROW_END, P.pack_throw_end(n // 40, 40, n))
        link.send_event(P.ERROR, P.pack_text(P.E_SENSOR, "x")) if n == 150 else None
    held = len(link.outbox)
    assert held <= 32 and link._v[_COUNTING]
    # the host comes back: it acknowledges what the outbox held; the summary follows them
    got = _events(bench)
    link.outbox.ack(got[-1][1])
    link._send_tally()
    assert not link._v[_COUNTING]
    rest = []
    for _ in range(5):
        batch = _events(bench)
        rest.extend(batch)
        if batch:
            link.outbox.ack(batch[-1][1])
    summaries = [P.unpack_summary(p) for t, _s, p in rest if t == P.SUMMARY]
    assert len(summaries) == 1, rest
    s = summaries[0]
    sent = got + rest
    assert [f[1] for f in sent] == list(range(len(sent))), "each event once, in order"
    cubes = [P.unpack_cube(p) for t, _s, p in sent if t == P.CUBE]
    ends = [p for t, _s, p in sent if t == P.THROW_END]
    assert s["first_cube"] == cubes[-1]["cube_no"] + 1 and s["last_cube"] == 200
    assert sum(s["colours"]) + len(cubes) == 200
    expected = [0] * 7
    for n in range(s["first_cube"], 201):
        c = colours[n % 8]
        expected[c if c < 6 else 6] += 1
    assert s["colours"] == expected
    assert s["throws"] + len(ends) == 5 and s["last_throw"] == 5
    assert s["other"] == 1
    # events go on normally afterwards, numbered after the summary
    link.send_event(P.CUBE, P.pack_cube(201, 0, 1, 90, 7000, 0))
    assert [t for t, _s, _p in _events(bench)] == [P.CUBE]


def _nothing(data, off=0, n=-1):
    pass


def test_an_event_packed_in_place_goes_out_as_the_same_bytes_and_is_counted_when_full():
    # P.pack_cube_into + send_event(CUBE, CUBE_SIZE): the detector's way without allocating
    import micropython

    bench = _Bench()
    link = bench.link
    _events(bench)
    link.send_event(P.CUBE, P.pack_cube(7, 0x3FFFFFFF, 4, 99, 70000, 2))
    n = P.pack_cube_into(7, 0x3FFFFFFF, 4, 99, 70000, 2)
    assert n == P.CUBE_SIZE
    link.send_event(P.CUBE, n)
    a, b = _events(bench)
    assert a[2] == b[2] == P.pack_cube(7, 0x3FFFFFFF, 4, 99, 70000, 2)
    assert b[1] == a[1] + 1
    write = link._write
    link._write = _nothing  # (the test's own copies aside)
    before = micropython.mem_total() if hasattr(micropython, "mem_total") else 0
    for k in range(10):
        link.send_event(P.CUBE, P.pack_cube_into(8 + k, 1000 * k, 1, 90, 7000, 0))
        link.outbox.ack(link.outbox.next_seq - 1)
    if hasattr(micropython, "mem_total"):
        # (not even a view: the ring is written as (buffer, offset, length))
        assert micropython.mem_total() - before == 0, micropython.mem_total() - before
    link._write = write
    # a full outbox counts an event packed in place as any other
    del bench.written[:]
    for k in range(40):
        link.send_event(P.CUBE, P.pack_cube_into(100 + k, 0, 2, 90, 7000, 0))
    assert link._v[_COUNTING]
    assert link._v[16 + 2] > 0  # the tally's colour 2 (link._T + 2)


def test_a_throw_end_packed_in_place_goes_out_as_the_same_bytes_allocating_nothing():
    # P.pack_throw_end_into + send_event(THROW_END, 10): the detector's throw end on the board
    import micropython

    bench = _Bench()
    link = bench.link
    _events(bench)
    link.send_event(P.THROW_END, P.pack_throw_end(3, 40, 0x12345678))
    n = P.pack_throw_end_into(3, 40, 0x12345678)
    assert n == len(P.pack_throw_end(3, 40, 0x12345678))
    link.send_event(P.THROW_END, n)
    a, b = _events(bench)
    assert a[0] == b[0] == P.THROW_END
    assert a[2] == b[2] == P.pack_throw_end(3, 40, 0x12345678)
    assert P.unpack_throw_end(b[2]) == P.unpack_throw_end(a[2])
    link.outbox.ack(link.outbox.next_seq - 1)
    link._write = _nothing
    n = P.pack_throw_end_into(4, 2, 2)  # (a first call may intern or cache)
    micropython.heap_lock()
    try:
        n = P.pack_throw_end_into(4, 2, 2)
        seq = link.outbox.push_sealed(P.THROW_END, n)
    finally:
        micropython.heap_unlock()
    assert seq is not None


def test_commands_left_for_later_steps_survive_the_board_reusing_its_buffer():
    # A read holding a command (left for the next step) and an ACK: the board's buffer is
    # written again before that step (the bench's board does so when the host's bytes come).
    bench = _Bench()
    link = bench.link
    link.send_event(P.CUBE, P.pack_cube(1, 0, 1, 90, 7000, 0))
    _events(bench)
    seq = link.outbox.next_seq - 1
    buf = bytearray(256)
    wire = P.encode_frame(P.SCORES, 50, bytes((1, 12, 0, 3))) + P.encode_frame(
        P.ACK, 51, struct.pack("<HI", seq, link.boot_id))
    buf[:len(wire)] = wire
    link.reader.scan(memoryview(buf)[:len(wire)], P.ACK)
    assert link._take(-1)  # the command waits for a step of its own
    assert link.reader.hold()
    buf[:len(wire)] = bytes(len(wire))  # the board's buffer reused
    _reply_step(link, link._take(1))
    assert not link._take(1)
    replies = P.FrameReader().feed(b"".join(bench.written))
    assert [(t, s) for t, s, _p in replies] == [(P.OK, 50)]
    assert len(link.outbox) == 0  # the ACK was taken too


def test_a_read_takes_only_acks_then_each_command_has_a_step_of_its_own():
    # (the read's step, a handler's step and a step of STATUS with PING each came
    # near the ESP32's 2 ms stall budget alone)
    bench = _Bench()
    link = bench.link
    link.send_event(P.CUBE, P.pack_cube(1, 0, 1, 90, 7000, 0))
    _events(bench)
    del bench.written[:]  # (HELLO's reply, the event)
    seq = link.outbox.next_seq - 1

    def replies():
        return [(t, s) for t, s, _p in P.FrameReader().feed(b"".join(bench.written))]

    buf = bytearray(P.encode_frame(P.STATUS_GET, 60) + P.encode_frame(
        P.PING, 61, struct.pack("<I", 77)) + P.encode_frame(P.SCORES, 62, bytes((1, 12, 0, 3)))
        + P.encode_frame(P.STATUS_GET, 63) + P.encode_frame(
            P.ACK, 64, struct.pack("<HI", seq, link.boot_id)))
    link.reader.scan(memoryview(buf), P.ACK)
    assert link._take(-1)  # the read's step: the ACK (opened first), the commands wait
    assert replies() == [] and len(link.outbox) == 0
    assert link._take(1)  # STATUS; PING after it waits
    assert replies() == [(P.STATUS, 60)]
    assert link._take(1)  # PING; SCORES after it waits
    assert replies() == [(P.STATUS, 60), (P.PONG, 61)]
    r = link._take(1)  # SCORES alone, its checks: it is returned for its handler's step
    assert type(r) is tuple
    assert replies() == [(P.STATUS, 60), (P.PONG, 61)] and link.track.scores == b""
    r = link._apply(r, True)  # its handler; its reply is returned for the step after
    assert link.track.scores == bytes((1, 12, 0, 3))
    assert replies() == [(P.STATUS, 60), (P.PONG, 61)]
    assert link._apply(r, False) is None
    assert replies() == [(P.STATUS, 60), (P.PONG, 61), (P.OK, 62)]
    assert link._kept[2] == P.OK  # kept for repeats
    assert link._take(1)  # the last STATUS: it counts the outbox the ACK emptied
    assert replies() == [(P.STATUS, 60), (P.PONG, 61), (P.OK, 62), (P.STATUS, 63)]
    assert len(link.outbox) == 0
    assert not link._take(1)  # nothing is left
    # a read of ACKs alone is taken in the read's step
    link.send_event(P.CUBE, P.pack_cube(2, 0, 1, 90, 7000, 0))
    buf = bytearray(P.encode_frame(P.ACK, 65, struct.pack("<HI", seq + 1, link.boot_id)))
    link.reader.scan(memoryview(buf), P.ACK)
    assert not link._take(-1) and len(link.outbox) == 0
    # HELLO's reply goes in its own step, before the events its rewind sends again
    del bench.written[:]
    buf = bytearray(P.encode_frame(P.HELLO, 66, SESSION))
    link.reader.scan(memoryview(buf), P.ACK)
    assert link._take(-1)
    assert link._take(1) is False
    assert replies() == [(P.HELLO_REPLY, 66)]


class _Port:
    """What the receiving task uses of a board: reads counted, the bytes of ``waiting`` given
    to the first read between throws, nothing after."""

    def __init__(self, board, waiting=b""):
        self.board = board
        self.reads = 0
        self.waiting = waiting

    def __getattr__(self, name):
        return getattr(self.board, name)

    def serial_read(self, most=256):
        self.reads += 1
        return None

    async def serial_receive(self, most=256):
        import asyncio

        self.reads += 1
        if self.waiting:
            data, self.waiting = self.waiting, b""
            return memoryview(bytearray(data))
        await asyncio.sleep_ms(1000)  # (the host is silent)
        return None

    def serial_write(self, data, off=0, n=-1):
        pass


def test_a_throws_end_wakes_the_receiver_and_the_track_at_once():
    # The host answers a throw's end at once (its verdict's SCORES, then the LEDs): in a throw
    # the receiving task reads every 40 ms (_BATCH_MS) and the track looks at the throw's hold
    # every 100 ms; the end (the detector's `ended`: Link.throw_ended) wakes both, so the next
    # read, and the frame the throw held, come within a few turns of the loop.
    import asyncio

    from fakes import FakeBoard, turns_until

    board = _Port(FakeBoard())
    link = Link(board, "test")
    track = link.track = ScoreTrack(board)
    throwing = [True]

    class _Detector:
        def active(self):
            return throwing[0]

    link.detector = _Detector()
    track.hold = lambda: throwing[0]
    track.set_scores(bytes((1, 12, 0, 0)))
    turns = []

    async def main():
        receiver = asyncio.create_task(link._receive())
        shows = asyncio.create_task(track.run())
        await asyncio.sleep_ms(10)  # both asleep: the receiver's batch, the track's hold
        reads = board.reads
        assert track.writes == 0
        throwing[0] = False
        link.throw_ended()
        turns.append(await turns_until(lambda: board.reads != reads and track.writes != 0))
        receiver.cancel()
        shows.cancel()

    asyncio.run(main())
    assert turns[0] <= 10, turns
    assert track.writes == 1 and board.reads > 0


class _Waiting(_Port):
    """In a throw: the bytes of ``waiting`` for serial_read, as many as a call asks for at most
    (each call's ``most`` kept), and what the link writes."""

    def __init__(self, board, waiting):
        super().__init__(board)
        self.rx = bytearray(waiting)
        self.asked = []
        self.out = bytearray()

    def serial_read(self, most=256):
        self.reads += 1
        self.asked.append(most)
        n = min(most, len(self.rx))
        if not n:
            return None
        data = memoryview(bytearray(self.rx[:n]))  # (a buffer of its own: the board reuses its)
        self.rx = self.rx[n:]
        return data

    def serial_write(self, data, off=0, n=-1):
        self.out.extend(data if n < 0 else data[off:off + n])


def test_in_a_throw_a_long_read_is_taken_a_few_bytes_a_step_and_the_rest_at_once():
    # (the ESP32 drains its stdin a byte at a time: a host's burst in one step would
    # hold the loop for milliseconds) Each read takes at most 64 bytes; what is left is read at
    # the loop's next turns, not a batch (40 ms) later; every command is answered, once, in
    # order.
    import asyncio

    from fakes import FakeBoard, turns_until

    stream = b"".join(P.encode_frame(P.PING, 100 + i, struct.pack("<I", i)) for i in range(16))
    assert len(stream) > 3 * 64
    board = _Waiting(FakeBoard(), stream)
    link = Link(board, "test")

    class _Detector:
        def active(self):
            return True

    link.detector = _Detector()
    turns = []

    def pongs():
        return [(t, s) for t, s, _p in P.FrameReader().feed(bytes(board.out)) if t == P.PONG]

    async def main():
        receiver = asyncio.create_task(link._receive())
        await turns_until(lambda: board.reads > 0)  # the first read: a batch's sleep later
        turns.append(await turns_until(lambda: len(pongs()) == 16))
        receiver.cancel()

    asyncio.run(main())
    assert link.failure is None, link.failure
    assert pongs() == [(P.PONG, 100 + i) for i in range(16)], pongs()
    assert turns[0] < 200, turns  # (a batch's sleep: thousands of turns)
    assert board.asked and max(board.asked) == 64, board.asked
    assert not board.rx


def test_a_command_with_a_new_frame_wakes_the_track_after_its_reply():
    # SCORES between throws: the track's task sleeps out its beat (50 ms); the link wakes it
    # after the command's reply (in a step of its own, not the handler's), so the strip shows
    # the scores within a few turns of the loop.
    import asyncio

    from fakes import FakeBoard, turns_until

    board = _Port(FakeBoard())
    link = Link(board, "test")
    track = ScoreTrack(board)

    class _Detector:
        def active(self):
            return False

    commands.serve(link, track, _Detector(), Classifier())
    turns = []

    async def main():
        shows = asyncio.create_task(track.run())
        await asyncio.sleep_ms(10)  # its first frame written, asleep until its next beat
        writes = track.writes
        board.waiting = P.encode_frame(P.HELLO, 1, SESSION) + P.encode_frame(
            P.SCORES, 2, bytes((1, 12, 0, 3)))
        receiver = asyncio.create_task(link._receive())
        turns.append(await turns_until(lambda: track.writes != writes))
        receiver.cancel()
        shows.cancel()

    asyncio.run(main())
    assert turns[0] <= 20, turns
    assert track.scores == bytes((1, 12, 0, 3)) and board.board.strip[36] > 0  # LED 12 lit (red)


class _HeapLog:
    """Stands in for the gc module in link.py: what the housekeeping asked of the heap."""

    def __init__(self):
        self.calls = []
        self.in_use = 40000

    def collect(self):
        self.calls.append("collect")

    def mem_alloc(self):
        self.calls.append("mem_alloc")
        return self.in_use

    def mem_free(self):
        self.calls.append("mem_free")
        return 20000


def test_status_and_ping_are_answered_without_allocating():
    # (each every 50 and 100 ms while the host watches a throw: read, opened, answered and
    # written as (buffer, offset, length), no view of the frame)
    import micropython

    bench = _Bench()
    link = bench.link
    wrote = []
    link._write = lambda data, off=0, n=-1: wrote.append(bytes(data if n < 0 else
                                                               data[off:off + n]))
    reader = link.reader
    for mtype, payload in ((P.STATUS_GET, b""), (P.PING, b"\x01\x02\x03\x04")):
        first = bytearray(P.encode_frame(mtype, 90, payload))
        frames = [bytearray(P.encode_frame(mtype, 91 + k, payload)) for k in range(11)]
        reader.scan(first, P.ACK)
        link._take(0)  # (a first answer may intern or cache)
        link._write = _nothing
        before = micropython.mem_total()
        for data in frames:
            reader.scan(data, P.ACK)
            link._take(0)
        grew = micropython.mem_total() - before
        assert grew == 0, "0x%02x: %d bytes for 11 answers" % (mtype, grew)
        link._write = lambda data, off=0, n=-1: wrote.append(bytes(data if n < 0 else
                                                               data[off:off + n]))
    replies = [f for data in wrote for f in P.FrameReader().feed(data)]
    assert [(t, s) for t, s, _ in replies] == [(P.STATUS, 90), (P.PONG, 90)], replies
    assert replies[1][2][:4] == b"\x01\x02\x03\x04"


def test_the_links_tick_between_throws_allocates_nothing():
    # (run() calls _flush and housekeeping every tick, ten times a second between throws: a
    # frame over 11 words is taken from the heap at every call, which housekeeping's was, 136
    # bytes a tick; the heap's work in between each stage and the watchdog's feed)
    import micropython

    bench = _Bench()
    link = bench.link
    link._write = _nothing
    now = 20000
    link.housekeeping(now)  # (a first call may intern or cache)
    link._flush()
    before = micropython.mem_total()
    for k in range(30):
        link._flush()
        link.housekeeping(now + 100 * k)  # (every stage of the heap's work comes by)
    grew = micropython.mem_total() - before
    assert grew == 0, "the tick allocated %d bytes in 30 ticks" % grew


def test_the_heaps_work_between_throws_is_four_steps_the_collection_alone_in_its_own():
    # (the collection is the longest step the firmware has; a scan of the heap's
    # table, gc.mem_alloc or gc.mem_free, is a quarter of it on top)
    import shogun_fw.link as link_module

    bench = _Bench()
    link = bench.link
    log = _HeapLog()
    real = link_module.gc
    link_module.gc = log
    try:
        def steps(now, n, late=1):
            # a tick (100 ms) apart, but the step after a collection: the loop's next pass
            out = []
            for _ in range(n):
                del log.calls[:]
                link.housekeeping(now)
                out.append(list(log.calls))
                now += late if log.calls == ["collect"] else 100
            return out

        assert steps(20000, 6) == [["mem_alloc"], ["collect"], ["mem_alloc"], ["mem_free"],
                                   [], []]
        status = P.unpack_status(bench.send(P.STATUS_GET)[0][2])
        assert status["heap_live"] == 40000
        # a throw begins between the peak's scan and the collection: the rest waits for its end
        assert steps(40000, 1) == [["mem_alloc"]]
        bench.detector.active = lambda: True
        assert steps(40100, 3) == [[], [], []]
        bench.detector.active = lambda: False
        assert steps(40400, 4) == [["collect"], ["mem_alloc"], ["mem_free"], []]
        # a throw between the collection and the scan of what it left: the scan would count
        # the throw's garbage as live, so neither scan comes until the next collection
        assert steps(60000, 2) == [["mem_alloc"], ["collect"]]
        bench.detector.active = lambda: True
        link.send_event(P.CUBE, P.pack_cube(1, 0, 1, 90, 7000, 0))
        log.in_use = 90000
        assert steps(60200, 2) == [[], []]
        bench.detector.active = lambda: False
        assert steps(60400, 2) == [[], []]
        status = P.unpack_status(bench.send(P.STATUS_GET)[0][2])
        assert status["heap_live"] == 40000
        # (the next round a second after the last collection, at 60100)
        assert steps(61100, 4) == [["mem_alloc"], ["collect"], ["mem_alloc"], ["mem_free"]]
        assert P.unpack_status(bench.send(P.STATUS_GET)[0][2])["heap_live"] == 90000
        # the loop's next pass came late (held up: garbage meanwhile): no reading of it
        log.in_use = 120000
        assert steps(80000, 4, late=30) == [["mem_alloc"], ["collect"], [], []]
        assert P.unpack_status(bench.send(P.STATUS_GET)[0][2])["heap_live"] == 90000
        # ... tried again a second later (no event since, which would have waited 10 s)
        assert steps(81100, 4) == [["mem_alloc"], ["collect"], ["mem_alloc"], ["mem_free"]]
        assert P.unpack_status(bench.send(P.STATUS_GET)[0][2])["heap_live"] == 120000
        # a command between the collection and the scan of what it left: its garbage (on the
        # simulated board a SIM_THROW's schedule of the throw) would be read as live
        # (10 s on: no event since the last round)
        assert steps(91300, 2) == [["mem_alloc"], ["collect"]]
        bench.send(P.PING, b"\x01\x02\x03\x04")
        log.in_use = 150000
        assert steps(91401, 2) == [[], []]
        assert P.unpack_status(bench.send(P.STATUS_GET)[0][2])["heap_live"] == 120000
    finally:
        link_module.gc = real


def _reply_step(link, r):
    # As Link._receive does in the two steps after a command's: its handler, then its reply
    assert type(r) is tuple and len(r) == 6, "no command waits"
    r = link._apply(r, True)
    if r is not None:
        link._apply(r, False)


def _take_reads(link, reads):
    # As Link._receive does with each read, the board's buffer overwritten after each step
    for data in reads:
        buf = bytearray(data)
        link.reader.scan(memoryview(buf), P.ACK)
        more = link._take(-1)
        if more and not link.reader.hold():
            # (a read longer than the reader keeps: all of it now, as _receive does; the
            # link reads at most 64 bytes a step)
            while more:
                more = link._take(1)
                if type(more) is tuple:
                    _reply_step(link, more)
        while more:
            for i in range(len(buf)):
                buf[i] = 0
            more = link._take(1)
            if type(more) is tuple:
                for i in range(len(buf)):
                    buf[i] = 0
                _reply_step(link, more)


def test_commands_split_across_reads_and_steps_run_once_in_order():
    from shogun_common.rng import Rng

    rng = Rng(31)
    for trial in range(30):
        bench = _Bench()
        link = bench.link
        link.send_event(P.CUBE, P.pack_cube(1, 0, 1, 90, 7000, 0))
        _events(bench)
        throws = bench.board.throws
        throw = bytes((1, 0, 0, 0, 0, 0))
        stream = (P.encode_frame(P.SIM_THROW, 10, throw) + b"noise\x00"
                  + P.encode_frame(P.ACK, 0, struct.pack("<HI", link.outbox.next_seq - 1,
                                                         link.boot_id))
                  + P.encode_frame(P.SIM_THROW, 10, throw)  # a repeat (reply lost)
                  + P.encode_frame(P.STATUS_GET, 11) + P.encode_frame(P.PING, 12, b"abcd"))
        cuts = sorted(rng.randbelow(len(stream)) for _ in range(rng.randbelow(4)))
        reads = [stream[a:b] for a, b in zip([0] + cuts, cuts + [len(stream)])]
        _take_reads(link, [r for r in reads if r])
        replies = P.FrameReader().feed(b"".join(bench.written))
        assert [(t, s) for t, s, _p in replies] == [
            (P.OK, 10), (P.OK, 10), (P.STATUS, 11), (P.PONG, 12)], (trial, cuts, replies)
        assert replies[3][2][:4] == b"abcd"
        assert bench.board.throws == throws + 1, "a repeated command ran again"
        assert link._v[_REPEATS] == 1 and len(link.outbox) == 0
