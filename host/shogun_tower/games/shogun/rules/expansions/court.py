"""X1 The Imperial Court (rulebook 002, "COUR IMPERIALE"): courtiers, favours, the tray converted.

Rules (cited as X1.n):
- X1.1 Material: each player has 7 courtiers, 3 cube-tower cards and an extra board with three
  spaces (convert 3, 2, 1 armies). The court board has an entrance hall and an audience room
  with 3 favour places showing 4, 3 and 2 courtiers. 21 favour cards, each used once a game.
- X1.2 The favour cards are shuffled into a face-down pile.
- X1.3 Set-up throw: each army of a player that falls into the tray becomes one of his
  courtiers in the hall; the army goes back to his supply (rulebook: Jens 2, Dirk 2, Anika 1).
- X1.4 Planning: the three extra spaces are planned secretly with the rest and filled if the
  hand allows. A province card converts that many armies from that province (at least 1 stays);
  a cube-tower card converts that many of the player's armies lying in the tray; a chest card
  does nothing. A cube-tower card on a base space acts as a chest card; as the bid it is a chest
  worth 0.
- X1.5 Reveal favours (before planning): 3 cards from the pile, by number, the highest on the
  4-courtier place, the next on the 3, the lowest on the 2.
- X1.6 Court actions: after the turn order, before the base actions (and after Samurai, X2.6).
- X1.7 In turn order each player resolves convert 3, then 2, then 1: the armies go back to his
  supply, as many of his courtiers go from his supply to the hall. An action that cannot be done
  fully (armies, tray, courtiers) is abandoned.
- X1.8 Then, by most courtiers in the hall (ties: turn order), each player moves all his
  courtiers to the audience room and may take one favour whose place shows no more courtiers
  than he has there, returning that many courtiers to his supply. The phase ends when every
  favour is taken or every player has had his turn.
- X1.9 A favour applies at once if possible; #4, 10, 11 and 18 may be kept for later. A used
  favour leaves the game.
- X1.10 At the end the room's courtiers go back to the hall and the unused favours leave the
  game.
- X1.11 The 21 favours: ``data/court_favours.json`` (number, effect, parameters, timing,
  source seed/decision).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from shogun_tower.games.shogun.rules.core import choices, legacy
from shogun_tower.games.shogun.rules.core.constants import (
    ACTION_NAMES,
    BATTLE_ACTIONS,
    BUILDING_NAMES,
    BUILDINGS,
    CHESTS,
    RICE_TRACK_MAX,
    THEATRE,
)
from shogun_tower.games.shogun.rules.core.data import fail, need_int, need_source, open_doc
from shogun_tower.games.shogun.rules.core.phrases import (
    colour,
    english,
    phrase,
    phrase_n,
    province,
    say,
)
from shogun_tower.games.shogun.rules.core.ruleset import ChanceKind, Expansion, Phase, Question
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.i18n import N_, N_plural, _, join, language
from shogun_tower.words import colour_word, province_word, sentence

NAME = "court"
DATA_FILE = "court_favours.json"
COURTIERS = 7  # rule X1.1
TOWER_CARDS = 3
SPACES = {"convert3": 3, "convert2": 2, "convert1": 1}  # resolved in this order (X1.7)
PLACES = (4, 3, 2)  # courtiers shown on the favour places (X1.5)
EFFECTS = {"cancel_event": (), "rice": ("amount",), "coins": ("amount",), "vp": ("amount",),
           "tray_armies": ("amount",), "remove_marker": (), "protection": ("actions",),
           "free_armies": ("amount",), "free_building": ("building",)}
TIMINGS = ("now", "kept")
NO_FAVOUR = 0


# ---- the favour cards (rule X1.11) ----------------------------------------------------------
def load_data(which: Any) -> dict:
    """Validate a favour-card document (one-line DataError naming the card and field)."""
    doc, origin = open_doc(which, DATA_FILE, "shogun-tower-favours/1", "favour cards")
    cards = doc.get("cards")
    if not isinstance(cards, list) or len(cards) != 21:  # rule X1.1
        raise fail(origin, _("field 'cards' must list the 21 favour cards"))
    for i, c in enumerate(cards, start=1):
        where = f"card #{i}"
        if not isinstance(c, dict) or c.get("number") != i:
            raise fail(origin, _("{where}: cards must be listed in order with \"number\": "
                                 "{i}").format(
                where=where, i=i))
        effect = c.get("effect")
        if effect not in EFFECTS:
            raise fail(origin, _("{where}: field 'effect' {effect!r} must be one of "
                                 "{names}").format(
                where=where, effect=effect, names=', '.join(EFFECTS)))
        params = c.get("params")
        if not isinstance(params, dict) or sorted(params) != sorted(EFFECTS[effect]):
            raise fail(origin, _("{where}: effect {effect} takes params {value}, got "
                                 "{params!r}").format(
                where=where, effect=effect, value=list(EFFECTS[effect]) or '{}', params=params))
        if "amount" in params:
            need_int(origin, f"{where} params", params, "amount", 1, 10)
        if "building" in params and params["building"] not in BUILDINGS:
            raise fail(origin, _("{where}: params 'building' must be one of {names}").format(
                where=where, names=', '.join(BUILDINGS)))
        if "actions" in params and (not isinstance(params["actions"], list)
                                    or not params["actions"]
                                    or any(a not in ("battle_a", "battle_b")
                                           for a in params["actions"])):
            raise fail(origin, _("{where}: params 'actions' must list battle_a and/or "
                                 "battle_b").format(
                where=where))
        if c.get("timing") not in TIMINGS:
            raise fail(origin, _("{where}: field 'timing' must be one of {names}").format(
                where=where, names=', '.join(TIMINGS)))
        if not isinstance(c.get("text"), str) or not c["text"]:
            raise fail(origin, _("{where}: field 'text' must say what the card does").format(
                where=where))
        need_source(origin, where, c)
    return doc


@lru_cache(maxsize=8)
def _cards(text: str) -> dict[int, dict]:
    return {c["number"]: c for c in json.loads(text)["cards"]}


def card(s: State, number: int) -> dict:
    return _cards(json.dumps(s.game.expansion_data[NAME], sort_keys=True))[number]


def favour_words(c: dict) -> dict | str:
    """A favour card's words as a phrase (``phrases.py``), made from its effect, so that it is
    said in the players' language; a data file whose text says something else keeps its own
    text (shown as it is written)."""
    effect, params = c["effect"], c.get("params") or {}
    n = params.get("amount", 0)
    if effect == "cancel_event":
        words = phrase(N_("Cancel this season's event (optional): the event is ignored for the "
                          "rest of the season."))
    elif effect == "rice":
        words = phrase(N_("+{n} rice"), n=n)
    elif effect == "coins":
        words = phrase_n(N_plural("+{n} coin", "+{n} coins"), n)
    elif effect == "vp":
        words = phrase_n(N_plural("+{n} victory point", "+{n} victory points"), n)
    elif effect == "remove_marker":
        words = phrase(N_("Remove a revolt marker from one of your provinces; with none, keep "
                          "the card and cancel the next marker placed in one of your "
                          "provinces."))
    elif effect == "tray_armies":
        words = phrase_n(N_plural("Place {n} army from your supply into the tray",
                                  "Place {n} armies from your supply into the tray"), n)
    elif effect == "protection" and sorted(params.get("actions", ())) == list(BATTLE_ACTIONS):
        words = phrase(N_("This season no other player may attack you with Battle/Move A or B"))
    elif effect == "protection" and len(params.get("actions", ())) == 1:
        words = phrase(N_("This season no other player may attack you with {action}"),
                       action=phrase(ACTION_NAMES[params["actions"][0]]))
    elif effect == "free_armies":
        words = phrase_n(N_plural("Deploy {n} army free into one of your provinces or a "
                                  "neutral one; a neutral one becomes yours without a battle.",
                                  "Deploy {n} armies free into one of your provinces or a "
                                  "neutral one; a neutral one becomes yours without a "
                                  "battle."), n)
    elif effect == "free_building":
        words = phrase(N_("Build a {building} free in one of your provinces (normal building "
                          "rules)"), building=phrase(BUILDING_NAMES[params["building"]]))
    else:
        return c["text"]
    return words if english(words) == c["text"] else c["text"]


def favour_text(text: str) -> str:
    """A favour card's text (as the events and the view keep it, in English) in the players'
    language: the packaged cards' words; another text is shown as it is."""
    for c in _cards(json.dumps(load_data(None), sort_keys=True)).values():
        if c["text"] == text:
            return say(favour_words(c))
    return text


