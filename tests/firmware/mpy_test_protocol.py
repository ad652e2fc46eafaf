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
