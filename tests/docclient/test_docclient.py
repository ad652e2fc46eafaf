"""The protocol page's own test: a client written from docs/protocol.md alone, against the
simulated tower.

Every expected value below is one the page states; where the tower disagrees, the test stays
as the page says and is marked an expected failure naming the sentence.
"""

from __future__ import annotations

import importlib.util
import re
import signal
import struct
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def _load_client():
    # Loaded under its own name: a bare `client` could meet another folder's module.
    spec = importlib.util.spec_from_file_location("docclient_client", HERE / "client.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


dc = _load_client()

SESSION = 0x5EED0001


@pytest.fixture
def tower_port(request):
    """A fresh simulated tower (seed 1) on a pseudo-terminal: its port path.

    Parametrised indirectly, the parameter is a list of more `shogun-tower sim` options.
    """
    cli = Path(sys.executable).parent / "shogun-tower"
    options = list(getattr(request, "param", []))
    proc = subprocess.Popen([str(cli), "sim", "--seed", "1", *options], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        port = proc.stdout.readline().strip()
        assert port.startswith("/"), f"shogun-tower sim printed {port!r}, not a port"
        yield port
    finally:
        proc.send_signal(signal.SIGINT)  # "Ctrl-C to stop"
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        proc.stdout.close()


@pytest.fixture
def tower(tower_port):
    client = dc.TowerClient(tower_port, session=SESSION)
    client.open()
    yield client
    client.close()


# -- the page's own example ---------------------------------------------------------------------

def _example_frames() -> list[tuple[str, str, bytes]]:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    block = text.split("## Example exchange", 1)[1].split("```", 2)[1]
    frames = []
    for line in block.strip().splitlines():
        direction, name, hexes = re.match(r"(H>D|D>H) (\S+)\s+([0-9a-f ]+)$", line.strip()).groups()
        frames.append((direction, name, bytes.fromhex(hexes)))
    return frames


EXAMPLE = _example_frames()

# Fixed payload sizes from the Messages table's struct formats.
TABLE_SIZES = {
    "hello": struct.calcsize("<BI"),
    "ack": struct.calcsize("<HI"),
    "sim_load": struct.calcsize("<6B"),
    "sim_throw": struct.calcsize("<6B"),
    "cube": struct.calcsize("<IIBBHB"),
    "throw_end": struct.calcsize("<IHI"),
    "status": struct.calcsize("<IIIIHHBBH") + struct.calcsize("<IIHHHB") + struct.calcsize("<B"),
    "sim_tower_data": struct.calcsize("<6BIII"),
    "repl_nonce": struct.calcsize("<I"),
    "repl_confirm": struct.calcsize("<I"),
    "ok": 0,
    "status_get": 0,
    "sim_tower": 0,
    "repl": 0,
}
NAMES = {"hello": dc.HELLO, "hello_reply": dc.HELLO_REPLY, "boot": dc.BOOT, "ack": dc.ACK,
         "scores": dc.SCORES, "ok": dc.OK, "sim_load": dc.SIM_LOAD, "sim_throw": dc.SIM_THROW,
         "cube": dc.CUBE, "throw_end": dc.THROW_END, "status_get": dc.STATUS_GET,
         "status": dc.STATUS, "refused": dc.REFUSED, "sim_tower": dc.SIM_TOWER,
         "sim_tower_data": dc.SIM_TOWER_DATA, "repl": dc.REPL, "repl_nonce": dc.REPL_NONCE,
         "repl_confirm": dc.REPL_CONFIRM}


def test_example_frames_decode_and_encode_byte_for_byte():
    """Framing, CRC and COBS as the page names them reproduce every example frame."""
    assert dc.crc32(b"123456789") == 0xCBF43926
    assert len(EXAMPLE) == 32
    for _direction, name, raw in EXAMPLE:
        assert raw[0] == 0 and raw[-1] == 0, name
        assert 10 <= len(raw) <= 210, name
        frame = dc.decode_block(raw[1:-1])
        assert frame is not None, f"{name}: not a valid frame by the page's rules"
        msg_type, seq, payload = frame
        assert msg_type == NAMES[name], name
        assert dc.encode_frame(msg_type, seq, payload) == raw, name


def _example_payloads(name: str) -> list[tuple[int, bytes]]:
    """(seq, payload) of every example frame of that name, in order."""
    return [dc.decode_block(raw[1:-1])[1:] for _d, n, raw in EXAMPLE if n == name]


def test_example_values_are_the_ones_the_page_explains():
    hello = _example_payloads("hello")
    assert [struct.unpack("<BI", p) for _s, p in hello] == [(2, SESSION)] * 2
    first, again = (dc.parse_hello_reply(p) for _s, p in _example_payloads("hello_reply"))
    assert (first.protocol, first.boot_id, first.next_event_seq, first.capabilities,
            first.firmware, first.board) == (2, 0xDC19BDD7, 0, 0x7F, "0.1.0", "sim")
    assert again.next_event_seq == 4
    ((boot_seq, boot),) = _example_payloads("boot")
    assert boot_seq == 0 and boot == struct.pack("<I", 0xDC19BDD7) + b"power-on"
    acks = _example_payloads("ack")
    assert [(s, struct.unpack("<HI", p)) for s, p in acks] == [
        (0, (n, 0xDC19BDD7)) for n in range(4)]
    cubes = [dc.parse_cube(p) for _s, p in _example_payloads("cube")]
    assert [(c.number, c.colour, c.block_us) for c in cubes] == [(1, 1, 8938), (2, 4, 10081)]
    ((_s, end),) = _example_payloads("throw_end")
    assert dc.parse_throw_end(end) == (1, 2, 2)
    reused, ahead = _example_payloads("refused")
    assert (reused[0], reused[1][0]) == (4, dc.E_REUSED)
    assert (ahead[0], ahead[1][0]) == (30006, dc.E_AHEAD)
    ((_s, data),) = _example_payloads("sim_tower_data")
    tower = dc.parse_sim_tower(data)
    # "its LED strip has taken 2 frames, the last 1191 ms before" (of this run: timed by nature)
    assert (tower.inside, tower.throws_run, tower.strip_frames, tower.ms_since_frame) == (
        (0, 2, 0, 0, 1, 3), 1, 2, 1191)


@pytest.mark.parametrize("name", sorted(TABLE_SIZES))
def test_example_payload_sizes_match_the_table(name):
    sizes = {len(dc.decode_block(raw[1:-1])[2]) for _d, n, raw in EXAMPLE if n == name}
    assert sizes == {TABLE_SIZES[name]}


# -- hello --------------------------------------------------------------------------------------

def test_hello_on_a_fresh_tower(tower):
    reply = tower.hello()
    # A fresh boot: next event is 0, the boot event, not yet acknowledged (1 when this
    # client's ACK of the boot it took before the reply reached the board first).
    assert reply.protocol == 2
    assert reply.next_event_seq in (0, 1)
    assert reply.capabilities & dc.CAP_SIMULATED
    assert reply.capabilities & 0x80 == 0  # bit 7 reserved
    assert reply.board == "sim"
    boot = tower.wait_for_event(dc.BOOT, timeout=3)
    assert boot is not None, "no boot event after hello"
    assert boot.seq == 0
    boot_id, cause = struct.unpack_from("<I", boot.payload)[0], boot.payload[4:]
    assert boot_id == reply.boot_id
    assert cause == b"power-on"
    assert tower.wait_acked(0)
    # The ACK took: nothing waits in the outbox, and nothing is sent again.
    assert _outbox_emptied(tower).events_waiting == 0
    frames_before = _event_frames(tower)
    time.sleep(0.4)  # four of the board's resend periods
    assert _event_frames(tower) == frames_before
    assert [e.seq for e in tower.events] == [0]


def test_hello_of_another_version_is_refused_naming_both(tower):
    tower.hello()
    with pytest.raises(dc.Refused) as refused:
        tower.hello(version=1)
    assert refused.value.code == dc.E_VERSION
    assert "board 2" in refused.value.reason and "host 1" in refused.value.reason
    # Nothing was applied: the link goes on.
    assert tower.request(dc.PING, struct.pack("<I", 7))[:4] == struct.pack("<I", 7)


# -- a throw ------------------------------------------------------------------------------------

def _event_frames(tower) -> int:
    return sum(1 for _t, d, ty, _s in tower.trace if d == "in" and ty >= 0x90)


def _outbox_emptied(tower):
    """`status` once every ACK written so far has taken effect.

    The page ("When an ACK takes effect"): a `status_get` sent once the reply to a command
    written after the ACK has come is read after that ACK. The first `status` is that command.
    """
    tower.status()
    return tower.status()


def _throw_ends(tower, start: int, quiet_s: float = 1.0) -> list:
    """Every throw_end a simulated throw brings: wait until no event comes for `quiet_s`.

    The page: on `shogun-tower sim` one `sim_throw` ends in exactly one `throw_end`; the client
    still waits out a silence after it, to see that no second one comes.
    """
    first = tower.wait_for_event(dc.THROW_END, start, timeout=15)
    assert first is not None, "no throw_end"
    while True:
        taken = len(tower.events)
        time.sleep(quiet_s)
        if len(tower.events) == taken and tower.out_of_order == 0:
            break
        tower.resync_if_gap()
    return [e for e in tower.events[start:] if e.type == dc.THROW_END]


def _check_colours(seen: Counter, fell: list[int]) -> None:
    """Each colour's cubes as the tower let them out; unknown (255) may stand for any."""
    assert set(seen) <= {0, 1, 2, 3, 4, 5, 255}, seen
    for colour in range(6):
        assert seen[colour] <= fell[colour], (colour, seen, fell)
    assert sum(seen.values()) == sum(fell), (seen, fell)


def _check_throw(tower, start: int, loaded: list[int], thrown: list[int]) -> None:
    """Every cube event once, in order, acknowledged; the board agrees on every count."""
    ends = _throw_ends(tower, start)
    events = tower.events
    seqs = [e.seq for e in events]
    assert len(set(seqs)) == len(seqs), f"an event taken twice: {seqs}"
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"a gap: {seqs}"
    assert tower.lost == []
    cubes = [dc.parse_cube(e.payload) for e in events[start:] if e.type == dc.CUBE]
    assert cubes, "no cube fell out"
    assert events[-1].type == dc.THROW_END
    assert len(ends) == 1, "one sim_throw, one throw_end"
    throw_ends = [dc.parse_throw_end(e.payload) for e in ends]
    assert sum(in_throw for _n, in_throw, _h in throw_ends) == len(cubes)
    hardware = throw_ends[-1][2]
    numbers = [c.number for c in cubes]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert tower.wait_acked(events[-1].seq)
    # ACKs only ever named events taken, never ran backwards.
    taken = set(seqs)
    assert all(a in taken for a in tower.acks_sent if a != (seqs[0] - 1) & 0xFFFF)
    pairs = zip(tower.acks_sent, tower.acks_sent[1:], strict=False)
    assert all(dc.seq_diff(b, a) >= 0 for a, b in pairs)
    status = _outbox_emptied(tower)
    assert status.events_waiting == 0
    # The board's own count: every cube event it made since boot reached this client, once.
    assert status.cubes == numbers[-1] == sum(e.type == dc.CUBE for e in events)
    assert status.hardware_count == hardware
    # Its hardware counter saw every cube the simulated tower let out (whether the beams'
    # cube events agree with it is the detector's matter: see the test of that below).
    inside = tower.sim_tower().inside
    fell = [loaded[colour] + thrown[colour] - inside[colour] for colour in range(6)]
    assert hardware == sum(fell)
    # Acknowledged means dropped: nothing comes again.
    frames_before = _event_frames(tower)
    time.sleep(0.4)
    assert _event_frames(tower) == frames_before


def test_a_throw_every_cube_once_and_acknowledged(tower):
    tower.hello()
    assert tower.wait_for_event(dc.BOOT, timeout=3) is not None
    loaded, thrown = [2, 2, 2, 2, 2, 2], [1, 2, 1, 2, 1, 2]
    tower.sim_load(loaded)
    assert tower.sim_tower().inside == tuple(loaded)
    start = len(tower.events)
    tower.sim_throw(thrown)
    _check_throw(tower, start, loaded, thrown)
    assert tower.sim_tower().throws_run == 1


# -- reconnect ----------------------------------------------------------------------------------

@pytest.mark.parametrize("acks_lost", [False, True], ids=["acks-through", "acks-lost"])
def test_reconnect_mid_throw_loses_and_doubles_nothing(tower, acks_lost):
    tower.hello()
    assert tower.wait_for_event(dc.BOOT, timeout=3) is not None
    loaded, thrown = [5, 5, 5, 5, 5, 5], [3, 3, 3, 3, 3, 3]
    tower.sim_load(loaded)
    start = len(tower.events)
    tower.sim_throw(thrown)
    assert tower.wait_for_event(dc.CUBE, start, timeout=5) is not None
    if acks_lost:
        # The cable goes while events are taken but not yet acknowledged.
        tower.hold_acks(True)
        assert tower.wait_for_event(dc.CUBE, len(tower.events), timeout=5) is not None
    tower.close()
    taken_before = len(tower.events)
    expected = tower.expected
    time.sleep(2.0)  # the throw goes on without a host
    tower.hold_acks(False)
    tower.open()
    reply = tower.hello()  # the same session
    assert reply.boot_id == tower.events[0].boot_id
    # E when the reply came: frames the board wrote while the port was closed may have come
    # first (a pseudo-terminal keeps them), taken in order like any other.
    logged, before, after = tower.hello_log[-1]
    assert logged == reply and dc.seq_diff(before, expected) >= 0
    if acks_lost:
        assert dc.seq_diff(reply.next_event_seq, expected) < 0
    assert dc.seq_diff(reply.next_event_seq, before) <= 0
    # Equal or before E: go on from E.
    assert after == before
    _check_throw(tower, start, loaded, thrown)
    assert len(tower.events) > taken_before, "the reconnect brought no event back"


def test_reconnect_after_another_host_took_the_events_says_they_are_lost(tower_port):
    """`next_event_seq` after E: the events between are lost, said, and E moves on."""
    first = dc.TowerClient(tower_port, session=SESSION)
    first.open()
    first.hello()
    assert first.wait_for_event(dc.BOOT, timeout=3) is not None
    first.sim_load([0, 3, 0, 0, 3, 0])
    first.close()
    expected = first.expected
    other = dc.TowerClient(tower_port, session=SESSION + 1)
    other.open()
    other.hello()
    other.sim_throw([0, 3, 0, 0, 3, 0])
    end = other.wait_for_event(dc.THROW_END, timeout=15)
    assert end is not None
    assert other.wait_acked(end.seq)
    time.sleep(0.2)
    other.close()
    first.open()
    try:
        reply = first.hello()
        assert reply.next_event_seq == (end.seq + 1) & 0xFFFF
        assert first.lost == [(expected, end.seq)]
        assert first.expected == reply.next_event_seq
    finally:
        first.close()


# -- refusals -----------------------------------------------------------------------------------

REFUSALS = [
    ("sim_throw extra byte", dc.SIM_THROW, bytes(7), dc.E_BAD_PAYLOAD),
    ("sim_throw 100 a colour", dc.SIM_THROW, bytes([0, 100, 0, 0, 0, 0]), dc.E_BAD_PAYLOAD),
    ("sim_throw 21 farmers", dc.SIM_THROW, bytes([0, 0, 0, 0, 0, 21]), dc.E_BAD_PAYLOAD),
    ("sim_load 65 in all", dc.SIM_LOAD, bytes([11, 11, 11, 11, 11, 10]), dc.E_BAD_PAYLOAD),
    ("animate colour 200", dc.ANIMATE, bytes([1, 200]), dc.E_BAD_PAYLOAD),
    ("scores colour 9", dc.SCORES, struct.pack("<BHB", 9, 1, 1), dc.E_BAD_PAYLOAD),
    ("scores green 5", dc.SCORES, struct.pack("<BHB", 5, 1, 1), dc.E_BAD_PAYLOAD),
    ("scores a colour twice", dc.SCORES, struct.pack("<BHBBHB", 1, 1, 1, 1, 2, 2),
     dc.E_BAD_PAYLOAD),
    ("ping 3 bytes", dc.PING, bytes(3), dc.E_BAD_PAYLOAD),
    ("status_get with a payload", dc.STATUS_GET, bytes(1), dc.E_BAD_PAYLOAD),
    ("segments colour 8", dc.SEGMENTS, struct.pack("<HBB", 0, 1, 8), dc.E_BAD_PAYLOAD),
    ("inject block 999 us", dc.INJECT, struct.pack("<HHH", 1, 999, 1000), dc.E_BAD_PAYLOAD),
    ("cal_store threshold 5001", dc.CAL_STORE,
     bytes([1]) + struct.pack("<BHHHH", 0, 3000, 3000, 3000, 5001), dc.E_BAD_PAYLOAD),
    ("repl_confirm without a nonce", dc.REPL_CONFIRM, struct.pack("<I", 1), dc.E_NONCE),
    ("unknown type 0x7e", 0x7E, b"", dc.E_UNKNOWN_TYPE),
    ("scores no player", dc.SCORES, b"", dc.E_BAD_PAYLOAD),
    ("segments 26 runs", dc.SEGMENTS, struct.pack("<HBB", 0, 0, 0) * 26, dc.E_BAD_PAYLOAD),
    ("track_config rice 7", dc.TRACK_CONFIG, struct.pack("<HHHHBB", 20, 7, 20, 500, 128, 0),
     dc.E_BAD_PAYLOAD),
    ("cal_sample colour 6", dc.CAL_SAMPLE, bytes([6]), dc.E_BAD_PAYLOAD),
    ("sim_load 63 red", dc.SIM_LOAD, bytes([0, 63, 0, 0, 0, 0]), dc.E_BAD_PAYLOAD),
    ("inject 7 bytes", dc.INJECT, bytes(7), dc.E_BAD_PAYLOAD),
]


@pytest.mark.parametrize("what,msg_type,payload,code", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_malformed_command_is_refused_and_applies_nothing(tower, what, msg_type, payload, code):
    tower.hello()
    tower.sim_load([1, 1, 1, 1, 1, 1])
    before = tower.sim_tower()
    with pytest.raises(dc.Refused) as refused:
        tower.request(msg_type, payload)
    assert refused.value.code == code, refused.value
    reason = refused.value.reason
    assert reason and "\n" not in reason and len(reason.encode()) <= 199
    after = tower.sim_tower()
    assert (after.inside, after.throws_run) == (before.inside, before.throws_run)
    # The board keeps running and the window goes on from the refused number.
    assert tower.request(dc.PING, struct.pack("<I", 42))[:4] == struct.pack("<I", 42)


def test_led_read_sends_at_most_60_leds_and_none_past_the_strip(tower):
    tower.hello()
    data = tower.request(dc.LED_READ, struct.pack("<HH", 0, 1000))
    total = struct.unpack_from("<HH", data)[1]
    assert struct.unpack_from("<HH", data) == (0, total)
    assert len(data) == 4 + 3 * min(60, total)
    past = tower.request(dc.LED_READ, struct.pack("<HH", total + 100, 3))
    # 0 LEDs, and the reply's first LED is the strip's length, not the offset asked
    assert past == struct.pack("<HH", total, total)


def test_command_numbers_wrap_through_zero(tower_port):
    # Numbers count up mod 2**16; 0 is also the ACK's, yet a command may carry it.
    with dc.TowerClient(tower_port, session=SESSION, first_seq=0xFFFE) as tower:
        tower.hello()
        assert tower.last_seq == 0xFFFE
        tower.sim_load([1, 0, 0, 0, 0, 0])
        tower.sim_load([2, 0, 0, 0, 0, 0])
        assert tower.last_seq == 0
        assert tower.sim_tower().inside == (2, 0, 0, 0, 0, 0)


def test_far_numbers_are_refused_and_lock_nothing_out(tower):
    tower.hello()
    tower.sim_load([1, 1, 1, 1, 1, 1])
    newest = tower.last_seq
    ahead = (newest + 30000) & 0xFFFF
    with pytest.raises(dc.Refused) as refused:
        tower.request(dc.SIM_LOAD, bytes(6), seq=ahead)
    assert refused.value.code == dc.E_AHEAD
    behind = (newest - 1000) & 0xFFFF
    with pytest.raises(dc.Refused) as refused:
        tower.request(dc.SIM_LOAD, bytes(6), seq=behind)
    assert refused.value.code == dc.E_STALE
    # Not run, and N did not move: the next number is still a new command.
    assert tower.sim_tower().inside == (1, 1, 1, 1, 1, 1)
    tower.sim_load([2, 0, 0, 0, 0, 0])
    assert tower.sim_tower().inside == (2, 0, 0, 0, 0, 0)


def test_a_repeat_gets_the_kept_reply_and_a_reused_number_is_refused(tower):
    tower.hello()
    assert tower.wait_for_event(dc.BOOT, timeout=3) is not None
    tower.sim_load([0, 4, 0, 0, 4, 0])
    throw = bytes([0, 1, 0, 0, 1, 0])
    tower.request(dc.SIM_THROW, throw)
    throw_seq = tower.last_seq
    assert tower.wait_for_event(dc.THROW_END, timeout=15) is not None
    runs = tower.sim_tower().throws_run
    assert runs == 1
    # The very same frame again: the kept `ok`, nothing thrown.
    assert tower.request(dc.SIM_THROW, throw, seq=throw_seq) == b""
    with pytest.raises(dc.Refused) as refused:
        tower.request(dc.SIM_THROW, bytes([0, 0, 0, 0, 1, 0]), seq=throw_seq)
    assert refused.value.code == dc.E_REUSED
    time.sleep(0.6)  # longer than the quiet window: a throw would have started
    assert tower.sim_tower().throws_run == runs


def test_status_read_at_the_tables_offsets(tower):
    tower.hello()
    status = tower.status()
    assert status.calibrating == 255  # off
    assert status.budget_ma == 370 and status.brightness == 128


# -- ACKs the board must refuse -----------------------------------------------------------------

def test_an_ack_past_what_was_sent_or_of_another_boot_changes_nothing(tower):
    reply = tower.hello()
    assert tower.wait_for_event(dc.BOOT, timeout=3) is not None
    assert _outbox_emptied(tower).events_waiting == 0
    tower.sim_load([4, 4, 4, 4, 4, 4])
    tower.hold_acks(True)
    start = len(tower.events)
    tower.sim_throw([2, 2, 2, 2, 2, 2])
    assert tower.wait_for_event(dc.THROW_END, start, timeout=15) is not None
    time.sleep(1.0)  # any late cube of the throw
    held = tower.status().events_waiting
    newest = tower.events[-1].seq
    assert held == len(tower.events) - start
    # One past the newest, far past it, and the newest under another boot id.
    for forged in ((newest + 1) & 0xFFFF, (newest + 300) & 0xFFFF):
        tower.send_frame(dc.ACK, 0, struct.pack("<HI", forged, reply.boot_id))
    tower.send_frame(dc.ACK, 0, struct.pack("<HI", newest, reply.boot_id ^ 1))
    time.sleep(0.3)
    assert tower.status().events_waiting == held
    # The board still sends them, and the host's true ACK takes them all.
    frames = _event_frames(tower)
    time.sleep(0.3)
    assert _event_frames(tower) > frames
    tower.hold_acks(False)
    tower.send_frame(dc.ACK, 0, struct.pack("<HI", newest, reply.boot_id))
    assert _outbox_emptied(tower).events_waiting == 0
    seqs = [e.seq for e in tower.events]
    assert seqs == list(range(len(seqs)))


# -- the ring of kept replies -------------------------------------------------------------------

@pytest.mark.parametrize("changing_after", [7, 8])
def test_a_repeat_is_answered_while_kept_and_stale_once_overwritten(tower, changing_after):
    tower.hello()
    first = bytes([0, 1, 0, 0, 0, 0])
    tower.request(dc.SIM_LOAD, first)
    first_seq = tower.last_seq
    for k in range(changing_after):
        tower.sim_load([0, 0, 0, 0, 0, 1 + k])
    last = (0, 0, 0, 0, 0, changing_after)
    assert tower.sim_tower().inside == last
    if changing_after < 8:
        # Within the ring's last 8 changing commands: the kept `ok`, nothing runs.
        assert tower.request(dc.SIM_LOAD, first, seq=first_seq) == b""
    else:
        with pytest.raises(dc.Refused) as refused:
            tower.request(dc.SIM_LOAD, first, seq=first_seq)
        assert refused.value.code == dc.E_STALE
    assert tower.sim_tower().inside == last


# -- a full outbox ------------------------------------------------------------------------------

def _wait_for_the_tower_to_settle(tower, quiet_s: float = 1.0, timeout: float = 20.0) -> None:
    """Until the hardware count stops moving for `quiet_s` (the events may be held)."""
    deadline = time.monotonic() + timeout
    count, since = tower.status().hardware_count, time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = tower.status().hardware_count
        if now != count:
            count, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet_s:
            return
    raise AssertionError("the tower never settled")


def test_a_full_outbox_ends_in_one_summary_that_counts_every_cube(tower):
    tower.hello()
    assert tower.wait_for_event(dc.BOOT, timeout=3) is not None
    assert _outbox_emptied(tower).events_waiting == 0
    tower.hold_acks(True)  # a host that stopped acknowledging
    fell = Counter()
    loaded, thrown = [5, 5, 5, 5, 5, 5], [2, 2, 2, 2, 2, 2]
    for _throw in range(5):
        tower.sim_load(loaded)
        tower.sim_throw(thrown)
        _wait_for_the_tower_to_settle(tower)
        inside = tower.sim_tower().inside
        for colour in range(6):
            fell[colour] += loaded[colour] + thrown[colour] - inside[colour]
    status = tower.status()
    assert status.hardware_count == sum(fell.values())
    assert status.events_waiting <= 32
    assert status.hardware_count > 32, "too few cubes to fill the outbox"
    tower.hold_acks(False)
    tower.send_frame(dc.ACK, 0, struct.pack("<HI", tower.last_taken, tower.boot_id))
    assert tower.wait_for_event(dc.SUMMARY, timeout=5) is not None
    time.sleep(1.0)
    assert _outbox_emptied(tower).events_waiting == 0
    events = tower.events
    seqs = [e.seq for e in events]
    assert seqs == list(range(len(seqs)))
    summaries = [e for e in events if e.type == dc.SUMMARY]
    assert len(summaries) == 1
    (first, last, _ends, _others, _last_throw, hardware, *per_colour) = struct.unpack_from(
        "<IIHHII7H", summaries[0].payload)
    cubes = [dc.parse_cube(e.payload) for e in events if e.type == dc.CUBE]
    numbers = sorted([c.number for c in cubes] + list(range(first, last + 1)))
    assert numbers == list(range(1, status.cubes + 1)), "a cube missing or doubled"
    assert sum(per_colour) == last - first + 1
    # Every cube after the summary is newer than the ones it counts.
    index = events.index(summaries[0])
    assert all(dc.parse_cube(e.payload).number > last for e in events[index:]
               if e.type == dc.CUBE)
    assert hardware == status.hardware_count


# -- the detector against the hardware count ----------------------------------------------------

def test_each_throws_cube_events_agree_with_the_hardware_count_or_say_so(tower):
    tower.hello()
    assert tower.wait_for_event(dc.BOOT, timeout=3) is not None
    loaded, thrown = [5, 5, 5, 5, 5, 5], [2, 2, 2, 2, 2, 2]
    hardware_before = 0
    for _throw in range(3):
        start = len(tower.events)
        mismatches_before = tower.status().mismatches
        tower.sim_load(loaded)
        tower.sim_throw(thrown)
        ends = [dc.parse_throw_end(e.payload) for e in _throw_ends(tower, start)]
        events = tower.events[start:]
        cubes = [dc.parse_cube(e.payload) for e in events if e.type == dc.CUBE]
        status = _outbox_emptied(tower)
        inside = tower.sim_tower().inside
        fell = [loaded[colour] + thrown[colour] - inside[colour] for colour in range(6)]
        said = (status.mismatches > mismatches_before
                or any(c.flags & 8 for c in cubes)  # FLAG_RECOVERED
                or any(e.type == dc.ERROR and e.payload[:1] == bytes([dc.E_COUNT_MISMATCH])
                       for e in events))
        in_throws = sum(n for _t, n, _h in ends)
        assert in_throws == ends[-1][2] - hardware_before or said, (ends, hardware_before)
        if not said:
            _check_colours(Counter(c.colour for c in cubes), fell)
        hardware_before = ends[-1][2]


# -- the example exchange, run again ------------------------------------------------------------

def test_the_example_exchange_reproduces_but_for_the_fields_the_page_names(tower):
    """The page: "a run gives the same bytes except in the fields that are random or timed by
    nature". The host's frames are sent as printed (the boot id of each ACK and the nonce of
    `repl_confirm` taken from this run); the tower's compared field by field."""
    host = [(n, dc.decode_block(raw[1:-1])) for d, n, raw in EXAMPLE if d == "H>D"]
    printed = {n: [] for _d, n, _r in EXAMPLE}
    for _d, n, raw in EXAMPLE:
        printed[n].append(dc.decode_block(raw[1:-1])[2])
    replies = []
    nonce = None
    for name, (msg_type, seq, payload) in host:
        if name == "ack":
            continue  # this client acknowledges what it takes itself
        if name == "status_get":
            assert tower.wait_for_event(dc.THROW_END, timeout=15) is not None
            assert tower.wait_acked(tower.events[-1].seq)
            time.sleep(0.3)  # an ACK takes a moment: see the test just below
        if name == "repl_confirm":
            payload = nonce
        if name == "hello":
            reply = tower.exchange(msg_type, seq, payload, tries=20)
            tower.ack()
        else:
            reply = tower.exchange(msg_type, seq, payload)
        assert reply is not None, f"{name} seq {seq}: no answer"
        replies.append(reply)
        if reply[0] == dc.REPL_NONCE:
            nonce = reply[1]
    names = [n for _d, n, _r in EXAMPLE if _d == "D>H" and n not in ("boot", "cube", "throw_end")]
    assert [NAMES[n] for n in names] == [t for t, _p in replies]
    got = {n: [] for n in names}
    for n, (_t, p) in zip(names, replies, strict=True):
        got[n].append(p)
    # hello_reply: all but the boot id, and next_event_seq, "the oldest event not yet
    # acknowledged": as printed, or one more once this client's ACK of the event it took
    # before the reply reached the board first ("Events before any hello_reply").
    for mine, theirs in zip(got["hello_reply"], printed["hello_reply"], strict=True):
        assert mine[:1] + mine[7:] == theirs[:1] + theirs[7:]
        ours, its = struct.unpack_from("<H", mine, 5)[0], struct.unpack_from("<H", theirs, 5)[0]
        assert ours - its in (0, 1), (ours, its)
    assert got["ok"] == printed["ok"]
    assert got["refused"] == printed["refused"]
    assert got["sim_tower_data"][0][:10] == printed["sim_tower_data"][0][:10]
    assert len(got["repl_nonce"][0]) == 4 and got["repl_nonce"][0] != bytes(4)
    mine, theirs = (dc.parse_status(p) for p in (got["status"][0], printed["status"][0]))
    for name in ("cubes", "hardware_count", "mismatches", "budget_ma", "dimmed", "brightness",
                 "events_waiting"):
        assert getattr(mine, name) == getattr(theirs, name), name
    assert mine.extra[2:] == theirs.extra[2:]  # edges_lost, sensor_errors, chatter, calibrating
    # The events: boot's cause, each cube's number, colour and flags, the throw's end.
    events = {e.seq: e for e in tower.events}
    assert events[0].payload[4:] == printed["boot"][0][4:]
    for seq, theirs in zip((1, 2), printed["cube"], strict=True):
        a, b = dc.parse_cube(events[seq].payload), dc.parse_cube(theirs)
        assert (a.number, a.colour, a.flags) == (b.number, b.colour, b.flags)
    assert events[3].payload == printed["throw_end"][0]


def _throw_acks_held(tower):
    """The example's throw, its events taken but not acknowledged: the last one's number."""
    tower.hello()
    assert tower.wait_for_event(dc.BOOT, timeout=3) is not None
    assert tower.wait_acked(0)
    tower.sim_load([0, 2, 0, 0, 1, 3])
    tower.hold_acks(True)
    tower.sim_throw([0, 1, 0, 0, 1, 0])
    end = tower.wait_for_event(dc.THROW_END, timeout=15)
    assert end is not None
    return end.seq


def test_a_status_after_a_reply_that_followed_the_ack_shows_it(tower):
    """"To see an ACK in `status`, send `status_get` only once you have the reply to some
    command you wrote after the ACK"."""
    last = _throw_acks_held(tower)
    assert tower.status().events_waiting == 3
    tower.send_frame(dc.ACK, 0, struct.pack("<HI", last, tower.boot_id))
    tower.request(dc.PING, struct.pack("<I", 1))
    assert tower.status().events_waiting == 0


def test_a_status_written_right_behind_the_ack_shows_it(tower):
    """"So a `status_get` written right after an `ack` counts the outbox as the ACK left it,
    whether the two reach the board in one read or in two"."""
    last = _throw_acks_held(tower)
    seq = tower.next_seq()
    ack = dc.encode_frame(dc.ACK, 0, struct.pack("<HI", last, tower.boot_id))
    reply = tower.exchange(dc.STATUS_GET, seq, b"", tries=1, before=ack)
    assert reply is not None and reply[0] == dc.STATUS
    assert dc.parse_status(reply[1]).events_waiting == 0


# -- a small board --------------------------------------------------------------------------------

@pytest.mark.parametrize("tower_port", [["--heapsize", "64K", "--romfs"]], indirect=True)
def test_a_full_tower_and_a_full_throw_on_a_64k_board(tower):
    reply = tower.hello()
    assert tower.wait_for_event(dc.BOOT, timeout=5) is not None
    loaded, thrown = [10, 10, 10, 10, 10, 14], [12, 12, 12, 12, 12, 4]
    tower.sim_load(loaded)
    try:
        tower.sim_throw(thrown)
    except dc.Refused as refused:  # refusing it is what the limits would allow too
        assert refused.code == dc.E_BAD_PAYLOAD
        return
    assert tower.wait_for_event(dc.THROW_END, timeout=15) is not None
    _throw_ends(tower, 0, quiet_s=1.5)
    assert tower.fatal == []
    assert {e.boot_id for e in tower.events} == {reply.boot_id}
    fell = sum(loaded) + sum(thrown) - sum(tower.sim_tower().inside)
    assert tower.status().hardware_count == fell