# ---- state, set-up and planning ------------------------------------------------------------
def new_state(s: State) -> dict:
    players = s.game.players
    return {"supply": dict.fromkeys(players, COURTIERS), "hall": dict.fromkeys(players, 0),
            "room": dict.fromkeys(players, 0), "pile": list(range(1, 22)), "places": [],
            "revealed": False, "stage": None, "queue": [], "asked": [],
            "kept": {p: [] for p in players},
            "protected": {p: [] for p in players}, "gone": []}


def courtier_count(s: State) -> dict[str, dict[str, int]]:
    """Where every courtier is (conservation, like ``State.cube_count``)."""
    me = s.expansions[NAME]
    return {p: {"supply": me["supply"][p], "hall": me["hall"][p], "room": me["room"][p]}
            for p in s.game.players}


def _to_hall(s: State, p: str, n: int) -> None:
    me = s.expansions[NAME]
    me["supply"][p] -= n
    me["hall"][p] += n


def setup_throw(s: State, tray: dict[str, int], ev: list[dict]) -> None:
    """Rule X1.3: armies in the set-up tray become courtiers (the armies then go back)."""
    me = s.expansions[NAME]
    for p in s.game.players:
        n = min(tray.get(p, 0), me["supply"][p])
        if n:
            _to_hall(s, p, n)
            ev.append({"event": "courtiers", "player": p, "courtiers": n, "from": "setup",
                       "rule": "X1.3"})


