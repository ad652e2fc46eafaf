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
from shogun_tower.device.tower import CubesMayBeMissing, DeviceTower, ManualTower, TowerRestarted
from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.narrate import (
    CHANCE_NAMES,
    describe_all,
    describe_each,
    season_close,
)
from shogun_tower.games.shogun.rules import RulesError, State
from shogun_tower.games.shogun.rules.engine import describe
from shogun_tower.games.shogun.view import Chronicle, when_text
from shogun_tower.i18n import _, join
from shogun_tower.lines import cells
from shogun_tower.table import coach
from shogun_tower.table.boards import board_lines
from shogun_tower.table.console import (
    ANSI,
    Console,
    QuitRequested,
    UndoRequested,
    refusal,
    visible,
    wrap,
)
from shogun_tower.table.phones import PlanDesk, plan_on_phones
from shogun_tower.table.telling import command_words, throw_headline, throw_words
from shogun_tower.table.terminal import colour_word, counts_text, track_letters
from shogun_tower.words import province_word, sentence


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
        # (track_config, sent before the scores of every session). budget_ma is the most the
        # strip may draw: the tower holds it within what its power source gives (it senses the
        # 5 V supply: 2400 mA with it, 370 mA on USB).
        self.track_config: dict[str, int] = {"rice_len": 19, "budget_ma": 2400}
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
        console.show_part = self.show_part
        if page is not None:
            console.page_url = page.url
        if link is not None:
            link.on_session = self._resync
        coach.attach(console, coach.shogun(self), page)  # `help` and `hint`, the help page

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
                self.waiting = _("the game is over")
                self.sync()
                self._show_track()  # the end's points (statues, chambers) came after a throw
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
            self.waiting = _("{player} plans in secret").format(player=colour_word(player,
                                                                                   False))
        elif kind == "chance":
            player = ""
            what = CHANCE_NAMES.get(st["what"])
            self.waiting = _("the players draw: {what}").format(what=_(what)) if what else \
                _("the players draw")
        else:
            player = st["player"]
            self.waiting = describe(self.state)  # who decides what, in the table's words
        self.publish()
        seat = self.table if kind == "chance" else self.seats[player]
        if seat is None:
            raise ShogunError(_("this game draws physical cards but nobody sits at the table "
                                "to report them; play it with `shogun-tower play`"))
        while True:
            command = seat.decide(self.state, player, len(self.journal.commands))
            try:
                self.apply(command)
                return
            except RulesError as err:
                if not seat.human:
                    raise
                self.console.say(refusal(err))

    def _plan_on_phones(self, st: dict) -> None:
        plan_on_phones(self, st)  # rule T3 on the phones (table/phones.py)

    def apply(self, command: dict, sync: bool = True, tell: bool = True) -> list[dict]:
        """Apply one command; its events are told (``tell``: now; else the caller tells them
        with ``tell``) and the device and the page brought up to date (``sync``)."""
        step = self.state.step
        events = self.journal.apply(command)
        for e in events:
            if e.get("event") == "battle":
                self.record.battles += 1
            elif e.get("event") == "revolt":
                self.record.revolts += 1
        self.chronicle.record(step, events)
        if tell:
            self.tell(events)
        if sync:
            self.sync()
        return events

    def tell(self, events: list[dict], after_throw: Callable[[], None] | None = None) -> None:
        """A command's events, each where it happened: ``after_throw`` right after the thrown
        cubes' own result (the verdict), the season's report right after the season's end,
        the next throw's headline right before its cubes go in (never before the events that
        cause it)."""
        close = season_close(events)
        report = close is not None and self.on_season_end is not None \
            and self.state.result is None
        following = self.state.pending()
        cubes_in = max((i for i, e in enumerate(events) if e.get("event") == "throw_needed"),
                       default=None) if following["kind"] == "throw" else None
        lines: dict[int, list[str]] = {}
        for i, line in describe_each(events) if self.narrate else ():
            lines.setdefault(i, []).append(line)
        result = _end_of_throw(events) if after_throw is not None else None
        for i in range(len(events)):
            if i == cubes_in and self.narrate:
                self._headline(following)
            for line in lines.get(i, ()):
                self.console.say("  " + line)
            if i == result and after_throw is not None:
                after_throw()
            if report and close is not None and i + 1 == close[0]:
                self.on_season_end(self.state, close[1])  # type: ignore[misc]
        if after_throw is not None and result is None:
            after_throw()

    def recap(self, lines: int = 8) -> None:
        """After a resume: where the game stands (year, season, phase), its last events and
        the players' counters, before the first question."""
        c = self.console
        s = self.state
        told: list[str] = []
        replay = State.new(self.journal.game)
        for command in self.journal.commands:
            told += describe_all(replay.apply(command))
        c.say(_("Where the game stands: {when}.").format(when=when_text(s)))
        if told:
            c.say(_("The last of the game so far:"))
            for line in told[-lines:]:
                c.say("  " + line)
        c.say(_("Victory points: {scores}.").format(scores=join(
            [f"{colour_word(p, c.colour)} {s.vp[p]}" for p in s.game.players])))
        self._announced = -1

    # ---- throws ---------------------------------------------------------------------------
    def throw(self, st: dict) -> None:
        """Rule B1: the cubes named go into the tower with the whole tray; what falls out is
        counted (by the device or the players) and the engine applies the verdict. A throw
        taken back and thrown again falls as it fell (``Journal.thrown_before``)."""
        into = dict(st["into_tower"])
        reason = st.get("reason", "")
        self.waiting = _("throw into the tower: {cubes}").format(cubes=counts_text(into, False))
        self.publish()
        c = self.console
        if self.narrate and self._announced != len(self.journal.commands):
            self._headline(st)  # the set-up throw, or a throw after a resume or an undo
            c.say("  " + _("into the tower: {cubes}").format(cubes=counts_text(into, c.colour)))
        known = self.journal.thrown_before()
        if known is not None:
            out = self._thrown_again(st, known)
        else:
            if self.simulated_tower:
                self._load_simulated_tower(into)
            out = self._count_throw(into, st)
        ended, ended_wall = time.monotonic(), time.time()  # the quiet window has closed
        events = self.apply({"type": "tray", "counts": out}, sync=False, tell=False)
        verdict = next((e for e in events if e.get("event") == "verdict"), None)
        self.sync()  # the verdict on the LED track and the page at once
        self.record.verdict_s.append(time.monotonic() - ended)
        self.record.timings.append({"end": ended_wall, "led": self._led_wall,
                                    "published": self._published_wall,
                                    "page_version": self._page_version})
        self.record.cubes_applied += sum(out.values())
        self.record.throws.append({"reason": reason, "in": _nonzero(into), "out": _nonzero(out)})
        inside = {k: st.get("max_out", {}).get(k, 0) - out.get(k, 0) for k in CUBE_COLOURS}
        if known is not None and self.simulated_tower and self.link is not None:
            self._quietly(lambda: self.link.sim_load(inside))  # as if it had fallen again

        def after_throw() -> None:
            if self.narrate:
                c.say("  " + _("inside the tower now: {cubes}").format(
                    cubes=counts_text(inside, c.colour)))
            self._show_track()  # before the battle's flashes: only a settled picture

        self.tell(events, after_throw)
        if self.link is not None and verdict and reason == "battle":
            winner = self.state.owner.get(st["province"])
            if winner and winner in (st.get("attacker"), st.get("defender")):
                self._quietly(lambda: self.link.animate_battle(winner))

    def _thrown_again(self, st: dict, known: dict[str, int]) -> dict[str, int]:
        """A throw taken back comes again: its cubes fall as they fell. On the simulated tower
        the journal's outcome is the throw; at a real tower the cubes lie in the tray as they
        fell, and the players may correct a miscount (Enter keeps it)."""
        c = self.console
        shown = counts_text(known, c.colour)
        if self.simulated_tower or self.table is None:
            c.say("  " + _("the same cubes fall as they fell before: {cubes}").format(
                cubes=shown))
            return {k: known.get(k, 0) for k in CUBE_COLOURS}
        c.say(_("This throw was taken back: its cubes lie in the tray as they fell "
                "({cubes}).").format(cubes=shown))
        while True:
            text = c.ask(_("cubes in the tray (Enter: {cubes})? ").format(
                cubes=counts_text(known, False)))
            try:
                counts = parse_counts(text) if text else {k: known.get(k, 0)
                                                          for k in CUBE_COLOURS}
                self.state.check({"type": "tray", "counts": counts})
                return counts
            except ShogunError as err:
                c.say(refusal(err))

    def _show_track(self) -> None:
        """The LED score track as the device shows it now, when the table asked for it: on a
        terminal narrower than the track, in two halves (spaces 0-40, 41-80)."""
        if self.show_led and self.link is not None:
            track = self._settled_track()
            if track is None:
                return
            self.record.frames += 1
            width = self.console.width()
            # Translators: the heads of the LED score track's line(s), before the track
            head = "  " + _("score track:") + " "
            if width and width < cells(head) + visible(track):
                cut = _cut(track, 41)
                heads = ["  " + _("score track 0-40:") + " ", "  " + _("score track 41-80:") + " "]
                size = max(cells(h) for h in heads)  # the two halves start in one column
                for h, half in zip(heads, (track[:cut], track[cut:]), strict=True):
                    self.console.say(h + " " * (size - cells(h)) + half)
            else:
                self.console.say(head + track)

    def _settled_track(self, tries: int = 10) -> str | None:
        """The LED track read back from the device, once it shows the scores (not a flash)."""
        assert self.link is not None
        for _try in range(tries):
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
        self.console.say(throw_headline(st))
        self._announced = len(self.journal.commands)

    def _count_throw(self, into: dict[str, int], st: dict) -> dict[str, int]:
        if self._retype_throw:
            self._retype_throw = False
            return self._typed_counts(st, _("the throw was taken back; type what lies in the "
                                            "tray"))
        if isinstance(self.tower, ManualTower):
            # the players count: their count is checked by the rules like any typed count
            return self._typed_counts(st, _("Throw into your tower: {cubes}").format(
                cubes=counts_text(into, self.console.colour)))
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
                    self.console.say("  " + _("{error}: the simulated tower throws them "
                                              "again").format(error=err))
                    self._load_simulated_tower(into)
                    continue
                if isinstance(err, CubesMayBeMissing) and self.simulated_tower \
                        and self.link is not None:
                    # Nobody can look into a simulated tray, but the simulation knows what it
                    # let out: that is the tray (said, never taken silently).
                    self.console.say("  " + _("{error}: the simulated tower's own count is "
                                              "used").format(error=err))
                    out = self._simulated_fell(into)
                    self.state.check({"type": "tray", "counts": out})
                    return out
                if self.table is None or (self.simulated_tower
                                          and not isinstance(err, RulesError)):
                    # nobody can look into a simulated tray: the game stops (saved)
                    raise ShogunError(_("the tower's count cannot be used: {error}").format(
                        error=err)) from err
                return self._typed_counts(st, _("the tower's count cannot be used "
                                                "({error})").format(error=err))

    def _tell_unknown(self, into: dict[str, int], out: dict[str, int]) -> dict[str, int]:
        """Cubes the colour sensor could not tell: someone looks at the tray. In a game of bots
        on the simulated tower, that someone is the simulation, which knows what it let out."""
        unknown = out.pop("unknown")
        self.record.unknown += unknown
        c = self.console
        if self.simulated_tower and self.link is not None:
            # An unknown cube is a normal outcome, and so is the tray's truth: the count fails
            # only when cubes were missed or counted twice, never for how they were told.
            fell = self._simulated_fell(into)
            counted = sum(out.values()) + unknown
            if counted != sum(fell.values()):
                raise ShogunError(_("the simulated tower let out {n} cubes ({cubes}) but the "
                                    "device counted {counted}: cubes were missed or counted "
                                    "twice").format(n=sum(fell.values()),
                                                    cubes=counts_text(fell, False),
                                                    counted=counted))
            if self.narrate:
                missing = {k: max(0, fell[k] - out[k]) for k in CUBE_COLOURS}
                c.say("  " + sentence(unknown, "{n} cube not told by colour; the tray shows "
                                               "{tray}", "{n} cubes not told by colour; the "
                                               "tray shows {tray}",
                                      tray=counts_text(missing, c.colour)))
            return fell
        cubes = sentence(unknown, "{n} cube", "{n} cubes")
        if self.table is None:
            raise ShogunError(_("{cubes} in the tray could not be told apart by colour and "
                                "nobody is at the table to look; recalibrate with "
                                "`shogun-tower calibrate`").format(cubes=cubes))
        c.say(_("{cubes} in the tray could not be told apart by colour (counted: "
                "{counted}).").format(cubes=cubes, counted=counts_text(out, c.colour)))
        while True:
            question = (_("which colour is the unknown cube (e.g. black 1)? ") if unknown == 1
                        else _("which colours are the {cubes} not told (e.g. black 1)? ").format(
                            cubes=cubes))
            text = c.ask(question)
            try:
                extra = parse_counts(text)
            except ShogunError as err:
                c.say(str(err))
                continue
            if sum(extra.values()) != unknown:
                c.say(sentence(sum(extra.values()), "that is {n} cube; name exactly {unknown}",
                               "that is {n} cubes; name exactly {unknown}", unknown=unknown))
                continue
            return {k: out[k] + extra[k] for k in CUBE_COLOURS}

    def _simulated_fell(self, into: dict[str, int]) -> dict[str, int]:
        """What the simulated tower let out in this throw: its tray's truth."""
        assert self.link is not None
        inside = self.link.sim_tower()
        return {k: self._inside_before[k] + into.get(k, 0) - inside[k] for k in CUBE_COLOURS}

    def _typed_counts(self, st: dict, why: str) -> dict[str, int]:
        c = self.console
        c.say(why)
        while True:
            text = c.ask(_("cubes in the tray (e.g. red 3, farmers 1; Enter: none)? "))
            try:
                counts = parse_counts(text)
                self.state.check({"type": "tray", "counts": counts})
                return counts
            except ShogunError as err:
                c.say(refusal(err))

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
        """Take back the last command, and the bots' commands after the last person's. Going
        back past a throw needs the table's yes (as at a real table: the cubes have fallen);
        thrown again, the same cubes then fall the same way (``Journal.thrown_before``)."""
        j = self.journal
        c = self.console
        if not j.commands:
            c.say(_("nothing to undo: no command yet"))
            return
        steps = self._steps()
        n = 1
        while n < len(j.commands) and not self._person_decides(steps[-n]):
            n += 1
        throws = [(steps[-k], j.commands[-k]) for k in range(n, 0, -1)
                  if j.commands[-k].get("type") == "tray"]
        if throws:
            told = "; ".join(throw_words(st, cmd) for st, cmd in throws)
            c.say(_("This takes back {throws}. At the table those cubes have fallen: if the "
                    "same cubes go into the tower again, they fall the same way.").format(
                throws=told))
            if not c.confirm(_("Does the whole table agree to take it back (y/n)? "),
                             default=None):
                c.say(_("nothing was taken back"))
                return
        for k in range(1, n + 1):
            undone = j.undo()
            c.say(_("taken back: {command}").format(command=command_words(undone, steps[-k])))
        self._announced = -1  # the coming throw's headline is said again
        self.chronicle.note(_("a command was taken back (undo)"))
        self.sync()

    def _steps(self) -> list[dict]:
        """The step each command of the journal answered, in order (a replay)."""
        s = State.new(self.journal.game)
        steps = []
        for command in self.journal.commands:
            steps.append(s.pending())
            s.apply(command)
        return steps

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
            self.console.say(_("the tower does not answer ({error}); the game goes on and the "
                               "track is brought up to date when it is back").format(error=err))
            return False

    # ---- tables ---------------------------------------------------------------------------
    def show_tables(self) -> None:
        """``show``: the players and the provinces, then the expansions' boards as far as the
        terminal's height allows (the others by name: ``show leaders``)."""
        c = self.console
        lines = state_tables(self.state, c.colour)
        height, later = c.height(), []
        for name in self.state.game.expansions:
            board = board_lines(self.state, name, c.colour)
            if not board:
                continue
            if height and _rows(lines + [""] + board, c.width()) + 2 > height:
                later.append(name)
            else:
                lines += [""] + board
        if later:
            lines.append(_("More boards: {boards}.").format(
                boards=", ".join(f"show {n}" for n in later)))
        for line in lines:
            c.say(line)

    def show_part(self, name: str) -> None:
        """``show NAME``: one expansion's board."""
        board = board_lines(self.state, name, self.console.colour) \
            if name in self.state.game.expansions else []
        if not board:
            shown = [n for n in self.state.game.expansions
                     if board_lines(self.state, n, False)]
            self.console.say(_("no board {name!r} in this game; {boards}").format(
                name=name, boards=" or ".join(f"show {n}" for n in shown)) if shown else
                _("no board {name!r} in this game").format(name=name))
            return
        for line in board:
            self.console.say(line)


