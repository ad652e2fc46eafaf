"""Samurai's bands on the tower's LED strip: the layout, and the SEGMENTS command through the
simulated tower (the real firmware on the MicroPython unix port), read back LED by LED."""

from __future__ import annotations

import io
import threading
import time

import pytest

from shogun_common import protocol as P
from shogun_tower.device.link import DeviceLink, LinkError
from shogun_tower.games.knizia_samurai import strip
from shogun_tower.games.knizia_samurai.console import ScoringTable
from shogun_tower.games.knizia_samurai.state import SamuraiGame, SamuraiJournal
from shogun_tower.sim_device import SimulatedTower
from shogun_tower.table.console import Console

TYPES = ("helmet", "buddha", "rice")
FOUR = ("red", "yellow", "blue", "green")


def empty(players: tuple[str, ...]) -> dict[str, dict[str, int]]:
    return {p: dict.fromkeys(TYPES, 0) for p in players}


@pytest.mark.parametrize("players, seg", [(2, 15), (3, 10), (4, 7)])
def test_every_count_a_player_can_hold_fits_its_segment(players: int, seg: int) -> None:
    assert strip.segment_length(players) == seg
    most = SamuraiGame.create(players).figures_per_type
    assert 2 * seg >= most  # with a white LED worth two
    game = FOUR[:players]
    c = empty(game)
    c[game[-1]]["rice"] = most
    runs = strip.runs(game, c, TYPES)
    assert all(start + n <= strip.STRIP_LEDS for start, n, _ in runs)
    # the bands never overlap: each band's last LED (grey) is before the next band
    ends = [start for start, n, colour in runs if colour == strip.GREY]
    assert ends == [strip.band_start(i, players) + 3 * seg + 2 for i in range(players)]
    assert all(end < strip.band_start(i + 1, players) for i, end in enumerate(ends))


def test_a_white_led_counts_two_figures() -> None:
    c = empty(FOUR)
    c["red"]["helmet"] = 13  # 7 LEDs: 6 white (12) and 1 red
    c["blue"]["buddha"] = 7
    runs = strip.runs(FOUR, c, TYPES)
    assert (0, 6, strip.WHITE) in runs and (6, 1, 1) in runs
    assert (50 + 8, 7, 4) in runs
    assert len(runs) <= P.MAX_SEGMENTS


@pytest.fixture(scope="module")
def tower():
    with SimulatedTower(seed=5) as sim, DeviceLink(sim.port) as link:
        link.hello()
        link.configure_track(vp_len=81, rice_len=19, rice_start=81)
        yield link


def test_the_simulated_tower_shows_the_bands_as_sent(tower: DeviceLink) -> None:
    assert tower.info["caps"] & P.CAP_SEGMENTS
    c = empty(FOUR)
    c["red"]["helmet"] = 13
    c["yellow"]["buddha"] = 3
    c["green"]["rice"] = 5
    c["blue"]["helmet"] = 1
    tower.request(P.SEGMENTS, P.pack_segments(strip.runs(FOUR, c, TYPES)))
    frame = tower.read_led_frame()
    assert len(frame) == 3 * strip.STRIP_LEDS
    assert strip.counts_from_frame(frame, FOUR, TYPES) == c
    lines = strip.band_text(frame, FOUR, TYPES, {"red": "R", "yellow": "Y", "blue": "B",
                                                 "green": "G"})
    assert lines[0] == "WWWWWWR|·······|·······"
    assert lines[1] == "·······|YYY····|·······"
    assert lines[3] == "·······|·······|GGGGG··"
    # a grey LED closes each band; the gaps between segments stay dark
    for end in (23, 48, 73, 98):
        r, g, b = frame[3 * end:3 * end + 3]
        assert 0 < r == g == b
    assert frame[3 * 7:3 * 8] == bytes(3) and frame[3 * 24:3 * 25] == bytes(3)


def test_the_scores_bring_the_score_track_back(tower: DeviceLink) -> None:
    tower.request(P.SEGMENTS, P.pack_segments([(0, 5, 1)]))
    tower.push_scores([("red", 12, 0)])
    frame = tower.read_led_frame()
    assert frame[3 * 1:3 * 2] == bytes(3) and any(frame[3 * 12:3 * 13])


def test_a_run_past_the_strip_is_refused_in_one_line(tower: DeviceLink) -> None:
    with pytest.raises(LinkError, match="segments: a run ends at LED 101, the strip has 100"):
        tower.request(P.SEGMENTS, P.pack_segments([(99, 2, 1)]))


class _OldFirmware:
    """A tower whose firmware predates SEGMENTS: its hello says so by the missing capability."""

    info = {"caps": P.CAP_LED | P.CAP_COLOUR}
    on_session = None

    def request(self, *args: object) -> None:  # pragma: no cover - must not be called
        raise AssertionError("SEGMENTS sent to a firmware without it")


def test_an_older_firmware_is_told_to_update_and_the_game_goes_on() -> None:
    out = io.StringIO()
    console = Console(read=lambda prompt: "", out=out)
    journal = SamuraiJournal.new(SamuraiGame.create(2))
    table = ScoringTable(journal, console, _OldFirmware())  # type: ignore[arg-type]
    table.enter({"capture": "helmet", "player": "red"})
    text = out.getvalue()
    assert "cannot show Samurai's bands" in text and "make deploy" in text
    assert "red captures a helmet" in text


def test_a_tower_that_reboots_gets_the_bands_back() -> None:
    with SimulatedTower(seed=13) as sim, DeviceLink(sim.port) as link:
        link.hello()
        out = io.StringIO()
        journal = SamuraiJournal.new(SamuraiGame.create(3))
        table = ScoringTable(journal, Console(read=lambda prompt: "", out=out), link)
        table.sync(new_session=True)
        table.enter({"capture": "buddha", "player": "yellow"})
        table.enter({"capture": "buddha", "player": "yellow"})
        relit = threading.Event()
        resync = link.on_session

        def resync_and_say(link: DeviceLink) -> None:
            resync(link)
            relit.set()

        link.on_session = resync_and_say
        sim.reset()  # power cycle: the board forgets the bands
        assert relit.wait(10), "the console did not notice the reboot"
        frame = link.read_led_frame()
        assert strip.counts_from_frame(frame, journal.game.players, TYPES) == \
            journal.state.captured
        assert journal.state.captured["yellow"]["buddha"] == 2


def test_the_strip_flashes_the_winner_then_shows_the_bands(tower: DeviceLink) -> None:
    out = io.StringIO()
    journal = SamuraiJournal.new(SamuraiGame.create(2))
    table = ScoringTable(journal, Console(read=lambda prompt: "", out=out), tower)
    table.sync(new_session=True)
    for _ in range(3):
        table.enter({"tie": "helmet"})
    table.enter({"capture": "buddha", "player": "yellow"})  # the 4th figure off: on a tie next
    assert journal.state.over is None
    table.enter({"surrounded": "rice", "tiles": [["red", "rice", 2], ["yellow", "ship", 2]]})
    assert journal.state.over["rule"] == "ties" and journal.state.result["winners"] == ["yellow"]
    lit = set()
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        frame = tower.read_led_frame()
        lit.add(frame[3 * 40:3 * 40 + 3] != bytes(3))  # a dark LED between the bands
        if strip.counts_from_frame(frame, journal.game.players, TYPES) == \
                journal.state.captured and len(lit) == 2:
            break
        time.sleep(0.05)
    assert lit == {True, False}, "the flash lit the strip, then the bands came back"
    assert strip.counts_from_frame(tower.read_led_frame(), journal.game.players, TYPES) == \
        journal.state.captured