# What the court's spaces and cards do, as the planning screen says it (rules X1.4, X1.7);
# in English here, translated where it is shown.
PLAN_TEXTS = {
    "convert": N_("Convert 3, 2, 1 (before the actions): that many of your armies go back to "
                  "your supply and as many courtiers into the hall, from the province named (1 "
                  "army stays) or, with a cube-tower card, from the tray. A cube-tower card "
                  "elsewhere is like a chest card (as the bid: 0)."),
}


def plan_spaces(s: State, p: str) -> dict:
    """Rule X1.4: the three extra spaces and the three cube-tower cards."""
    return {"spaces": list(SPACES), "cards": {"tower": TOWER_CARDS},
            "bid_as_chest": {"tower": 0}, "texts": dict(PLAN_TEXTS)}


# ---- reveal favours (rule X1.5) --------------------------------------------------------------
def reveal_phase(s: State, ev: list[dict]) -> dict | None:
    me = s.expansions[NAME]
    if me["revealed"]:
        return None
    if not me["pile"]:
        me["revealed"] = True
        return None
    return {"kind": "chance", "what": "favours", "rule": "X1.5",
            "count": min(len(PLACES), len(me["pile"]))}


def _pile(s: State, st: dict) -> list[int]:
    return list(s.expansions[NAME]["pile"])


def _revealed(s: State, st: dict, drawn: list[int], ev: list[dict]) -> None:
    me = s.expansions[NAME]
    # the highest number on the 4-courtier place, the next on the 3, the lowest on the 2
    me["places"] = [[n, c] for n, c in zip(sorted(drawn, reverse=True), PLACES, strict=False)]
    me["pile"] = [n for n in me["pile"] if n not in drawn]
    me["revealed"] = True
    ev.append({"event": "favours_revealed", "places": [
        {"favour": n, "courtiers": c, "text": card(s, n)["text"],
         "text_words": favour_words(card(s, n))} for n, c in me["places"]],
        "rule": "X1.5"})


def shown(s: State) -> list[int]:
    """The favours in the audience room, highest place first."""
    return [n for n, _ in s.expansions[NAME]["places"]]


def place_cost(s: State, number: int) -> int:
    return next(c for n, c in s.expansions[NAME]["places"] if n == number)


# ---- court actions (rules X1.6-X1.10) ------------------------------------------------------
def court_phase(s: State, ev: list[dict]) -> dict | None:
    me = s.expansions[NAME]
    if me["stage"] is None:
        step = _offer_kept(s, ev)  # kept protection cards, played for this season or not
        if step is not None:
            return step
        for p in s.turn_order:  # rule X1.7
            for space, k in SPACES.items():
                _convert(s, p, space, k, ev)
        hall = me["hall"]
        order = sorted(s.turn_order, key=lambda p: (-hall[p], s.turn_order.index(p)))
        me["queue"] = [p for p in order if hall[p] > 0]  # rule X1.8
        me["stage"] = "favours"
    while me["queue"] and me["places"]:
        p = me["queue"].pop(0)
        me["room"][p] += me["hall"][p]
        me["hall"][p] = 0
        affordable = [n for n, c in me["places"] if c <= me["room"][p]]
        ev.append({"event": "audience", "player": p, "courtiers": me["room"][p],
                   "rule": "X1.8"})
        if not affordable:
            continue
        return choices.ask(
            p, "court_favour", "X1.8",
            phrase_n(N_plural("{n} courtier in the audience room: take which favour?",
                              "{n} courtiers in the audience room: take which favour?"),
                     me["room"][p]),
            [(n, phrase_n(N_plural("#{number} ({n} courtier): {text}",
                                   "#{number} ({n} courtiers): {text}"), place_cost(s, n),
                          number=n, text=favour_words(card(s, n))))
             for n in affordable] + [(NO_FAVOUR, N_("none"))])
    for p in s.game.players:  # rule X1.10
        me["hall"][p] += me["room"][p]
        me["room"][p] = 0
    if me["places"]:
        ev.append({"event": "favours_leave", "favours": shown(s), "rule": "X1.10"})
        me["gone"] += shown(s)
    me["places"], me["stage"], me["queue"] = [], None, []
    return None


def convert_blocker(s: State, p: str, card: str, k: int, courtiers: int, tray: int,
                    armies: int) -> dict | None:
    """Rule X1.7: why converting ``k`` armies with ``card`` (a province or "tower") cannot be
    done fully (a phrase, ``phrases.py``), or None; ``courtiers``, ``tray`` and ``armies`` (in
    the province) are what there is when it comes. The court's actions and the plan's
    forecast ask it."""
    if courtiers < k:
        return phrase_n(N_plural("{player} has only {n} courtier left in the supply",
                                 "{player} has only {n} courtiers left in the supply"),
                        courtiers, player=colour(p))
    if card == "tower" and tray < k:
        return phrase_n(N_plural("only {n} army of {player}'s lies in the tray",
                                 "only {n} armies of {player}'s lie in the tray"), tray,
                        player=colour(p))
    if card != "tower" and s.owner.get(card) != p:
        return phrase(N_("{province} is no longer {player}'s"), province=province(card),
                      player=colour(p))  # rule T7
    if card != "tower" and armies - k < 1:
        return phrase_n(N_plural("{province} holds {n} army and at least 1 must stay",
                                 "{province} holds {n} armies and at least 1 must stay"),
                        armies, province=province(card))
    return None


