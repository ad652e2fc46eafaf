# Protocol tests that run on MicroPython (and on CPython: tests/host/test_protocol.py imports
# the shared vectors too). Plain asserts; mpy_runner.py collects test_* functions.
import json

import host_part  # noqa: F401 - the host-only decoders, for the tests

from shogun_common import protocol as P
from shogun_common.rng import Rng


def _vectors():
    with open("vectors.json") as f:
        return json.load(f)


def test_shared_vectors_encode_identically():
    for v in _vectors():
        payload = bytes.fromhex(v["payload"])
        assert P.encode_frame(v["type"], v["seq"], payload).hex() == v["wire"], v["name"]


def test_shared_vectors_decode():
    reader = P.FrameReader()
    for v in _vectors():
        frames = reader.feed(bytes.fromhex(v["wire"]))
        assert frames == [(v["type"], v["seq"], bytes.fromhex(v["payload"]))], v["name"]


def test_frames_fit_the_esp32_stdin_buffer():
    wire = P.encode_frame(P.LED_DATA, 1, bytes(P.MAX_PAYLOAD))
    assert len(wire) <= 260


def test_cobs_round_trip_with_zero_runs():
    rng = Rng(5)
    for n in (0, 1, 253, 254, 255, 300):
        data = bytes(rng.choice((0, 0, 1, 255, 77)) for _ in range(n))
        enc = P.cobs_encode(data)
        assert 0 not in enc
        assert P.cobs_decode(enc) == data


def test_boot_log_and_repl_text_are_skipped():
    reader = P.FrameReader()
    frame = P.encode_frame(P.CUBE, 4, P.pack_cube(1, 2, 3, 4, 5, 0))
    stream = b"ets Jun  8 2016 rst:0x1\r\nMicroPython v1.26\r\n>>> " + frame + b"x" * 600 + frame
    frames = reader.feed(stream)
    assert len(frames) == 2
    assert reader.bad_frames >= 1


def test_corrupted_frame_is_dropped_not_misread():
    frame = bytearray(P.encode_frame(P.THROW_END, 2, P.pack_throw_end(1, 2, 3)))
    for i in range(1, len(frame) - 1):
        bad = bytearray(frame)
        bad[i] ^= 0x10
        if bad[i] == 0:
            continue
        reader = P.FrameReader()
        assert reader.feed(bytes(bad)) == [], i


def test_sequence_numbers_wrap():
    assert P.seq_after(0, 0xFFFF)
    assert not P.seq_after(0xFFFF, 0)
    assert not P.seq_after(5, 5)


def test_lossy_channel_delivers_every_event_once_in_order():
    rng = Rng(11)
    out = P.Outbox(window=8, rto_ms=30, first_seq=65530)  # crosses the 16-bit wrap
    inbox = P.Inbox(65530)
    reader = P.FrameReader()
    received = []
    now = 0
    pushed = 0
    while len(received) < 300:
        if pushed < 300 and rng.chance(0.5):
            if out.push(P.CUBE, P.pack_cube(pushed, 0, 0, 0, 0, 0)) is not None:
                pushed += 1  # (else the bounded outbox is full: the event waits)
        for wire in out.due(now):
            if rng.chance(0.2):
                continue  # lost on the wire
            if rng.chance(0.05):
                wire = wire[:5] + b"\x99" + wire[6:]  # damaged on the wire
            for _mtype, seq, payload in reader.feed(wire):
                if inbox.accept(seq):
                    received.append(P.unpack_cube(payload)["cube_no"])
                if not rng.chance(0.2):  # the ACK itself may be lost
                    out.ack(inbox.last_received())
        now += 5
        assert now < 200000, "stalled"
    assert received == list(range(300))
    assert out.resent > 0


def test_payloads_over_200_bytes_are_not_frames():
    # encode_frame refuses them; a sender that builds one anyway is not heard
    for n in (200, 201, 202):
        body = bytes((P.CUBE, 1, 0)) + bytes(n)
        body += P.crc32(body).to_bytes(4, "little")
        frames = P.FrameReader().feed(b"\x00" + P.cobs_encode(body) + b"\x00")
        assert len(frames) == (1 if n == 200 else 0), n


def test_lengths_are_checked_not_left_to_struct():
    # MicroPython's struct.unpack reads a payload that is too long; these refuse it
    for bad in (b"\x01" * 5, b"\x01" * 7):
        try:
            P.unpack_ack(bad)
            raise AssertionError("ack of %d bytes accepted" % len(bad))
        except P.ProtocolError:
            pass
    for bad in (b"", b"\x01\x00", b"\x01" + bytes(10)):
        try:
            P.unpack_centroids(bad)
            raise AssertionError("centroids of %d bytes accepted" % len(bad))
        except P.ProtocolError:
            pass


