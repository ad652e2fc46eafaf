"""The action phase (rules T6, T7, A1-A10) and the tower throws it causes (B1-B7)."""

from __future__ import annotations

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.rules.core import choices, legacy, modifiers
from shogun_tower.games.shogun.rules.core.battle import Verdict, battle_verdict, revolt_verdict
from shogun_tower.games.shogun.rules.core.cards import SPECIAL_CARDS
from shogun_tower.games.shogun.rules.core.constants import (
    ACTION_NAMES,
    ACTIONS,
    BATTLE_ACTIONS,
    BUILD_ACTIONS,
    BUILDING_COST,
    BUILDING_NAMES,
    CUBE_COLOURS,
    DEPLOY,
    FARMERS,
    RICE_TRACK_MAX,
    TEMPLE,
)
from shogun_tower.games.shogun.rules.core.phrases import (
    colour,
    english,
    phrase,
    phrase_n,
    province,
    say,
)
from shogun_tower.games.shogun.rules.core.ruleset import DecisionKind, Phase, Question
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.games.shogun.rules.core.tower import (
    battle_cubes,
    castle_defends,
    parse_tray,
    start_revolt,
    start_throw,
)
from shogun_tower.i18n import N_, N_plural, _, join
from shogun_tower.words import colour_word, cubes_text, province_word, sentence


def next_step(s: State, ev: list[dict]) -> dict | None:
    slot, idx = s.cursor
    while True:
        if slot >= 10:
            return None
        if slot >= len(s.action_cards):  # rule T1: face-down cards turned up as play reaches
            s.cursor = [slot, idx]
            return {"kind": "chance", "what": "action_card", "rule": "T1", "slot": slot + 1}
        if idx >= len(s.turn_order):
            slot, idx = slot + 1, 0
            continue
        p = s.turn_order[idx]
        idx += 1
        s.cursor = [slot, idx]
        step = start_action(s, p, s.action_cards[slot], ev)
        if step is not None:
            return step


def _skip(ev: list[dict], p: str, action: str, prov: str, reason: dict,
          rule: str = "T6") -> None:
    # the reason in English as the event keeps it, and as a phrase for who shows it
    ev.append({"event": "skipped", "player": p, "action": action, "province": prov,
               "reason": english(reason), "reason_words": reason, "rule": rule})


def start_action(s: State, p: str, action: str, ev: list[dict]) -> dict | None:
    plan = s.plans.get(p)
    if not plan:
        return None
    prov = plan["actions"].get(action)
    if not isinstance(prov, str) or prov not in s.owner:
        return None  # a chest card, an expansion's card or an empty space: no action (T3)
    if action in plan["void"] or s.owner.get(prov) != p:
        _skip(ev, p, action, prov, phrase(N_("the province card changed owner")), "T7")
        return None
    effect = s.event_card_effect()
    terms = action_terms(s, p, action, prov)
    why = blocker(s, p, action, prov, terms, s.coins[p], s.supply[p])
    if why is not None:
        _skip(ev, p, action, prov, why[0], why[1])
        return None
    if action in BUILD_ACTIONS:  # rules A1-A3, C4
        kind = BUILD_ACTIONS[action]
        cost = action_cost(action, terms)
        s.coins[p] -= cost
        s.building_supply[kind] -= 1
        s.buildings[prov].append(kind)
        ev.append({"event": "built", "player": p, "province": prov, "building": kind,
                   "cost": cost, **_cited(terms)})
        if kind == "theatre" and effect == "theatre_calms" and s.markers[prov] > 0:
            s.markers[prov] -= 1  # rules E1, E2
            ev.append({"event": "marker_removed", "province": prov, "rule": "E1"})
        return None
    if action in ("rice", "tax"):
        return _collect(s, p, action, prov, terms, ev)
    if action in DEPLOY:
        cost, n = action_cost(action, terms), deploy_armies(s, action)
        bonus = modifiers.by_special(s, p, action, n) - n  # rule P3, applied after E12
        # Decision: the special card's extra army, and an expansion's (the leader's, X3),
        # never make the action fail (P3); both come after the event (E12).
        armies = min(n + terms["amount"], s.supply[p])
        placed = min(armies + bonus, s.supply[p])
        if placed > armies and legacy.specials_may_be_declined(s.game):  # rule P3: "may"
            return choices.ask(p, "use_special", "P3",
                               phrase(N_("use your special card {card}: Deploy 5 places "
                                         "{placed} armies in {province} instead of {armies}?"),
                                      card=_special("P3"), placed=placed,
                                      province=province(prov), armies=armies),
                               choices.YES_NO, card="P3", action=action, province=prov,
                               armies=armies, extra=placed - armies, cost=cost,
                               **_cited(terms))
        return _deploy(s, p, action, prov, placed, cost, ev, _cited(terms))
    if action in BATTLE_ACTIONS:  # rules A9, A10, B7
        return {"kind": "march", "player": p, "rule": "A9", "action": action, "from": prov,
                "targets": march_targets(s, p, prov, action), "max_armies": s.armies[prov] - 1}
    raise AssertionError(action)


