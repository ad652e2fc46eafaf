"""`play --game knizia-samurai` and `demo --game knizia-samurai`: the scoring console at the table.

The players type each capture or tie removal (or the tiles around a surrounded figure, and the
console adjudicates); the journal keeps every entry (undo, `--resume`), the tower's LED strip
shows one band per player, the board page shows the counts, and the console announces the end
and the winner with the reason. It reuses the assistant's console, journal, tower and page."""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import re
import time

from shogun_common import protocol as P
from shogun_tower import games
from shogun_tower.device.link import DeviceLink, LinkError
from shogun_tower.errors import RulesError, ShogunError
from shogun_tower.games.knizia_samurai import strip
from shogun_tower.games.knizia_samurai.capture import tile_from_text
from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.coach import coach
from shogun_tower.games.knizia_samurai.help import entry_help, tie_word, typed_words
from shogun_tower.games.knizia_samurai.state import SamuraiGame, SamuraiJournal
from shogun_tower.games.knizia_samurai.view import (
    entry_lines,
    on_board_text,
    over_text,
    standing_line,
    view,
    winner_line,
)
from shogun_tower.i18n import _, and_list, join, ngettext
from shogun_tower.lines import cells
from shogun_tower.table.coach import attach
from shogun_tower.table.console import (
    Console,
    QuitRequested,
    UndoRequested,
    match,
    resume_command,
)
from shogun_tower.table.equipment import (
    check_tower,
    fill_page_defaults,
    open_tower,
    page_host,
    start_page,
)
from shogun_tower.table.terminal import colour_word, use_colour
from shogun_tower.words import LETTERS
from shogun_tower.words import colour_word as said_colour

TABLE_DEFAULTS = {"tower": "sim", "port": None, "page": True, "host": None, "page_port": 8765}
PAGE = "samurai.html"

def help_text(players: tuple[str, ...]) -> str:
    """What `help` says at a table of these players without the coach (the help book's)."""
    return _("{entries} And at any time: undo (take back the last entry), show (the counts "
             "and the strip), page (the board page's address), quit (stop; continue later "
             "with --resume).").format(entries=entry_help(players))


def parse_entry(text: str, players: tuple[str, ...]) -> dict:
    """One typed entry as an engine command; ShogunError in one line if it is not one. An
    entry holds every figure one tile surrounds (rule K10): parts separated by commas,
    semicolons or "and"; several figures before one colon are a city's (or Edo's), judged on
    the same tiles."""
    w = typed_words()
    a, b = said_colour(players[0]), said_colour(players[1])
    usage = _("type PLAYER FIGURE ({a} {helmet}), {tie} FIGURE ({tie} {rice}) or FIGURE: TILES "
              "({helmet}: {a}:{helmet}:3 {b}:{samurai}:2), several figures of one tile "
              "separated by commas; help says more").format(a=a, b=b, **w)
    typed = text
    text = catalogue().typed_text(re.sub(r"rice fields?", "rice", text, flags=re.IGNORECASE))
    text = re.sub(rf"(?<!\w){re.escape(w['tie'])}(?!\w)", "tie", text, flags=re.IGNORECASE)
    commands: list[dict] = []
    group: list[dict] = []  # the surrounded figures the tiles of the last part go to
    for part in (p.strip() for p in re.split(r"[;,]|\band\b", text, flags=re.IGNORECASE)):
        if not part:
            continue
        head, colon, rest = part.partition(":")
        figures = _figures(head, usage) if colon else None
        if figures:
            tiles = [tile_from_text(t, players) for t in rest.split()]
            if not tiles:
                said = [catalogue().figure(f).said for f in figures]
                raise ShogunError(_("{part!r}: give the tiles next to the {figures}, e.g. "
                                    "{example}: {a}:{samurai}:3 {b}:{ship}:2").format(
                    part=part.strip(), figures=and_list(said), example=" ".join(said),
                    a=a, b=b, samurai=w["samurai"], ship=w["ship"]))
            group = [{"surrounded": f, "tiles": [t.to_json() for t in tiles]} for f in figures]
            commands += group
        elif colon and group and all(":" in t for t in part.split()):
            # tiles separated by commas: they belong to the figures before them
            for t in part.split():
                tile = tile_from_text(t, players).to_json()
                for c in group:
                    c["tiles"].append(tile)
        else:
            group = []
            commands.append(_single(part, players, usage))
    if not commands:
        raise ShogunError(_("{text!r}: {usage}").format(text=typed, usage=usage))
    return commands[0] if len(commands) == 1 else {"figures": commands}