def plan_forecast(s: State, p: str, plan: dict) -> list[str]:
    """Hook ``plan_forecast``: the conversions of this plan that will be skipped as things
    stand (X1.7, in order: Convert 3, 2, then 1, each taking what the one before left)."""
    courtiers, tray = s.expansions[NAME]["supply"][p], s.tray[p]
    armies = dict(s.armies)
    out = []
    for space, k in SPACES.items():
        c = (plan.get("extra") or {}).get(space)
        if not isinstance(c, str):
            continue
        why = convert_blocker(s, p, c, k, courtiers, tray, armies.get(c, 0))
        if why is not None:
            line = (_("Convert {k} from the tray is skipped: {reason}") if c == "tower"
                    else _("Convert {k} from {province} is skipped: {reason}"))
            out.append(line.format(k=k, province=province_word(c), reason=say(why)))
            continue
        courtiers -= k
        if c == "tower":
            tray -= k
        else:
            armies[c] -= k
    return out


def _convert(s: State, p: str, space: str, k: int, ev: list[dict]) -> None:
    """Rule X1.7 (and X1.4 for what each card does)."""
    me = s.expansions[NAME]
    plan = s.plans.get(p) or {}
    c = (plan.get("extra") or {}).get(space)
    if not isinstance(c, str):
        return  # a chest card or an empty space: nothing
    where = "the tray" if c == "tower" else c
    reason = convert_blocker(s, p, c, k, me["supply"][p], s.tray[p], s.armies.get(c, 0))
    if reason:
        place = (phrase(N_("from the tray")) if c == "tower"
                 else phrase(N_("from {province}"), province=province(c)))
        ev.append({"event": "skipped", "player": p, "action": space, "province": where,
                   "where": english(place), "where_words": place, "reason": english(reason),
                   "reason_words": reason, "rule": "X1.7"})
        return
    if c == "tower":
        s.tray[p] -= k
    else:
        s.armies[c] -= k
    s.supply[p] += k
    _to_hall(s, p, k)
    ev.append({"event": "courtiers", "player": p, "courtiers": k, "from": where,
               "action": space, "rule": "X1.7"})


def _take_favour(s: State, st: dict, number: int, ev: list[dict]) -> None:
    """Rules X1.8, X1.9: the courtiers go back, the favour applies at once (or is kept)."""
    me = s.expansions[NAME]
    p = st["player"]
    if number == NO_FAVOUR:
        ev.append({"event": "favour_declined", "player": p, "rule": "X1.8"})
        return
    cost = place_cost(s, number)
    me["places"] = [pl for pl in me["places"] if pl[0] != number]
    me["room"][p] -= cost
    me["supply"][p] += cost
    ev.append({"event": "favour_taken", "player": p, "favour": number, "courtiers": cost,
               "rule": "X1.8"})
    s.step = _apply_favour(s, p, number, ev)


def _apply_favour(s: State, p: str, number: int, ev: list[dict]) -> dict | None:
    me = s.expansions[NAME]
    c = card(s, number)
    effect, params = c["effect"], c["params"]
    n = params.get("amount", 0)

    def done(**what: Any) -> None:
        ev.append({"event": "favour_applied", "player": p, "favour": number, "effect": effect,
                   "text": c["text"], "text_words": favour_words(c), **what, "rule": "X1.9"})
        me["gone"].append(number)

    if effect == "coins":
        s.coins[p] += n
        done(amount=n)
    elif effect == "rice":
        s.rice[p] = min(RICE_TRACK_MAX, s.rice[p] + n)  # rule C5
        done(amount=n)
    elif effect == "vp":
        s.vp[p] += n
        done(amount=n)
    elif effect == "tray_armies":
        n = min(n, s.supply[p])
        s.supply[p] -= n
        s.tray[p] += n
        done(amount=n)
    elif effect == "cancel_event":
        if s.event is None:
            done(cancelled=None)
            return None
        return choices.ask(p, "court_favour_use", "X1.9",
                           phrase(N_("favour #{number}: cancel this season's event {event}?"),
                                  number=number, event=s.event), choices.YES_NO,
                           favour=number)
    elif effect in ("remove_marker", "protection"):
        return _use_or_keep(s, p, number, ev)
    else:
        targets = _targets(s, p, c)
        if not targets:
            done(province=None)  # rule X1.9: "if possible"
            return None
        return choices.ask(p, "court_favour_use", "X1.9",
                           phrase(N_("favour #{number}: {text} Which province?"),
                                  number=number, text=favour_words(c)),
                           [(t, province(t)) for t in targets], favour=number)
    return None


def _targets(s: State, p: str, c: dict) -> list[str]:
    if c["effect"] == "free_armies":  # own or neutral (rulebook, card #12)
        return sorted(x for x, o in s.owner.items() if o in (p, None))
    kind = c["params"]["building"]  # the normal building rules (C4), free
    if s.building_supply[kind] <= 0:
        return []
    return sorted(x for x, o in s.owner.items() if o == p and kind not in s.buildings[x]
                  and len(s.buildings[x]) < s.map.provinces[x].building_slots)