def action_cost(action: str, terms: dict) -> int:
    """What an action costs in coins (rules A1-A3, A6-A8), with the expansions' terms."""
    if action in BUILD_ACTIONS:
        return max(0, BUILDING_COST[BUILD_ACTIONS[action]] + terms["cost"])
    if action in DEPLOY:
        return max(0, DEPLOY[action][0] + terms["cost"])
    return 0


def deploy_armies(s: State, action: str) -> int:
    """The armies a Deploy needs in the supply: the card's, bounded by the event (E12)."""
    return modifiers.by_event(s, action, DEPLOY[action][1])


def blocker(s: State, p: str, action: str, prov: str, terms: dict, coins: int,
            supply: int) -> tuple[dict, str] | None:
    """Rule T6: why ``p``'s ``action`` in ``prov`` cannot be done fully, as (reason, rule), or
    None when it can (the reason a phrase: ``phrases.py``); ``coins`` and ``supply`` are what
    he has when it comes. The engine asks it when the action comes (``start_action``) and a
    plan's forecast asks it before (``plan_forecast``): one reading of what makes an action fail."""
    if action in BUILD_ACTIONS:  # rules A1-A3, C4
        kind = BUILD_ACTIONS[action]
        cost = action_cost(action, terms)
        if coins < cost:
            return _needs_coins(cost), "T6"
        if len(s.buildings[prov]) >= s.map.provinces[prov].building_slots:
            return phrase(N_("no free building slot")), "T6"
        building = phrase(BUILDING_NAMES[kind])
        if kind in s.buildings[prov]:
            return phrase(N_("already has a {building}"), building=building), "C4"
        if s.building_supply[kind] <= 0:
            return phrase(N_("no {building} left in the supply"), building=building), "C4"
    elif action in DEPLOY:  # rules A6-A8
        cost, n = action_cost(action, terms), deploy_armies(s, action)
        if coins < cost:
            return _needs_coins(cost), "T6"
        if supply < n:
            return phrase_n(N_plural("needs {n} army in the supply",
                                     "needs {n} armies in the supply"), n), "T6"
    elif action in BATTLE_ACTIONS:  # rules A9, A10, B7
        if s.armies[prov] < 2:
            return phrase(N_("an attack or move needs 2 armies in the province")), "B7"
        if not march_targets(s, p, prov, action):
            return phrase(N_("no neighbour can be entered")), "B7"
    return None


def _needs_coins(n: int) -> dict:
    return phrase_n(N_plural("needs {n} coin", "needs {n} coins"), n)


def _special(card: str) -> dict:
    """A special card as a question names it: its words, quoted (``cards.special_name``)."""
    return phrase(N_("“{card}”"), card=phrase(SPECIAL_CARDS[card]["text"]))


def plan_forecast(s: State, p: str, plan: dict) -> list[str]:
    """Rule T6 ahead of time: the actions of ``p``'s plan (a ``plan`` command) that will be
    skipped as things stand, in words ("Deploy 3 in Yamato is skipped: needs 2 coins"). The
    bid is paid first; the face-up action cards come in their order, each with what the
    actions before it cost and bring (Tax as printed: the event and the special cards are not
    known yet); the cards still face down come after them in an order not known yet, so their
    lack of coins or armies says "may be". The expansions' own spaces are foreseen by their
    hook ``plan_forecast`` (the court's conversions)."""
    actions = plan.get("actions") or {}
    bid = plan.get("bid")
    coins = s.coins[p] - (bid if isinstance(bid, int) and not isinstance(bid, bool) else 0)
    supply = s.supply[p]
    face_up = list(s.action_cards)
    order = face_up + [a for a in ACTIONS if a not in face_up]
    out: list[str] = [line for lines in s.hook("plan_forecast", p, plan) for line in lines]
    for action in order:
        prov = actions.get(action)
        if not isinstance(prov, str) or s.owner.get(prov) != p:
            continue
        terms = action_terms(s, p, action, prov)
        why = blocker(s, p, action, prov, terms, coins, supply)
        if why is not None:
            ahead = action not in face_up and blocker(
                s, p, action, prov, terms, 10 ** 6, 10 ** 6) is None
            line = (_("{action} in {province} may be skipped: {reason}") if ahead
                    else _("{action} in {province} is skipped: {reason}"))
            out.append(line.format(action=_(ACTION_NAMES[action]),
                                   province=province_word(prov), reason=say(why[0])))
            continue
        coins -= action_cost(action, terms)
        if action == "tax":
            coins += s.map.provinces[prov].tax + terms["amount"]
        if action in DEPLOY:
            supply -= deploy_armies(s, action) + terms["amount"]
    return out


