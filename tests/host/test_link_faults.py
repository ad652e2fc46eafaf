"""The link under faults: lost replies, malformed and unknown events, another protocol version,
and a short seeded slice of each fault campaign of bench/bench_faults.py (the full sizes run in
`make bench`)."""

from __future__ import annotations

import contextlib
import os
import pathlib
import pty
import queue
import struct
import subprocess
import sys
import threading
import time
import tty

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shogun_common import protocol as P
from shogun_tower.device.fault_relay import FaultyLink
from shogun_tower.device.link import DeviceLink, LinkError, NoAnswer, OutcomeUnknown
from shogun_tower.device.throws import collect_throw
from shogun_tower.sim_device import SimulatedTower, repo_root

sys.path.insert(0, str(repo_root() / "bench"))
import bench_faults  # noqa: E402


# ---- a scripted board on a pseudo-terminal ------------------------------------------------------
class FakeTower:
    """The far end of a pseudo-terminal: answers HELLO as told, and sends what a test writes.

    ``next_seq``: the next_event_seq of its hello_reply; ``after_hello``: frames (type, seq,
    payload) written in the same write as the hello_reply, as a board's rewind sends its events
    at once; ``answers``: a type's own answer, a function of (seq, payload) giving the reply's
    (type, payload), or None for none at all; ``delay_s``: each reply that long after its
    command, the commands received and not yet answered counted (``most_in_flight``)."""

    def __init__(self, protocol: int = P.PROTOCOL_VERSION, refuse_version: bool = False) -> None:
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        self._slave = slave
        self.protocol = protocol
        self.refuse_version = refuse_version
        self.boot_id = 0x12345678
        self.next_seq = 0
        self.after_hello: list[tuple[int, int, bytes]] = []
        self.answers: dict[int, object] = {}
        self.delay_s = 0.0
        self.in_flight = 0
        self.most_in_flight = 0
        self._lock = threading.Lock()
        self.heap_lives: list[int] = []  # STATUS answers' heap_live, one each (the last repeats)
        self.received: list[tuple[int, int, bytes]] = []
        self.received_at: list[float] = []  # time.monotonic() of each
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        reader = P.FrameReader()
        while not self._stop.is_set():
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            for mtype, seq, payload in reader.feed(data):
                self.received.append((mtype, seq, payload))
                self.received_at.append(time.monotonic())
                if mtype == P.ACK:
                    continue
                answer = self._answer(mtype, seq, payload)
                if answer is None:
                    continue
                with self._lock:
                    self.in_flight += 1
                    self.most_in_flight = max(self.most_in_flight, self.in_flight)
                if self.delay_s:
                    threading.Timer(self.delay_s, self._reply, (answer,)).start()
                else:
                    self._reply(answer)

    def _reply(self, wire: bytes) -> None:
        with self._lock:
            self.in_flight -= 1
        with contextlib.suppress(OSError):
            os.write(self.master, wire)

    def _answer(self, mtype: int, seq: int, payload: bytes) -> bytes | None:
        """The bytes that answer one command, or None."""
        if mtype in self.answers:
            reply = self.answers[mtype](seq, payload)  # type: ignore[operator]
            return None if reply is None else P.encode_frame(reply[0], seq, reply[1])
        if mtype == P.HELLO and self.refuse_version:
            return P.encode_frame(P.REFUSED, seq, P.pack_text(
                P.E_VERSION, f"protocol: board {self.protocol}, host {payload[0]}"))
        if mtype == P.HELLO:
            reply = struct.pack("<BIHB", self.protocol, self.boot_id, self.next_seq, 0)
            return P.encode_frame(P.HELLO_REPLY, seq, reply + b"9\x00fake") + b"".join(
                P.encode_frame(*frame) for frame in self.after_hello)
        if mtype == P.STATUS_GET and self.heap_lives:
            live = self.heap_lives.pop(0) if len(self.heap_lives) > 1 else self.heap_lives[0]
            return P.encode_frame(P.STATUS, seq, P.pack_status(9000, 0, 0, 0, 0, 370, 0, 128, 0,
                                                               heap_live=live))
        if mtype == P.REPL and self.protocol == 1:  # protocol 1: one step
            return P.encode_frame(P.OK, seq) + b"MicroPython v1.26\r\n>>> "
        return None

    def send(self, mtype: int, seq: int, payload: bytes = b"") -> None:
        os.write(self.master, P.encode_frame(mtype, seq, payload))

    def close(self) -> None:
        self._stop.set()
        os.close(self.master)
        os.close(self._slave)