def _use_or_keep(s: State, p: str, number: int, ev: list[dict]) -> dict | None:
    me = s.expansions[NAME]
    c = card(s, number)
    if c["effect"] == "remove_marker":
        mine = sorted(x for x, o in s.owner.items() if o == p and s.markers[x] > 0)
        if not mine:
            me["kept"][p].append(number)
            ev.append({"event": "favour_kept", "player": p, "favour": number, "rule": "X1.9"})
            return None
        if len(mine) == 1:
            _remove_marker(s, p, number, mine[0], ev)
            return None
        return choices.ask(p, "court_favour_use", "X1.9",
                           phrase(N_("favour #{number}: remove a revolt marker from which "
                                     "province?"), number=number),
                           [(x, province(x)) for x in mine], favour=number)
    return choices.ask(p, "court_favour_use", "X1.9",
                       phrase(N_("favour #{number}: {text} Play it for this season (yes) or "
                                 "keep it for a later one (no)?"), number=number,
                              text=favour_words(c)),
                       choices.YES_NO, favour=number, play_or_keep=True)


def _remove_marker(s: State, p: str, number: int, prov: str, ev: list[dict]) -> None:
    s.markers[prov] -= 1
    s.expansions[NAME]["gone"].append(number)
    ev.append({"event": "favour_applied", "player": p, "favour": number,
               "effect": "remove_marker", "text": card(s, number)["text"],
               "text_words": favour_words(card(s, number)), "province": prov,
               "rule": "X1.9"})


def _favour_use(s: State, st: dict, answer: Any, ev: list[dict]) -> None:
    """The answers a favour needs: which province, cancel or not, play now or keep."""
    me = s.expansions[NAME]
    p, number = st["player"], st["favour"]
    c = card(s, number)
    effect = c["effect"]
    if effect == "cancel_event":
        cancelled = s.event if answer else None
        if answer:
            s.event = None  # the event is ignored for the rest of the season
        me["gone"].append(number)
        ev.append({"event": "favour_applied", "player": p, "favour": number, "effect": effect,
                   "text": c["text"], "text_words": favour_words(c), "cancelled": cancelled,
                   "rule": "X1.9"})
    elif effect == "remove_marker":
        _remove_marker(s, p, number, answer, ev)
    elif effect == "protection":
        if number in me["kept"][p]:
            me["kept"][p].remove(number)
        if answer:
            me["protected"][p] = sorted(set(me["protected"][p]) | set(c["params"]["actions"]))
            me["gone"].append(number)
            ev.append({"event": "favour_applied", "player": p, "favour": number,
                       "effect": effect, "text": c["text"], "text_words": favour_words(c),
                       "actions": me["protected"][p],
                       "rule": "X1.9"})
        else:
            me["kept"][p].append(number)
            ev.append({"event": "favour_kept", "player": p, "favour": number, "rule": "X1.9"})
    elif effect == "free_armies":
        n = min(c["params"]["amount"], s.supply[p])
        s.supply[p] -= n
        s.armies[answer] += n
        if n and s.owner[answer] is None:
            s.set_owner(answer, p, ev)  # taken without a battle (rulebook, card #12)
        me["gone"].append(number)
        ev.append({"event": "favour_applied", "player": p, "favour": number, "effect": effect,
                   "text": c["text"], "text_words": favour_words(c), "province": answer,
                   "amount": n, "rule": "X1.9"})
    else:  # free_building
        kind = c["params"]["building"]
        s.building_supply[kind] -= 1
        s.buildings[answer].append(kind)
        me["gone"].append(number)
        ev.append({"event": "built", "player": p, "province": answer, "building": kind,
                   "cost": 0, "favour": number, "rule": "X1.9"})
        if kind == THEATRE and s.event_card_effect() == "theatre_calms" \
                and s.markers[answer] > 0 and legacy.favour_theatre_calms(s.game):
            s.markers[answer] -= 1  # rules E1, E2: any Nō theatre built this season calms
            ev.append({"event": "marker_removed", "province": answer, "rule": "E1"})


def _offer_kept(s: State, ev: list[dict]) -> dict | None:
    """Kept protection cards: each holder, in turn order, may play one for this season."""
    me = s.expansions[NAME]
    asked = me["asked"]
    for p in s.turn_order:
        for number in me["kept"][p]:
            if card(s, number)["effect"] == "protection" and [p, number] not in asked:
                asked.append([p, number])
                c = card(s, number)
                return choices.ask(p, "court_favour_use", "X1.9",
                                   phrase(N_("kept favour #{number}: {text} Play it for this "
                                             "season?"), number=number, text=favour_words(c)),
                                   choices.YES_NO, favour=number, play_or_keep=True)
    me["asked"] = []
    return None


def close_phase(s: State, ev: list[dict]) -> None:
    """End of the season: protection ends, the next season reveals new favours."""
    me = s.expansions[NAME]
    me["protected"] = {p: [] for p in s.game.players}
    me["revealed"] = False