def _deploy(s: State, p: str, action: str, prov: str, placed: int, cost: int,
            ev: list[dict], cited: dict | None = None) -> dict | None:
    s.coins[p] -= cost
    s.supply[p] -= placed
    s.armies[prov] += placed
    ev.append({"event": "deployed", "player": p, "province": prov, "armies": placed,
               "cost": cost, **(cited or {})})
    if action == "deploy1":  # rule A8: an optional move to an own neighbour
        targets = [x for x in _neighbours(s, prov) if s.owner[x] == p]
        if targets and s.armies[prov] >= 2:
            return {"kind": "move", "player": p, "rule": "A8", "action": action,
                    "from": prov, "targets": targets, "max_armies": s.armies[prov] - 1}
    return None


def _use_special(s: State, st: dict, use: bool, ev: list[dict]) -> None:
    """Rules P3-P5: the holder's answer, then the action or the battle goes on."""
    p, card = st["player"], st["card"]
    ev.append({"event": "special_used" if use else "special_declined", "player": p,
               "card": card, "rule": card})
    if card == "P3":
        placed = st["armies"] + (st["extra"] if use else 0)
        s.step = _deploy(s, p, st["action"], st["province"], placed, st["cost"], ev,
                         _cited(st))
        return
    b = st["battle"]
    if use:
        b["use"].append(card)
    s.step = _battle_goes_on(s, b, ev)



def _neighbours(s: State, prov: str) -> list[str]:
    # rule S1: provinces out of play are not in s.owner
    return sorted(x for x in s.map.provinces[prov].neighbours if x in s.owner)


def march_targets(s: State, p: str, prov: str, action: str = "battle_a") -> list[str]:
    peace = s.event_card_effect() == "temple_peace"
    return [x for x in _neighbours(s, prov)
            if not (peace and s.owner[x] not in (None, p) and TEMPLE in s.buildings[x])
            and not _blocked(s, p, action, x)]


def _blocked(s: State, p: str, action: str, target: str) -> str | None:
    """An expansion's reason why ``p`` may not enter ``target`` (hook ``march_blocked``)."""
    return next((r for r in s.hook("march_blocked", p, action, target) if r), None)


def action_terms(s: State, p: str, action: str, prov: str) -> dict:
    """What the expansions add to an action's cost and amount in ``prov`` (hook
    ``action_terms``; the leader's improved actions, X3). Added after the event's bounds and
    the special card; ``rules`` cites who changed it."""
    out: dict = {"cost": 0, "amount": 0, "rules": []}
    for t in s.hook("action_terms", p, action, prov):
        out["cost"] += t.get("cost", 0)
        out["amount"] += t.get("amount", 0)
        if t.get("rule"):
            out["rules"].append(t["rule"])
    return out


def _cited(terms: dict) -> dict:
    """The rules that changed an action, for its event (nothing in a base game)."""
    rules = terms.get("improved_by") or terms.get("rules")
    return {"improved_by": list(rules)} if rules else {}


