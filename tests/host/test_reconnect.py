"""A pulled cable or a rebooted board: the device is brought back to the current state by
itself, and a throw in progress is neither lost nor counted twice."""

from __future__ import annotations

import threading
import time

from shogun_tower.device.link import DeviceLink
from shogun_tower.device.throws import collect_throw
from shogun_tower.sim_device import SimulatedTower


def _connect(port: str) -> DeviceLink:
    link = DeviceLink(port)
    link.handshake()
    return link


SCORES = [("red", 17, 2), ("blue", 33, 0)]


def _resync_on_session(link: DeviceLink) -> threading.Event:
    """What the assistant does when the link comes back: the scores again. Set once done."""
    synced = threading.Event()

    def resync(link: DeviceLink) -> None:
        link.push_scores(SCORES)
        synced.set()

    link.on_session = resync
    return synced


def test_cable_pulled_mid_throw_loses_and_doubles_nothing() -> None:
    with SimulatedTower(seed=11) as sim:
        link = _connect(sim.port)
        synced = _resync_on_session(link)
        before = link.sim_tower()
        cubes_in = {"red": 10, "blue": 10, "black": 10, "green": 10}
        link.sim_throw(cubes_in)
        time.sleep(0.25)
        link.port.close()  # the cable comes out while cubes are falling
        time.sleep(0.6)
        throw = collect_throw(link, quiet_s=1.0, first_cube_timeout=5)
        assert synced.wait(5), "the link did not come back by itself"
        after = link.sim_tower()
        numbers = [c["cube_no"] for c in throw.cubes]
        assert numbers == list(range(1, len(numbers) + 1)), "every cube once, in order"
        # every cube that fell came once in its colour, or as "unknown" when the colour sensor
        # could not tell it (never guessed)
        missing = {c: before[c] + cubes_in.get(c, 0) - after[c] - throw.counts[c] for c in before}
        assert all(n >= 0 for n in missing.values()), (missing, throw.counts)
        assert sum(missing.values()) == throw.unknown, (missing, throw.counts)
        assert link.reconnects == 1
        link.close()


def test_board_reset_gets_the_scores_back() -> None:
    with SimulatedTower(seed=12) as sim:
        link = _connect(sim.port)
        synced = _resync_on_session(link)
        link.push_scores(SCORES)
        sim.reset()  # power cycle: the board forgets the scores
        assert synced.wait(5), "the host did not notice the reboot"
        frame = link.read_led_frame()
        assert frame[17 * 3] > 0 and frame[17 * 3 + 1] == 0, "red is back on space 17"
        link.close()


def test_a_link_whose_simulated_tower_ended_never_opens_the_next_pty_of_that_name() -> None:
    # A pseudo-terminal's number goes to the next one opened anywhere on the machine: a link
    # left waiting for its ended tower to come back must not open that one (a terminal, the
    # next test's tower) and write its hello into it.
    import os
    import pty
    import select

    sim = SimulatedTower(seed=3).start()
    link = _connect(sim.port)
    old = sim.port
    try:
        sim.stop()
        deadline = time.monotonic() + 10
        while link.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not link.connected
        master, slave = pty.openpty()
        try:
            assert os.ttyname(slave) != old
            time.sleep(1.0)  # (the link tries its port every 0.2 s)
            assert select.select([master], [], [], 0)[0] == []
        finally:
            os.close(master)
            os.close(slave)
    finally:
        link.close()