def _figures(head: str, usage: str) -> list[str] | None:
    """The figures named before a colon (a city's two, Edo's three), or None when the words are
    not figures but a tile's player (blue:helmet:3)."""
    words = head.lower().split()
    if not words or (len(words) == 1 and _is_player_word(words[0])):
        return None
    figures = [_figure(w, usage) for w in words]
    if len(set(figures)) != len(figures):
        raise ShogunError(_("{head!r}: the figures of one city are of different types; type "
                            "each surrounded place with its own tiles, separated by "
                            "commas").format(head=head.strip()))
    return figures


def _is_player_word(word: str) -> bool:
    return word in catalogue().colours


def _single(part: str, players: tuple[str, ...], usage: str) -> dict:
    """One figure: PLAYER FIGURE, FIGURE PLAYER or tie FIGURE."""
    words = part.lower().split()
    if len(words) == 2 and words[0] in ("tie", "tied"):
        return {"tie": _figure(words[1], usage)}
    if len(words) == 2:
        try:
            player = match(words[0], list(players))
        except ShogunError:
            player = None
        if player is None:
            try:
                player = match(words[1], list(players))
                words.reverse()
            except ShogunError:
                raise ShogunError(_("{part!r}: no player of this table named; players are "
                                    "{players}; {usage}").format(
                    part=part, players=join([said_colour(p) for p in players]),
                    usage=usage)) from None
        return {"capture": _figure(words[1], usage), "player": player}
    raise ShogunError(_("{text!r}: {usage}").format(text=part, usage=usage))


def _figure(word: str, usage: str) -> str:
    cat = catalogue()
    names = {f.name: f.name for f in cat.figures}
    names.update({f.plural.lower(): f.name for f in cat.figures})
    names.update({f.title.lower(): f.name for f in cat.figures})
    names["rice"] = "rice"
    word = word.lower()
    if word in names:
        return names[word]
    starts = {n for k, n in names.items() if k.startswith(word)}
    if len(starts) == 1:
        return starts.pop()
    raise ShogunError(_("{word!r} is not a figure ({figures}); {usage}").format(
        word=word, figures=join([f.said for f in cat.figures]), usage=usage))