def _collect(s: State, p: str, action: str, prov: str, terms: dict,
             ev: list[dict]) -> dict | None:
    """Rules A4, A5: the card's value, the event's bounds first, then the special card, then the
    expansions' terms (``modifiers``)."""
    info = s.map.provinces[prov]
    amount = info.rice if action == "rice" else info.tax
    amount = modifiers.by_special(s, p, action, modifiers.by_event(s, action, amount))
    amount += terms["amount"]
    if action == "rice":
        # Decision: the rice track ends at 18 (rule C5); rice above it is lost.
        s.rice[p] = min(RICE_TRACK_MAX, s.rice[p] + amount)
    else:
        s.coins[p] += amount
    ev.append({"event": "collected", "player": p, "province": prov, "what": action,
               "amount": amount, **_cited(terms)})
    markers = s.markers[prov]
    if markers >= 1:  # rule V1: income first, then the revolt
        return start_revolt(s, p, prov, markers, {"collection": True}, ev)
    add_marker(s, p, prov, ev)  # rule V4
    return None


def add_marker(s: State, p: str, prov: str, ev: list[dict]) -> None:
    """Rule V4: one revolt marker more, unless an expansion takes it (hook ``marker_placed``)."""
    if any(s.hook("marker_placed", p, prov, ev)):
        return
    s.markers[prov] += 1


def legal(s: State) -> list[dict]:
    st = s.step
    assert st is not None
    p = st["player"]
    out = [{"type": st["kind"], "player": p, "to": t, "armies": n}
           for t in st["targets"] for n in range(1, st["max_armies"] + 1)]
    if st["kind"] == "move":
        out.append({"type": "move", "player": p, "to": None, "armies": 0})
    return out


def _armies_arg(cmd: dict, st: dict) -> int:
    n = cmd.get("armies")
    if not isinstance(n, int) or isinstance(n, bool):
        raise RulesError(st["rule"], _("'armies' must be a whole number, got {n!r}").format(
            n=n))
    if n > st["max_armies"]:
        raise RulesError("B7", _("{province} holds {n} armies; at least 1 must stay behind, so "
                                 "move at most {most}").format(
            province=province_word(st["from"]), n=st["max_armies"] + 1, most=st["max_armies"]))
    return n


def _check_target(s: State, st: dict, to: object) -> str:
    if to in st["targets"]:
        return to  # type: ignore[return-value]
    frm = st["from"]
    targets = join([province_word(x) for x in st["targets"]])
    if not isinstance(to, str) or to not in s.map.provinces:
        raise RulesError(st["rule"], _("{answer!r} is not a province; choose one of {targets}")
                         .format(answer=to, targets=targets))
    if to not in s.owner:
        raise RulesError("S1", _("{province} is out of play with {n} players; no army may "
                                 "enter it").format(province=province_word(to),
                                                    n=len(s.game.players)))
    if to not in s.map.provinces[frm].neighbours:
        raise RulesError(st["rule"], _("{province} is not adjacent to {frm}; choose one of "
                                       "{targets}").format(province=province_word(to),
                                                           frm=province_word(frm),
                                                           targets=targets))
    if st["kind"] == "move":
        raise RulesError("A8", _("Deploy/Move 1 moves only into an own province, never to "
                                 "battle; {province} is not {player}'s").format(
            province=province_word(to), player=colour_word(st["player"])))
    reason = _blocked(s, st["player"], st.get("action", ""), to)  # type: ignore[arg-type]
    if reason:
        raise RulesError("B7", _("{province} cannot be entered: {reason}").format(
            province=province_word(to), reason=say(reason)))
    raise RulesError("E10", _("{province} has a temple and cannot be attacked during this "
                              "season's event (rule B7)").format(province=province_word(to)))


def march(s: State, cmd: dict, ev: list[dict]) -> None:
    """Battle/Move A or B (rules A9, A10): move into a neighbour; a battle if not own."""
    st = s.step
    assert st is not None
    to = _check_target(s, st, cmd.get("to"))
    n = _armies_arg(cmd, st)
    if n < 1:
        raise RulesError("A9", _("Battle/Move is mandatory when possible: move at least 1 "
                                 "army"))
    p, frm = st["player"], st["from"]
    defender = s.owner[to]
    if defender == p:
        s.armies[frm] -= n
        s.armies[to] += n
        ev.append({"event": "moved", "player": p, "from": frm, "to": to, "armies": n})
        s.step = None
        return
    offers: list[list[str]] = []
    if defender is not None:  # rule B6: specials only between players, attacker's first
        if s.special(p) == "P4" and s.supply[p] > 0:
            offers.append(["P4", p])
        if s.special(defender) == "P5" and s.supply[defender] > 0:
            offers.append(["P5", defender])
    battle = {"player": p, "from": frm, "to": to, "armies": n, "offers": offers, "use": []}
    if not legacy.specials_may_be_declined(s.game):
        battle["use"], battle["offers"] = [card for card, _ in offers], []
    s.step = _battle_goes_on(s, battle, ev)


