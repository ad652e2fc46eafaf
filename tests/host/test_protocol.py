"""The shared protocol module on CPython: the same vectors as on MicroPython, plus properties."""

from __future__ import annotations

import json
import pathlib
import re
import struct

from hypothesis import given, settings
from hypothesis import strategies as st

from shogun_common import protocol as P
from shogun_common.colours import CUBE_COLOURS
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


@settings(max_examples=200, deadline=None)  # (a loaded machine is no failure)
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
    pushed = 0
    while len(received) < 120:
        # A bounded outbox: events wait for room (the firmware counts them meanwhile).
        while pushed < 120 and outbox.push(P.CUBE, P.pack_cube(pushed, 0, 0, 0, 0, 0)) is not None:
            pushed += 1
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


# ---- docs/protocol.md must say what protocol.py does -------------------------------------------
DOC = (pathlib.Path(__file__).parents[2] / "docs" / "protocol.md").read_text()


def _section(title: str) -> str:
    return DOC.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def _table_rows(text: str, first_cell: str) -> list[list[str]]:
    """Rows (cells, stripped) of the markdown tables in ``text`` whose first cell matches."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if re.fullmatch(first_cell, cells[0]):
                rows.append(cells)
    return rows


def _message_table() -> dict[int, list[str]]:
    rows = _table_rows(_section("Messages"), r"0x[0-9A-Fa-f]{2}")
    table = {int(r[0], 16): r for r in rows}
    assert len(table) == len(rows), "a code is documented twice"
    return table


def _size(text: str) -> int:
    return sum(struct.calcsize(f) for f in re.findall(r"`(<[0-9A-Za-z]+)`", text))


def _formats(cell: str) -> tuple[int, int, bool]:
    """(fixed size of the documented payload, size of its repeated element (n ×), whether a
    variable tail (+ ...) follows)."""
    if cell.startswith("as "):
        return -1, 0, True
    fixed, _, repeated = cell.partition("n ×")
    return _size(fixed), _size(repeated), re.search(r" \+ (?!`<|n ×)", cell) is not None


def test_every_message_type_is_documented_with_its_code_and_name() -> None:
    table = _message_table()
    for code, name in P.NAMES.items():
        assert code in table, f"{name} (0x{code:02X}) is missing from docs/protocol.md"
        assert table[code][1] == name, f"0x{code:02X} is {name}, docs say {table[code][1]}"
    assert set(table) == set(P.NAMES), "docs/protocol.md documents types protocol.py lacks"


def test_documented_directions_match_the_code() -> None:
    for code, row in _message_table().items():
        direction = row[2]
        if code < 0x80:
            assert direction == "H→D", P.NAMES[code]
        elif code in P.RELIABLE_TYPES:
            assert direction == "D→H, reliable", P.NAMES[code]
        else:
            assert direction == "D→H", P.NAMES[code]


def test_documented_layouts_match_the_code() -> None:
    table = _message_table()
    packed = {  # type: (payload, repeated elements in it)
        P.HELLO_REPLY: (P.pack_hello_reply(1, 2, 3, "", ""), 0),
        P.ACK: (P.pack_ack(1, 2), 0),
        P.STATUS: (P.pack_status(*range(1, 10)), 0),
        P.CUBE: (P.pack_cube(1, 2, 3, 4, 5, 6), 0),
        P.THROW_END: (P.pack_throw_end(1, 2, 3), 0),
        P.CAL_READING: (P.pack_cal_reading(1, 2, 3, 4, 5, 6, 7), 0),
        P.ERROR: (P.pack_text(1, "x"), 0),
        P.REFUSED: (P.pack_text(1, "x"), 0),
        P.SCORES: (P.pack_scores([(1, 2, 3), (4, 5, 6)]), 2),
        P.CAL_STORE: (P.pack_centroids([(1, 2, 3, 4, 5)] * 3), 3),
        P.CAL_DATA: (P.pack_centroids([]), 0),
        P.HELLO: (P.pack_hello(7), 0),
        P.SUMMARY: (bytes(P.SCRATCH[3:3 + P.pack_summary_into(1, 2, 3, 4, 5, 6, range(7), 0)]), 0),
        P.FATAL: (P.pack_text(1, "x"), 0),
    }
    cal_store = _formats(table[P.CAL_STORE][3])
    for code, (payload, n) in packed.items():
        fixed, each, tail = _formats(table[code][3])
        if fixed < 0:  # "as cal_store"
            fixed, each, tail = cal_store
        size = fixed + n * each
        name = P.NAMES[code]
        if tail:
            assert size < len(payload), f"{name}: docs {size} bytes + text, code {len(payload)}"
        else:
            assert size == len(payload), f"{name}: docs {size} bytes, code {len(payload)}"
    assert "`<IBHHHHB`" in table[P.CAL_READING][3] and P._CAL == "<IBHHHHB"
    assert f"`{P._STATUS}`" in table[P.STATUS][3] and f"`{P._STATUS_MORE}`" in table[P.STATUS][3]
    for key in P._STATUS_MORE_KEYS:
        assert key in table[P.STATUS][3], key
    assert f"`{P._CUBE}`" in table[P.CUBE][3]
    assert "255 = off" in table[P.CAL_SAMPLE][3] and P.CAL_OFF == 255
    for code in (P.SIM_THROW, P.SIM_TOWER_DATA, P.SIM_LOAD):
        assert table[code][3].startswith("`<6B`") and len(CUBE_COLOURS) == 6


def test_documented_constants_match_the_code() -> None:
    text = _section("Messages")
    rows = {r[0].strip("`"): r for r in _table_rows(text, r"`[A-Z_]+`")}
    for prefix in ("CAP_", "FLAG_", "E_"):
        names = [n for n in vars(P) if n.startswith(prefix)]
        assert names
        for name in names:
            assert name in rows, f"{name} is not documented"
            assert int(rows[name][1]) == getattr(P, name), name
        assert {n for n in rows if n.startswith(prefix)} == set(names)


def _example() -> list[tuple[str, str, int, int, bytes]]:
    """(direction, name, type, seq, payload) of every line of the example exchange."""
    block = _section("Example exchange").split("```")[1]
    out = []
    for line in (ln for ln in block.splitlines() if ln.strip()):
        direction, name, *octets = line.split()
        frames = P.FrameReader().feed(bytes.fromhex("".join(octets)))
        assert len(frames) == 1, line
        out.append((direction, name, *frames[0]))
    return out


def test_the_example_exchange_is_real_frames_of_the_documented_sizes() -> None:
    table = _message_table()
    by_name = {name: code for code, name in P.NAMES.items()}
    lines = _example()
    assert len(lines) >= 10
    seen = set()
    for direction, name, mtype, _seq, payload in lines:
        assert P.NAMES[mtype] == name, name
        assert direction == ("H>D" if mtype < 0x80 else "D>H"), name
        fixed, each, tail = _formats(table[by_name[name]][3])
        if tail or each:
            assert len(payload) >= fixed, name
        else:
            assert len(payload) == fixed, name
        seen.add(mtype)
    assert {P.SIM_LOAD, P.SIM_THROW, P.CUBE, P.THROW_END, P.STATUS, P.REPL_NONCE,
            P.REPL_CONFIRM} <= seen


def test_the_example_exchange_does_what_the_doc_says() -> None:
    lines = _example()
    text = _section("Example exchange")
    assert "shogun-tower sim --seed 1" in text
    hello = next(p for _d, n, _t, _s, p in lines if n == "hello")
    assert hello[0] == P.PROTOCOL_VERSION and len(hello) == 5
    reply = P.unpack_hello_reply(next(p for _d, n, _t, _s, p in lines if n == "hello_reply"))
    assert f"boot id 0x{reply['boot_id']:08X}" in text
    # events: numbered from next_event_seq on, each acknowledged by number and boot
    events = [(s, t, p) for _d, _n, t, s, p in lines if t >= P.EVENTS_FROM]
    assert [s for s, _t, _p in events] == list(range(reply["next_seq"],
                                                      reply["next_seq"] + len(events)))
    acks = [P.unpack_ack(p) for _d, n, _t, _s, p in lines if n == "ack"]
    assert acks == [(s, reply["boot_id"]) for s, _t, _p in events]
    # the throw really yields cubes, and its end counts them
    cubes = [P.unpack_cube(p) for _s, t, p in events if t == P.CUBE]
    (end,) = [P.unpack_throw_end(p) for _s, t, p in events if t == P.THROW_END]
    assert cubes and end["cubes"] == len(cubes) == end["hw_count"]
    for cube in cubes:
        assert f"cube {cube['cube_no']}" in text and f"{cube['block_us']} µs" in text
    # the repeated sim_throw: the same frame, the same answer, thrown once; the same number
    # for another command: refused (E_REUSED), not answered with the first one's ok
    throws = [(s, p) for _d, n, _t, s, p in lines if n == "sim_throw"]
    assert len(throws) == 3 and throws[0] == throws[1] and throws[2][0] == throws[0][0]
    assert throws[2][1] != throws[0][1]
    answers = [(n, p[:1]) for d, n, _t, s, p in lines if s == throws[0][0] and d == "D>H"]
    assert answers == [("ok", b""), ("ok", b""), ("refused", bytes((P.E_REUSED,)))]
    # a number far ahead: refused (E_AHEAD), and the next command in the window still runs
    far = [(n, s, p) for d, n, _t, s, p in lines if d == "D>H" and n == "refused"
           and p[0] == P.E_AHEAD]
    assert len(far) == 1 and f"seq {far[0][1]}" in text
    tower = next(p for _d, n, _t, _s, p in lines if n == "sim_tower_data")
    assert struct.unpack("<I", tower[6:10]) == (1,)
    # cubes conserved: loaded + thrown = inside + fallen out
    load = next(p for _d, n, _t, _s, p in lines if n == "sim_load")
    out = [0] * 6
    for cube in cubes:
        out[cube["colour"]] += 1
    assert [load[c] + throws[0][1][c] for c in range(6)] == [tower[c] + out[c] for c in range(6)]
    # the REPL: the nonce echoed
    nonce = next(p for _d, n, _t, _s, p in lines if n == "repl_nonce")
    assert next(p for _d, n, _t, _s, p in lines if n == "repl_confirm") == nonce
    # command numbers: new commands never reuse one; only the retry (and the refused reuse)
    numbers = [s for d, n, _t, s, _p in lines if d == "H>D" and n != "ack"]
    assert len(numbers) - 2 == len(set(numbers))
    # the reconnect: the same session's hello; its next_event_seq follows the last ACK
    replies = [P.unpack_hello_reply(p) for _d, n, _t, _s, p in lines if n == "hello_reply"]
    assert len(replies) == 2 and replies[1]["next_seq"] == acks[-1][0] + 1


def test_the_documented_quiet_window_is_the_detectors() -> None:
    detector = (pathlib.Path(__file__).parents[2] / "firmware" / "shogun_fw" /
                "detector.py").read_text()
    quiet_us = int(re.search(r"_QUIET_US = const\((\d+)\)", detector).group(1))
    ms = round(quiet_us / 1000)
    assert f"`Detector.quiet_us`, {ms} ms" in DOC
    assert f"quiet window ({ms} ms)" in DOC


def test_every_command_has_its_checks_documented() -> None:
    rows = _table_rows(_section("Every field checked first"), r"[a-z_, ]+")
    documented = {name.strip() for row in rows for name in row[0].split(",")}
    for code, name in P.NAMES.items():
        if code < 0x80 and code != P.ACK:
            assert name in documented, f"{name}: its checks are not in docs/protocol.md"


def test_payloads_over_200_bytes_are_not_frames() -> None:
    import zlib

    for n in (200, 201, 202):
        body = bytes((P.CUBE, 1, 0)) + bytes(n)
        body += zlib.crc32(body).to_bytes(4, "little")
        frames = P.FrameReader().feed(b"\x00" + P.cobs_encode(body) + b"\x00")
        assert len(frames) == (1 if n == 200 else 0), n


def test_a_long_stream_is_read_whole() -> None:
    # (one scan's marks are 16-bit: feed takes longer data in parts)
    frame = P.encode_frame(P.CUBE, 9, P.pack_cube(1, 2, 3, 4, 5, 0))
    stream = frame * 3000 + b"\x01\x01\x00" * 24000 + frame
    reader = P.FrameReader()
    frames = reader.feed(stream)
    assert frames == [(P.CUBE, 9, P.pack_cube(1, 2, 3, 4, 5, 0))] * 3001
    assert reader.bad_frames == 24000


def test_threads_framing_at_once_get_their_own_bytes() -> None:
    # The host's reading thread sends ACKs while others send commands: encode_frame shares no
    # buffer (the firmware's frame()/sealed() do, in its one thread)
    import threading

    errors: list[tuple[int, int]] = []

    def run(k: int) -> None:
        mtype = P.CUBE if k == 1 else P.ACK
        for i in range(3000):
            payload = bytes([k]) * (1 + i % 40)
            if P.FrameReader().feed(P.encode_frame(mtype, i, payload)) != [(mtype, i, payload)]:
                errors.append((k, i))
                return

    threads = [threading.Thread(target=run, args=(k,)) for k in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
