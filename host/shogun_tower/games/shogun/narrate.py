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

from shogun_tower.games.shogun.rules.core import phrases
from shogun_tower.games.shogun.rules.core.cards import event_card_text, special_text
from shogun_tower.games.shogun.rules.core.constants import ACTION_NAMES, BUILDING_NAMES
from shogun_tower.games.shogun.rules.engine import BASE
from shogun_tower.games.shogun.rules.expansions import EXPANSIONS
from shogun_tower.i18n import N_, _, and_list, join
from shogun_tower.words import colour_word, cubes_text, province_word, sentence

# The seasons as the engine numbers them; the words are translated where they are shown
# (``season_word``), the English ones stay the page's data.
SEASON_NAMES = (N_("spring"), N_("summer"), N_("autumn"), N_("winter"))
# The names ``space_name`` makes of the court's plan spaces (its ids convert3, convert2,
# convert1), marked here so that the catalogue holds them
_MADE_NAMES = (N_("Convert 3"), N_("Convert 2"), N_("Convert 1"))
# The end-of-game terms the expansions score under (their ``final_scoring`` hooks' keys: the
# military leaders' statues and trophies, the chambers), marked here for the catalogue
_FINAL_TERMS = (N_("statues"), N_("trophies"), N_("chambers"))


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


def _who(player: str) -> str:
    return colour_word(player)


def _where(province: str) -> str:
    return province_word(province)


def season_word(season: object) -> str:
    """A season's name in the players' language ("spring"; "printemps"; "春")."""
    return _(SEASON_NAMES[season]) if isinstance(season, int) and 0 <= season < 4 \
        else _("season")


def action_word(action: str) -> str:
    """An action card's name as the card prints it, in the players' language."""
    return _(ACTION_NAMES[action]) if action in ACTION_NAMES else action


def stored_words(e: dict, key: str) -> str:
    """A sentence an event keeps in English under ``key``, in the players' language (the
    engine's ``phrases.stored``: one place says how a stored sentence is shown)."""
    return phrases.stored(e, key)


def _battle(e: dict) -> str:
    extras = {"P4": N_("+1 attacking army (special card)"),
              "P5": N_("+1 defending army (special card)"),
              "E3": N_("+1 defending army for the castle (event card)")}
    values = {"attacker": _who(e["attacker"]), "province": _where(e["province"]),
              "frm": _where(e["from"])}
    if e.get("defender"):
        line = sentence(e["armies"], "{attacker} attacks {defender}'s {province} from {frm} "
                        "with {n} army", "{attacker} attacks {defender}'s {province} from {frm} "
                        "with {n} armies", defender=_who(e["defender"]), **values)
    else:
        line = sentence(e["armies"], "{attacker} attacks neutral {province} from {frm} with "
                        "{n} army", "{attacker} attacks neutral {province} from {frm} with {n} "
                        "armies", **values)
    more = [_(extras[x]) if x in extras else str(x) for x in e.get("extras") or []]
    if more:
        # Translators: a battle's line followed by what adds armies to it
        line = _("{battle}, {extras}").format(battle=line, extras=join(more))
    return line


def _bid(e: dict) -> str:
    bid, who = e.get("bid"), _who(e["player"])
    if bid is None:
        return _("{player} makes no bid").format(player=who)
    if isinstance(bid, str):
        return _("{player} bids the province card {province} (pays nothing)").format(
            player=who, province=_where(bid))
    return sentence(bid, "{player} bids {n} coin", "{player} bids {n} coins", player=who)


def _collected(e: dict) -> str:
    values = {"player": _who(e["player"]), "province": _where(e["province"])}
    if e.get("what") == "tax":
        return sentence(e["amount"], "{player} collects tax in {province}: {n} coin",
                        "{player} collects tax in {province}: {n} coins", **values)
    return _("{player} collects rice in {province}: {n} rice").format(n=e["amount"], **values)


def _then(items: list[str]) -> str:
    text = items[0] if items else ""
    for after in items[1:]:
        # Translators: an order of things, one after another ("red, then blue")
        text = _("{before}, then {after}").format(before=text, after=after)
    return text