class ScoringTable:
    """The console around one journal: entries in, the strip and the page out."""

    def __init__(self, journal: SamuraiJournal, console: Console,
                 link: DeviceLink | None = None, page=None, narrate: bool = True) -> None:
        self.journal = journal
        self.console = console
        self.link = link
        self.page = page
        self.narrate = narrate
        self.last: list[str] = []  # the lines that told the last entry
        self.shown: dict | None = None  # the strip as last read back from the tower
        info = getattr(link, "info", None) or {}
        self.segments = link is not None and bool(info.get("caps", 0) & P.CAP_SEGMENTS)
        self._frame = b""
        if link is not None and not self.segments:
            console.say(_("this tower's firmware cannot show Samurai's bands (no SEGMENTS "
                          "command): update it with `make deploy`; the game goes on without "
                          "the strip"))
        if link is not None:
            link.on_session = self._resync
        attach(console, coach(self), page)  # `help` and `hint`, the help page

    @property
    def state(self):
        return self.journal.state

    # ---- the loop -------------------------------------------------------------------------
    def run(self) -> None:
        """Entries until the game is over and the players are done; QuitRequested passes."""
        c = self.console
        self.sync(new_session=True)
        if self.state.over is not None:
            self.announce()
        while True:
            over = self.state.over is not None
            prompt = (_("the game is over: undo takes back the last entry, Enter ends: ")
                      if over else _("entry {n}> ").format(n=self.state.entries + 1))
            try:
                line = c.ask(prompt)
            except UndoRequested:
                self.undo()
                continue
            except QuitRequested as why:
                if over and str(why) != "Ctrl-C":
                    return  # the input ended at the end of the game: as Enter
                raise
            if over:
                if not line:
                    return
                c.say(_("the game is over: type undo to take back the last entry, or press "
                        "Enter to end"))
                continue
            if not line:
                continue
            try:
                self.enter(parse_entry(line, self.state.game.players))
            except ShogunError as err:
                c.say(_("not recorded: {error}").format(error=err))

    def enter(self, command: dict) -> list[dict]:
        """Apply one entry (RulesError: refused, nothing changed), then tell the table."""
        try:
            events = self.journal.apply(command)
        except RulesError as err:
            raise ShogunError(str(err)) from None
        self.last = entry_lines(self.state, events)
        if self.narrate:
            for line in self.last:
                self.console.say(line)
        self.sync()
        if events[-1]["event"] == "game_over":
            self.announce()
        return events

    def undo(self) -> None:
        c = self.console
        try:
            undone = self.journal.undo()
        except ShogunError as err:
            c.say(str(err))
            return
        self.last = [_("undone: entry {n} ({entry})").format(n=self.state.entries + 1,
                                                             entry=_command_text(undone))]
        c.say(self.last[0])
        self.sync()

    def announce(self) -> None:
        c = self.console
        s = self.state
        result = s.result or {}
        winners = result.get("winners", [])
        c.say("")
        c.say(over_text(s))
        c.say(winner_line(result, lambda p: colour_word(said_colour(p), c.colour)))
        if self.segments and self.link is not None and len(winners) == 1:
            # the strip flashes the winner's colour three times, then shows the bands again
            self._quietly(lambda: self.link.animate_battle(winners[0]))
        for st in result.get("ranking", []):
            c.say("  " + standing_line(st, lambda p: colour_word(said_colour(p), c.colour)))

    def show(self) -> None:
        c = self.console
        cat = catalogue()
        s = self.state
        c.say(_("figures captured ({figures}):").format(
            figures=join([f.said_plural for f in cat.figures])))
        for p in s.game.players:
            counts = " ".join(f"{s.captured[p][t]:>2}" for t in cat.types)
            c.say(f"  {self._name(p)} {counts}")
        c.say(on_board_text(s))
        for line in self.strip_lines():
            c.say(line)

    # ---- the strip and the page -----------------------------------------------------------
    def sync(self, new_session: bool = False) -> None:
        """The strip (read back to check it) and the page, after every change."""
        self.shown = None
        if self.segments and self.link is not None:
            self._quietly(lambda: self._light(new_session))
        if self.narrate and self.shown is not None and not new_session:
            for line in self.strip_lines():
                self.console.say(line)
        self.publish()

    def _light(self, new_session: bool) -> None:
        assert self.link is not None
        s = self.state
        cat = catalogue()
        if new_session:
            self.link.configure_track(vp_len=81, rice_len=19, rice_start=81)
        runs = strip.runs(s.game.players, s.captured, cat.types)
        self.link.request(P.SEGMENTS, P.pack_segments(runs))
        frame = self.link.read_led_frame()
        self.shown = strip.counts_from_frame(frame, s.game.players, cat.types)
        self._frame = frame

    def strip_lines(self) -> list[str]:
        if self.shown is None:
            return []
        s = self.state
        bands = strip.band_text(self._frame, s.game.players, catalogue().types, LETTERS)
        agree = (_("the strip read back from the tower agrees with the counts")
                 if self.shown == s.captured else
                 _("the strip read back from the tower DISAGREES with the counts"))
        return ["  " + _("strip: {player} {leds}").format(player=self._name(p), leds=b)
                for p, b in zip(s.game.players, bands, strict=True)] + [f"  {agree}"]

    def _name(self, player: str) -> str:
        """A player's colour word, painted, padded so the table's columns line up (a
        Japanese colour is one wide character: two columns)."""
        width = max(cells(said_colour(p)) for p in self.state.game.players)
        word = said_colour(player)
        return colour_word(word, self.console.colour) + " " * (width - cells(word))

    def _resync(self, link: DeviceLink) -> None:
        """The tower came back (cable, reboot): light the bands again."""
        self._quietly(lambda: self._light(True))

    def _quietly(self, call) -> bool:
        try:
            call()
            return True
        except LinkError as err:
            self.console.say(_("the tower does not answer ({error}); the game goes on and the "
                               "strip is brought up to date when it is back").format(error=err))
            return False

    def publish(self) -> None:
        if self.page is not None:
            bands = None
            if self.shown is not None:
                s = self.state
                lines = strip.band_text(self._frame, s.game.players, catalogue().types, LETTERS)
                bands = {p: line.split("|") for p, line in zip(s.game.players, lines,
                                                                 strict=True)}
            self.page.publish(view(self.state, self.last, self.shown, bands))