# ---- hooks into the base rules ----------------------------------------------------------------
def march_blocked(s: State, attacker: str, action: str, target: str) -> dict | None:
    """Hook ``march_blocked``: why a protected province cannot be entered (a phrase)."""
    owner = s.owner.get(target)
    if owner not in (None, attacker) and action in s.expansions[NAME]["protected"][owner]:
        return phrase(N_("{player} holds a favour that protects him from {action} this "
                         "season"), player=colour(owner), action=phrase(ACTION_NAMES[action]))
    return None


def marker_placed(s: State, p: str, prov: str, ev: list[dict]) -> bool:
    """A kept #4 cancels the next revolt marker placed in one of its holder's provinces."""
    me = s.expansions[NAME]
    owner = s.owner.get(prov)
    for number in list(me["kept"].get(owner, [])) if owner else []:
        if card(s, number)["effect"] == "remove_marker":
            me["kept"][owner].remove(number)
            me["gone"].append(number)
            ev.append({"event": "favour_applied", "player": owner, "favour": number,
                       "effect": "remove_marker", "text": card(s, number)["text"],
                       "text_words": favour_words(card(s, number)),
                       "province": prov, "rule": "X1.9"})
            return True
    return False


def view(s: State) -> dict:
    """The court board for the page: hall, audience room, favours shown, kept cards."""
    me = s.expansions[NAME]
    return {"title": "Imperial Court", "rule": "X1",
            "courtiers": {p: {"supply": me["supply"][p], "hall": me["hall"][p],
                              "room": me["room"][p]} for p in s.game.players},
            # the favours' texts in the players' language (the state keeps the card numbers)
            "places": [{"favour": n, "courtiers": c, "text": favour_text(card(s, n)["text"])}
                       for n, c in me["places"]],
            "kept": {p: [{"favour": n, "text": favour_text(card(s, n)["text"])} for n in kept]
                     for p, kept in me["kept"].items()},
            "protected": {p: a for p, a in me["protected"].items() if a},
            "pile": len(me["pile"]), "gone": len(me["gone"])}


def problems(s: State) -> list[str]:
    """Rule X1.1: each player's 7 courtiers and the 21 favour cards, each once."""
    out = []
    me = s.expansions["court"]
    for p, where in courtier_count(s).items():
        if sum(where.values()) != COURTIERS or min(where.values()) < 0:
            out.append(f"{p} courtiers {where} do not add up to {COURTIERS}")
    held = [n for kept in me["kept"].values() for n in kept]
    st = s.step or {}
    if st.get("what") == "court_favour_use" and st["favour"] not in held:
        held.append(st["favour"])  # taken, its holder still says how to use it
    favours = me["pile"] + [n for n, _ in me["places"]] + me["gone"] + held
    if sorted(favours) != list(range(1, 22)):
        out.append(f"favour cards {sorted(favours)} are not the 21 cards once each")
    return out


def bot_plan(s: State, p: str, command: dict, rng: Any) -> dict:
    """Rule X1.4: the bots fill the three extra spaces only with conversions that will be done
    (``convert_blocker`` as things stand: a province with armies to spare, a cube-tower card
    with their armies in the tray, courtiers left). A space no conversion can use gets a card
    that does nothing there and is never skipped: a chest card from a base space, which then
    takes a cube-tower card instead (like a chest there); a spare province only when the hand
    holds nothing else."""
    ext = plan_spaces(s, p)
    if not ext["spaces"] or "extra" in command:
        return command
    actions = dict(command["actions"])
    used = set(v for v in actions.values() if isinstance(v, str))
    used.add(command.get("bid"))  # type: ignore[arg-type]
    spare = [x for x, o in s.owner.items() if o == p and x not in used]
    towers = [k for k, n in ext["cards"].items() for _ in range(n)]
    # cards of a kind already on base spaces or the bid are not in hand any more
    for v in list(actions.values()) + [command.get("bid")]:
        if v in towers:
            towers.remove(v)
    planned = [v for v in [*actions.values(), command.get("bid")] if type(v) is int]
    chests = [c for c in CHESTS if c not in planned]
    left = {"courtiers": s.expansions[NAME]["supply"][p], "tray": s.tray[p]}
    armies = dict(s.armies)

    def works(card: str, k: int) -> bool:
        return convert_blocker(s, p, card, k, left["courtiers"], left["tray"],
                               armies.get(card, 0)) is None

    extra: dict[str, Any] = {}
    for space in ext["spaces"]:
        k = SPACES[space]
        rich = [x for x in spare if s.armies[x] >= k + 3 and works(x, k)]
        if towers and works("tower", k) and (not rich or rng.chance(0.5)):
            extra[space] = towers.pop(0)
        elif rich:
            extra[space] = max(rich, key=lambda y: s.armies[y])
            spare.remove(extra[space])
        else:
            chest = next((a for a in actions if type(actions[a]) is int), None)
            if chests:  # a chest card still in hand does nothing here
                extra[space] = chests.pop(0)
            elif chest is not None and towers:  # the chest does nothing here, the tower card
                extra[space] = actions[chest]  # does nothing on the base space
                actions[chest] = towers.pop(0)
            elif towers:
                extra[space] = towers.pop(0)
            elif spare:
                extra[space] = spare.pop(0)  # the hand allows it, so the space must be filled
            else:
                extra[space] = None
            continue
        card = extra[space]
        left["courtiers"] -= k
        if card == "tower":
            left["tray"] -= k
        else:
            armies[card] -= k
    return dict(command, actions=actions, extra=extra)


