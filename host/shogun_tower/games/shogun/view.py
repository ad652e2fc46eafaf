"""What the board page shows: a JSON-ready *view* of the game state.

The page (web/app.js) draws only this. A view holds what every player at the table may see:
the board, the tracks, the cards face up, the cubes in the tower and the tray, the bids once
they are revealed (rule T5). It never holds the secret plans (rule T3), a bid not yet revealed,
the order of the face-down cards or the generator's state. The schema is in
docs/board-page.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from shogun_tower.games.shogun.narrate import (
    SEASON_NAMES,
    action_word,
    describe_all,
    season_word,
    stored_words,
)
from shogun_tower.games.shogun.rules.core.cards import event_card_text, special_words
from shogun_tower.games.shogun.rules.core.constants import (
    BUILDINGS,
    FARMERS,
    MAJORITY_VP,
)
from shogun_tower.games.shogun.rules.core.tower import throw_title
from shogun_tower.games.shogun.rules.engine import State, describe
from shogun_tower.games.shogun.rules.expansions import views
from shogun_tower.i18n import N_, _
from shogun_tower.words import capital

SEASONS = SEASON_NAMES  # kept: older callers import the name from here
VP_SPACES = 81  # rule C5: the track runs 0-80; above 80 a marker laps (as the LED track does)
RICE_SPACES = 19  # rule C5: 0-18
LOG_LINES = 30

_PHASE_LABELS = {
    "season_start": N_("dealing the cards"),
    "plan": N_("planning"),
    "bids": N_("bids"),
    "specials": N_("special cards"),
    "actions": N_("actions"),
    "winter": N_("winter"),
}


def board_view(state: Any, log: list[str] | None = None, last_throw: dict | None = None,
               waiting: str = "", odds: bool = True) -> dict:
    """The view of ``state`` for the page. ``log``: lines newest first; ``last_throw``:
    ``{"in", "out", "verdict", "reason", "province"}`` (see :func:`throw_record`) or None;
    ``waiting``: a one-line notice shown prominently (a warning, or what the table waits for)."""
    game_map = state.map
    players = list(state.game.players)
    in_play = set(state.owner)
    provinces = {}
    for name, prov in game_map.provinces.items():
        provinces[name] = {
            "owner": state.owner.get(name),
            "armies": state.armies.get(name, 0),
            "buildings": list(state.buildings.get(name, [])),
            "revolt": state.markers.get(name, 0),
            "region": prov.region,
            "excluded": name not in in_play,  # rule S1: out of play with 3 players
            "tax": prov.tax,
            "rice": prov.rice,
            "slots": prov.building_slots,
        }
    edges = []
    for name, prov in game_map.provinces.items():
        for other in sorted(prov.neighbours):
            if name < other:
                kind = "sea" if game_map.is_sea_route(name, other) else "land"
                edges.append([name, other, kind])
    return {
        "side": game_map.side,
        "map_notes": list(game_map.unverified),
        "year": state.year,
        "season": SEASON_NAMES[_season(state)],
        "phase": state.phase,
        "when": when_text(state),
        "next": pending_text(state),
        "waiting": waiting,
        "players": _players(state, players),
        "turn_order": list(state.turn_order),
        "provinces": provinces,
        "regions": _regions(state),
        "majority_vp": dict(MAJORITY_VP),
        "edges": edges,
        "tower": {c: n for c, n in state.tower.items()},
        "tray": {c: n for c, n in state.tray.items()},
        "supplies": {**{b: state.building_supply[b] for b in BUILDINGS},
                     "farmers": state.supply[FARMERS]},
        "event": _card(state.event),
        "events_up": [_card(c) for c in state.events_up],
        "action_track": _action_track(state),
        "specials": _specials(state),
        "draft": _draft(state),
        "expansions": views(state),  # the court and the Samurai stacks (docs/expansions.md)
        "result": state.result,
        "last_throw": last_throw,
        "log": list(log or [])[:LOG_LINES],
        "odds": _odds(state) if odds else None,  # the battle being thrown
    }


def _odds(state: Any) -> dict | None:
    st = state.step
    if not st or st.get("kind") != "throw" or st.get("reason") not in ("battle", "revolt"):
        return None
    from shogun_tower.games.shogun.odds.table import page_odds

    return page_odds(state)


def _season(state: Any) -> int:
    s = state.season
    return s if isinstance(s, int) and 0 <= s < 4 else 0


def when_text(state: Any) -> str:
    """Where the game stands, in one line: "Year 1 · Summer · actions (card 3 of 10: Tax)"."""
    if state.phase == "over" or state.result:
        return _("Game over")
    if state.phase == "setup":
        d = state.draft
        return _("Set-up · draft") if d and not d.get("done") else _("Set-up · set-up throw")
    season = SEASON_NAMES[_season(state)]
    word = season_word(_season(state))
    values = {"year": state.year, "season": capital(word)}
    label = _PHASE_LABELS.get(state.phase)
    if label == season:
        label = None
    slot = min(state.cursor[0], 9)
    if state.phase == "actions" and state.action_cards and slot < len(state.action_cards):
        return _("Year {year} · {season} · {phase} (card {card} of 10: {action})").format(
            phase=_(_PHASE_LABELS["actions"]), card=slot + 1,
            action=action_word(state.action_cards[slot]), **values)
    if label:
        return _("Year {year} · {season} · {phase}").format(phase=_(label), **values)
    return _("Year {year} · {season}").format(**values)


def pending_text(state: Any) -> str:
    """What the game waits for, in one line, without secrets (a plan's hand is not shown): the
    words each decision kind declares (``rules.engine.describe``)."""
    return describe(state)


def _players(state: Any, players: list[str]) -> list[dict]:
    owned = dict.fromkeys(players, 0)
    on_board = dict.fromkeys(players, 0)
    for prov, owner in state.owner.items():
        if owner in owned:
            owned[owner] += 1
            on_board[owner] += state.armies.get(prov, 0)
    # rule T5: bids are revealed (and paid) together once everyone has planned; before that
    # they are part of the secret plans and must not reach the page.
    bids_open = state.bids_paid and state.phase in ("bids", "specials", "actions")
    out = []
    for p in players:
        vp = state.vp[p]
        bid: Any = None
        if bids_open and p in state.plans:
            bid = state.plans[p]["bid"]
        pos = state.special_of.get(p)
        special = state.specials[pos - 1] if pos and pos <= len(state.specials) else None
        turn = state.turn_order.index(p) + 1 if p in state.turn_order else None
        out.append({
            "colour": p, "vp": vp, "vp_space": vp % VP_SPACES, "vp_lap": vp // VP_SPACES,
            "rice": state.rice[p], "coins": state.coins[p], "provinces": owned[p],
            "armies": on_board[p], "supply": state.supply[p],
            "planned": state.phase == "plan" and p in state.plans,
            "bid": bid, "bid_shown": bids_open and p in state.plans,
            "special": {"card": special, "position": pos,
                        "text": special_words(special)} if special else None,
            "turn": turn,
        })
    return out


def _regions(state: Any) -> list[dict]:
    """Each region with its provinces and who leads each building majority now (rule W4)."""
    players = list(state.game.players)
    out = []
    for name, members in state.map.regions.items():
        majorities = {}
        for kind in BUILDINGS:
            count = dict.fromkeys(players, 0)
            for prov in members:
                owner = state.owner.get(prov)
                if owner in count and kind in state.buildings.get(prov, ()):
                    count[owner] += 1
            best = max(count.values(), default=0)
            leaders = [p for p, c in count.items() if c == best] if best else []
            vp = MAJORITY_VP[kind] - (1 if len(leaders) > 1 else 0) if leaders else 0
            majorities[kind] = {"leaders": leaders, "count": best, "vp": vp}
        out.append({"name": name, "provinces": list(members),
                    "in_play": [m for m in members if m in state.owner],
                    "majorities": majorities})
    return out


def _card(card: str | None) -> dict | None:
    return {"card": card, "text": event_card_text(card)} if card else None


def _action_track(state: Any) -> list[dict]:
    """The ten action slots (rule T1): cards turned up so far, the one being played."""
    playing = state.phase == "actions"
    slot_now = state.cursor[0] if playing else -1
    track = []
    for i in range(10):
        action = state.action_cards[i] if i < len(state.action_cards) else None
        track.append({"slot": i + 1, "action": action,
                      "name": action_word(action) if action else _("face down"),
                      "done": playing and i < slot_now, "current": playing and i == slot_now})
    return track


def _specials(state: Any) -> list[dict]:
    taken = {pos: p for p, pos in state.special_of.items()}
    return [{"position": i, "card": card, "text": special_words(card),
             "taken_by": taken.get(i)} for i, card in enumerate(state.specials, start=1)]


def _draft(state: Any) -> dict | None:
    d = state.draft
    if not d or d.get("done"):
        return None
    # the face-down pile's order is secret: only its size is shown
    return {"faceup": list(d["faceup"]), "pile": len(d["pile"]) + len(d["bottom"])}


def throw_record(step: dict | None, events: Iterable[dict]) -> dict | None:
    """The ``last_throw`` of a view from the throw the game waited for (``state.step`` before
    the tray command) and the events of that command; None if the command was no throw."""
    if not step or step.get("kind") != "throw":
        return None
    events = list(events)
    out = next((e.get("counts", {}) for e in events if e.get("event") == "tray"), {})
    verdict = next((e for e in events if e.get("event") == "verdict"), None)
    reason = step.get("reason")
    if verdict is not None:
        text = stored_words(verdict, "text") if verdict.get("text") else \
            verdict.get("outcome", "")
    elif reason == "setup":
        text = _("set-up throw: what fell out went back to the supplies")
    else:
        text = ""
    return {"in": dict(step.get("into_tower") or {}), "out": dict(out), "verdict": text,
            "reason": reason, "province": step.get("province"), "title": throw_title(step)}


class Chronicle:
    """Follows a game command by command and keeps what the page shows besides the state:
    the last actions (narrated, newest first) and the last throw.

    >>> chronicle = Chronicle()
    >>> step = state.step; events = state.apply(command)   # doctest: +SKIP
    >>> chronicle.record(step, events)                     # doctest: +SKIP
    >>> view = chronicle.view(state)                       # doctest: +SKIP
    """

    def __init__(self, limit: int = LOG_LINES) -> None:
        self.limit = limit
        self.log: list[str] = []
        self.last_throw: dict | None = None
        self.odds = True  # False: the page shows no battle odds (play --no-odds)

    def record(self, step: dict | None, events: Iterable[dict]) -> list[str]:
        """Takes one command's events (``step``: ``state.step`` before the command); returns
        their lines, oldest first, for whoever also tells them aloud."""
        events = list(events)
        lines = describe_all(events)
        self.log = (list(reversed(lines)) + self.log)[: self.limit]
        throw = throw_record(step, events)
        if throw is not None:
            self.last_throw = throw
        return lines

    def note(self, line: str) -> None:
        """A line that is no engine event (an undo, a reconnected tower)."""
        self.log = ([line] + self.log)[: self.limit]

    def view(self, state: Any, waiting: str = "") -> dict:
        return board_view(state, self.log, self.last_throw, waiting, self.odds)


def replay_view(game: Any, commands: Iterable[dict], waiting: str = "") -> tuple[Any, dict]:
    """Replays ``commands`` from the start of ``game``; returns the state and its view with the
    log and last throw the table saw. Used to show a journal that another program writes."""
    state = State.new(game)
    chronicle = Chronicle()
    for command in commands:
        step = state.step
        chronicle.record(step, state.apply(command))
    return state, chronicle.view(state, waiting)