def state_tables(s: State, colour: bool) -> list[str]:
    """The players' counters, and the provinces by owner, compactly (the expansions' boards
    are the console's to add)."""
    # Translators: the headings of the players' table of `show` (short: 80 columns)
    heads = [_("player"), _("VP"), _("Rice"), _("coins"), _("provinces"), _("armies"),
             _("supply")]
    sizes = [max(8, cells(heads[0]))] + [max(n, cells(h) + 1) for n, h in
                                          zip((3, 5, 6, 10, 7, 7), heads[1:], strict=True)]
    out = [" ".join(_fit(h, n, i > 0) for i, (h, n) in enumerate(zip(heads, sizes,
                                                                       strict=True)))]
    for p in s.game.players:
        owned = [x for x, o in s.owner.items() if o == p]
        armies = sum(s.armies[x] for x in owned)
        numbers = (s.vp[p], s.rice[p], s.coins[p], len(owned), armies, s.supply[p])
        who = colour_word(p, colour)
        out.append(who + " " * (sizes[0] - cells(who)) + "".join(
            " " + _fit(str(v), n, True) for v, n in zip(numbers, sizes[1:], strict=True)))
    out.append(_("Provinces (armies; C castle, T temple, N Nō theatre, ! revolt marker):"))
    for p in (*s.game.players, None):
        owned = sorted(x for x, o in s.owner.items() if o == p)
        if not owned:
            continue
        who = colour_word(p, colour) if p else _("neutral")
        # Translators: what separates the provinces in a list of them ("、" in Japanese)
        text = _(", ").join(_province_text(s, x) if p else province_word(x) for x in owned)
        out.append("  " + _("{player}: {provinces}").format(player=who, provinces=text))
    out.append(_("Inside the tower: {tower}; in the tray: {tray}.").format(
        tower=counts_text(s.tower, colour), tray=counts_text(s.tray, colour)))
    return out


