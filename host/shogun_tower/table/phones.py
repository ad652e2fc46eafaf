"""Secret planning on each player's own phone (`play --phones`).

Every person at the table gets a private link, ``http://HOST:PORT/seat/<token>``; the token is
the only key to that seat: the board server answers a seat request only when its token names a
seat, and a token only ever reads its own seat. A seat's code is shown on the laptop only when
its player asks for it (``phone red``), to that player alone, and cleared after.

The tokens are derived from a secret kept in a file beside the journal (``seat_key``), so the
same table keeps the same links through a resume, and reading the journal (which is meant to
be shared: replays, bug reports) tells nothing about them.

During planning (rule T3) the desk holds a copy of the state at the start of planning, so the
page's checks run in the web server's threads while the game's own state stays untouched; a
plan is checked by the engine itself (``rules.season.validate_plan`` for each entry as it is
chosen, ``State.check`` for the whole plan) and handed to the game loop, which applies it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import io
import os
import pathlib
import queue
import re
import secrets
import threading
import time
from typing import Any, Protocol

import segno

from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.bots import BOT_KINDS
from shogun_tower.games.shogun.narrate import action_word, season_word, space_name
from shogun_tower.games.shogun.rules import RulesError, State
from shogun_tower.games.shogun.rules.core.cards import special_words
from shogun_tower.games.shogun.rules.core.constants import (
    ACTIONS,
    BUILDING_NAMES,
    CHESTS,
)
from shogun_tower.games.shogun.rules.phases.season import hand as season_hand
from shogun_tower.games.shogun.rules.phases.season import plan_extension, validate_plan
from shogun_tower.i18n import _, join
from shogun_tower.table.console import Console, UndoRequested, match
from shogun_tower.table.terminal import colour_word
from shogun_tower.words import colour_word as colour_name
from shogun_tower.words import sentence


class PlanningTable(Protocol):
    """What the planning on the phones needs of the table's game (``TableGame``), named here
    so this module need not import the conductor that imports it."""

    desk: PlanDesk | None
    seats: dict[str, Any]
    state: State
    journal: Any
    console: Console
    waiting: str

    def apply(self, command: dict, sync: bool = True, tell: bool = True) -> list[dict]: ...

    def publish(self) -> None: ...

TOKEN_BYTES = 24  # 192 bits of each seat's token
KEY_BYTES = 32  # the table's secret the tokens are derived from
KEY_SUFFIX = ".seats-key"  # the secret's file: the journal's name and this
# The phone's suggested plan is the strongest bot's (docs/odds.md: the odds bot wins 55% of
# the games against four heuristic bots); it plans from what lies on the table only.
SUGGESTING_BOT = "odds"
SPACES = (*ACTIONS, "bid")  # the 11 spaces of the base game's plan: ten action cards, the bid


def plan_spaces(state: State, player: str) -> tuple[str, ...]:
    """The spaces of this player's plan, in the order they are offered: the 11 of the base
    game, then the expansions' spaces (hook ``plan_spaces``, e.g. the court's convert3/2/1)."""
    return (*SPACES, *plan_extension(state, player)["spaces"])


def plan_cards(state: State, player: str) -> list[str]:
    """The cards a plan's space takes, as typed: province names, chest values 0-4, then the
    expansions' card kinds (e.g. the court's "tower")."""
    return ([*season_hand(state, player)["provinces"], *(str(v) for v in CHESTS),
             *plan_extension(state, player)["cards"]])


def plan_command(state: State, player: str, entries: dict[str, object]) -> dict:
    """The engine's plan command for these entries (``extra``: the expansions' spaces)."""
    command = {"type": "plan", "player": player,
               "actions": {a: entries.get(a) for a in ACTIONS}, "bid": entries.get("bid")}
    extra = plan_extension(state, player)["spaces"]
    if extra:
        command["extra"] = {x: entries.get(x) for x in extra}
    return command


def _validate(state: State, player: str, entries: dict[str, object]) -> dict:
    c = plan_command(state, player, entries)
    return validate_plan(state, player, c["actions"], c["bid"], c.get("extra"))


def card_value(text: object) -> object:
    """A form's choice as the engine's card: "" → empty, "chest 3"/"3" → 3, a province name."""
    if text is None or text == "":
        return None
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    word = str(text).strip()
    if word.lower().startswith("chest "):
        word = word[6:].strip()
    return int(word) if word.isdigit() else word


def plan_entry_errors(state: State, player: str, entries: dict[str, object]) -> dict[str, str]:
    """Each chosen space checked by the engine's own plan rule (T3), in the order of the plan:
    a space is refused when adding it to the spaces accepted before it breaks the rule. A plan
    that is only incomplete is not an error here."""
    accepted: dict[str, object] = {}
    errors: dict[str, str] = {}
    for space in plan_spaces(state, player):
        value = entries.get(space)
        if value is None:
            continue
        trial = dict(accepted, **{space: value})
        try:
            _validate(state, player, trial)
        except RulesError as err:
            if not _only_incomplete(state, player, trial, err):
                errors[space] = phone_words(err)
                continue
        accepted[space] = value
    return errors


def phone_words(refusal: Exception | str) -> str:
    """A refusal as the phone says it: the engine's words without the rule's ID ("rule T3: "),
    which is for the rules document; the words name the card and the space."""
    text = getattr(refusal, "message", None) or str(refusal)
    return re.sub(r"^rule [A-Z][\w.]*: ", "", text)


def _only_incomplete(state: State, player: str, trial: dict[str, object],
                     err: RulesError) -> bool:
    """Is ``err`` the engine's last check, the count of filled spaces, and nothing else?"""
    ext = plan_extension(state, player)
    hand_size = (len([x for x, o in state.owner.items() if o == player]) + len(CHESTS)
                 + sum(ext["cards"].values()))
    spaces = len(SPACES) + len(ext["spaces"])
    need = min(spaces, hand_size)
    filled = sum(1 for v in trial.values() if v is not None)
    if err.rule != "T3" or filled >= need:
        return False
    # the engine's own sentence for it (rules/phases/season.py), in the players' language (or
    # in English, from an engine that does not translate it)
    values = {"need": need, "spaces": spaces, "filled": filled}
    said = phone_words(err)
    return said == _("{player}: fill {need} of the {spaces} spaces (the hand allows it); "
                     "{filled} are filled").format(player=colour_name(player), **values) \
        or said == (f"{player}: fill {need} of the {spaces} spaces (the hand allows it); "
                    f"{filled} are filled")