def _drawn(e: dict) -> str | None:
    what, out = e.get("what"), e.get("outcome")
    if what == "draft_faceup":
        return _("turned up for the draft: {province}").format(province=_where(out))
    if what == "draft_pile":
        return None  # the start_province line that follows names the province
    if what == "year_events":
        return _("this year's events: {cards}").format(cards=join(list(out or [])))
    if what == "action_card":
        return _("action card turned up: {action}").format(action=action_word(out))
    if what == "specials":
        # Translators: a special card on its place of the turn order ("1 P3 Deploy 5 places 6")
        return _("special cards: {cards}").format(cards=join([
            _("{place} {card}").format(place=i, card=special_text(c))
            for i, c in enumerate(out or [], start=1)]))
    if what == "event":
        return _("event of the season: {card}").format(card=event_card_text(out))
    if what == "bid_tie":
        return _("tied bids settled by the Daimyo cards: {order}").format(
            order=_then([_who(p) for p in out or []]))
    if what == "revolt_draw":
        return _("province cards drawn for winter revolts: {provinces}").format(
            provinces=join([_where(p) for p in out or []]))
    return None


def _vp_table(ranking: Iterable[str], vp: dict) -> str:
    # Translators: a player's victory points in a list of them ("red 31")
    return join([_("{player} {vp}").format(player=_who(p), vp=vp.get(p, 0)) for p in ranking])


def _game_over(e: dict) -> str:
    vp = e.get("vp") or {}
    winners = e.get("winners") or []
    table = _vp_table(e.get("ranking") or [], vp)
    if len(winners) == 1:
        return _("game over: {player} wins (VP: {table})").format(player=_who(winners[0]),
                                                                 table=table)
    return _("game over: shared victory for {players} (VP: {table})").format(
        players=and_list([_who(p) for p in winners]), table=table)


def _revolt(e: dict) -> str:
    return _("revolt in {player}'s {province}: {armies} against {farmers}").format(
        player=_who(e["player"]), province=_where(e["province"]), armies=_armies(e["armies"]),
        farmers=_farmers(e["farmers"]))


def _scored(e: dict) -> str:
    table = e.get("table") or {}
    vp = e.get("vp") or {}
    # Translators: a player's points this winter and his total ("red +12 (31)")
    parts = [_("{player} +{points} ({vp})").format(player=_who(p), points=row.get("total", 0),
                                                   vp=vp.get(p, "?"))
             for p, row in table.items()]
    return _("winter scoring, year {year}: {table}").format(year=e.get("year"),
                                                           table=join(parts))


def _season(e: dict) -> str:
    cards = join([action_word(a) for a in e.get("action_cards") or []])
    return _("{season} of year {year} begins; action cards face up: {cards}").format(
        season=season_word(e.get("season")), year=e.get("year"), cards=cards)


def space_name(space: str) -> str:
    """A plan space as a person types it: "Castle", "Bid", an expansion's "convert3" as
    "Convert 3" (English: the console reads these names; ``space_word`` shows them)."""
    if space == "bid":
        return "Bid"
    if space in ACTION_NAMES:
        return ACTION_NAMES[space]
    return re.sub(r"(\D)(\d)", r"\1 \2", space).replace("_", " ").capitalize()


def space_word(space: str) -> str:
    """A plan space as a person reads it, in the players' language."""
    return _("Bid") if space == "bid" else _(space_name(space))


def _skipped(e: dict) -> str:
    # the action's name says what was skipped and why; rule IDs are for the rules document
    values = {"player": _who(e["player"]), "action": space_word(str(e.get("action"))),
              "reason": stored_words(e, "reason")}
    if not e.get("where"):
        return _("{player}'s {action} in {province} is skipped: {reason}").format(
            province=_where(e["province"]), **values)
    # the court converts from a province or from the tray (its event keeps "from ...")
    place = e.get("province")
    where = _("from the tray") if place == "the tray" else \
        _("from {province}").format(province=_where(place))
    return _("{player}'s {action} {where} is skipped: {reason}").format(where=where, **values)


def _throw_needed(e: dict) -> str:
    into = dict(e.get("into_tower") or {})
    tray = e.get("from_tray") or {}
    for c, n in tray.items():  # told apart: the tray's cubes are not the thrower's choice
        into[c] = into.get(c, 0) - n
    if any(tray.values()):
        return _("into the tower: {cubes}, plus the tray's {tray}").format(
            cubes=cubes_text(into), tray=cubes_text(tray))
    return _("into the tower: {cubes}").format(cubes=cubes_text(into))


