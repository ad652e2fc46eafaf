"""The shared protocol module on CPython: the same vectors as on MicroPython, plus properties."""

from __future__ import annotations

import json
import pathlib

from hypothesis import given, settings
from hypothesis import strategies as st

from shogun_common import protocol as P
from shogun_common.rng import Rng

VECTORS = json.loads((pathlib.Path(__file__).parents[1] / "firmware" / "vectors.json").read_text())


def test_vectors_encode_and_decode_like_on_micropython() -> None:
    reader = P.FrameReader()
    for v in VECTORS:
        payload = bytes.fromhex(v["payload"])
        assert P.encode_frame(v["type"], v["seq"], payload).hex() == v["wire"], v["name"]
        assert reader.feed(bytes.fromhex(v["wire"])) == [(v["type"], v["seq"], payload)]


@given(st.binary(max_size=600))
def test_cobs_round_trip(data: bytes) -> None:
    encoded = P.cobs_encode(data)
    assert b"\x00" not in encoded
    assert P.cobs_decode(encoded) == data


@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=P.MAX_PAYLOAD),
       st.binary(max_size=300))
def test_frames_survive_any_garbage_before_them(mtype: int, seq: int, payload: bytes,
                                                garbage: bytes) -> None:
    reader = P.FrameReader()
    frames = reader.feed(garbage + P.encode_frame(mtype, seq, payload))
    assert frames[-1] == (mtype, seq, payload)
    assert len(P.encode_frame(mtype, seq, payload)) <= 260


@settings(max_examples=200)
@given(st.binary(min_size=1, max_size=400))
def test_random_bytes_never_crash_the_reader(data: bytes) -> None:
    reader = P.FrameReader()
    for mtype, _seq, _payload in reader.feed(data):
        assert 0 <= mtype <= 255


def test_crc32_fallback_matches_zlib() -> None:
    import zlib

    saved = P._crc32
    try:
        P._crc32 = None
        for data in (b"", b"abc", bytes(range(256))):
            assert P.crc32(data) == zlib.crc32(data)
    finally:
        P._crc32 = saved


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), st.floats(0.0, 0.4), st.integers(1, 16))
def test_go_back_n_delivers_exactly_once_in_order(seed: int, loss: float, window: int) -> None:
    rng = Rng(seed)
    outbox = P.Outbox(window=window, rto_ms=20, first_seq=rng.randbelow(0x10000))
    inbox = P.Inbox(outbox.next_seq)
    received: list[int] = []
    now = 0
    for n in range(120):
        outbox.push(P.CUBE, P.pack_cube(n, 0, 0, 0, 0, 0))
    while len(received) < 120:
        for wire in outbox.due(now):
            if rng.random() < loss:
                continue
            for _t, seq, payload in P.FrameReader().feed(wire):
                if inbox.accept(seq):
                    received.append(P.unpack_cube(payload)["cube_no"])
            if rng.random() >= loss:
                outbox.ack(inbox.last_received())
        now += 7
        assert now < 10**6
    assert received == list(range(120))


def test_rng_matches_the_recorded_stream() -> None:
    # The same file is checked on MicroPython (mpy_test_rng.py): one generator, both sides.
    vectors = json.loads((pathlib.Path(__file__).parents[1] / "firmware" /
                          "rng_vectors.json").read_text())
    for seed, v in vectors.items():
        rng = Rng(int(seed))
        assert [rng.randbelow(100) for _ in range(8)] == v["randbelow_100"]
        assert rng.state == v["state_after"]
        assert [round(rng.random(), 12) for _ in range(3)] == v["random"]
