"""A throw whose board reported an overflow (E_OVERFLOW: beam edges or their places lost, cubes
close together read as one) is never taken as the tray: at a real tower the players are asked
to type it; on the simulated tower the simulation's own count is used, and the line is said."""

from __future__ import annotations

import io

import pytest

from shogun_common import protocol as P
from shogun_tower.device import tower as tower_module
from shogun_tower.device.throws import Throw
from shogun_tower.device.tower import CubesMayBeMissing, DeviceTower
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.runner import TowerDriver
from shogun_tower.sim_device import SimulatedTower
from shogun_tower.table.conductor import TableGame
from shogun_tower.table.console import Console
from shogun_tower.table.seats import BotSeat
from shogun_tower.table.terminal import counts_text

OVERWRITTEN = ("5 beam reading(s) overwritten: cubes close together may have been read as "
               "one")


class _Link:
    boot_id = 1
    info = {"caps": 0}

    def hello(self) -> None:
        pass


def test_the_device_tower_raises_on_an_overflow_and_counts_a_mismatch_as_unknown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    throws = iter([
        Throw(cubes=[{"colour": "red", "cube_no": 1}], errors=[
            {"code": P.E_OVERFLOW, "text": OVERWRITTEN}], device_throw_ends=[{"throw_no": 1}]),
        # a mismatch comes as a cube of unknown colour, which someone names at the tray
        Throw(cubes=[{"colour": "red", "cube_no": 2}, {"colour": "unknown", "cube_no": 3}],
              errors=[{"code": P.E_COUNT_MISMATCH, "text": "beam counter 2, edges 1"}],
              device_throw_ends=[{"throw_no": 2}]),
    ])
    monkeypatch.setattr(tower_module, "collect_throw", lambda link, **kw: next(throws))
    tower = DeviceTower(_Link())  # type: ignore[arg-type]
    with pytest.raises(CubesMayBeMissing) as err:
        tower.throw({"red": 2})
    assert str(err.value) == "the tower may have missed cubes: " + OVERWRITTEN
    assert tower.cubes_counted == 1  # (what the device counted, as for any throw)
    out = tower.throw({"red": 2})
    assert out["red"] == 1 and out["unknown"] == 1


class _RealTower(DeviceTower):
    """A real tower (not simulated) whose second throw the board reported an overflow of."""

    def __init__(self) -> None:
        self.simulated = False
        self.last_throw = None
        self.cubes_counted = 0
        self.driver = TowerDriver(7)
        self.throws = 0
        self.tray: dict[str, int] = {}

    def throw(self, cubes_in: dict[str, int]) -> dict[str, int]:
        self.throws += 1
        self.tray = self.driver.throw(cubes_in)  # what lies in the tray
        if self.throws == 2:
            raise CubesMayBeMissing("the tower may have missed cubes: " + OVERWRITTEN)
        return dict(self.tray)


def test_at_a_real_tower_an_overflowed_throw_is_typed_by_the_players() -> None:
    tower = _RealTower()
    out = io.StringIO()
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        if prompt.startswith("cubes in the tray"):
            return counts_text(tower.tray, False)
        raise AssertionError("asked: " + prompt)

    game = Game.create(3, seed=31)
    seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
    table = TableGame(Journal.new(game), seats, tower, Console(read=read, out=out),
                      table=BotSeat("heuristic", 9))

    def stop_after_the_third_throw(t: TableGame) -> None:
        if tower.throws >= 3:
            raise _Enough

    table.on_progress = stop_after_the_third_throw
    with pytest.raises(_Enough):
        table.run()
    text = out.getvalue()
    assert ("the tower's count cannot be used (the tower may have missed cubes: "
            + OVERWRITTEN + ")") in text, text
    assert len(asked) == 1, asked  # the overflowed throw only
    assert len(table.record.throws) >= 2


class _Enough(Exception):
    pass


def test_on_the_simulated_tower_an_overflowed_throw_takes_the_simulation_s_truth(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The board's report injected into the real simulated tower's throws 2 and 5, one cube
    # dropped from each as a merged block drops it: the game goes on from the tray's truth.
    real = tower_module.collect_throw
    seen = [0]

    def collect(link: object, **kw: object) -> Throw:
        throw = real(link, **kw)  # type: ignore[arg-type]
        seen[0] += 1
        if seen[0] in (2, 5) and throw.cubes:
            throw.cubes.pop()
            throw.errors.append({"code": P.E_OVERFLOW, "text": OVERWRITTEN})
        return throw

    monkeypatch.setattr(tower_module, "collect_throw", collect)
    out = io.StringIO()
    with SimulatedTower(seed=33) as sim:
        from shogun_tower.device.link import DeviceLink

        link = DeviceLink(sim.port)
        link.hello()
        tower = DeviceTower(link)
        game = Game.create(3, seed=33)
        seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
        table = TableGame(Journal.new(game), seats, tower, Console(out=out), link=link)

        def stop(t: TableGame) -> None:
            if seen[0] >= 6:
                raise _Enough

        table.on_progress = stop
        with pytest.raises(_Enough):
            table.run()
        agrees = table.tower_agrees()
        link.close()
    text = out.getvalue()
    line = ("the tower may have missed cubes: " + OVERWRITTEN
            + ": the simulated tower's own count is used")
    assert text.count(line) == 2, text
    assert agrees is True  # nothing short: the rules' tower is the simulated tower's