def _winter_supply(e: dict) -> str:
    values = {"player": _who(e["player"]), "lost": e["rice_lost"], "rice": e["rice"]}
    if not e.get("shortage"):
        return sentence(e["provinces"], "winter: {player} loses {lost} rice, keeps {rice} for "
                        "{n} province: enough", "winter: {player} loses {lost} rice, keeps "
                        "{rice} for {n} provinces: enough", **values)
    return sentence(e["provinces"], "winter: {player} loses {lost} rice, keeps {rice} for {n} "
                    "province: short of {shortage}, {revolts} with {extra}",
                    "winter: {player} loses {lost} rice, keeps {rice} for {n} provinces: short "
                    "of {shortage}, {revolts} with {extra}", shortage=e["shortage"],
                    revolts=sentence(e["revolts"], "{n} revolt", "{n} revolts"),
                    extra=sentence(e["extra_farmers"], "{n} extra farmer", "{n} extra farmers"),
                    **values)


def _built(e: dict) -> str:
    if e.get("favour"):
        price = _("free: favour #{favour}").format(favour=e["favour"])
    else:
        price = _coins(e["cost"]) if e.get("cost") else _("free")
    building = e["building"]
    return _("{player} builds a {building} in {province} ({price})").format(
        player=_who(e["player"]), province=_where(e["province"]), price=price,
        building=_(BUILDING_NAMES[building]) if building in BUILDING_NAMES else building)


def _final_scored(e: dict) -> str:
    # Translators: what one player scores at the end, e.g. "red 4 for statues, 2 for coins"
    rows = [_("{player} {terms}").format(player=_who(p), terms=join([
        _("{n} for {term}").format(n=n, term=_(term)) for term, n in row.items()]))
        for p, row in e["table"].items()]
    return _("end of the game: {table}").format(table=_("; ").join(rows))


_LINES: dict[str, Callable[[dict], str | None]] = {
    "battle": _battle,
    "bid": _bid,
    "built": _built,
    "collected": _collected,
    "deployed": lambda e: _("{player} deploys {armies} in {province} ({coins})").format(
        player=_who(e["player"]), armies=_armies(e["armies"]), province=_where(e["province"]),
        coins=_coins(e["cost"])),
    "draft_refresh": lambda e: _("{player} puts the two face-up cards under the pile").format(
        player=_who(e["player"])),
    "drawn": _drawn,
    "game_over": _game_over,
    "marker_removed": lambda e: _("the new Nō theatre calms {province}: 1 revolt marker "
                                  "removed").format(province=_where(e["province"])),
    "moved": lambda e: _("{player} moves {armies} from {frm} to {to}").format(
        player=_who(e["player"]), armies=_armies(e["armies"]), frm=_where(e["from"]),
        to=_where(e["to"])),
    "no_move": lambda e: None,  # the optional move of Deploy/Move 1 not taken: nothing happened
    "planned": lambda e: _("{player} has planned").format(player=_who(e["player"])),
    "province_card": lambda e: None,  # the verdict line already says who holds the province
    "revolt": _revolt,
    "revolt_order": lambda e: _("{player} faces the winter revolts in this order: {order}")
    .format(player=_who(e["player"]), order=join([_where(p) for p in e.get("order") or []])),
    "scored": _scored,
    "season": _season,
    "season_end": lambda e: _("end of {season} of year {year}").format(
        season=season_word(e.get("season")), year=e.get("year")),
    "skipped": _skipped,
    "special_used": lambda e: _("{player} uses special card {card}").format(
        player=_who(e["player"]), card=special_text(e["card"])),
    "special_declined": lambda e: _("{player} does not use special card {card}").format(
        player=_who(e["player"]), card=special_text(e["card"])),
    "castle_defends": lambda e: _("the castle in {province} defends {player}'s province with "
                                  "1 army").format(province=_where(e["province"]),
                                                   player=_who(e["player"])),
    "spilled": lambda e: _("cubes that fell out by accident go into the tray: {cubes}").format(
        cubes=cubes_text(e.get("counts"))),
    "final_scored": _final_scored,
    "special": lambda e: _("{player} takes special card {card} (turn position {position})")
    .format(player=_who(e["player"]), card=special_text(e["card"]), position=e["position"]),
    "start_province": lambda e: sentence(e["armies"], "{player} starts in {province} with {n} "
                                         "army", "{player} starts in {province} with {n} "
                                         "armies", player=_who(e["player"]),
                                         province=_where(e["province"])),
    "throw_needed": _throw_needed,
    "tray": lambda e: _("out of the tower into the tray: {cubes}").format(
        cubes=cubes_text(e.get("counts"))),
    "turn_order": lambda e: _("turn order: {order}").format(
        order=join([_who(p) for p in e.get("order") or []])),
    "verdict": lambda e: _("{province}: {verdict}").format(
        province=_where(e["province"]),
        verdict=stored_words(e, "text") if e.get("text") else e.get("outcome")),
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