def bot_favour(s: State, p: str, st: dict, values: list, rng: Any) -> Any:
    """The highest number is the strongest favour (X1.5)."""
    taken = [v for v in values if v]
    return max(taken) if taken and rng.chance(0.9) else values[-1]


def bot_favour_use(s: State, p: str, st: dict, values: list, rng: Any) -> Any:
    if st.get("play_or_keep"):
        return rng.chance(0.5)  # a protection now, or kept for a season with more at stake
    return True if True in values else rng.choice(values)


def plan_why(s: State, p: str, command: dict) -> dict[str, str]:
    """Why ``bot_plan`` filled the three court spaces so (the coach's `hint`): a line each,
    named as the space is (Convert 3, 2, 1)."""
    out = {}
    for space, k in SPACES.items():
        c = (command.get("extra") or {}).get(space)
        if c == "tower" and s.tray[p] >= k:
            text = _("Convert {k} — a cube-tower card converts {k} of your armies lying in the "
                     "tray into courtiers (there now: {tray}).")
        elif c == "tower":
            text = _("Convert {k} — a cube-tower card converts {k} of your armies lying in the "
                     "tray into courtiers, but there are only {tray} there now: unless more "
                     "fall there before the court acts, nothing happens.")
        elif isinstance(c, str) and s.armies.get(c, 0) - k >= 1:
            text = _("Convert {k} — {province} converts {k} of its {armies} armies into "
                     "courtiers, to buy a favour in the audience room.")
        elif isinstance(c, str):
            text = _("Convert {k} — {province}: the hand must fill this space, but {province} "
                     "cannot give {k} and keep 1, so nothing happens.")
        elif c is not None:
            text = _("Convert {k} — a chest card: nothing happens.")
        else:
            continue
        out[space] = text.format(k=k, tray=s.tray[p], province=province_word(str(c)),
                                 armies=s.armies.get(str(c), 0))
    return out


def why_favour(s: State, p: str, st: dict, number: int) -> str:
    """Why ``bot_favour`` takes this favour (or none)."""
    if number == NO_FAVOUR:
        return _("Take no favour this time: the courtiers go back to the hall and count again "
                 "next season.")
    text = _sentence(say(favour_words(card(s, number))))
    return _("Take favour #{number}, the strongest on offer (the higher the number, the "
             "stronger): {text}").format(number=number, text=text)


def why_favour_use(s: State, p: str, st: dict, answer: Any) -> str:
    """Why ``bot_favour_use`` answers so."""
    c = card(s, st["favour"])
    if st.get("play_or_keep"):
        return (_("Play it now: it protects you this season.") if answer else
                _("Keep it for a season with more at stake."))
    if c["effect"] == "cancel_event":
        return (_("Yes: cancel {event} if it hurts you more than the others.").format(
            event=s.event) if answer else _("No: keep this season's event."))
    if c["effect"] == "remove_marker":
        return _("{province}: one revolt marker fewer there, so less risk of a revolt.").format(
            province=province_word(str(answer)))
    return _("Any of these provinces will do, the bot has no preference: {province}.").format(
        province=province_word(str(answer)))


def help_entries(doc: dict) -> list[tuple[str, str]]:
    """What the court's pieces do, in players' words, with the numbers of the favour cards."""
    cards = doc["cards"]
    out = [(_("Courtiers"), _("Each player has {courtiers} courtiers. Your armies that fall "
                              "into the tray in the set-up throw each become a courtier in the "
                              "hall (the armies go back to your supply).").format(
                courtiers=COURTIERS)),
           (_("Convert 3, 2, 1"), _("Three more spaces to plan. A province card there converts "
                                    "that many of its armies into courtiers (at least 1 "
                                    "stays); a cube-tower card converts that many of your "
                                    "armies lying in the tray; a chest card does nothing. You "
                                    "have {cards} cube-tower cards; bid, one counts as a chest "
                                    "of 0.").format(cards=TOWER_CARDS)),
           (_("Favours"), _("Before planning, {shown} favour cards are shown on places costing "
                            "{costs} courtiers, the highest number on the dearest place. After "
                            "the turn order, the court converts, then the players with most "
                            "courtiers in the hall go first: each may take one favour his "
                            "courtiers can pay, and they go back to his supply. {cards} favour "
                            "cards, each used once a game.").format(
               shown=len(PLACES), costs=join([str(n) for n in PLACES]), cards=len(cards)))]
    for c in cards:
        text = _sentence(say(favour_words(c)))
        if c["timing"] == "kept":
            text = _("{text} It may be kept for later.").format(text=text)
        out.append((_("Favour #{number}").format(number=c["number"]), text))
    return out