def _battle_goes_on(s: State, b: dict, ev: list[dict]) -> dict:
    """Each special card's extra army is asked of its holder before any cube moves (rules
    P4/P5), so the table stays as it was while he decides; then the battle starts."""
    if b["offers"]:
        card, who = b["offers"].pop(0)
        # the battle as the table sees it before anything moves: who, from where, how many
        defender, to, n = s.owner[b["to"]], b["to"], b["armies"]
        held = s.armies[to]
        values = {"to": province(to), "held": _armies(held), "frm": province(b["from"]),
                  "armies": _armies(n), "card": _special(card)}
        if card == "P4":
            question = phrase(N_("you attack {defender}'s {to} ({held}) from {frm} with "
                                 "{armies}: use your special card {card} (1 more army from "
                                 "your supply)?"), defender=colour(defender), **values)
        else:
            question = phrase(N_("{attacker} attacks your {to} ({held}) from {frm} with "
                                 "{armies}: use your special card {card} (1 more army from "
                                 "your supply)?"), attacker=colour(b["player"]), **values)
        return choices.ask(who, "use_special", card, question, choices.YES_NO, card=card,
                           battle=b)
    p, frm, to, n = b["player"], b["from"], b["to"], b["armies"]
    s.armies[frm] -= n
    defender = s.owner[to]
    extras = []
    if defender is None:  # rules B1, E9; the farmer supply is finite (rule C1)
        into = battle_cubes(p, n, event=s.event)
        into[FARMERS] = min(into[FARMERS], s.supply[FARMERS])
        s.supply[FARMERS] -= into[FARMERS]
    else:
        defending = s.armies[to]
        s.armies[to] = 0
        used = {}
        for card, who in (("P4", p), ("P5", defender)):
            # Decision: the extra army only if the supply has one
            used[card] = card in b["use"] and s.supply[who] > 0
            if used[card]:
                s.supply[who] -= 1
                extras.append(card)
        castle = castle_defends(s, defender, to)  # rules E3, E4
        if castle:
            extras.append("E3")
        into = battle_cubes(p, n, defender, defending, used["P4"], used["P5"], s.event, castle)
    farmers_fight = defender is None or s.markers[to] == 0
    ev.append({"event": "battle", "attacker": p, "defender": defender, "from": frm,
               "province": to, "armies": n, "extras": extras})
    ctx = {"reason": "battle", "attacker": p, "defender": defender, "province": to,
           "from": frm, "farmers_fight": farmers_fight, "rule": "B1"}
    return start_throw(s, into, ctx, ev)


def _armies(n: int) -> dict:
    return phrase_n(N_plural("{n} army", "{n} armies"), n)


def move(s: State, cmd: dict, ev: list[dict]) -> None:
    """The optional move of Deploy/Move 1 (rule A8)."""
    st = s.step
    assert st is not None
    n = _armies_arg(cmd, st)
    if n == 0:
        ev.append({"event": "no_move", "player": st["player"]})
        s.step = None
        return
    if n < 0:
        raise RulesError("A8", _("'armies' must be 0 (no move) or more"))
    to = _check_target(s, st, cmd.get("to"))
    s.armies[st["from"]] -= n
    s.armies[to] += n
    ev.append({"event": "moved", "player": st["player"], "from": st["from"], "to": to,
               "armies": n})
    s.step = None


def spilled(s: State, cmd: dict, ev: list[dict]) -> None:
    """Rule B8: cubes that fell out of the tower by accident stay in the tray (and count in the
    next throw). Recorded as ``{"type": "spilled", "counts": {"red": 1}}`` at any decision
    point but a throw: during a throw they are part of that throw's tray."""
    st = s.step
    assert st is not None
    if st["kind"] == "throw":
        raise RulesError("B8", _("a throw is being counted: count the spilled cube with its "
                                 "tray (command 'tray'), not as 'spilled'"))
    out = parse_tray(s, cmd.get("counts"), "B8", "spilled")
    if not any(out.values()):
        raise RulesError("B8", _("spilled: name at least one cube, e.g. {example}").format(
            example='{"red": 1}'))
    for c, n in out.items():
        s.tower[c] -= n
        s.tray[c] += n
    ev.append({"event": "spilled", "counts": {c: n for c, n in out.items() if n},
               "rule": "B8"})


