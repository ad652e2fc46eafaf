"""Spring, summer and autumn (rules T1-T8): cards, secret planning, bids and turn order."""

from __future__ import annotations

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARD_IDS, SPECIAL_CARD_IDS
from shogun_tower.games.shogun.rules.core.constants import (
    ACTIONS,
    CHESTS,
    EVENTS_FACE_UP,
    PLAN_SPACES,
)
from shogun_tower.games.shogun.rules.core.ruleset import ChanceKind, DecisionKind, Phase
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.i18n import N_, _, join
from shogun_tower.words import colour_word, province_word


def hand(s: State, p: str) -> dict:
    """What a player can plan with: his province cards, chest cards and coins (rule T3), and
    what the expansions add: their spaces and their cards (``{kind: how many}``)."""
    h = {"provinces": sorted(x for x, o in s.owner.items() if o == p),
         "chests": list(CHESTS), "coins": s.coins[p]}
    ext = plan_extension(s, p)
    if ext["spaces"] or ext["cards"]:
        h["spaces"], h["cards"] = ext["spaces"], ext["cards"]
    return h


def plan_extension(s: State, p: str) -> dict:
    """The expansions' plan spaces and cards (hook ``plan_spaces``), and what each does in
    words (``texts``, for the players who plan with them)."""
    out: dict = {"spaces": [], "cards": {}, "bid_as_chest": {}, "texts": {}}
    for ext in s.hook("plan_spaces", p):
        out["spaces"] += ext.get("spaces", [])
        out["cards"].update(ext.get("cards", {}))
        out["bid_as_chest"].update(ext.get("bid_as_chest", {}))
        out["texts"].update(ext.get("texts", {}))
    return out


def next_start(s: State, ev: list[dict]) -> dict | None:
    if s.season == 0 and not s.events_up and s.event is None:
        return {"kind": "chance", "what": "year_events", "count": 4, "rule": "S4"}
    if len(s.action_cards) < 5:  # rule T1: the first 5 lie face up before planning
        return {"kind": "chance", "what": "action_card", "rule": "T1",
                "slot": len(s.action_cards) + 1}
    if not s.specials:
        return {"kind": "chance", "what": "specials", "rule": "T2"}
    s.plans = {}
    ev.append({"event": "season", "year": s.year, "season": s.season,
               "action_cards": list(s.action_cards), "specials": list(s.specials)})
    return None


def next_plan(s: State, ev: list[dict]) -> dict | None:
    if len(s.plans) < len(s.game.players):
        return {"kind": "plan", "rule": "T3"}
    if s.event is None:  # rule T4: drawn after planning, among this year's face-up events
        return {"kind": "chance", "what": "event", "rule": "T4",
                "face_up": EVENTS_FACE_UP[s.season]}
    s.bids_paid = False
    return None


def _card_of(value: object, provinces: list[str], where: str, p: str,
             kinds: dict | None = None) -> tuple[str, object]:
    if value is None:
        return ("empty", None)
    if isinstance(value, bool):
        raise RulesError("T3", _("{player}: {space}: {value!r} is not a card").format(
            player=colour_word(p), space=where, value=value))
    if isinstance(value, int):
        if value not in CHESTS:
            raise RulesError("T3", _("{player}: {space}: chest cards are worth 0-4, not "
                                     "{value}").format(player=colour_word(p), space=where,
                                                       value=value))
        return ("chest", value)
    if isinstance(value, str):
        if kinds and value in kinds:  # an expansion's card (e.g. a cube-tower card, X1)
            return ("kind", value)
        if value not in provinces:
            raise RulesError("T3", _("{player}: {space}: {value} is not one of {player}'s "
                                     "province cards").format(player=colour_word(p),
                                                              space=where,
                                                              value=province_word(value)))
        return ("province", value)
    raise RulesError("T3", _("{player}: {space}: give a province name, a chest value 0-4 or "
                             "null").format(player=colour_word(p), space=where))


