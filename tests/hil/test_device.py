"""The same tests for the simulated tower and a real board (`pytest tests/hil --port PORT`).

On a real board the inject pin (PINS["inject"]) must be jumpered to the upper beam's input:
synthetic cube pulses then travel the real path, as MicroPython's own hardware tests do with
jumpered pins.
"""

from __future__ import annotations

import pathlib
import re
import time

import pytest

from shogun_common import protocol as P
from shogun_tower.device.link import DeviceLink
from shogun_tower.device.throws import collect_throw

from .conftest import drain
from .hil_helpers import collect_until_throw_end

FIRMWARE_VERSION = re.search(
    r'VERSION = "([^"]+)"',
    (pathlib.Path(__file__).parents[2] / "firmware" / "shogun_fw" / "__init__.py").read_text(),
).group(1)


def test_handshake(device: DeviceLink) -> None:
    info = device.hello()
    assert info["protocol"] == P.PROTOCOL_VERSION
    assert info["firmware"] == FIRMWARE_VERSION
    assert info["board"] in ("sim", "esp32")
    assert info["caps"] & P.CAP_LED and info["caps"] & P.CAP_HW_COUNTER


def test_score_push_round_trip(device: DeviceLink) -> None:
    device.push_scores([("red", 12, 0), ("blue", 40, 3), ("black", 85, 0)])
    frame = device.read_led_frame()
    assert len(frame) >= 81 * 3
    r, g, b = frame[36:39]
    assert r > 0 and g == 0 and b == 0, "LED 12 shows red"
    r, g, b = frame[120:123]
    assert b > r and b > g, "LED 40 shows blue"
    assert frame[4 * 3:4 * 3 + 3] != b"\x00\x00\x00", "85 VP is a lap: LED 4"
    assert frame[13 * 3:13 * 3 + 3] == b"\x00\x00\x00"


def test_new_scores_reach_the_simulated_strip(device: DeviceLink, sim_only: None) -> None:
    # What a person sees: the strip takes a frame after the scores are pushed (the score
    # track's own write, not only the command's acknowledgement), and the tower says when
    frames, _last = device.sim_strip_shown()
    pushed = time.time()
    device.push_scores([("red", 21, 0), ("blue", 7, 1)])
    deadline = time.monotonic() + 2
    while True:
        now_frames, last = device.sim_strip_shown()
        if now_frames > frames and last >= pushed - 0.002:
            break
        assert time.monotonic() < deadline, "the strip never took the new scores' frame"
        time.sleep(0.005)


def test_cube_events_delivered_exactly_once(device: DeviceLink) -> None:
    drain(device)
    before = device.status()["cubes"]
    device.inject(25, block_us=7000, gap_us=6000)
    cubes, ends = collect_until_throw_end(device)
    numbers = [c["cube_no"] for c in cubes]
    assert numbers == list(range(before + 1, before + 26))
    assert ends[-1]["cubes"] == 25
    assert device.status()["cubes"] == before + 25


