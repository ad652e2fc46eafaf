"""Secret planning on each player's own phone (`play --phones`).

Every person at the table gets a private link, ``http://HOST:PORT/seat/<token>``; the token is
random (``secrets``, 192 bits) and is the only key to that seat: the board server answers a
seat request only when its token names a seat, and a token only ever reads its own seat.

During planning (rule T3) the desk holds a copy of the state at the start of planning, so the
page's checks run in the web server's threads while the game's own state stays untouched; a
plan is checked by the engine itself (``rules.season.validate_plan`` for each entry as it is
chosen, ``State.check`` for the whole plan) and handed to the game loop, which applies it.
"""

from __future__ import annotations

import io
import queue
import re
import secrets
import threading
from typing import Any

import segno

from shogun_tower.games.shogun.rules import RulesError, State
from shogun_tower.games.shogun.rules.core.cards import special_words
from shogun_tower.games.shogun.rules.core.constants import ACTION_NAMES, ACTIONS, CHESTS
from shogun_tower.games.shogun.rules.phases.season import hand as season_hand
from shogun_tower.games.shogun.rules.phases.season import plan_extension, validate_plan
from shogun_tower.table.console import Console
from shogun_tower.table.terminal import colour_word

TOKEN_BYTES = 24  # 192 random bits per seat
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


def space_name(space: str) -> str:
    """A space as a person reads it: "Castle", "Bid", an expansion's "convert3" as "Convert 3"."""
    if space == "bid":
        return "Bid"
    if space in ACTION_NAMES:
        return ACTION_NAMES[space]
    return re.sub(r"(\D)(\d)", r"\1 \2", space).replace("_", " ").capitalize()


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
                errors[space] = str(err)
                continue
        accepted[space] = value
    return errors


def _only_incomplete(state: State, player: str, trial: dict[str, object],
                     err: RulesError) -> bool:
    """Is ``err`` the engine's last check, the count of filled spaces, and nothing else?"""
    ext = plan_extension(state, player)
    hand_size = (len([x for x, o in state.owner.items() if o == player]) + len(CHESTS)
                 + sum(ext["cards"].values()))
    spaces = len(SPACES) + len(ext["spaces"])
    need = min(spaces, hand_size)
    filled = sum(1 for v in trial.values() if v is not None)
    return err.rule == "T3" and filled < need and f"fill {need} of the {spaces}" in str(err)


class PlanDesk:
    """The seats' private links and the plans they send, season by season."""

    def __init__(self, players: list[str]) -> None:
        self._lock = threading.Lock()
        self._tokens = {secrets.token_urlsafe(TOKEN_BYTES): p for p in players}
        self.players = list(players)
        self._state: State | None = None  # a copy of the game at the start of planning
        self._open: set[str] = set()  # seats whose plan is awaited
        self._waiting_for: list[str] = []  # everyone who has not planned yet, bots included
        self._drafts: dict[str, dict[str, object]] = {p: {} for p in players}
        self._sent: dict[str, dict] = {}
        self._refused: dict[str, str] = {}
        self._plans: queue.Queue[tuple[str, dict]] = queue.Queue()
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
            self._state = state.copy()
            self._open = set(humans)
            self._waiting_for = list(state.pending().get("players", humans))
            self._refused = {}
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

    def close_planning(self) -> None:
        """The season's plans are all in (or the game stopped): the sent seats say so."""
        with self._lock:
            self._open = set()
            self._waiting_for = []

    def next_plan(self, timeout: float) -> tuple[str, dict] | None:
        try:
            return self._plans.get(timeout=timeout)
        except queue.Empty:
            return None

    @property
    def awaited(self) -> list[str]:
        with self._lock:
            return sorted(self._open, key=self.players.index)

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
            s = self._state
            view: dict[str, Any] = {"player": player, "season": self.season_label,
                                    "waiting_for": list(self._waiting_for),
                                    "spaces": [{"space": a, "name": space_name(a),
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
                view["actions_in_order"] = [ACTION_NAMES.get(a, a) for a in s.action_cards]
                view["specials"] = [f"{c} {special_words(c)}" for c in s.specials]
            draft = self._drafts.get(player, {})
            view["draft"] = {k: _card_text(v) for k, v in draft.items()}
            view["refused"] = self._refused.get(player, "")
            if view["status"] != "idle" and s is not None:
                view["errors"] = plan_entry_errors(s, player, draft)
                view["complete"] = not view["errors"] and _complete(s, player, draft)
            return view

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
                view["refused"] = ("your plan is already in" if player in self._sent
                                   else "no planning now: wait for the next season")
                return False, view
            draft = self._drafts[player]
            command = plan_command(s, player, draft)
            try:
                s.check(command)
            except RulesError as err:
                view["refused"] = str(err)
                return False, view
            self._open.discard(player)
            self._sent[player] = command
            self._refused.pop(player, None)
            self._plans.put((player, command))
        return True, self.seat_view(player)


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


def show_seat_links(console: Console, links: dict[str, str]) -> None:
    """Each seat's private link, as text and as a QR code its player scans."""
    console.say("Secret planning on the phones: each player opens their own link (scan the "
                "code); a link is that seat's key, so show it only to its player.")
    for player, url in links.items():
        console.say(f"{colour_word(player, console.colour)}: {url}")
        code = io.StringIO()
        segno.make(url, error="m").terminal(out=code, compact=True, border=2)
        console.say(code.getvalue().rstrip("\n"))