def tray(s: State, cmd: dict, ev: list[dict]) -> None:
    st = s.step
    assert st is not None
    out = parse_tray(s, cmd.get("counts"))
    for c, n in out.items():
        s.tower[c] -= n
        s.tray[c] = n
    ev.append({"event": "tray", "counts": {c: n for c, n in out.items() if n}})
    s.step = None
    reason = st["reason"]
    if reason == "setup":  # rule S3: what falls out goes back to its supply
        s.hook("setup_throw", {c: n for c, n in s.tray.items() if n}, ev)
        for c in CUBE_COLOURS:
            if c in s.supply:
                s.supply[c] += s.tray[c]
                s.tray[c] = 0
        s.setup_thrown = True
        return
    prov = st["province"]
    if reason == "battle":
        v = battle_verdict(st["attacker"], st["defender"], s.tray, st["farmers_fight"])
        _apply_verdict(s, v, prov, ev)
        return
    v = revolt_verdict(st["player"], s.tray)
    _apply_verdict(s, v, prov, ev)
    if v.outcome == "player" and st.get("collection"):
        add_marker(s, st["player"], prov, ev)  # rule V4


def _apply_verdict(s: State, v: Verdict, prov: str, ev: list[dict]) -> None:
    for c, n in v.to_supply.items():
        s.tray[c] -= n
        s.supply[c] += n
    if v.holder is not None:
        s.tray[v.holder] -= v.to_province
        s.armies[prov] += v.to_province
    if v.clear_province:
        s.clear_province(prov)
    s.set_owner(prov, v.holder, ev)
    ev.append({"event": "verdict", "province": prov, "outcome": v.outcome,
               "counted": v.counted, "text": v.text, "text_words": v.words})


def _waits_for_throw(st: dict) -> str:
    return _("the tray counts of a throw (command 'tray')")


def _describe_march(s: State, st: dict) -> str:
    return sentence(st.get("max_armies", 0), "{player}: {action} from {province} (up to {n} "
                    "army)", "{player}: {action} from {province} (up to {n} armies)",
                    player=colour_word(st.get("player", "")),
                    action=_(ACTION_NAMES.get(st.get("action", ""), N_("Battle/Move"))),
                    province=province_word(st.get("from", "")))


def _describe_move(s: State, st: dict) -> str:
    return _("{player} may move armies from {province} (Deploy/Move 1)").format(
        player=colour_word(st.get("player", "")), province=province_word(st.get("from", "")))


def _describe_throw(s: State, st: dict) -> str:
    texts = {"setup": _("throw {cubes} into the tower for the set-up throw, then count the "
                        "tray"),
             "battle": _("throw {cubes} into the tower for the battle for {province}, then "
                         "count the tray"),
             "revolt": _("throw {cubes} into the tower for the revolt in {province}, then "
                         "count the tray")}
    text = texts.get(st.get("reason", ""),
                     _("throw {cubes} into the tower for a throw, then count the tray"))
    return text.format(cubes=cubes_text(st.get("into_tower")),
                       province=province_word(str(st.get("province"))))


PHASE = Phase("actions", next_step)
DECISIONS = (
    DecisionKind("march", "march", march, legal, describe=_describe_march, rule="A9"),
    DecisionKind("move", "move", move, legal, describe=_describe_move, rule="A8"),
    DecisionKind("throw", "tray", tray, waits_for=_waits_for_throw, describe=_describe_throw,
                 player_bound=False, rule="B1"),
)
ANYTIME = {"spilled": spilled}  # reports of the table at any decision point (rule B8)


def _why_use_special(s: State, p: str, st: dict, use: bool) -> str:
    """Why the bots always use a special card (the coach's `hint`)."""
    if st["card"] == "P3":
        return sentence(st["extra"], "Yes: {n} more army in {province} for the same coins.",
                        "Yes: {n} more armies in {province} for the same coins.",
                        province=province_word(st["province"]))
    if st["card"] == "P4":
        return _("Yes: one more attacking army in the tower raises your chance to take {to}.") \
            .format(to=province_word(st["battle"]["to"]))
    return _("Yes: one more defending army in the tower raises your chance to hold {to}.") \
        .format(to=province_word(st["battle"]["to"]))


QUESTIONS = {"use_special": Question(
    _use_special, bot=lambda s, p, st, values, rng: True, why=_why_use_special,
    help=N_("A special card's extra army is yours to use or not; it comes from your supply."))}