def _fit(text: str, size: int, right: bool) -> str:
    """``text`` in a column of ``size`` terminal columns (a kanji takes two)."""
    room = " " * max(0, size - cells(text))
    return room + text if right else text + room


def _province_text(s: State, x: str) -> str:
    """"Kii 3 CT!": a no-break space keeps a province and its counts on one line."""
    marks = "".join({"castle": "C", "temple": "T", "theatre": "N"}.get(b, "?")
                    for b in s.buildings[x]) + "!" * s.markers[x]
    return f"{province_word(x)}\u00a0{s.armies[x]}" + (f"\u00a0{marks}" if marks else "")


def _cut(track: str, cells: int) -> int:
    """Where the first ``cells`` visible cells of a painted track end."""
    seen = i = 0
    while i < len(track) and seen < cells:
        found = ANSI.match(track, i)
        if found:
            i = found.end()
            continue
        seen += 1
        i += 1
    while i < len(track) and ANSI.match(track, i):  # the colour's reset goes with its cell
        i = ANSI.match(track, i).end()  # type: ignore[union-attr]
    return i


def _rows(lines: list[str], width: int) -> int:
    """How many terminal rows ``lines`` take once wrapped."""
    return sum(len(wrap(line, width)) if width else 1 for line in lines)


def _nonzero(counts: dict[str, int]) -> dict[str, int]:
    return {c: n for c, n in counts.items() if n}


def _end_of_throw(events: list[dict]) -> int | None:
    """The index of a tray command's last event about the thrown cubes themselves: the verdict
    (a battle, a revolt), or for the set-up throw the tray and the courtiers it made (X1.3)."""
    verdict = next((i for i, e in enumerate(events) if e.get("event") == "verdict"), None)
    if verdict is not None:
        return verdict
    end = next((i for i, e in enumerate(events) if e.get("event") == "tray"), None)
    while end is not None and end + 1 < len(events) \
            and events[end + 1].get("event") == "courtiers":
        end += 1
    return end


__all__ = ["GameRecord", "QuitRequested", "TableGame", "state_tables"]