def _command_text(command: dict) -> str:
    """An entry as it would be typed, in the players' words."""
    cat = catalogue()

    def figure(name: str) -> str:
        return cat.tiles[name].said if name in cat.tiles else str(name)

    if "figures" in command:
        return ", ".join(_command_text(c) for c in command["figures"])
    if "capture" in command:
        return f"{said_colour(command['player'])} {figure(command['capture'])}"
    if "tie" in command:
        return f"{tie_word()} {figure(command['tie'])}"
    return f"{figure(command.get('surrounded'))}: " + " ".join(
        ":".join((said_colour(p), cat.tiles[k].said if k in cat.tiles else k, str(v)))
        for p, k, v in command.get("tiles", []))


# ---- play --------------------------------------------------------------------------------------
def run_play(args: argparse.Namespace) -> int:
    colour = use_colour()
    console = Console(colour=colour, clear_screen=False)
    journal, path = _journal(args)
    table = _table(args, journal)
    check_tower(table["tower"], table["port"])
    if table["tower"] == "manual":
        console.say(_("--tower manual: no tower, so no strip; the console keeps the score"))
    page = None
    code = 0
    try:
        with open_tower(table["tower"], console, table["port"],
                        seed=args.seed or 1) as kit:
            if table["page"]:
                page = start_page(page_host(table["host"], False), table["page_port"], console,
                                  front=PAGE)
                console.page_url = page.url
            if journal is None:  # the tower answered and the page is up: now the file
                journal = SamuraiJournal.new(SamuraiGame.create(args.players or 4), path,
                                             table=table)
            if kit.link is not None:
                console.say(kit.description)
            if args.resume:
                n = len(journal.commands)
                console.say(ngettext("resumed {path}: {n} entry replayed",
                                     "resumed {path}: {n} entries replayed", n).format(
                    path=journal.path, n=n))
            if page is not None:
                console.say(_("the board page: {url}").format(url=page.url))
            console.say(_("the journal: {path} (continue later with `{command}`)").format(
                path=journal.path, command=resume_command(journal.path)))
            game = journal.game
            console.help_text = help_text(game.players)
            console.say(_("Knizia's Samurai, {n} players: {players}; {figures} figures of "
                          "each type. Type help for how to enter captures.").format(
                n=len(game.players), figures=game.figures_per_type,
                players=join([colour_word(said_colour(p), colour) for p in game.players])))
            scoring = ScoringTable(journal, console, kit.link, page)
            console.show = scoring.show
            done, code = games.play_until_stopped(lambda: scoring.run() or True, console,
                                                  journal.path)
            if done is not None:
                console.say(_("the game is kept in {path}").format(path=journal.path))
    finally:
        if page is not None:
            page.stop()
    return code