# ---- the seats' key ---------------------------------------------------------------------------
# Why a secret beside the journal: the journal is meant to travel (replay, serve, a bug report),
# so no key may be in it, and a token derived from what it holds (the seed, the colours) could
# be computed by any player who reads it. The secret is made once per game (256 random bits,
# the file readable by its owner only) and each seat's token is an HMAC of its colour under it:
# the same table gets the same links after a resume, one file holds every seat's key, and
# deleting that file makes new links for everyone at the next resume (a link shown to the
# wrong person is revoked so).

def seat_key_path(journal: str | os.PathLike) -> pathlib.Path:
    path = pathlib.Path(journal)
    return path.with_name(path.name + KEY_SUFFIX)


def seat_key(journal: str | os.PathLike) -> tuple[bytes, bool]:
    """The table's secret for its seats' links, read from beside the journal, or made there
    (then ``True``: the links are new)."""
    path = seat_key_path(journal)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _read_key(path), False
    except OSError as err:
        raise ShogunError(_("cannot keep the phones' links beside the journal ({path}: "
                            "{error}); put the journal in a folder you can write").format(
            path=path, error=err.strerror)) from err
    key = secrets.token_bytes(KEY_BYTES)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write("# Shogun Tower: the secret behind this game's phone links. Keep it private; "
                "delete it to give every seat a new link.\n" + key.hex() + "\n")
        f.flush()
        os.fsync(f.fileno())
    return key, True


