# The firmware's link on MicroPython against stray and forged frames: an ACK naming events not
# sent, command numbers far outside the session's window or used again for another command, and
# led_read's largest reply on a heap with no run for it (the 64K ROMFS board). A module of its
# own: the interpreter compiles each test module in the test's heap.
import struct

import micropython
from mpy_test_link import SESSION, _Bench, _events, _reply_step

from shogun_common import protocol as P


def _ack(link, seq):
    """An ACK as the receiving task takes it (the read's step)."""
    buf = bytearray(P.encode_frame(P.ACK, 0, struct.pack("<HI", seq & 0xFFFF, link.boot_id)))
    link.reader.scan(memoryview(buf), P.ACK)
    link._take(-1)


def test_an_ack_beyond_what_was_sent_is_refused_and_changes_nothing():
    bench = _Bench()
    link = bench.link
    link.send_event(P.BOOT, struct.pack("<I", link.boot_id) + b"test")
    for n in range(1, 4):
        link.send_event(P.CUBE, P.pack_cube(n, 0, 1, 90, 7000, 0))
    sent = _events(bench)
    assert [s for _t, s, _p in sent] == [0, 1, 2, 3]
    held = len(link.outbox)
    # one past the newest event sent, far past it, and the number just below the oldest one
    # held minus half the space: none of them names an event the board sent
    for stray in (4, 5, 100, 0x7FFF, 0x8003):
        _ack(link, stray)
        assert len(link.outbox) == held, stray
    # the held events still go out (resent), and a true ACK still drops them
    bench.board.advance(200 * 1000)
    assert [s for _t, s, _p in _events(bench)] == [0, 1, 2, 3]
    _ack(link, 1)
    assert len(link.outbox) == 2
    link.send_event(P.CUBE, P.pack_cube(4, 0, 1, 90, 7000, 0))
    assert [s for _t, s, _p in _events(bench)] == [4]
    _ack(link, 5)  # not sent yet
    assert len(link.outbox) == 3
    _ack(link, 4)
    assert len(link.outbox) == 0


def test_an_ack_before_any_event_changes_nothing():
    bench = _Bench()
    link = bench.link
    for stray in (0, 1, 0xFFFF, 0x8000):
        _ack(link, stray)
        assert len(link.outbox) == 0 and link.outbox.next_seq == 0
    link.send_event(P.CUBE, P.pack_cube(1, 0, 1, 90, 7000, 0))
    assert [s for _t, s, _p in _events(bench)] == [0]


def test_a_number_far_ahead_is_refused_and_kept_nowhere():
    bench = _Bench()  # (its HELLO was command 1)
    throws = bench.board.throws
    ((rtype, _s, rpayload),) = bench.send(P.SIM_THROW, bytes((1, 0, 0, 0, 0, 0)), seq=30001)
    assert rtype == P.REFUSED and rpayload[0] == P.E_AHEAD, (rtype, rpayload)
    assert bench.board.throws == throws
    # the host's own next numbers run, every one, for longer than the ring holds
    for seq in range(2, 30):
        ((rtype, _s, rpayload),) = bench.send(P.SIM_LOAD, bytes(6), seq=seq)
        assert rtype == P.OK, (seq, rpayload)
    # and the far number is still refused (it was not kept), also when repeated
    ((rtype, _s, rpayload),) = bench.send(P.SIM_THROW, bytes((1, 0, 0, 0, 0, 0)), seq=30001)
    assert rtype == P.REFUSED and rpayload[0] == P.E_AHEAD
    assert bench.board.throws == throws


def test_a_stray_refused_frame_with_a_high_number_locks_nothing_out():
    bench = _Bench()
    # a stray command that would be refused anyway (colour 9), numbered far ahead
    ((rtype, _s, _p),) = bench.send(P.SCORES, bytes((9, 1, 0, 0)), seq=30001)
    assert rtype == P.REFUSED
    for seq in range(2, 20):
        ((rtype, _s, rpayload),) = bench.send(P.SCORES, bytes((1, seq, 0, 0)), seq=seq)
        assert rtype == P.OK, (seq, rpayload)
    # a same-session hello, then the host's numbers go on
    bench.send(P.HELLO, SESSION, seq=20)
    ((rtype, _s, _p),) = bench.send(P.SCORES, bytes((1, 3, 0, 0)), seq=21)
    assert rtype == P.OK


def test_a_number_reused_for_another_command_is_refused_not_answered_from_the_first():
    bench = _Bench()
    assert bench.send(P.SIM_THROW, bytes((1, 0, 0, 0, 0, 0)), seq=7) == [(P.OK, 7, b"")]
    throws = bench.board.throws
    # the same number with another payload, and with another type
    for mtype, payload in ((P.SIM_THROW, bytes((2, 0, 0, 0, 0, 0))),
                           (P.SCORES, bytes((1, 12, 0, 3)))):
        ((rtype, _s, rpayload),) = bench.send(mtype, payload, seq=7)
        assert rtype == P.REFUSED and rpayload[0] == P.E_REUSED, (mtype, rtype, rpayload)
    assert bench.board.throws == throws and bench.track.scores == b""
    # the very same command again still gets its kept reply
    assert bench.send(P.SIM_THROW, bytes((1, 0, 0, 0, 0, 0)), seq=7) == [(P.OK, 7, b"")]
    assert bench.board.throws == throws