def _journal(args: argparse.Namespace) -> tuple[SamuraiJournal | None, pathlib.Path]:
    """A resumed journal, or None and the path a new one goes to (made once the tower is up)."""
    journal, path = games.open_journal(args, SamuraiJournal, "samurai")
    if journal is None:
        SamuraiGame.create(args.players or 4)  # a bad --players: refused before anything starts
    elif args.players is not None and SamuraiGame.create(args.players).players \
            != journal.game.players:
        raise ShogunError(_("--resume {journal}: --players {players} conflicts with the saved "
                            "game ({saved}); drop --players").format(
            journal=args.resume, players=args.players, saved=",".join(journal.game.players)))
    return journal, path


def _table(args: argparse.Namespace, journal: SamuraiJournal | None) -> dict:
    given = {"tower": args.tower or ("device" if args.port else None), "port": args.port,
             "page": args.page, "host": args.host, "page_port": args.page_port}
    return games.table_options(args, given, TABLE_DEFAULTS,
                               journal.table if journal is not None else None)


# ---- demo --------------------------------------------------------------------------------------
def random_surrounded(rng: random.Random, state) -> dict:
    """A plausible entry: a figure type still on the board, 2-5 tiles of the table's players
    around it (ships, samurai and the exchange tile among them), adjudicated by the engine; now
    and then a city, two figures of different types closed by the same tiles (rule K10)."""
    cat = catalogue()
    left = [t for t, n in state.on_board().items() if n > 0]
    figures = rng.sample(left, 2) if len(left) > 1 and rng.random() < 0.2 \
        else [rng.choice(left)]
    counting = [k for k, t in cat.tiles.items() if figures[0] in t.influences]
    tiles = []
    for _tile in range(rng.randint(2, 5)):
        # most tiles next to a figure are there to win it
        kind = rng.choice(counting if rng.random() < 0.8 else list(cat.tiles))
        tiles.append([rng.choice(state.game.players), kind,
                      rng.choice(cat.tiles[kind].values)])
    parts = [{"surrounded": f, "tiles": tiles} for f in figures]
    return parts[0] if len(parts) == 1 else {"figures": parts}


def run_demo(args: argparse.Namespace) -> int:
    """A whole game's entries drawn from the seeded generator (the surrounded figures and their
    tiles), adjudicated, journaled, lit on the strip and shown on the page."""
    fill_page_defaults(args)
    players = args.players if args.players is not None else 4
    seed = args.seed if args.seed is not None else 1
    games.check_output_folders(args)
    game = SamuraiGame.create(players)
    tower = args.tower or "sim"
    if tower == "manual":
        raise ShogunError(_("--tower manual: the demo has nobody to type; use sim or device"))
    check_tower(tower, args.port)
    colour = use_colour()
    console = Console(colour=colour, clear_screen=False)
    page = start_page(page_host(args.host, False), args.page_port, console, front=PAGE) \
        if args.page else None
    rng = random.Random(seed)
    try:
        with open_tower(tower, console, args.port, seed=seed) as kit:
            console.say(kit.description)
            if page is not None:
                console.say(_("the board page: {url}").format(url=page.url))
            journal = SamuraiJournal.new(game)
            scoring = ScoringTable(journal, console, kit.link, page, narrate=not args.quiet)
            scoring.sync(new_session=True)
            while journal.state.over is None:
                scoring.enter(random_surrounded(rng, journal.state))
                if page is not None:
                    time.sleep(0.01)  # a page watching sees every entry
            agree = scoring.shown is None or scoring.shown == journal.state.captured
    finally:
        if page is not None:
            page.stop()
    if args.summary:
        summary = {"game": "samurai", "seed": seed, "players": list(game.players),
                   "entries": journal.state.entries, "captured": journal.state.captured,
                   "removed": journal.state.removed, "over": journal.state.over,
                   "result": journal.state.result, "strip_agrees": agree,
                   "journal": json.loads("[" + ",".join(journal.lines) + "]")}
        try:
            args.summary.write_text(json.dumps(summary, indent=2) + "\n")
        except OSError as err:
            raise ShogunError(_("cannot write the summary to {path}: {error}").format(
                path=args.summary, error=err)) from err
        console.say(_("summary written to {path}").format(path=args.summary))
    return 0 if agree else 1