def validate_plan(s: State, p: str, actions: object, bid: object,
                  extra: object = None) -> dict:
    """Rule T3: one card per space, each card once, all spaces filled if the hand allows
    (the 11 of the base game plus the expansions' spaces, hook ``plan_spaces``)."""
    h = hand(s, p)
    ext = plan_extension(s, p)
    kinds: dict[str, int] = ext["cards"]
    if not isinstance(actions, dict):
        raise RulesError("T3", _("{player}: 'actions' must map action names to cards").format(
            player=colour_word(p)))
    unknown = [a for a in actions if a not in ACTIONS]
    if unknown:
        raise RulesError("T3", _("{player}: unknown action {action!r}; actions are "
                                 "{actions}").format(player=colour_word(p), action=unknown[0],
                                                     actions=join(ACTIONS)))
    if extra is None:
        extra = {}
    if not isinstance(extra, dict) or any(x not in ext["spaces"] for x in extra):
        if ext["spaces"]:
            raise RulesError("T3", _("{player}: 'extra' must map the expansions' spaces "
                                     "({spaces}) to cards").format(
                player=colour_word(p), spaces=join(ext["spaces"])))
        raise RulesError("T3", _("{player}: 'extra' must map the expansions' spaces (none in "
                                 "this game) to cards").format(player=colour_word(p)))
    used: dict[tuple[str, object], int] = {}
    filled = 0

    def place(value: object, where: str) -> tuple[str, object]:
        nonlocal filled
        kind, v = _card_of(value, h["provinces"], where, p, kinds)
        if kind != "empty":
            n = used.get((kind, v), 0) + 1
            if kind != "kind" and n > 1:
                raise RulesError("T3", _("{player}: card {card} is planned twice; one card "
                                         "per space").format(
                    player=colour_word(p),
                    card=province_word(v) if isinstance(v, str) else v))
            if kind == "kind" and n > kinds[v]:  # type: ignore[index]
                raise RulesError("T3", _("{player}: {held} {card} cards in hand, {n} planned; "
                                         "one card per space").format(
                    player=colour_word(p), held=kinds[v], card=v, n=n))  # type: ignore[index]
            used[(kind, v)] = n
            filled += 1
        return kind, v

    clean: dict[str, object] = {a: place(actions.get(a), a)[1] for a in ACTIONS}
    clean_extra = {x: place(extra.get(x), x)[1] for x in ext["spaces"]}
    kind, v = place(bid, "bid")
    if kind == "chest" and v > s.coins[p]:  # type: ignore[operator]
        raise RulesError("T3", _("{player}: a bid of {bid} is above the {coins} coins {player} "
                                 "owns").format(player=colour_word(p), bid=v, coins=s.coins[p]))
    spaces = PLAN_SPACES + len(ext["spaces"])
    need = min(spaces, len(h["provinces"]) + len(CHESTS) + sum(kinds.values()))
    if filled != need:
        raise RulesError("T3", _("{player}: fill {need} of the {spaces} spaces (the hand "
                                 "allows it); {filled} are filled").format(
            player=colour_word(p), need=need, spaces=spaces, filled=filled))
    out = {"actions": clean, "bid": v, "void": []}
    if kind == "kind":  # e.g. a cube-tower card bid: a chest worth 0 (X1)
        out["bid"], out["bid_card"] = ext["bid_as_chest"].get(v, 0), v
    if ext["spaces"]:
        out["extra"] = clean_extra
    return out


def plan(s: State, cmd: dict, ev: list[dict]) -> None:
    p = cmd.get("player")
    if p not in s.game.players:
        raise RulesError("T3", _("unknown player {player!r}; players are {players}").format(
            player=p, players=join([colour_word(x) for x in s.game.players])))
    if p in s.plans:
        raise RulesError("T3", _("{player} has already planned this season").format(
            player=colour_word(p)))
    s.plans[p] = validate_plan(s, p, cmd.get("actions"), cmd.get("bid"), cmd.get("extra"))
    ev.append({"event": "planned", "player": p})
    s.step = None


def _bid_rank(bid: object) -> int:
    """Rule T5: chests 4..1, then province bids, then chest 0, then no bid."""
    if bid is None:
        return 6
    if isinstance(bid, str):
        return 4
    return {4: 0, 3: 1, 2: 2, 1: 3, 0: 5}[bid]  # type: ignore[index]


def next_bids(s: State, ev: list[dict]) -> dict | None:
    if not s.bids_paid:
        groups: dict[int, list[str]] = {}
        for p in s.game.players:
            bid = s.plans[p]["bid"]
            if isinstance(bid, int):
                s.coins[p] -= bid  # province bids pay nothing
            groups.setdefault(_bid_rank(bid), []).append(p)
            ev.append({"event": "bid", "player": p, "bid": bid})
        s.bid_groups = [groups[k] for k in sorted(groups)]
        s.bid_index = 0
        s.pick_queue = []
        s.bids_paid = True
    while s.bid_index < len(s.bid_groups):
        group = s.bid_groups[s.bid_index]
        if len(group) == 1:
            s.pick_queue.append(group[0])
            s.bid_index += 1
            continue
        # rule T5: ties broken by shuffled Daimyo cards
        return {"kind": "chance", "what": "bid_tie", "rule": "T5", "players": list(group)}
    s.special_of = {}
    return None