def test_led_read_of_the_whole_chunk_allocates_no_reply():
    # (the 64K ROMFS board reset on led_read of 60 LEDs: a MemoryError building the 184-byte
    # reply in a fragmented heap) The reply's step runs with the heap locked: nothing is
    # allocated in it at all (a bytecode frame too large for the C stack falls back to it).
    bench = _Bench()
    link = bench.link
    link.track.set_scores(bytes((1, 12, 0, 0)))
    link.track.render(1)
    wrote = []
    sizes = [0]

    def keep(data, off=0, n=-1):
        wrote.append(bytes(data if n < 0 else data[off:off + n]))

    def count(data, off=0, n=-1):  # (allocates nothing: the steps run with the heap locked)
        sizes[0] += n

    failed = None
    for k in range(6):
        frame = bytearray(P.encode_frame(P.LED_READ, 30 + k, struct.pack("<HH", 20 * k, 60)))
        link.reader.scan(frame, P.ACK)
        r = link._take(1)  # the command's step (its 4-byte payload copied)
        assert type(r) is tuple
        locked = k and hasattr(micropython, "heap_lock")  # (a first call may intern or cache)
        link._write = count if locked else keep
        if locked:
            micropython.heap_lock()
        try:
            done = link._apply(r, True)  # its handler's step: the reply goes now
        except MemoryError as exc:
            failed = exc
        finally:
            if locked:
                micropython.heap_unlock()
        assert done is None
        if locked:
            link._write = keep
            link.reader.scan(frame, P.ACK)  # again unlocked, its bytes kept
            _reply_step(link, link._take(1))
        assert failed is None, (k, failed)
    replies = [f for data in wrote for f in P.FrameReader().feed(data)]
    assert [(t, s) for t, s, _p in replies] == [(P.LED_DATA, 30 + k) for k in range(6)]
    frame = link.track.shown()
    for k, (_t, _s, payload) in enumerate(replies):
        offset, total = struct.unpack("<HH", payload[:4])
        count = min(60, 81 - 20 * k) if 20 * k < 81 else 0
        assert (offset, total) == (min(20 * k, 81), 81) and len(payload) == 4 + 3 * count, k
        assert payload[4:] == bytes(frame[3 * offset:3 * (offset + count)]), k


def _window_model(kept, seq, v, digest):
    # link.kept_slot in plain Python (the same rules, read from the top of link.py)
    size, slots, window, none, fresh = 12, 8, 256, 0x10000, 0x100
    top = v[31]
    d = (seq - top) & 0xFFFF
    back = (top - seq) & 0xFFFF
    ahead = top == none or 0 < d <= window
    if ahead:
        v[31] = top = seq
    elif back >= window:
        return -(P.E_AHEAD if d < 0x8000 else P.E_STALE)
    if digest is None:
        return -1
    found = -1
    for i in range(0, slots * size, size):
        if kept[i + 2]:
            s = kept[i] | kept[i + 1] << 8
            if (top - s) & 0xFFFF >= window or (ahead and s == seq):
                kept[i + 2] = 0
            elif s == seq:
                found = i if P.le(kept, i + 8, 4) == digest else -P.E_REUSED
    if found != -1:
        return found
    if not ahead:
        if back == 0:
            return -P.E_REUSED
        if v[32] != none and back >= (top - v[32]) & 0xFFFF:
            return -P.E_STALE
    i = v[10]
    v[10] = (i + size) % (slots * size)
    if kept[i + 2]:
        s = kept[i] | kept[i + 1] << 8
        if v[32] == none or (top - s) & 0xFFFF < (top - v[32]) & 0xFFFF:
            v[32] = s
        kept[i + 2] = 0
    kept[i], kept[i + 1] = seq & 0xFF, seq >> 8
    for j in range(4):
        kept[i + 8 + j] = (digest >> (8 * j)) & 0xFF
    return fresh + i


def test_the_viper_window_matches_plain_python():
    # (link.py's _V_KEPT_NEXT 10, _V_TOP 31, _V_FLOOR 32; the ring's 8 slots of 12 bytes)
    import array

    from shogun_common.rng import Rng
    from shogun_fw.link import kept_slot

    rng = Rng(37)
    for trial in range(400):
        kept = bytearray(100)
        v = array.array("I", bytes(4 * 33))
        top = rng.choice((0x10000, rng.randbelow(0x10000)))
        v[31] = top
        v[32] = rng.choice((0x10000, (top - rng.randbelow(300)) & 0xFFFF))
        v[10] = 12 * rng.randbelow(8)
        mtype = rng.choice((P.SIM_THROW, P.SCORES))
        p = bytes(rng.randbelow(256) for _ in range(rng.randbelow(30)))
        seq = rng.choice((top, top - 1, top + 1, top + 256, top + 257, top - 255, top - 256,
                          top + 30000, rng.randbelow(0x10000))) & 0xFFFF
        P.frame(mtype, seq, p)  # its frame's CRC-32 in P.SCRATCH, the digest
        digest = P.crc32(bytes((mtype, seq & 0xFF, seq >> 8)) + p)
        for i in range(0, 96, 12):
            if rng.chance(0.7):
                s = rng.choice((top, top - 1, top - 255, top - 256, top + 1, top - 40000,
                                seq, rng.randbelow(0x10000))) & 0xFFFF
                kept[i], kept[i + 1] = s & 0xFF, s >> 8
                kept[i + 2] = rng.choice((0, P.OK, P.REFUSED))
                d = digest if rng.chance(0.5) else rng.randbelow(1 << 30)
                for j in range(4):
                    kept[i + 8 + j] = (d >> (8 * j)) & 0xFF
        changes = rng.chance(0.8)
        model_kept, model_v = bytearray(kept), array.array("I", v)
        want = _window_model(model_kept, seq, model_v, digest if changes else None)
        got = kept_slot(kept, seq, v, 3 + len(p) if changes else -1)
        assert got == want, (trial, seq, top, got, want)
        assert kept == model_kept and list(v) == list(model_v), trial