def test_lost_frames_are_sent_again_not_lost(device: DeviceLink,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    drain(device)
    before = device.status()["cubes"]
    lost = [6]  # the next six events vanish on the line
    dispatch = device._dispatch

    def lossy(mtype: int, seq: int, payload: bytes) -> None:
        if mtype >= P.EVENTS_FROM and lost[0] > 0:
            lost[0] -= 1
            return
        dispatch(mtype, seq, payload)

    monkeypatch.setattr(device, "_dispatch", lossy)
    device.inject(10, block_us=7000, gap_us=6000)
    cubes, _ends = collect_until_throw_end(device)
    assert [c["cube_no"] for c in cubes] == list(range(before + 1, before + 11))
    assert lost == [0]


def test_garbage_on_the_line_is_ignored(device: DeviceLink) -> None:
    with device._write_lock:
        device.port.write(b"\x00\x13\x37garbage\x00" + bytes(range(1, 200)) + b"\x00")
    rtt, _device_us = device.ping()
    assert rtt < 1.0


def test_unknown_command_is_refused_with_a_reason(device: DeviceLink) -> None:
    from shogun_tower.device.link import LinkError

    try:
        device.request(0x7E, b"")
    except LinkError as err:
        assert "unknown message type" in str(err)
    else:
        raise AssertionError("an unknown command was accepted")


def test_repl_escape_and_back(device: DeviceLink) -> None:
    prompt = device.enter_repl()
    assert ">>> " in prompt
    assert "42" in device.repl_exec("print(6 * 7)")
    info = device.leave_repl()
    assert info["firmware"] == FIRMWARE_VERSION
    rtt, _ = device.ping()
    assert rtt < 1.0


def assert_conserved(before: dict[str, int], thrown: dict[str, int], throw,
                     after: dict[str, int]) -> None:
    """Every cube is in the tray or still in the tower, each under its own colour. A cube the
    board could not read comes as unknown: the simulated board runs in real time, and on a
    loaded machine its colour sample can come after the cube has passed (on a board the tray
    is looked at). It is counted, never lost, and may only stand for a cube missing from its
    own colour. (A fresh clone's CI run of 8120873 found one blue cube of 10 short, and the
    test, which stopped at blue, could not say whether it came as unknown or as green.)"""
    counts = throw.counts
    assert sum(counts.values()) + sum(after.values()) == (
        sum(before.values()) + sum(thrown.values())), f"cubes lost or added: {counts}, {after}"
    for colour in before:
        expected = before[colour] + thrown.get(colour, 0)
        assert expected - throw.unknown <= after[colour] + counts[colour] <= expected, colour


def test_simulated_throw_conserves_cubes(device: DeviceLink, sim_only: None) -> None:
    drain(device)
    before = device.sim_tower()
    cubes_in = {"red": 7, "blue": 7, "green": 10}
    device.sim_throw(cubes_in)
    throw = collect_throw(device, quiet_s=0.6)
    assert_conserved(before, cubes_in, throw, device.sim_tower())


def test_sim_load_sets_the_tower_and_a_throw_lets_out_only_its_cubes(
        device: DeviceLink, sim_only: None) -> None:
    drain(device)
    device.sim_throw({"black": 10, "purple": 10})  # the tower holds something else before
    collect_throw(device, quiet_s=0.6)
    loaded = {"black": 0, "red": 4, "yellow": 2, "purple": 0, "blue": 0, "green": 6}
    device.sim_load(loaded)
    assert device.sim_tower() == loaded
    thrown = {"blue": 8, "green": 2}
    device.sim_throw(thrown)
    throw = collect_throw(device, quiet_s=0.6)
    assert_conserved(loaded, thrown, throw, device.sim_tower())
    assert throw.counts["black"] == throw.counts["purple"] == 0, "nothing left of before"


def test_sim_load_is_refused_by_a_real_tower(device: DeviceLink, real_port: str | None) -> None:
    if not real_port:
        pytest.skip("needs a real board (run with --port PORT)")
    from shogun_tower.device.link import LinkError

    with pytest.raises(LinkError, match="real tower"):
        device.sim_load({"red": 1})


def test_link_survives_a_board_reset(device: DeviceLink, sim_only: None) -> None:
    sim = device.simulated_tower  # type: ignore[attr-defined]
    old = device.boot_id
    sim.reset()
    deadline = time.monotonic() + 5
    while True:
        try:
            info = device.hello()
            break
        except Exception:
            assert time.monotonic() < deadline
    assert info["boot_id"] != old
    # The boot event of the new boot comes; before it, maybe the first boot's own, still queued
    # when no other test of this device ran first (pytest -k, or xdist giving this test first).
    event = device.events.get(timeout=2)
    while event.kind != "boot" or event.data["boot_id"] == old:
        event = device.events.get(timeout=2)
    assert event.data["boot_id"] == info["boot_id"]
    # ... once: the new boot's events are not delivered again (its BOOT went out before the
    # hello and again after it; the host takes it once), and nothing else comes of the reset
    time.sleep(0.5)
    extra = []
    while not device.events.empty():
        extra.append(device.events.get_nowait())
    assert not extra, extra
