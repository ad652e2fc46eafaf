"""One readable line per rules-engine event, for the terminal and the board page's log.

The engine's events are facts for programs (``{"event": "collected", "what": "tax", ...}``);
players want "red taxes Settsu: 7 coins". Secret information never appears: a plan is only
ever "red has planned" (rule T3 keeps plans hidden until the actions are played), and bids are
told only by the ``bid`` events, which the engine emits when the bids are revealed (rule T5).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from shogun_tower.games.shogun.rules.core.cards import event_card_text, special_text
from shogun_tower.games.shogun.rules.core.constants import ACTION_NAMES, BUILDING_NAMES
from shogun_tower.games.shogun.rules.engine import BASE
from shogun_tower.games.shogun.rules.expansions import EXPANSIONS
from shogun_tower.words import cubes_text, sentence

SEASON_NAMES = ("spring", "summer", "autumn", "winter")


# What the players draw from, in the game's words (physical cards: rules S2, S4, T1-T5, W3, and
# the expansions'), as each chance node declares it.
CHANCE_NAMES = {what: kind.name for what, kind in BASE.chance.items()} | {
    what: kind.name for e in EXPANSIONS.values() for what, kind in e.chance.items()}


def _armies(n: int) -> str:
    return sentence(n, "{n} army", "{n} armies")


def _coins(n: int) -> str:
    return sentence(n, "{n} coin", "{n} coins")


def _farmers(n: int) -> str:
    return sentence(n, "{n} farmer", "{n} farmers")


def _season_name(season: int) -> str:
    return SEASON_NAMES[season] if isinstance(season, int) and 0 <= season < 4 else "season"


def _battle(e: dict) -> str:
    extras = {"P4": "+1 attacking army (special card)",
              "P5": "+1 defending army (special card)",
              "E3": "+1 defending army for the castle (event card)"}
    tail = "".join(f", {extras.get(x, x)}" for x in e.get("extras") or [])
    target = f"{e['defender']}'s {e['province']}" if e.get("defender") else \
        f"neutral {e['province']}"
    return f"{e['attacker']} attacks {target} from {e['from']} with {_armies(e['armies'])}{tail}"


def _bid(e: dict) -> str:
    bid = e.get("bid")
    if bid is None:
        return f"{e['player']} makes no bid"
    if isinstance(bid, str):
        return f"{e['player']} bids the province card {bid} (pays nothing)"
    return f"{e['player']} bids {_coins(bid)}"


def _collected(e: dict) -> str:
    if e.get("what") == "tax":
        return f"{e['player']} collects tax in {e['province']}: {e['amount']} coins"
    return f"{e['player']} collects rice in {e['province']}: {e['amount']} rice"


def _drawn(e: dict) -> str | None:
    what, out = e.get("what"), e.get("outcome")
    if what == "draft_faceup":
        return f"turned up for the draft: {out}"
    if what == "draft_pile":
        return None  # the start_province line that follows names the province
    if what == "year_events":
        return "this year's events: " + ", ".join(out or [])
    if what == "action_card":
        return f"action card turned up: {ACTION_NAMES.get(out, out)}"
    if what == "specials":
        return "special cards: " + ", ".join(f"{i} {special_text(c)}"
                                             for i, c in enumerate(out or [], start=1))
    if what == "event":
        return f"event of the season: {event_card_text(out)}"
    if what == "bid_tie":
        return "tied bids settled by the Daimyo cards: " + ", then ".join(out or [])
    if what == "revolt_draw":
        return "province cards drawn for winter revolts: " + ", ".join(out or [])
    return None


def _game_over(e: dict) -> str:
    vp = e.get("vp") or {}
    winners = e.get("winners") or []
    table = ", ".join(f"{p} {vp.get(p, 0)}" for p in e.get("ranking") or [])
    if len(winners) == 1:
        head = f"game over: {winners[0]} wins"
    else:
        head = "game over: shared victory for " + " and ".join(winners)
    return f"{head} (VP: {table})"


def _revolt(e: dict) -> str:
    return (f"revolt in {e['player']}'s {e['province']}: {_armies(e['armies'])} against "
            f"{_farmers(e['farmers'])}")


def _scored(e: dict) -> str:
    table = e.get("table") or {}
    vp = e.get("vp") or {}
    parts = [f"{p} +{row.get('total', 0)} ({vp.get(p, '?')})" for p, row in table.items()]
    return f"winter scoring, year {e.get('year')}: " + ", ".join(parts)


def _season(e: dict) -> str:
    cards = ", ".join(ACTION_NAMES.get(a, a) for a in e.get("action_cards") or [])
    return (f"{_season_name(e.get('season'))} of year {e.get('year')} begins; "
            f"action cards face up: {cards}")


def space_name(space: str) -> str:
    """A plan space as a person reads it: "Castle", "Bid", an expansion's "convert3" as
    "Convert 3"."""
    if space == "bid":
        return "Bid"
    if space in ACTION_NAMES:
        return ACTION_NAMES[space]
    return re.sub(r"(\D)(\d)", r"\1 \2", space).replace("_", " ").capitalize()


def _skipped(e: dict) -> str:
    # the action's name says what was skipped and why; rule IDs are for the rules document
    action = space_name(str(e.get("action")))
    where = e.get("where") or f"in {e['province']}"
    return f"{e['player']}'s {action} {where} is skipped: {e['reason']}"


def _throw_needed(e: dict) -> str:
    into = dict(e.get("into_tower") or {})
    tray = e.get("from_tray") or {}
    for c, n in tray.items():  # told apart: the tray's cubes are not the thrower's choice
        into[c] = into.get(c, 0) - n
    line = f"into the tower: {cubes_text(into)}"
    if any(tray.values()):
        line += f", plus the tray's {cubes_text(tray)}"
    return line


def _winter_supply(e: dict) -> str:
    p = e["player"]
    line = (f"winter: {p} loses {e['rice_lost']} rice, keeps {e['rice']} for "
            f"{e['provinces']} provinces")
    if not e.get("shortage"):
        return line + ": enough"
    revolts = sentence(e["revolts"], "{n} revolt", "{n} revolts")
    extra = sentence(e["extra_farmers"], "{n} extra farmer", "{n} extra farmers")
    return line + f": short of {e['shortage']}, {revolts} with {extra}"


_LINES: dict[str, Callable[[dict], str | None]] = {
    "battle": _battle,
    "bid": _bid,
    "built": lambda e: (f"{e['player']} builds a {BUILDING_NAMES.get(e['building'], e['building'])}"
                        f" in {e['province']} ("
                        + (f"free: favour #{e['favour']}" if e.get("favour") else
                           "free" if not e.get("cost") else _coins(e["cost"])) + ")"),
    "collected": _collected,
    "deployed": lambda e: (f"{e['player']} deploys {_armies(e['armies'])} in {e['province']} "
                           f"({_coins(e['cost'])})"),
    "draft_refresh": lambda e: f"{e['player']} puts the two face-up cards under the pile",
    "drawn": _drawn,
    "game_over": _game_over,
    "marker_removed": lambda e: (f"the new Nō theatre calms {e['province']}: 1 revolt marker "
                                 f"removed"),
    "moved": lambda e: (f"{e['player']} moves {_armies(e['armies'])} from {e['from']} to "
                        f"{e['to']}"),
    "no_move": lambda e: None,  # the optional move of Deploy/Move 1 not taken: nothing happened
    "planned": lambda e: f"{e['player']} has planned",
    "province_card": lambda e: None,  # the verdict line already says who holds the province
    "revolt": _revolt,
    "revolt_order": lambda e: (f"{e['player']} faces the winter revolts in this order: "
                               + ", ".join(e.get("order") or [])),
    "scored": _scored,
    "season": _season,
    "season_end": lambda e: f"end of {_season_name(e.get('season'))} of year {e.get('year')}",
    "skipped": _skipped,
    "special_used": lambda e: f"{e['player']} uses special card {special_text(e['card'])}",
    "special_declined": lambda e: (f"{e['player']} does not use special card "
                                   f"{special_text(e['card'])}"),
    "castle_defends": lambda e: (f"the castle in {e['province']} defends {e['player']}'s "
                                 f"province with 1 army"),
    "spilled": lambda e: (f"cubes that fell out by accident go into the tray: "
                          f"{cubes_text(e.get('counts'))}"),
    "final_scored": lambda e: "end of the game: " + "; ".join(
        f"{p} " + ", ".join(f"{n} for {term}" for term, n in row.items())
        for p, row in e["table"].items()),
    "special": lambda e: (f"{e['player']} takes special card {special_text(e['card'])} "
                          f"(turn position {e['position']})"),
    "start_province": lambda e: (f"{e['player']} starts in {e['province']} with "
                                 f"{_armies(e['armies'])}"),
    "throw_needed": _throw_needed,
    "tray": lambda e: f"out of the tower into the tray: {cubes_text(e.get('counts'))}",
    "turn_order": lambda e: "turn order: " + ", ".join(e.get("order") or []),
    "verdict": lambda e: f"{e['province']}: {e.get('text') or e.get('outcome')}",
    "winter_supply": _winter_supply,
}

# each expansion tells its own events (``Expansion.narration``)
for _e in EXPANSIONS.values():
    assert not set(_e.narration) & set(_LINES), _e.name
    _LINES.update(_e.narration)

KNOWN_EVENTS = frozenset(_LINES)


def describe(event: dict, state: Any = None) -> str | None:
    """One line for a rules-engine event, or None when it is not worth a line (or unknown).

    ``state``, where a caller has it, lends its game's expansions' words (an expansion that is
    not in the catalogue); every line is told from the event alone so that a replayed journal
    reads the same as the live game.
    """
    if not isinstance(event, dict):
        return None
    line = _LINES.get(event.get("event"))
    if line is None and state is not None:
        line = next((e.narration[event.get("event")] for e in state.game.rules.expansions
                     if event.get("event") in e.narration), None)
    if line is None:
        return None
    try:
        return line(event)
    except (KeyError, TypeError):
        return None  # an event from a newer engine with other fields: no line beats a crash


def describe_all(events: Iterable[dict], state: Any = None) -> list[str]:
    """Lines for a command's events, in the order they happened (oldest first).

    The five action cards turned up before planning are not told one by one when the batch's
    ``season`` event lists them.
    """
    return [line for _, line in describe_each(events, state)]


def describe_each(events: Iterable[dict], state: Any = None) -> list[tuple[int, str]]:
    """(the event's index, its line) for each event of a command worth a line, in order: the
    table tells a command's events where they happened, e.g. a throw's headline right before
    its cubes, a season's report right after its end."""
    events = list(events)
    dealt = any(e.get("event") == "season" for e in events if isinstance(e, dict))
    lines = []
    for i, e in enumerate(events):
        if dealt and isinstance(e, dict) and e.get("event") == "drawn" \
                and e.get("what") == "action_card" \
                and not _after_season(events, e):
            continue
        line = describe(e, state)
        if line:
            lines.append((i, line))
    return lines


def season_close(events: list[dict]) -> tuple[int, list[tuple[int, int]]] | None:
    """Where seasons close among one command's events: the index just after the last
    ``season_end`` event (spring, summer, autumn) or winter's ``scored`` event, and the seasons
    that closed, as (year, season number 0-3) — autumn and winter close in one command when no
    revolt needs a throw. None when no season closes."""
    at, closed = None, []
    for i, e in enumerate(events):
        if e.get("event") == "season_end":
            at = i + 1
            closed.append((int(e.get("year", 0)), int(e.get("season", 0))))
        elif e.get("event") == "scored":
            at = i + 1
            closed.append((int(e.get("year", 0)), 3))
    return (at, closed) if at is not None else None


def _after_season(events: list[dict], e: dict) -> bool:
    """True when ``e`` comes after the batch's season event (a later card, told on its own)."""
    seen_season = False
    for x in events:
        if x is e:
            return seen_season
        if isinstance(x, dict) and x.get("event") == "season":
            seen_season = True
    return False