def next_special(s: State, ev: list[dict]) -> dict | None:
    for p in s.pick_queue:
        if p not in s.special_of:
            taken = set(s.special_of.values())
            free = [i for i in range(1, 6) if i not in taken]
            return {"kind": "special", "player": p, "rule": "T5", "positions": free,
                    "cards": {str(i): s.specials[i - 1] for i in free}}
    s.turn_order = sorted(s.game.players, key=lambda p: s.special_of[p])
    ev.append({"event": "turn_order", "order": list(s.turn_order)})
    s.cursor = [0, 0]
    return None


def pick_special(s: State, cmd: dict, ev: list[dict]) -> None:
    st = s.step
    assert st is not None
    pos = cmd.get("position")
    if pos not in st["positions"]:
        raise RulesError("T5", _("position {position!r} is not free; choose one of "
                                 "{positions}").format(position=pos,
                                                       positions=join(map(str, st["positions"]))))
    s.special_of[st["player"]] = pos
    ev.append({"event": "special", "player": st["player"], "position": pos,
               "card": s.specials[pos - 1]})
    s.step = None


def legal_specials(s: State) -> list[dict]:
    st = s.step
    assert st is not None
    return [{"type": "special", "player": st["player"], "position": i} for i in st["positions"]]


def _year_events(s: State, st: dict, outcome: list[str], ev: list[dict]) -> None:
    s.events_up = list(outcome)  # rules S4, W5
    s.event_deck = [e for e in s.event_deck if e not in outcome]


def _action_card(s: State, st: dict, outcome: str, ev: list[dict]) -> None:
    s.action_cards.append(outcome)  # rule T1


def _specials(s: State, st: dict, outcome: list[str], ev: list[dict]) -> None:
    s.specials = list(outcome)  # rule T2


def _event(s: State, st: dict, outcome: str, ev: list[dict]) -> None:
    s.event = outcome  # rule T4
    s.events_up.remove(outcome)


def _bid_tie(s: State, st: dict, outcome: list[str], ev: list[dict]) -> None:
    s.pick_queue.extend(outcome)  # rule T5
    s.bid_index += 1


def _waits_for_plans(st: dict) -> str:
    return _("the players' plans (command 'plan')")


def _describe_plans(s: State, st: dict) -> str:
    left = [colour_word(p) for p in s.game.players if p not in s.plans]
    return _("planning: waiting for {players}").format(players=join(left))


def _describe_special(s: State, st: dict) -> str:
    return _("{player} takes a special card").format(player=colour_word(st.get("player", "")))


def end_season(s: State, ev: list[dict]) -> None:
    """Rule T8: specials back, the event leaves, action cards reshuffled; order kept for
    winter. The season's last phase: after autumn the year's end (winter) follows."""
    ev.append({"event": "season_end", "year": s.year, "season": s.season})
    s.event = None
    s.action_cards = []
    s.specials = []
    s.special_of = {}
    s.plans = {}
    s.cursor = [0, 0]
    if s.season == 2:
        s.season = 3
        s.winter = None
    else:
        s.season += 1



PHASES = (
    Phase("season_start", next_start),
    Phase("plan", next_plan),
    Phase("bids", next_bids),
    Phase("specials", next_special),
)
END = Phase("season_end", end_season)
DECISIONS = (
    DecisionKind("plan", "plan", plan, waits_for=_waits_for_plans, describe=_describe_plans,
                 player_bound=False, rule="T3"),
    DecisionKind("special", "special", pick_special, legal_specials,
                 describe=_describe_special, rule="T5"),
)
CHANCE = {
    "year_events": ChanceKind(lambda s, st: list(s.event_deck), _year_events, several=True,
                              name=N_("this year's events")),
    "action_card": ChanceKind(lambda s, st: [a for a in ACTIONS if a not in s.action_cards],
                              _action_card, name=N_("the next action card")),
    "specials": ChanceKind(lambda s, st: list(SPECIAL_CARD_IDS), _specials, several=True,
                           name=N_("the special cards")),
    "event": ChanceKind(lambda s, st: list(s.events_up), _event,
                        name=N_("the season's event")),
    "bid_tie": ChanceKind(lambda s, st: list(st["players"]), _bid_tie, several=True,
                          name=N_("Daimyo cards to break a tie of bids")),
}
assert len(SPECIAL_CARD_IDS) == 5 and len(EVENT_CARD_IDS) == 12