def _read_key(path: pathlib.Path) -> bytes:
    try:
        lines = [ln.strip() for ln in path.read_text(encoding="ascii").splitlines()
                 if ln.strip() and not ln.startswith("#")]
        key = bytes.fromhex(lines[-1]) if lines else b""
    except (OSError, UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise ShogunError(_("{path} does not hold the phones' key; delete it to give every "
                            "seat a new link").format(path=path))
    return key


def seat_token(key: bytes, player: str) -> str:
    digest = hmac.new(key, f"shogun-tower seat {player}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:TOKEN_BYTES]).decode().rstrip("=")


# ---- the desk: the seats' side, served by the board server's threads ---------------------------
class PlanDesk:
    """The seats' private links and the plans they send, season by season. ``key``: the table's
    secret (``seat_key``); without one the links last as long as this desk."""

    def __init__(self, players: list[str], key: bytes | None = None) -> None:
        self._lock = threading.Lock()
        key = key if key is not None else secrets.token_bytes(KEY_BYTES)
        self._tokens = {seat_token(key, p): p for p in players}
        self.players = list(players)
        self._state: State | None = None  # a copy of the game at the start of planning
        self._open: set[str] = set()  # seats whose plan is awaited
        self._waiting_for: list[str] = []  # everyone who has not planned yet, bots included
        self._drafts: dict[str, dict[str, object]] = {p: {} for p in players}
        self._sent: dict[str, dict] = {}
        self._refused: dict[str, str] = {}
        self._suggested: dict[str, dict[str, str]] = {}
        self._plans: queue.Queue[tuple[str, dict]] = queue.Queue()
        self._seen: dict[str, float] = {}  # when each seat's page last asked (monotonic)
        self._over = False  # the season's plans are all in: it goes on at the laptop
        self.season_label = ""

    # ---- the game's side ------------------------------------------------------------------
    def token_of(self, player: str) -> str:
        return next(t for t, p in self._tokens.items() if p == player)

    def links(self, base_url: str) -> dict[str, str]:
        base = base_url.rstrip("/")
        return {p: f"{base}/seat/{self.token_of(p)}" for p in self.players}

    def open_planning(self, state: State, humans: list[str], label: str) -> None:
        """Planning starts (or goes on after a resume): these seats plan on their phones."""
        with self._lock:
            if not self._open:  # a new season's planning: the last season's forms are done
                self._drafts = {p: {} for p in self.players}
                self._sent = {}
                self._suggested = {}
            self._state = state.copy()
            self._open = set(humans)
            self._waiting_for = list(state.pending().get("players", humans))
            self._refused = {}
            self._over = False
            self.season_label = label

    def planned(self, state: State) -> None:
        """A plan was applied: the others see who is still awaited."""
        with self._lock:
            self._state = state.copy()
            self._waiting_for = list(state.pending().get("players", []))

    def refuse(self, player: str, why: str) -> None:
        """The game refused a sent plan (it never should: the desk checks first)."""
        with self._lock:
            self._sent.pop(player, None)
            self._open.add(player)
            self._refused[player] = why

    def close_planning(self, all_in: bool = True) -> None:
        """The season's plans are all in (or the game stopped): the sent seats say so."""
        with self._lock:
            self._open = set()
            self._waiting_for = []
            self._over = all_in

    def next_plan(self, timeout: float) -> tuple[str, dict] | None:
        try:
            return self._plans.get(timeout=timeout)
        except queue.Empty:
            return None

    def has_plan(self) -> bool:
        """A plan was sent and is not applied yet."""
        return not self._plans.empty()

    @property
    def awaited(self) -> list[str]:
        with self._lock:
            return sorted(self._open, key=self.players.index)

    def page_open(self, player: str, within: float = 3.0) -> bool:
        """Has this seat's page asked for its form lately (a phone shows it)?"""
        with self._lock:
            return time.monotonic() - self._seen.get(player, -1e9) < within

    # ---- the seats' side (called from the web server's threads) ---------------------------
    def seat_of(self, token: str) -> str | None:
        """The seat this token opens, or None. Every token is compared in constant time."""
        found = None
        for known, player in self._tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                found = player
        return found

    def seat_view(self, player: str) -> dict[str, Any]:
        """What this seat's page shows: its own hand and form, never another seat's."""
        with self._lock:
            self._seen[player] = time.monotonic()
            s = self._state
            view: dict[str, Any] = {"player": player, "season": self.season_label,
                                    "waiting_for": list(self._waiting_for),
                                    "all_in": self._over,
                                    "spaces": [{"space": a, "name": _(space_name(a)),
                                                "extra": a not in SPACES}
                                               for a in (plan_spaces(s, player) if s
                                                         else SPACES)]}
            if player in self._open and s is not None:
                view["status"] = "plan"
            elif player in self._sent:
                view["status"] = "sent"
            else:
                view["status"] = "idle"
            if s is not None and view["status"] != "idle":
                hand = season_hand(s, player)
                # "cards": the expansions' cards ({kind: how many}, e.g. the court's "tower")
                view["hand"] = {"provinces": hand["provinces"], "chests": list(CHESTS),
                                "coins": hand["coins"], "cards": dict(hand.get("cards", {}))}
                view["actions_in_order"] = [action_word(a) for a in s.action_cards]
                view["specials"] = [_("{card} {text}").format(card=c, text=special_words(c))
                                    for c in s.specials]
                view["board"] = seat_board(s, player)
            if view["status"] == "plan" and s is not None:
                view["suggestion"] = self._suggestion(s, player)
            draft = self._drafts.get(player, {})
            view["draft"] = {k: _card_text(v) for k, v in draft.items()}
            view["refused"] = self._refused.get(player, "")
            if view["status"] != "idle" and s is not None:
                view["errors"] = {k: phone_words(v)
                                  for k, v in plan_entry_errors(s, player, draft).items()}
                view["complete"] = not view["errors"] and _complete(s, player, draft)
            return view

    def _suggestion(self, s: State, player: str) -> dict[str, str]:
        """The strongest bot's plan for this seat, once per season (the lock is held)."""
        if player not in self._suggested:
            self._suggested[player] = suggested_plan(s, player)
        return self._suggested[player]

    def check(self, player: str, form: dict[str, object]) -> dict[str, Any]:
        """Keep the form as typed so far (a refreshed page gets it back) and check each entry."""
        with self._lock:
            s = self._state
            entries = {k: card_value(form.get(k))
                       for k in (plan_spaces(s, player) if s else SPACES)}
            if player in self._open:
                self._drafts[player] = {k: v for k, v in entries.items() if v is not None}
        return self.seat_view(player)

    def submit(self, player: str, form: dict[str, object]) -> tuple[bool, dict[str, Any]]:
        """Send the plan once. False (with the reason in the view) if it cannot be sent."""
        view = self.check(player, form)
        with self._lock:
            s = self._state
            if player not in self._open or s is None:
                view["refused"] = (_("your plan is already in") if player in self._sent
                                   else _("no planning now: wait for the next season"))
                return False, view
            draft = self._drafts[player]
            command = plan_command(s, player, draft)
            try:
                s.check(command)
            except RulesError as err:
                view["refused"] = phone_words(err)
                return False, view
            self._open.discard(player)
            self._sent[player] = command
            self._refused.pop(player, None)
            self._plans.put((player, command))
        return True, self.seat_view(player)


def seat_board(s: State, player: str) -> dict[str, Any]:
    """What the seat plans with, from the board: its provinces with their armies, buildings and
    revolt markers, each with its neighbours (who holds them, how many armies, by sea or by
    land), and its armies on the board and in supply. All of it lies open on the table."""
    provinces = []
    for name in sorted(x for x, o in s.owner.items() if o == player):
        info = s.map.provinces[name]
        neighbours = [{"name": y, "owner": s.owner[y] or "", "armies": s.armies[y],
                       "sea": s.map.is_sea_route(name, y)}
                      for y in sorted(info.neighbours) if y in s.owner]
        provinces.append({"name": name, "region": info.region, "armies": s.armies[name],
                          "buildings": [_(BUILDING_NAMES.get(b, b)) for b in s.buildings[name]],
                          "revolt": s.markers[name], "tax": info.tax, "rice": info.rice,
                          "neighbours": neighbours})
    on_board = sum(p["armies"] for p in provinces)
    return {"provinces": provinces, "armies": on_board, "supply": s.supply[player]}


def suggested_plan(s: State, player: str) -> dict[str, str]:
    """The strongest bot's plan for ``player`` as the form writes it ({space: card}), or {} if
    it cannot be made. It sees what lies on the table; the plans already sent are taken off
    its copy of the state, so a suggestion never carries another seat's secret."""
    seen = s.copy()
    seen.plans = {}
    bot = BOT_KINDS[SUGGESTING_BOT](s.game.seed * 31 + s.game.players.index(player))
    try:
        command = bot.decide(seen, player)
    except (RulesError, KeyError, ValueError):
        return {}
    entries = {**command.get("actions", {}), "bid": command.get("bid"),
               **(command.get("extra") or {})}
    if plan_entry_errors(s, player, entries) or not _complete(s, player, entries):
        return {}
    return {space: _card_text(entries.get(space)) for space in plan_spaces(s, player)}


def _complete(state: State, player: str, draft: dict[str, object]) -> bool:
    try:
        _validate(state, player, draft)
    except RulesError:
        return False
    return True


def _card_text(value: object) -> str:
    if value is None:
        return ""
    return f"chest {value}" if isinstance(value, int) else str(value)


# ---- the laptop's side --------------------------------------------------------------------------
def seat_code_lines(url: str) -> list[str]:
    """A link as a QR code drawn with text (two rows of modules per line)."""
    code = io.StringIO()
    segno.make(url, error="m").terminal(out=code, compact=True, border=2)
    return code.getvalue().rstrip("\n").splitlines()


class SeatCodes:
    """Each seat's code on the laptop, one at a time, only when its player asks (``phone
    red``): the others look away, the code shows, and the screen is cleared after."""

    def __init__(self, console: Console, desk: PlanDesk, base_url: str) -> None:
        self.console = console
        self.desk = desk
        self.base_url = base_url

    def tell(self) -> None:
        """How a player gets their seat's code (at the start, and for ``page``)."""
        c = self.console
        seats = join([colour_word(p, c.colour) for p in self.desk.players])
        example = self.desk.players[0]
        c.say(_("Phones: each player plans in secret on their own phone ({seats}). To get your "
                "seat's code, type phone and your colour at any question (phone {example}): "
                "the others look away while it shows, and the screen is cleared after.").format(
            seats=seats, example=example))

    def show(self, said: str) -> None:
        """``phone COLOUR``: that seat's link and code, for its player alone."""
        c = self.console
        if not said:
            c.say(_("Type phone and your colour, for example phone {example}.").format(
                example=self.desk.players[0]))
            return
        try:
            player = match(said, self.desk.players)
        except ShogunError:
            c.say(_("No one plans on a phone as {said}: the phones' seats are {seats}.").format(
                said=said, seats=join(self.desk.players)))
            return
        who = colour_word(player, c.colour)
        url = self.desk.links(self.base_url)[player]
        with c.undisturbed():
            c.ask(_("Only {player} looks now: {player}, press Enter to show your seat's "
                    "code: ").format(player=who), allow_undo=False)
            c.wipe()
            try:  # 22 lines: the whole code stays on an 80x24 terminal
                c.say(_("{player}: scan this code with your phone's camera, or open this "
                        "link:").format(player=who))
                c.say(url)
                for line in seat_code_lines(url):
                    c.say(line)
                c.ask(_("{player}: press Enter when your phone shows your plan (the screen "
                        "clears): ").format(player=who), allow_undo=False)
            finally:
                c.wipe()  # whatever ends the question (quit too), the code does not stay
        c.say(_("{player}'s seat code was shown and cleared.").format(player=who))


def plan_on_phones(table: PlanningTable, st: dict) -> None:
    """Rule T3 on the phones: the bots plan at once, then every person plans on their own
    seat's page at the same time; each plan is applied as it arrives. Meanwhile the laptop
    takes words (phone COLOUR, show, page, help, quit) and says who is still awaited."""
    desk = table.desk
    assert desk is not None
    for player in st["players"]:
        seat = table.seats[player]
        if not seat.human:
            table.apply(seat.decide(table.state, player, len(table.journal.commands)))
    if table.state.pending()["kind"] != "plan":
        return
    people = list(table.state.pending()["players"])
    s = table.state
    label = _("Year {year} · {season} · secret planning").format(
        year=s.year, season=season_word(min(s.season, 3)))
    desk.open_planning(s, people, label)
    c = table.console
    c.say(_ngettext_names(people, c.colour))
    all_in = told = False
    try:
        while True:
            while (sent := desk.next_plan(timeout=0)) is not None:
                if not desk.awaited and not desk.has_plan():  # said before what it reveals
                    c.say(_("All plans are in ({player}'s was the last): the season goes on "
                            "here.").format(player=colour_word(sent[0], c.colour)))
                    told = True
                _apply_sent_plan(table, desk, *sent)
            if table.state.pending()["kind"] != "plan":
                break
            left = desk.awaited
            if not left:  # a plan being sent this instant: it is applied at once
                time.sleep(0.05)
                continue
            table.waiting = _("planning on the phones: waiting for {players}").format(
                players=join([colour_name(p) for p in left]))
            table.publish()
            try:
                said = c.ask_until(_("Planning on the phones, waiting for {players}: ").format(
                    players=_names(left, c.colour)), desk.has_plan)
            except UndoRequested:
                c.say(_("The plans sent from the phones cannot be taken back while planning "
                        "is open; undo works again at the next question."))
                continue
            if said:
                c.say(_("The plans are made on the phones: type phone and a colour to show "
                        "that seat's code, or wait here."))
        all_in = True
    finally:
        desk.close_planning(all_in)
    if all_in and not told:
        c.say(_("All plans are in: the season goes on here."))


def _apply_sent_plan(table: PlanningTable, desk: PlanDesk, player: str, command: dict) -> None:
    try:
        table.apply(command)
    except RulesError as err:
        desk.refuse(player, phone_words(str(err)))
        return
    desk.planned(table.state)


def _names(players: list[str], colour: bool) -> str:
    return join([colour_word(p, colour) for p in players])


def _ngettext_names(people: list[str], colour: bool) -> str:
    """Who plans on the phones: one person or several (the verb follows them)."""
    return sentence(len(people), "Secret planning on the phones: {players} plans on their own "
                    "phone. A phone without its plan page: type phone and its colour here.",
                    "Secret planning on the phones: {players} plan on their own phones. A phone "
                    "without its plan page: type phone and its colour here.",
                    players=_names(people, colour))