# ---- the viper framing against the host's plain Python -----------------------------
# protocol.py frames with viper on MicroPython (_seal, _open, _blocks, _find0) and with plain
# Python on CPython (_seal_py & co., in its host part, which host_part compiles here too): the
# same inputs must give the same bytes and results. Extreme inputs: bodies of all 0x00 and all
# 0xFF, every length up to the longest, runs of 254 non-zero bytes, broken blocks.
def _plain():
    # The host part's functions read protocol.py's private constants, which MicroPython keeps
    # out of the module's names: taken from the source text here.
    names = {}
    with open("../../common/shogun_common/protocol.py") as f:
        for line in f:
            if " = const(" in line and not line.startswith(" "):
                name, _, rest = line.partition(" = const(")
                depth = i = 1
                while depth:  # to the closing parenthesis
                    depth += (rest[i] == "(") - (rest[i] == ")")
                    i += 1
                names[name] = eval(rest[:i - 1], names)
    for name in ("_BODY", "_NO_BLOCK", "_M_RESUME", "_M_NEWEST", "_M_TYPE", "_M_SUPERSEDED",
                 "_M_ROOM", "_M_MORE", "_M_PAIRS", "MAX_PAYLOAD"):
        if name in names:
            setattr(P, name, names[name])
    return names


def _crc_halves(data):
    # The viper CRC's own arithmetic (a nibble at a time, the register in two 16-bit halves),
    # every intermediate checked to fit 32 bits signed as on the ESP32.
    t = P._CRC16
    lo = hi = 0xFFFF
    for b in data:
        for x in (b & 0xF, b >> 4):
            i = (lo ^ x) & 0xF
            mid = (lo >> 4) | ((hi & 0xF) << 12)
            lo = mid ^ t[i]
            hi = (hi >> 4) ^ t[16 + i]
            for v in (i, mid, lo, hi):
                assert -(1 << 31) <= v < (1 << 31)
    return (lo ^ 0xFFFF) | (hi ^ 0xFFFF) << 16


def _bodies(longest=P.MAX_PAYLOAD + 3):
    # type, seq and payload (the CRC is _seal's to add)
    rng = Rng(21)
    yield bytes(3)
    yield bytes(longest)
    yield b"\xff" * longest
    yield b"\x01" * 3 + b"\xfe" * (longest - 3)
    for n in range(3, longest + 1, 7):
        yield bytes(rng.choice((0, 0, 1, 254, 255, 77)) for _ in range(n))
    for _ in range(40):
        yield bytes(rng.randbelow(256) for _ in range(3 + rng.randbelow(longest - 2)))


def test_viper_crc_matches_the_reference_and_binascii():
    import binascii

    for body in _bodies(300):
        assert _crc_halves(body) == binascii.crc32(body) & 0xFFFFFFFF
        assert P.crc32(body) == binascii.crc32(body) & 0xFFFFFFFF


def test_viper_seal_gives_the_plain_pythons_bytes():
    _plain()
    for body in _bodies():
        n = len(body)
        out = []
        for seal in (P._seal, P._seal_py):
            src = bytearray(P._BODY)
            src[:n] = body
            dst = bytearray(P._BODY + 8)
            k = seal(src, n, dst, 3)
            out.append((k, bytes(dst), bytes(src)))
        assert out[0] == out[1], n
        k, dst, src = out[0]
        assert k == n + 7 and dst[3] == 0 and dst[3 + k - 1] == 0
        assert b"\x00" not in dst[4:3 + k - 1]


def test_viper_open_gives_the_plain_pythons_result_on_good_and_broken_blocks():
    _plain()
    rng = Rng(23)
    for body in _bodies():
        wire = bytearray(P._BODY + 8)
        src = bytearray(P._BODY)
        src[:len(body)] = body
        k = P._seal(src, len(body), wire, 0)
        block = bytes(wire[1:k - 1])
        cases = [block, block[:-1], block[1:], block + b"\x01", b"\x01" * 6, b"\x02\x01" * 3,
                 bytes((255,)) * 3, bytes((7,)) + b"\xff" * 250]
        bad = bytearray(block)
        bad[rng.randbelow(len(bad))] ^= 0x20
        if b"\x00" not in bad:
            cases.append(bytes(bad))
        for case in cases:
            got = []
            for open_ in (P._open, P._open_py):
                dst = bytearray(P._BODY)
                r = open_(case, 0, len(case), dst)
                got.append((r, bytes(dst[:r]) if r > 0 else b""))
            assert got[0] == got[1], (len(body), case[:8], got)
        assert P.decode_body(block) == (body[0], body[1] | body[2] << 8, body[3:])


def test_viper_blocks_and_find0_give_the_plain_pythons_marks():
    names = _plain()
    rng = Rng(29)
    for trial in range(200):
        data = bytes(rng.choice((0, 0, 0, 1, 2, 2, 3, 255)) for _ in range(rng.randbelow(300)))
        start = rng.randbelow(len(data) + 1)
        marks = []
        for blocks in (P._blocks, P._blocks_py):
            m = __import__("array").array("H", bytes(2 * (names["_M_PAIRS"] + 2 * 16)))
            m[names["_M_NEWEST"]] = m[names["_M_NEWEST"] + 1] = 0xFFFF
            m[names["_M_TYPE"]] = 2 if trial % 2 else 0
            m[names["_M_ROOM"]] = 16
            count = blocks(data, start, len(data), m)
            marks.append((count, list(m)))
        assert marks[0] == marks[1], trial
        for i in range(start, len(data) + 1):
            assert P._find0(data, i, len(data)) == P._find0_py(data, i, len(data))