def _next(link: DeviceLink, timeout: float = 2.0):
    return link.events.get(timeout=timeout)


def drain_events(link: DeviceLink) -> None:
    while not link.events.empty():
        link.events.get_nowait()


def test_a_board_of_another_protocol_gets_one_line_saying_what_to_update() -> None:
    old = FakeTower(protocol=1)  # an older firmware answers hello without looking
    link = DeviceLink(old.port, retries=2, timeout=0.3)
    with pytest.raises(LinkError) as err:
        link.hello()
    text = str(err.value)
    assert "\n" not in text
    assert "protocol 1" in text and f"speaks {P.PROTOCOL_VERSION}" in text
    assert "make deploy" in text
    link.close()
    old.close()
    newer = FakeTower(protocol=P.PROTOCOL_VERSION + 1, refuse_version=True)
    link = DeviceLink(newer.port, retries=2, timeout=0.3)
    with pytest.raises(LinkError) as err:
        link.hello()
    text = str(err.value)
    assert f"protocol {P.PROTOCOL_VERSION + 1}" in text and "update shogun-tower" in text
    link.close()
    newer.close()


def test_a_status_with_the_heap_waits_for_the_towers_collection_between_throws() -> None:
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=2, timeout=0.5)
    link.hello()
    tower.heap_lives = [0, 0, 0, 61920]  # collected only a few ticks after the throw's end
    assert link.status()["heap_live"] == 0
    assert link.status_with_heap(wait_s=5)["heap_live"] == 61920
    tower.heap_lives = [0]  # a tower that never collects: one line, not a figure of 0
    with pytest.raises(LinkError) as err:
        link.status_with_heap(wait_s=0.5)
    assert "\n" not in str(err.value) and "not collected its heap within 0.5 s" in str(err.value)
    link.close()
    tower.close()


def _repl_command(port: str) -> subprocess.CompletedProcess:
    cli = str(pathlib.Path(sys.executable).parent / "shogun-tower")
    return subprocess.run([cli, "repl", "--port", port], capture_output=True, text=True,
                          timeout=30, check=False)


def test_shogun_tower_repl_opens_the_repl_with_the_handshake() -> None:
    with SimulatedTower(seed=2) as sim:
        proc = _repl_command(sim.port)
        assert proc.returncode == 0 and "is at its REPL" in proc.stderr, proc.stderr
    old = FakeTower(protocol=1)  # an older firmware: `make deploy` must still replace it
    proc = _repl_command(old.port)
    assert proc.returncode == 0 and "is at its REPL" in proc.stderr, proc.stderr
    assert [t for t, _s, _p in old.received if t in (P.REPL, P.REPL_CONFIRM)] == [P.REPL]
    old.close()


def test_malformed_and_unknown_events_are_reported_once_and_the_link_goes_on(caplog) -> None:
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=2, timeout=0.5)
    link.hello()
    tower.send(P.BOOT, 0, struct.pack("<I", tower.boot_id) + b"\xff\xfe not utf-8")
    boot = _next(link)
    assert boot.kind == "boot" and "not utf-8" in boot.data["cause"]
    bad = [
        (P.CUBE, P.pack_cube(1, 0, 0, 90, 7000, 0)[:8] + bytes((7,)) + bytes(4)),  # colour 7
        (P.CUBE, b"\x01\x02"),                                                      # too short
        (0x9E, b"an event of a newer firmware"),                                    # unknown
        (P.THROW_END, b""),
    ]
    for seq, (mtype, payload) in enumerate(bad, start=1):
        tower.send(mtype, seq, payload)
        event = _next(link)
        assert event.kind == "error" and event.data["host"], event
    # a newer firmware's extra trailing fields are ignored; the link still delivers in order
    tower.send(P.CUBE, 5, P.pack_cube(2, 0, 1, 90, 7000, 0) + b"future fields")
    event = _next(link)
    assert event.kind == "cube" and event.data["colour"] == "red" and event.data["cube_no"] == 2
    time.sleep(0.1)
    acks = [P.unpack_ack(p) for t, _s, p in tower.received if t == P.ACK]
    assert acks[-1] == (5, tower.boot_id), "every event acknowledged, the bad ones too"
    # logged once per message type, not once per frame
    for seq in range(6, 9):
        tower.send(P.CUBE, seq, b"\x01")
        assert _next(link).kind == "error"
    assert sum("could not read cube" in r.message for r in caplog.records) == 1
    assert link._thread.is_alive() and link.bad_events == 7
    link.close()
    tower.close()


