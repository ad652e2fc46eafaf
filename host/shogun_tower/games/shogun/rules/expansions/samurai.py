"""X2 Samurai (rulebook 002, "SAMURAI"): a stack of 4 bonus cards per player.

Rules (cited as X2.n):
- X2.1 Each player has a stack of 4 cards in a fixed order, the empty banner on top.
- X2.2 Each season, after the turn order is set (and before the court's actions when both are
  played, X2.6), in turn order: a player who holds provinces in at least 4 different regions
  may move the top card to the bottom (engine 3 asks him, with the bonuses of the card he
  would turn up; engine 2 always turned it); the others leave their stack as it is.
- X2.3 He takes one bonus of the card now shown: coins, rice, armies placed into the tray, or
  victory points (the amounts: ``data/samurai_stacks.json``).
- X2.4 Armies of the bonus go from his supply into the tray (they count in the next throw).
- X2.5 After the first winter every stack is reset (the empty banner on top again).
- X2.6 With the Imperial Court, this comes before the court's actions.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from shogun_tower.games.shogun.rules.core import choices, legacy
from shogun_tower.games.shogun.rules.core.constants import RICE_TRACK_MAX
from shogun_tower.games.shogun.rules.core.data import fail, need_int, need_source, open_doc
from shogun_tower.games.shogun.rules.core.phrases import phrase, phrase_n
from shogun_tower.games.shogun.rules.core.ruleset import Expansion, Phase, Question
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.i18n import N_, N_plural, _, join
from shogun_tower.words import colour_word, sentence

NAME = "samurai"
DATA_FILE = "samurai_stacks.json"
BONUSES = ("coins", "rice", "armies", "vp")
BONUS_TEXT = {"coins": N_plural("{n} coin", "{n} coins"),
              "rice": N_plural("{n} rice", "{n} rice"),
              "armies": N_plural("{n} army into the tray", "{n} armies into the tray"),
              "vp": N_plural("{n} victory point", "{n} victory points")}
KEEP = "keep"  # the answer of a player who leaves his stack as it is (X2.2, "may")


def bonus_text(bonus: str, n: int) -> str:
    """``armies``, 1 → ``1 army into the tray`` (the option's words, plural by the count)."""
    return sentence(n, *BONUS_TEXT[bonus])


def load_data(which: Any) -> dict:
    """Validate a bonus-stack document (one-line DataError naming card and field)."""
    doc, origin = open_doc(which, DATA_FILE, "shogun-tower-samurai/1", "samurai data")
    regions = doc.get("regions_needed")
    if not isinstance(regions, dict):
        raise fail(origin, _("field 'regions_needed' must be {\"value\": n, \"source\": ...}"))
    need_int(origin, "regions_needed", regions, "value", 1, 8)
    need_source(origin, "regions_needed", regions)
    stack = doc.get("stack")
    if not isinstance(stack, list) or len(stack) != 4:  # rule X2.1
        raise fail(origin, _("field 'stack' must list the 4 cards of a stack, top first"))
    for i, card in enumerate(stack):
        where = f"stack card {i}"
        if not isinstance(card, dict) or card.get("card") != i:
            raise fail(origin, _("{where}: must be an object with \"card\": {i}").format(
                where=where, i=i))
        bonuses = card.get("bonuses")
        if not isinstance(bonuses, dict) or any(b not in BONUSES for b in bonuses):
            raise fail(origin, _("{where}: field 'bonuses' must map some of {names} to "
                                 "amounts").format(
                where=where, names=', '.join(BONUSES)))
        for b in bonuses:
            need_int(origin, f"{where} bonus", bonuses, b, 0, 20)
        need_source(origin, where, card)
    if stack[0]["bonuses"] and any(stack[0]["bonuses"].values()):
        raise fail(origin, _("stack card 0: the empty banner on top gives no bonus (rule"
                             " X2.1)"))
    return doc


@lru_cache(maxsize=8)
def _parsed(text: str) -> tuple[int, tuple[dict, ...]]:
    doc = json.loads(text)
    return doc["regions_needed"]["value"], tuple(c["bonuses"] for c in doc["stack"])


def _data(s: State) -> tuple[int, tuple[dict, ...]]:
    return _parsed(json.dumps(s.game.expansion_data[NAME], sort_keys=True))


def regions_held(s: State, p: str) -> int:
    return len({s.map.provinces[x].region for x, o in s.owner.items() if o == p})


def new_state(s: State) -> dict:
    return {"top": dict.fromkeys(s.game.players, 0), "done": []}  # rule X2.1


def bonus_phase(s: State, ev: list[dict]) -> dict | None:
    """Rules X2.2-X2.4, in turn order; one ``samurai_bonus`` question per qualifying player."""
    me = s.expansions[NAME]
    needed, stack = _data(s)
    for p in s.turn_order:
        if p in me["done"]:
            continue
        me["done"].append(p)
        held = regions_held(s, p)
        if held < needed:
            ev.append({"event": "samurai_stays", "player": p, "regions": held, "rule": "X2.2"})
            continue
        card = (me["top"][p] + 1) % len(stack)
        offers: list = [(b, phrase_n(BONUS_TEXT[b], stack[card][b])) for b in BONUSES
                        if stack[card].get(b, 0) > 0]
        if offers and legacy.samurai_card_may_stay(s.game):
            # rule X2.2: « peut faire passer »: he turns the card by taking one of its bonuses
            return choices.ask(p, "samurai_bonus", "X2.3",
                               phrase(N_("you hold provinces in {n} regions: turn your "
                                         "Samurai card {card} and take one of its bonuses?"),
                                      n=held, card=card),
                               offers + [(KEEP, N_("none: leave the stack as it is"))],
                               card=card, regions=held)
        _turn(s, p, card, held, ev)
        if not offers:
            continue
        return choices.ask(p, "samurai_bonus", "X2.3",
                           phrase(N_("Samurai card {card}: take which bonus?"), card=card),
                           offers, card=card)
    me["done"] = []
    return None


def _turn(s: State, p: str, card: int, held: int, ev: list[dict]) -> None:
    s.expansions[NAME]["top"][p] = card
    ev.append({"event": "samurai_card", "player": p, "card": card, "regions": held,
               "rule": "X2.3"})


def take_bonus(s: State, st: dict, bonus: str, ev: list[dict]) -> None:
    p = st["player"]
    if bonus == KEEP:
        ev.append({"event": "samurai_kept", "player": p, "regions": st["regions"],
                   "rule": "X2.2"})
        return
    if "regions" in st:  # engine 3: the card turns with the answer
        _turn(s, p, st["card"], st["regions"], ev)
    _needed, stack = _data(s)
    n = stack[st["card"]][bonus]
    if bonus == "coins":
        s.coins[p] += n
    elif bonus == "rice":
        s.rice[p] = min(RICE_TRACK_MAX, s.rice[p] + n)  # rule C5
    elif bonus == "vp":
        s.vp[p] += n
    else:  # rule X2.4: armies from supply into the tray
        n = min(n, s.supply[p])
        s.supply[p] -= n
        s.tray[p] += n
    ev.append({"event": "samurai_bonus", "player": p, "bonus": bonus, "amount": n,
               "rule": "X2.3"})


def reset_phase(s: State, ev: list[dict]) -> None:
    """Rule X2.5: after the first winter the stacks start again from the empty banner."""
    if s.result is None:
        s.expansions[NAME]["top"] = dict.fromkeys(s.game.players, 0)
        ev.append({"event": "samurai_reset", "rule": "X2.5"})


def view(s: State) -> dict:
    """Each player's stack for the page: the card on top, what it offers, regions held."""
    needed, stack = _data(s)
    top = s.expansions[NAME]["top"]
    return {"title": "Samurai", "rule": "X2", "regions_needed": needed,
            "stacks": {p: {"top": top[p], "shows": {b: stack[top[p]].get(b, 0)
                                                   for b in BONUSES},
                           "next": {b: stack[(top[p] + 1) % len(stack)].get(b, 0)
                                    for b in BONUSES},
                           "regions": regions_held(s, p)} for p in s.game.players}}


def problems(s: State) -> list[str]:
    """Rule X2.1: each stack shows one of its 4 cards."""
    top = s.expansions[NAME]["top"]
    return [f"samurai stacks {top}"] if any(not 0 <= t <= 3 for t in top.values()) else []


def bot_bonus(s: State, p: str, st: dict, values: list, rng: Any) -> Any:
    """The bots always turn the card (a card left only delays every later bonus), and take
    victory points, coins when poor, else one of the first or last bonuses."""
    values = [v for v in values if v != KEEP]
    if "vp" in values:
        return "vp"
    if s.coins[p] < 6 and "coins" in values:
        return "coins"
    return values[-1] if rng.chance(0.5) else values[0]


def why_bonus(s: State, p: str, st: dict, bonus: str) -> str:
    """Why ``bot_bonus`` takes this bonus."""
    if bonus == KEEP:
        return _("Leave the stack as it is: the card you would turn gives you nothing you "
                 "need.")
    _needed, stack = _data(s)
    n = stack[st["card"]][bonus]
    if bonus == "vp":
        return sentence(n, "Take {n} victory point: points win the game.",
                        "Take {n} victory points: points win the game.")
    if bonus == "coins" and s.coins[p] < 6:
        return sentence(s.coins[p], "Take the coins: you have only {n} coin.",
                        "Take the coins: you have only {n} coins.")
    return _("Take {bonus}: the other bonuses are worth no more to you.").format(
        bonus=bonus_text(bonus, n))


def help_entries(doc: dict) -> list[tuple[str, str]]:
    """What the Samurai cards do, with the amounts of the data file."""
    regions = doc["regions_needed"]["value"]
    stack = doc["stack"]
    out = [(_("Samurai cards"), _("Each player has a stack of {cards} cards, the empty banner "
                                  "on top. Each season, after the turn order, a player who "
                                  "holds provinces in at least {regions} regions may turn the "
                                  "top card to the bottom and take one bonus of the card now on "
                                  "top; the others leave their stack as it is.").format(
                cards=len(stack), regions=regions)),
           (_("Armies into the tray"), _("Armies of the bonus go from your supply into the "
                                         "tray: they go into the tower with the next throw."))]
    for c in stack[1:]:
        bonuses = c["bonuses"]
        shown = join([bonus_text(b, bonuses[b]) for b in BONUSES if bonuses.get(b)])
        out.append((_("Card {card}").format(card=c["card"]),
                    _("One of: {bonuses}.").format(bonuses=shown)))
    out.append((_("After the first winter"), _("Every stack starts again with the empty banner "
                                               "on top.")))
    return out


def _who(e: dict) -> str:
    return colour_word(str(e["player"]))


# What the table reads of the Samurai's events (one line each).
NARRATION = {
    "samurai_card": lambda e: sentence(e["regions"],
                                       "{player} holds {n} region and turns a Samurai card",
                                       "{player} holds {n} regions and turns a Samurai card",
                                       player=_who(e)),
    "samurai_stays": lambda e: sentence(e["regions"],
                                        "{player} holds {n} region: the Samurai card stays",
                                        "{player} holds {n} regions: the Samurai card stays",
                                        player=_who(e)),
    "samurai_bonus": lambda e: _("{player} takes the Samurai bonus: {bonus}").format(
        player=_who(e), bonus=bonus_text(e["bonus"], e["amount"])),
    "samurai_kept": lambda e: sentence(
        e["regions"], "{player} holds {n} region but leaves the Samurai stack as it is",
        "{player} holds {n} regions but leaves the Samurai stack as it is", player=_who(e)),
    "samurai_reset": lambda e: _("the Samurai cards go back to their first card"),
}


EXPANSION = Expansion(
    name=NAME, rule="X2", title=N_("Samurai"),
    phases=(Phase("samurai_bonus", bonus_phase, after="specials"),  # rules X2.2, X2.6
            Phase("samurai_reset", reset_phase, after="year_end")),
    questions={"samurai_bonus": Question(
        take_bonus, bot=bot_bonus, why=why_bonus,
        help=N_("Your Samurai card offers several bonuses; you take one of them (when you "
                "may turn the card, you may also leave your stack as it is)."))},
    new_state=new_state,
    load_data=load_data,
    view=view,
    invariants=problems,
    narration=NARRATION,
    help=lambda doc: help_entries(load_data(doc)),
)
