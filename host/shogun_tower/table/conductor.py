"""Leading one game at the table: ask whoever must decide, throw through the tower, apply the
result, keep the journal, the device's score track and the board page in step with the game."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.counts import parse_counts
from shogun_tower.device.link import DeviceLink, LinkError
from shogun_tower.device.tower import DeviceTower, ManualTower, TowerRestarted
from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.narrate import SEASON_NAMES, describe_all, season_close
from shogun_tower.games.shogun.rules import RulesError, State
from shogun_tower.games.shogun.rules.core.tower import throw_title
from shogun_tower.games.shogun.view import Chronicle
from shogun_tower.table.boards import board_lines
from shogun_tower.table.console import Console, QuitRequested, UndoRequested
from shogun_tower.table.phones import PlanDesk
from shogun_tower.table.terminal import colour_word, counts_text, track_letters


class Seat(Protocol):
    human: bool

    def decide(self, state: State, player: str, turn: int) -> dict: ...


class Tower(Protocol):
    def throw(self, cubes_in: dict[str, int]) -> dict[str, int]: ...


@dataclass
class GameRecord:
    """What happened, for the summary and the benchmark."""

    throws: list[dict] = field(default_factory=list)
    battles: int = 0
    revolts: int = 0
    frames: int = 0
    cubes_applied: int = 0
    unknown: int = 0  # cubes the colour sensor could not tell (someone looked at the tray)
    # seconds from the end of a throw (its quiet window closed) to the verdict applied, the LED
    # track updated and the page published
    verdict_s: list[float] = field(default_factory=list)
    timings: list[dict] = field(default_factory=list)  # per throw: end, led, published (wall)


class TableGame:
    """One game with a journal, seats, a tower and, where there is one, a device and a page."""

    def __init__(self, journal: Journal, seats: dict[str, Seat], tower: Tower,
                 console: Console, *, link: DeviceLink | None = None, page: Any = None,
                 table: Seat | None = None, show_led: bool = False,
                 on_progress: Callable[[TableGame], None] | None = None,
                 narrate: bool = True, desk: PlanDesk | None = None,
                 on_season_end: Callable[[State, list[tuple[int, int]]], None] | None = None
                 ) -> None:
        self.journal = journal
        self.seats = seats
        self.tower = tower
        self.console = console
        self.link = link
        self.page = page
        self.table = table  # answers for chance in physical-card games and retyped throws
        self.show_led = show_led
        self.on_progress = on_progress
        self.narrate = narrate
        self.desk = desk  # people plan on their phones (`play --phones`)
        self.on_season_end = on_season_end  # (state, [(year, season) that ended])
        self.record = GameRecord()
        self.chronicle = Chronicle()  # the page's log and last throw, as `serve` keeps them
        self.waiting = ""
        self._pushed: list[tuple[str, int, int]] | None = None
        # The strip as hardware/README.md builds it: 81 VP LEDs, then 19 rice LEDs. The firmware
        # lights the rice LEDs, and counts their idle current in its budget, only once told
        # (track_config, sent before the scores of every session); on a 5 V supply raise budget_ma.
        self.track_config: dict[str, int] = {"rice_len": 19, "budget_ma": 370}
        self._scores: list[tuple[str, int, int]] = []
        self._retype_throw = False
        self._announced = -1  # the journal's length when the coming throw's headline was said
        self._inside_before: dict[str, int] = {}
        self._led_wall = 0.0  # wall-clock times of the last LED update and page publication,
        self._published_wall = 0.0  # for the benchmark (the page's clock is the wall clock)
        self._page_version = 0
        simulated = isinstance(tower, DeviceTower) and tower.simulated
        self.simulated_tower = simulated
        console.show = self.show_tables
        if page is not None:
            console.page_url = page.url
        if link is not None:
            link.on_session = self._resync

    @property
    def state(self) -> State:
        return self.journal.state

    # ---- the loop -------------------------------------------------------------------------
    def run(self) -> State:
        """Play until the game is over; QuitRequested passes through (the journal is saved)."""
        self.sync()
        while True:
            st = self.state.pending()
            if st["kind"] == "over":
                self.waiting = "the game is over"
                self.sync()
                return self.state
            try:
                self.step(st)
            except UndoRequested:
                self.undo()
            if self.on_progress is not None:
                self.on_progress(self)  # after the step has said all it says

    def step(self, st: dict) -> None:
        kind = st["kind"]
        if kind == "throw":
            self.throw(st)
            return
        if kind == "plan" and self.desk is not None:
            self._plan_on_phones(st)
            return
        if kind == "plan":
            player = st["players"][0]
            self.waiting = f"{player} plans in secret"
        elif kind == "chance":
            player = ""
            self.waiting = f"the players draw: {st['what'].replace('_', ' ')}"
        else:
            player = st["player"]
            self.waiting = f"{player}: {kind.replace('_', ' ')}"
        self.publish()
        seat = self.table if kind == "chance" else self.seats[player]
        if seat is None:
            raise ShogunError("this game draws physical cards but nobody sits at the table "
                              "to report them; play it with `shogun-tower play`")
        while True:
            command = seat.decide(self.state, player, len(self.journal.commands))
            try:
                self.apply(command)
                return
            except RulesError as err:
                if not seat.human:
                    raise
                self.console.say(f"refused: {err}")

    def _plan_on_phones(self, st: dict) -> None:
        """Rule T3 on the phones: the bots plan at once, then every person plans on their own
        seat's page at the same time; each plan is applied as it arrives."""
        assert self.desk is not None
        for player in st["players"]:
            seat = self.seats[player]
            if not seat.human:
                self.apply(seat.decide(self.state, player, len(self.journal.commands)))
        if self.state.pending()["kind"] != "plan":
            return
        people = list(self.state.pending()["players"])
        s = self.state
        label = f"Year {s.year} · {SEASON_NAMES[min(s.season, 3)]} · secret planning"
        self.desk.open_planning(s, people, label)
        self.console.say(f"Secret planning on the phones (rule T3): waiting for "
                         f"{', '.join(colour_word(p, self.console.colour) for p in people)}")
        self.waiting = f"planning on the phones: waiting for {', '.join(people)}"
        self.publish()
        try:
            while self.state.pending()["kind"] == "plan":
                sent = self.desk.next_plan(timeout=0.25)
                if sent is None:
                    continue
                player, command = sent
                try:
                    self.apply(command)
                except RulesError as err:
                    self.desk.refuse(player, str(err))
                    continue
                self.desk.planned(self.state)
                left = self.desk.awaited
                if left:
                    self.waiting = f"planning on the phones: waiting for {', '.join(left)}"
                    self.publish()
        finally:
            self.desk.close_planning()

    def apply(self, command: dict, sync: bool = True) -> list[dict]:
        step = self.state.step
        events = self.journal.apply(command)
        for e in events:
            if e.get("event") == "battle":
                self.record.battles += 1
            elif e.get("event") == "revolt":
                self.record.revolts += 1
        lines = self.chronicle.record(step, events)
        close = season_close(events)
        if close is not None and self.on_season_end is not None and self.state.result is None:
            # the season that ended is summed up before anything after it is told
            at, seasons = close
            if self.narrate:
                for line in describe_all(events[:at]):
                    self.console.say("  " + line)
            self.on_season_end(self.state, seasons)
            lines = describe_all(events[at:])
        if self.narrate:
            following = self.state.pending()
            if following["kind"] == "throw":  # the headline before what goes into the tower
                self._headline(following)
            for line in lines:
                self.console.say("  " + line)
        if sync:
            self.sync()
        return events

    # ---- throws ---------------------------------------------------------------------------
    def throw(self, st: dict) -> None:
        """Rule B1: the cubes named go into the tower with the whole tray; what falls out is
        counted (by the device or the players) and the engine applies the verdict."""
        into = dict(st["into_tower"])
        reason = st.get("reason", "")
        self.waiting = f"throw into the tower: {counts_text(into, False)}"
        self.publish()
        c = self.console
        if self.narrate and self._announced != len(self.journal.commands):
            self._headline(st)  # the set-up throw, or a throw after a resume or an undo
            c.say(f"  into the tower: {counts_text(into, c.colour)}")
        if self.simulated_tower:
            self._load_simulated_tower(into)
        out = self._count_throw(into, st)
        ended, ended_wall = time.monotonic(), time.time()  # the quiet window has closed
        events = self.apply({"type": "tray", "counts": out}, sync=False)
        verdict = next((e for e in events if e.get("event") == "verdict"), None)
        self.sync()  # the verdict on the LED track and the page at once
        self.record.verdict_s.append(time.monotonic() - ended)
        self.record.timings.append({"end": ended_wall, "led": self._led_wall,
                                    "published": self._published_wall,
                                    "page_version": self._page_version})
        self.record.cubes_applied += sum(out.values())
        self.record.throws.append({"reason": reason, "in": _nonzero(into), "out": _nonzero(out)})
        if self.narrate:
            c.say(f"  inside the tower now: {counts_text(self.state.tower, c.colour)}")
        if self.show_led and self.link is not None:
            # read before the battle's flashes: only a settled picture of the scores is shown
            track = self._settled_track()
            if track is not None:
                self.record.frames += 1
                c.say("  score track: " + track)
        if self.link is not None and verdict and reason == "battle":
            winner = self.state.owner.get(st["province"])
            if winner and winner in (st.get("attacker"), st.get("defender")):
                self._quietly(lambda: self.link.animate_battle(winner))

    def _settled_track(self, tries: int = 10) -> str | None:
        """The LED track read back from the device, once it shows the scores (not a flash)."""
        assert self.link is not None
        for _ in range(tries):
            try:
                frame = self.link.read_led_frame()
            except LinkError:
                return None
            track = track_letters(frame, self._scores, self.console.colour)
            if track is not None:
                return track
            time.sleep(0.1)
        return None

    def _headline(self, st: dict) -> None:
        self.console.say(_throw_title(st))
        self._announced = len(self.journal.commands)

    def _count_throw(self, into: dict[str, int], st: dict) -> dict[str, int]:
        if self._retype_throw:
            self._retype_throw = False
            return self._typed_counts(st, "the throw was taken back; type what lies in the tray")
        if isinstance(self.tower, ManualTower):
            # the players count: their count is checked by the rules like any typed count
            return self._typed_counts(st, f"Throw into your tower: "
                                          f"{counts_text(into, self.console.colour)}")
        restarts = 0
        while True:
            try:
                out = self.tower.throw(into)
                if out.get("unknown"):
                    out = self._tell_unknown(into, out)
                self.state.check({"type": "tray", "counts": out})
                return out
            except (LinkError, RulesError) as err:
                if isinstance(err, TowerRestarted) and self.simulated_tower and restarts < 3:
                    # The simulated tower forgot the throw with everything else; nothing lies
                    # in a tray to look at, so it throws the same cubes again.
                    restarts += 1
                    self.console.say(f"  {err}: the simulated tower throws them again")
                    self._load_simulated_tower(into)
                    continue
                if self.table is None or (self.simulated_tower
                                          and not isinstance(err, RulesError)):
                    # nobody can look into a simulated tray: the game stops (saved)
                    raise ShogunError(f"the tower's count cannot be used: {err}") from err
                return self._typed_counts(st, f"the tower's count cannot be used ({err})")

    def _tell_unknown(self, into: dict[str, int], out: dict[str, int]) -> dict[str, int]:
        """Cubes the colour sensor could not tell: someone looks at the tray. In a game of bots
        on the simulated tower, that someone is the simulation, which knows what it let out."""
        unknown = out.pop("unknown")
        self.record.unknown += unknown
        c = self.console
        if self.simulated_tower and self.link is not None:
            inside = self.link.sim_tower()
            fell = {k: self._inside_before[k] + into.get(k, 0) - inside[k] for k in CUBE_COLOURS}
            missing = {k: fell[k] - out[k] for k in CUBE_COLOURS}
            if any(n < 0 for n in missing.values()) or sum(missing.values()) != unknown:
                raise ShogunError(f"the simulated tower let out {fell} but the device counted "
                                  f"{out} and {unknown} unknown: the count is wrong")
            if self.narrate:
                c.say(f"  {unknown} cube(s) not told by colour; the tray shows "
                      f"{counts_text(missing, c.colour)}")
            return fell
        if self.table is None:
            raise ShogunError(f"{unknown} cube(s) in the tray could not be told apart by colour "
                              f"and nobody is at the table to look; recalibrate with "
                              f"`shogun-tower calibrate`")
        c.say(f"{unknown} cube(s) in the tray could not be told apart by colour "
              f"(counted: {counts_text(out, c.colour)}).")
        while True:
            text = c.ask(f"which colours are the {unknown} unknown cube(s) (e.g. black 1)? ")
            try:
                extra = parse_counts(text)
            except ShogunError as err:
                c.say(str(err))
                continue
            if sum(extra.values()) != unknown:
                c.say(f"that is {sum(extra.values())} cubes; name exactly {unknown}")
                continue
            return {k: out[k] + extra[k] for k in CUBE_COLOURS}

    def _typed_counts(self, st: dict, why: str) -> dict[str, int]:
        c = self.console
        c.say(why)
        while True:
            text = c.ask("cubes in the tray (e.g. red 3, farmers 1; Enter: none)? ")
            try:
                counts = parse_counts(text)
                self.state.check({"type": "tray", "counts": counts})
                return counts
            except ShogunError as err:
                c.say(f"refused: {err}")

    def _load_simulated_tower(self, into: dict[str, int]) -> None:
        """The simulated tower must hold what the engine says was inside before this throw:
        after a resume, an undo or a reboot of the simulated board it may not."""
        assert self.link is not None
        before = {c: self.state.tower[c] - into.get(c, 0) for c in CUBE_COLOURS}
        self._inside_before = before
        if self.link.sim_tower() != before:
            self.link.sim_load(before)

    def retype_next_throw(self) -> None:
        """The next throw's cubes already fell (a crash or an undo after a real throw): the
        players type the tray counts instead of throwing again."""
        self._retype_throw = True

    def tower_agrees(self) -> bool | None:
        """On the simulated tower: does it hold exactly what the rules say is inside?"""
        if not self.simulated_tower or self.link is None:
            return None
        return self.link.sim_tower() == {c: self.state.tower[c] for c in CUBE_COLOURS}

    # ---- undo -----------------------------------------------------------------------------
    def undo(self) -> None:
        """Take back the last command, and the bots' commands after the last person's."""
        j = self.journal
        c = self.console
        if not j.commands:
            c.say("nothing to undo: no command yet")
            return
        while j.commands:
            undone = j.undo()
            c.say(f"taken back: {_command_text(undone)}")
            if undone.get("type") == "tray" and isinstance(self.tower, DeviceTower) \
                    and not self.tower.simulated:
                self._retype_throw = True  # those cubes already fell: type the right counts
            if self._person_decides(j.state.pending()):
                break
        self.chronicle.note("a command was taken back (undo)")
        self.sync()

    def _person_decides(self, st: dict) -> bool:
        kind = st["kind"]
        if kind == "throw":
            return not self.simulated_tower
        if kind == "chance":
            return True
        if kind == "plan":
            return self.seats[st["players"][0]].human
        if kind == "over":
            return False
        return self.seats[st["player"]].human

    # ---- keeping the device and the page in step ------------------------------------------
    def sync(self) -> None:
        s = self.state
        self._scores = [(p, s.vp[p], s.rice[p]) for p in s.game.players]
        if self.link is not None and self._scores != self._pushed:
            # The tower acknowledges the scores in the step after their command; its score
            # track, woken by them, writes them to the strip a few steps later (bench_assistant
            # times the strip itself).
            pushed = self._quietly(lambda: self._send_scores(self.link, self._scores,
                                                             self._pushed is None))
            self._pushed = list(self._scores) if pushed else None
            self._led_wall = time.time()
        self.publish()

    def publish(self) -> None:
        if self.page is not None:
            self._page_version = self.page.publish(self.chronicle.view(self.state, self.waiting))
            self._published_wall = time.time()

    def _resync(self, link: DeviceLink) -> None:
        """The device came back (cable, reboot): give it the game's state again."""
        scores = list(self._scores)
        if self._quietly(lambda: self._send_scores(link, scores, True)):
            self._pushed = scores

    def _send_scores(self, link: DeviceLink, scores: list[tuple[str, int, int]],
                     new_session: bool) -> None:
        if new_session:
            link.configure_track(**self.track_config)
        link.push_scores(scores)

    def _quietly(self, call: Callable[[], object]) -> bool:
        try:
            call()
            return True
        except LinkError as err:
            self.console.say(f"the tower does not answer ({err}); the game goes on and the "
                             f"track is brought up to date when it is back")
            return False

    # ---- tables ---------------------------------------------------------------------------
    def show_tables(self) -> None:
        for line in state_tables(self.state, self.console.colour):
            self.console.say(line)