def test_a_burst_of_events_is_acknowledged_by_few_cumulative_acks() -> None:
    # The board reads the host's bytes one at a time: in a throw (an event every few ms) the host
    # acknowledges at most every ACK_EVERY_S (20 ms), each ACK covering every event before it,
    # and at once when ACK_AT_ONCE (16) wait - never so late that the board resends.
    from shogun_tower.device.link import ACK_AT_ONCE, ACK_EVERY_S
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=2, timeout=0.5)
    link.hello()
    tower.send(P.BOOT, 0, struct.pack("<I", tower.boot_id) + b"power on")
    assert _next(link).kind == "boot"
    time.sleep(0.1)
    start = len(tower.received)
    for seq in range(1, 61):  # 60 cube events, one every 2 ms
        tower.send(P.CUBE, seq, P.pack_cube(seq, 0, seq % 6, 90, 7000, 0))
        time.sleep(0.002)
    for _ in range(60):
        assert _next(link).kind == "cube"
    time.sleep(2 * ACK_EVERY_S + 0.05)
    acks = [(at, P.unpack_ack(p)[0]) for (t, _s, p), at in
            zip(tower.received[start:], tower.received_at[start:], strict=True) if t == P.ACK]
    assert acks and acks[-1][1] == 60, f"the last ACK covers every event: {acks}"
    seqs = [seq for _at, seq in acks]
    assert seqs == sorted(set(seqs)), f"each ACK acknowledges more than the one before: {seqs}"
    # one ACK a read (5 ms) would be about 24 here; paced, about 6
    assert len(acks) <= 12, f"{len(acks)} ACKs for 60 events in ~120 ms: {seqs}"
    # a burst in one read: acknowledged at once, not 20 ms later
    burst = b"".join(P.encode_frame(P.CUBE, seq, P.pack_cube(seq, 0, 1, 90, 7000, 0))
                     for seq in range(61, 61 + ACK_AT_ONCE + 4))
    mark = len(tower.received)
    os.write(tower.master, burst)
    for _ in range(ACK_AT_ONCE + 4):
        assert _next(link).kind == "cube"
    time.sleep(0.1)
    later = [P.unpack_ack(p)[0] for t, _s, p in tower.received[mark:] if t == P.ACK]
    assert later and later[-1] == 60 + ACK_AT_ONCE + 4, later
    link.close()
    tower.close()


@pytest.fixture(scope="module")
def fake_link():
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=2, timeout=0.5)
    link.hello()
    yield tower, link, [0]  # the next event's sequence number
    link.close()
    tower.close()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0x80, 0xFF), st.binary(max_size=P.MAX_PAYLOAD)),
                min_size=1, max_size=12))
def test_random_well_framed_events_never_stop_the_reader(fake_link, frames) -> None:
    tower, link, next_seq = fake_link
    for mtype, payload in frames:
        if mtype == P.BOOT:
            payload = struct.pack("<I", tower.boot_id) + payload  # this boot's, still
        if mtype >= P.EVENTS_FROM:
            tower.send(mtype, next_seq[0], payload)
            next_seq[0] += 1
        else:
            tower.send(mtype, 0xABCD, payload)  # a reply nobody waits for
    marker = next_seq[0]
    tower.send(P.CUBE, marker, P.pack_cube(100000 + marker, 0, 4, 90, 7000, 0))
    next_seq[0] += 1
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        try:
            event = link.events.get(timeout=0.2)
        except queue.Empty:
            continue
        if event.kind == "cube" and event.data["cube_no"] == 100000 + marker:
            break
    else:
        raise AssertionError("the reader stopped delivering")
    assert link._thread.is_alive()