def _sentence(text: str) -> str:
    """A favour's words as a sentence (a data file's text may lack the full stop)."""
    if text.endswith((".", "。")):
        return text
    return text + ("。" if language() == "ja" else ".")


# What the favours' effects are called in an event without the card's text (older journals).
EFFECT_WORDS = {"cancel_event": N_("the season's event card cancelled"), "rice": N_("rice"),
                "coins": N_("coins"), "vp": N_("victory points"),
                "tray_armies": N_("armies into the tray"),
                "remove_marker": N_("a revolt marker removed"),
                "protection": N_("protection from Battle/Move"), "free_armies": N_("free armies"),
                "free_building": N_("a free building")}


def _favour_words(e: dict) -> str:
    """What a favour did: the card's own text, with where and how much when it says."""
    if e.get("text"):
        text = favour_text(str(e["text"]))
    else:
        text = _(EFFECT_WORDS.get(str(e.get("effect")), N_("a favour")))
    values = {"player": colour_word(e["player"]), "number": e["favour"],
              "text": text.rstrip(".。")}
    if e.get("effect") == "cancel_event":
        if e.get("cancelled"):
            return _("{player}'s favour #{number}: {text} ({event} cancelled)").format(
                event=e["cancelled"], **values)
        return _("{player}'s favour #{number}: {text} (not used)").format(**values)
    if e.get("province"):
        return _("{player}'s favour #{number}: {text} (in {province})").format(
            province=province_word(e["province"]), **values)
    return _("{player}'s favour #{number}: {text}").format(**values)


def _courtiers(n: int) -> str:
    return sentence(n, "{n} courtier", "{n} courtiers")


_FROM = {"setup": N_("the set-up throw"), "tower": N_("the tray"), "the tray": N_("the tray")}


def _source(frm: object) -> str:
    """Where courtiers came from: the set-up throw, the tray or a province."""
    if frm in _FROM:
        return _(_FROM[str(frm)])
    return province_word(str(frm)) if frm else _("the supply")


def _favours_revealed(e: dict) -> str:
    places = []
    for f in e.get("places") or []:
        values = {"number": f.get("favour"), "courtiers": _courtiers(f.get("courtiers", 0))}
        if f.get("text"):
            places.append(_("#{number} for {courtiers} ({text})").format(
                text=favour_text(str(f["text"])).rstrip(".。"), **values))
        else:
            places.append(_("#{number} for {courtiers}").format(**values))
    # Translators: between the favours of a list ("#3 for 2 courtiers; #5 for 3 courtiers")
    return _("favours in the audience room: {favours}").format(favours=_("; ").join(places))


# What the table reads of the court's events (one line each).
NARRATION = {
    "courtiers": lambda e: _("{player} places {courtiers} in the hall (from {source})").format(
        player=colour_word(e["player"]), courtiers=_courtiers(e["courtiers"]),
        source=_source(e.get("from"))),
    "favours_revealed": _favours_revealed,
    "audience": lambda e: _("{player} has {courtiers} in the audience room").format(
        player=colour_word(e["player"]), courtiers=_courtiers(e["courtiers"])),
    "favour_taken": lambda e: _("{player} takes favour #{number} for {courtiers}").format(
        player=colour_word(e["player"]), number=e["favour"],
        courtiers=_courtiers(e["courtiers"])),
    "favour_declined": lambda e: _("{player} takes no favour").format(
        player=colour_word(e["player"])),
    "favour_applied": _favour_words,
    "favour_kept": lambda e: _("{player} keeps favour #{number} for later").format(
        player=colour_word(e["player"]), number=e["favour"]),
    "favours_leave": lambda e: _("the favours not taken leave the audience room"),
}


EXPANSION = Expansion(
    name=NAME, rule="X1", title=N_("Imperial Court"),
    phases=(Phase("reveal_favours", reveal_phase, before="plan"),  # rule X1.5
            Phase("court_actions", court_phase, before="actions"),  # rule X1.6
            Phase("court_close", close_phase, before="season_end")),
    questions={"court_favour": Question(
                   _take_favour, bot=bot_favour, why=why_favour,
                   help=N_("Your courtiers in the audience room may buy one favour whose "
                           "place shows no more courtiers than you have there; they go back to "
                           "your supply.")),
               "court_favour_use": Question(
                   _favour_use, bot=bot_favour_use, why=why_favour_use,
                   help=N_("A favour applies as soon as it is taken; a protection may be "
                           "kept for a later season."))},
    chance={"favours": ChanceKind(_pile, _revealed,
                                  name=N_("favour cards for the audience room"))},
    new_state=new_state,
    hooks={"setup_throw": setup_throw, "plan_spaces": plan_spaces,
           "plan_forecast": plan_forecast,
           "march_blocked": march_blocked, "marker_placed": marker_placed},
    load_data=load_data,
    view=view,
    invariants=problems,
    narration=NARRATION,
    bot_plan=bot_plan,
    plan_why=plan_why,
    help=lambda doc: help_entries(load_data(doc)),
)