def state_tables(s: State, colour: bool) -> list[str]:
    """The players' counters and the provinces, as aligned text tables."""
    out = [f"{'player':10s} {'VP':>4s} {'rice':>5s} {'coins':>6s} {'provinces':>10s} "
           f"{'armies':>7s} {'supply':>7s}"]
    for p in s.game.players:
        owned = [x for x, o in s.owner.items() if o == p]
        armies = sum(s.armies[x] for x in owned)
        name = colour_word(f"{p:10s}", colour)
        out.append(f"{name} {s.vp[p]:4d} {s.rice[p]:5d} {s.coins[p]:6d} {len(owned):10d} "
                   f"{armies:7d} {s.supply[p]:7d}")
    out.append("")
    out.append(f"{'province':14s} {'region':8s} {'owner':8s} {'armies':>6s}  buildings  revolt")
    for name in sorted(s.owner):
        owner = s.owner[name] or "-"
        region = s.map.provinces[name].region
        out.append(f"{name:14s} {region:8s} {colour_word(f'{owner:8s}', colour)} "
                   f"{s.armies[name]:6d}  {','.join(s.buildings[name]) or '-':9s}  "
                   f"{s.markers[name] or ''}")
    out.append("")
    out.append(f"inside the tower: {counts_text(s.tower, colour)}; in the tray: "
               f"{counts_text(s.tray, colour)}")
    for name in s.game.expansions:  # the expansions' boards that have a text (e.g. chambers)
        board = board_lines(s, name, colour)
        if board:
            out += [""] + board
    return out


def _throw_title(st: dict) -> str:
    reason = st.get("reason")
    if reason == "setup":
        return "The set-up throw (rule S3)"
    if reason == "battle":
        return f"{throw_title(st)}: {st['attacker']} against {st.get('defender') or 'the farmers'}"
    if reason == "revolt":
        return f"{throw_title(st)} against {st.get('player')}"
    return "A throw"


def _nonzero(counts: dict[str, int]) -> dict[str, int]:
    return {c: n for c, n in counts.items() if n}


def _command_text(command: dict) -> str:
    kind = command.get("type")
    if kind == "plan":
        return f"{command.get('player')}'s plan"
    if kind == "tray":
        return f"the tray counts {counts_text(command.get('counts', {}), False)}"
    rest = ", ".join(f"{k} {v}" for k, v in command.items() if k != "type")
    return f"{kind} ({rest})"


__all__ = ["GameRecord", "QuitRequested", "TableGame", "state_tables"]