def test_a_lost_reply_does_not_run_the_command_twice() -> None:
    with SimulatedTower(seed=4, options=bench_faults.FAST_OUTLET) as sim:
        link = FaultyLink(sim.port, timeout=0.3)
        link.handshake()
        before = link.sim_throws_run()
        sent: list[tuple[int, int]] = []
        send = link._send
        link._send = lambda mtype, payload=b"", seq=0: (sent.append((mtype, seq)),
                                                       send(mtype, payload, seq))[1]
        link.drop_incoming_replies = 2  # the board's OK is lost twice: the host repeats
        link.sim_throw({"red": 3})
        throws = [seq for mtype, seq in sent if mtype == P.SIM_THROW]
        assert len(throws) == 3 and len(set(throws)) == 1, "a retry keeps its number"
        assert link.sim_throws_run() == before + 1, "and the board ran it once"
        numbers = [seq for mtype, seq in sent if mtype != P.ACK]
        assert len(numbers) - 2 == len(set(numbers)), "new commands never reuse a number"
        link.close()


def test_a_silent_host_loses_nothing_in_the_default_heap() -> None:
    # (the 64K ROMFS version with 1000 cubes is tests/hil/test_heap_64k.py)
    with SimulatedTower(seed=6, options=bench_faults.FAST_OUTLET) as sim:
        link = FaultyLink(sim.port)
        link.handshake()
        before = link.sim_tower()
        link.hold_acks = True
        thrown = {"red": 20, "blue": 20, "green": 10}
        link.sim_throw(thrown)
        time.sleep(2.5)
        assert link.status()["queue"] <= 32  # the bounded outbox
        link.hold_acks = False
        link.acknowledge()
        counts: dict[str, int] = {}
        deadline = time.monotonic() + 5
        summaries = 0
        while time.monotonic() < deadline:
            try:
                event = link.events.get(timeout=0.5)
            except queue.Empty:
                continue
            if event.kind == "cube":
                counts[event.data["colour"]] = counts.get(event.data["colour"], 0) + 1
            elif event.kind == "summary":
                summaries += 1
                for colour, n in event.data["cubes"].items():
                    counts[colour] = counts.get(colour, 0) + n
                if event.data["throws"]:
                    break
            elif event.kind == "throw_end":
                break
        after = link.sim_tower()
        assert summaries == 1
        # every cube out is counted in its colour or as unknown (a dim cube at a poor pose in
        # the colour window's optics), none lost, added or given another colour
        short = {c: before[c] + thrown.get(c, 0) - after[c] - counts.get(c, 0) for c in before}
        assert all(n >= 0 for n in short.values()), (short, counts)
        assert sum(short.values()) == counts.get("unknown", 0), (short, counts)
        link.close()


# ---- short slices of the campaigns --------------------------------------------------------------
@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_fuzzed_frames_slice(interpreter: str) -> None:
    result = bench_faults.fuzz(3000, 5, interpreter)
    assert result["exceptions"] == 0, result["first_error"]
    assert result["false_accepts"] == 0 and result["reader_ok_after"]
    assert result["delivered"] > 500 and result["damaged"] > 1500


def test_corrupting_relay_slice() -> None:
    r = bench_faults.relay_campaign(3, 1e-2, seed=5)
    assert r["throws_run"] == r["throws_asked"] == 3
    assert r["exactly_once"] and r["conserved"], r


def test_cable_pulls_and_resets_slice() -> None:
    d = bench_faults.disruption_campaign(2, 2, seed=8, throws_per_game=8)
    assert d["pulls"] >= 2 and d["resets"] >= 2
    assert d["problems"] == []


def test_host_kill_slice() -> None:
    k = bench_faults.kill_campaign(1, seed=9)
    assert k["kills"] == 1 and k["problems"] == []
    assert k["identical"] == k["snapshots_checked"] >= 1


# ---- stray frames, a failed request, silent stalls (each failed on the code before) -------------
def _one_line(err: BaseException) -> str:
    text = str(err)
    assert text and "\n" not in text, text
    return text


def test_short_replies_raise_one_line_link_errors() -> None:
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=2, timeout=0.3)
    link.hello()
    tower.answers = {P.PING: lambda s, p: (P.PONG, b"\x01\x02"),
                     P.LED_READ: lambda s, p: (P.LED_DATA, b"\x00"),
                     P.CAL_GET: lambda s, p: (P.CAL_DATA, b"\x02\x01"),
                     P.STATUS_GET: lambda s, p: (P.STATUS, b"\x00" * 5),
                     P.SIM_TOWER: lambda s, p: (P.SIM_TOWER_DATA, b"\x01")}
    for call in (link.ping, link.read_led_frame, link.get_calibration, link.status,
                 link.sim_tower, link.sim_throws_run, link.sim_strip_shown):
        with pytest.raises(LinkError) as err:
            call()
        assert "update" in _one_line(err.value), (call.__name__, err.value)
    link.close()
    tower.close()


def test_arguments_out_of_the_protocols_range_raise_one_line_link_errors() -> None:
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=1, timeout=0.2)
    link.hello()
    for call in (lambda: link.push_scores([("red", 70000, 0)]),
                 lambda: link.push_scores([("red", 3, 256)]),
                 lambda: link.inject(70000),
                 lambda: link.configure_track(brightness=300),
                 lambda: link.store_calibration([(1, 70000, 0, 0, 9)])):
        with pytest.raises(LinkError) as err:
            call()
        _one_line(err.value)
    assert not [t for t, _s, _p in tower.received if t != P.HELLO], "nothing was sent"
    link.close()
    tower.close()


def test_a_request_without_answer_says_the_outcome_is_unknown_and_what_to_do() -> None:
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=2, timeout=0.2)
    link.hello()
    with pytest.raises(OutcomeUnknown) as err:
        link.sim_throw({"red": 2})  # the tower may have run it: nothing answers
    text = _one_line(err.value)
    assert "may or may not" in text and "make deploy" not in text, text
    assert err.value.seq == tower.received[-1][1] and err.value.mtype == P.SIM_THROW
    # a command that changes nothing gives up saying so, without an unknown outcome
    with pytest.raises(NoAnswer) as err2:
        link.status()
    assert not isinstance(err2.value, OutcomeUnknown)
    _one_line(err2.value)
    link.close()
    tower.close()


def test_a_throw_whose_answer_was_lost_is_asked_about_not_guessed() -> None:
    # Every try's answer to sim_throw is lost, though the board ran it at the first: the tower
    # asks the board (the same command again, the same number: its kept reply, not a second
    # throw) and the throw's cubes are counted once.
    from shogun_tower.device.tower import DeviceTower

    with SimulatedTower(seed=4, options=bench_faults.FAST_OUTLET) as sim:
        link = FaultyLink(sim.port, timeout=0.3, retries=3)
        link.handshake()
        before = link.sim_throws_run()
        tower = DeviceTower(link)
        link.drop_incoming_replies = 3
        out = tower.throw({"red": 3, "blue": 2})
        assert link.sim_throws_run() == before + 1, "thrown once"
        assert sum(out.values()) >= 1
        link.close()


def test_events_right_after_hello_reply_are_taken_at_once() -> None:
    # The board sends what it holds right after hello_reply; a host that set its expected
    # number only once hello() returned dropped them (and waited for a resend).
    tower = FakeTower()
    tower.next_seq = 3
    tower.after_hello = [(P.CUBE, 3, P.pack_cube(7, 0, 1, 90, 7000, 0)),
                         (P.CUBE, 4, P.pack_cube(8, 0, 2, 90, 7000, 0))]
    link = DeviceLink(tower.port, retries=2, timeout=0.5)
    link.hello()
    got = [_next(link).data["cube_no"] for _ in range(2)]
    assert got == [7, 8]
    link.close()
    tower.close()


def test_a_gap_never_filled_is_resynced_and_said() -> None:
    # Event 1 never comes (the board no longer holds it): the host asks the board (hello),
    # says which events were lost, and takes the next ones.
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=2, timeout=0.5)
    link.hello()
    tower.send(P.BOOT, 0, struct.pack("<I", tower.boot_id) + b"power-on")
    assert _next(link).kind == "boot"
    tower.next_seq = 2  # what its hello_reply says from now on: event 2 is its oldest
    for seq in (2, 3):
        tower.send(P.CUBE, seq, P.pack_cube(seq, 0, 1, 90, 7000, 0))
    lost = _next(link, timeout=4)
    assert lost.kind == "error" and lost.data["lost"] == (1, 1), lost
    assert "event 1" in _one_line(lost.data["text"] + "")
    deadline = time.monotonic() + 4
    cubes = []
    while len(cubes) < 2 and time.monotonic() < deadline:
        with contextlib.suppress(queue.Empty):
            event = link.events.get(timeout=0.2)
            if event.kind == "cube":
                cubes.append(event.data["cube_no"])
            elif event.kind == "error":
                continue
        for seq in (2, 3):  # the board resends what it holds until acknowledged
            if len(cubes) < 2:
                tower.send(P.CUBE, seq, P.pack_cube(seq, 0, 1, 90, 7000, 0))
    assert cubes == [2, 3]
    link.close()
    tower.close()


def test_a_board_ahead_of_the_host_on_reconnect_is_resynced_and_said() -> None:
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=2, timeout=0.5)
    link.hello()
    tower.send(P.BOOT, 0, struct.pack("<I", tower.boot_id) + b"power-on")
    assert _next(link).kind == "boot"
    tower.next_seq = 5  # events 1-4 acknowledged by someone else: the board dropped them
    tower.after_hello = [(P.CUBE, 5, P.pack_cube(5, 0, 1, 90, 7000, 0))]
    link.hello()
    lost = _next(link)
    assert lost.kind == "error" and lost.data["lost"] == (1, 4), lost
    assert _next(link).data["cube_no"] == 5
    link.close()
    tower.close()


def test_a_stray_ack_beyond_what_was_sent_loses_no_event() -> None:
    # A forged ACK far past the events sent, while the host has not received them: the board
    # dropped them all, and the host waited for them for the rest of the boot.
    with SimulatedTower(seed=5, options=bench_faults.FAST_OUTLET) as sim:
        link = FaultyLink(sim.port)
        link.handshake()
        time.sleep(0.3)
        drain_events(link)
        start = link.inbox.expected
        link.drop_incoming_events = 10 ** 6  # nothing reaches the host for a while
        link.sim_throw({"red": 3, "green": 3})
        time.sleep(0.8)
        link._send(P.ACK, P.pack_ack((start + 200) & 0xFFFF, link.boot_id))
        time.sleep(0.3)
        link.drop_incoming_events = 0
        throw = collect_throw(link, quiet_s=1.0, first_cube_timeout=3.0)
        assert throw.device_throw_ends and len(throw.cubes) >= 1
        assert link.inbox.expected == (start + len(throw.cubes) + 1) & 0xFFFF
        link.close()


def test_the_host_keeps_one_command_in_flight() -> None:
    # Flow control: however many threads ask at once, the board's input holds one command
    # frame (and ACKs) at a time, never a burst past its 260-byte buffer.
    tower = FakeTower()
    link = DeviceLink(tower.port, retries=2, timeout=1.0)
    link.hello()
    tower.delay_s = 0.02
    tower.answers = {P.PING: lambda s, p: (P.PONG, p + b"\x00\x00\x00\x00")}
    errors: list[BaseException] = []

    def pings() -> None:
        try:
            for _ in range(5):
                link.ping()
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=pings) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    assert tower.most_in_flight == 1, tower.most_in_flight
    link.close()
    tower.close()


def test_stray_frames_slice() -> None:
    # one of each: an ACK naming events not sent, an ACK of another boot, numbers far ahead and
    # far behind, a number reused for another command, unknown types, a burst of 64 pings
    st = bench_faults.stray_campaign(8, seed=13)
    assert st["problems"] == [], st["problems"]
    assert st["runs"] == 8 and len(st["cases"]) == 8


def test_led_read_on_the_64k_board_slice() -> None:
    lr = bench_faults.led_read_64k(20, seed=5)
    assert lr["answered"] == 20 and lr["resets"] == 0 and lr["same_boot"], lr
