"""X3 Military leaders (rulebook 002, "CHEFS MILITAIRES"): a leader that improves the actions in its
province, moves every season and leaves statues behind.

Rules (cited as X3.n):
- X3.1 Material: each player has 1 military leader and 6 statue tokens (``data/leaders.json``).
- X3.2 Fixed set-up: in the first spring, once the turn order is set, in turn order, each player
  puts his leader in one of his provinces.
- X3.3 Draft: each time a player puts an army group on a province, he decides whether his leader
  goes there; a player who has not placed it by his last province must put it there.
- X3.4 Improved actions in the leader's province: castle 2 coins, temple 1, Nō theatre free;
  rice and tax give the card's value plus one; Deploy 5 / 3 / 1 become Deploy 6 / 4 / 2 for
  3 / 2 / 1 coins (Deploy 2 still followed by the optional move).
- X3.5 At the end of each season, winter included, each player must move his leader to another
  province he owns. Moved to a province adjacent to the old one, he may leave one of his
  statues on the old one; the statue stays there even if the province changes hands or is lost
  to a revolt.
- X3.6 A leader placed on a province holding another player's statue takes that statue as a
  trophy.
- X3.7 A leader moved to a province not adjacent to the old one leaves no statue (it fled).
- X3.8 A player who loses the province of his leader takes the leader back; at the end of the
  winter he places it again on one of his provinces.
- X3.9 End of the game: 1 VP for each own statue on the board and for each trophy.

Decisions (docs/rules.md, X3): the leader's terms come after the event's bounds and the
special card (hook ``action_terms``); the move happens at the end of every season, winter
included (engine 3; engine 2 skipped winter), after the winter's scoring and before the leader
taken back is placed again; the player is asked whether he leaves a statue (engine 3; engine 2
always left one); a province holds at most one statue; a player with no province to move to
keeps his leader where it is; a player with no statue left places none.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from shogun_tower.games.shogun.rules.core import choices, legacy
from shogun_tower.games.shogun.rules.core.constants import (
    ACTION_NAMES,
    BUILD_ACTIONS,
    BUILDING_COST,
    DEPLOY,
)
from shogun_tower.games.shogun.rules.core.data import fail, need_int, need_source, open_doc
from shogun_tower.games.shogun.rules.core.phrases import (
    colour,
    items,
    phrase,
    phrase_n,
    province,
    say,
    stored,
)
from shogun_tower.games.shogun.rules.core.ruleset import Expansion, Phase, Question
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.i18n import N_, N_plural, _
from shogun_tower.words import colour_word, province_word, sentence

NAME = "leaders"
DATA_FILE = "leaders.json"
INCOME_ACTIONS = ("rice", "tax")


# ---- the data file (rule X3.1, X3.4, X3.9) --------------------------------------------------
def load_data(which: Any) -> dict:
    """Validate a leaders document (one-line DataError naming the entry and field)."""
    doc, origin = open_doc(which, DATA_FILE, "shogun-tower-leaders/1", "leaders data")

    def entry(section: str, key: str | None = None) -> dict:
        d = doc.get(section) if key is None else (doc.get(section) or {}).get(key)
        where = section if key is None else f"{section} {key}"
        if not isinstance(d, dict):
            raise fail(origin, _("field '{where}' must be an object with a value and a "
                                 "source").format(
                where=where))
        need_source(origin, where, d)
        return d

    need_int(origin, "statues", entry("statues"), "value", 0, 30)
    for kind, base in BUILDING_COST.items():
        need_int(origin, f"building_cost {kind}", entry("building_cost", kind), "value", 0, base)
    for action in INCOME_ACTIONS:
        need_int(origin, f"income_bonus {action}", entry("income_bonus", action), "value", 0, 10)
    for action, (cost, armies) in DEPLOY.items():
        d = entry("deploy", action)
        need_int(origin, f"deploy {action}", d, "armies", armies, 20)
        need_int(origin, f"deploy {action}", d, "cost", 0, cost)
    for term in ("statue", "trophy"):
        need_int(origin, f"vp {term}", entry("vp", term), "value", 0, 10)
    return doc


@lru_cache(maxsize=8)
def _parsed(text: str) -> dict:
    doc = json.loads(text)
    terms: dict[str, dict[str, int]] = {}
    for action, kind in BUILD_ACTIONS.items():
        terms[action] = {"cost": doc["building_cost"][kind]["value"] - BUILDING_COST[kind],
                         "amount": 0}
    for action in INCOME_ACTIONS:
        terms[action] = {"cost": 0, "amount": doc["income_bonus"][action]["value"]}
    for action, (cost, armies) in DEPLOY.items():
        d = doc["deploy"][action]
        terms[action] = {"cost": d["cost"] - cost, "amount": d["armies"] - armies}
    return {"statues": doc["statues"]["value"], "terms": terms,
            "vp": {t: doc["vp"][t]["value"] for t in ("statue", "trophy")}}


_LAST: list = [None, None]  # the document last parsed and its parse: asked after every action


def _data(s: State) -> dict:
    doc = s.game.expansion_data[NAME]
    if _LAST[0] is not doc:
        _LAST[:] = [doc, _parsed(json.dumps(doc, sort_keys=True))]
    return _LAST[1]


def improvements(s: State) -> str:
    """Rule X3.4 in words, from the data file: why the leader's province matters."""
    return say(improvements_phrase(s))


def improvements_phrase(s: State) -> dict:
    """``improvements`` as a phrase (``phrases.py``), for the questions that say it."""
    terms = _data(s)["terms"]
    parts = []
    for action, kind in BUILD_ACTIONS.items():
        cost = max(0, BUILDING_COST[kind] + terms[action]["cost"])
        name = phrase(ACTION_NAMES[action])
        parts.append(phrase(N_("{action} free"), action=name) if cost == 0 else
                     phrase_n(N_plural("{action} {n} coin", "{action} {n} coins"), cost,
                              action=name))
    for action in INCOME_ACTIONS:
        parts.append(phrase(N_("{action} +{amount}"), action=phrase(ACTION_NAMES[action]),
                            amount=terms[action]["amount"]))
    for action, (_cost, armies) in DEPLOY.items():
        parts.append(phrase(N_("{action} places {n}"), action=phrase(ACTION_NAMES[action]),
                            n=armies + terms[action]["amount"]))
    return phrase(N_("In the province where your leader stands, your actions are better: "
                     "{improvements}."), improvements=items(parts))


# ---- state ----------------------------------------------------------------------------------
def new_state(s: State) -> dict:
    """``at``: each leader's province (None: not on the board); ``taken``: leaders taken back
    (X3.8); ``statues``: province -> colour; ``statue_supply``; ``trophies``: colours taken."""
    players = s.game.players
    return {"at": dict.fromkeys(players), "taken": [], "placed": False, "asked": [],
            "statues": {}, "statue_supply": dict.fromkeys(players, _data(s)["statues"]),
            "trophies": {p: [] for p in players}, "done": []}


def _own(s: State, p: str) -> list[str]:
    return sorted(x for x, o in s.owner.items() if o == p)


def _arrive(s: State, p: str, prov: str, ev: list[dict], rule: str) -> None:
    """The leader of ``p`` is put on ``prov``; another player's statue there is a trophy (X3.6)."""
    me = s.expansions[NAME]
    me["at"][p] = prov
    if p in me["taken"]:
        me["taken"].remove(p)
    ev.append({"event": "leader_placed", "player": p, "province": prov, "rule": rule})
    other = me["statues"].get(prov)
    if other is not None and other != p:
        del me["statues"][prov]
        me["trophies"][p].append(other)
        ev.append({"event": "trophy", "player": p, "province": prov, "statue": other,
                   "rule": "X3.6"})


def _no_statue(s: State, p: str, frm: str) -> tuple[str, str] | None:
    """Why ``p`` cannot leave a statue on ``frm`` (reason, rule), or None when he can."""
    me = s.expansions[NAME]
    if frm in me["statues"]:  # Decision: one statue a province
        return N_("the province already holds a statue"), "X3.5"
    if me["statue_supply"][p] <= 0:
        return N_("no statue left"), "X3.1"
    return None


def _statue_left(s: State, p: str, frm: str, ev: list[dict]) -> None:
    """Rule X3.5: a statue on the province the leader left victorious."""
    me = s.expansions[NAME]
    why = _no_statue(s, p, frm)
    if why is not None:
        ev.append({"event": "no_statue", "player": p, "province": frm, "reason": why[0],
                   "rule": why[1]})
        return
    me["statue_supply"][p] -= 1
    me["statues"][frm] = p
    ev.append({"event": "statue_placed", "player": p, "province": frm, "rule": "X3.5"})


def _where_text(s: State, p: str, prov: str, notes: tuple[dict, ...] = ()) -> dict:
    statue = s.expansions[NAME]["statues"].get(prov)
    notes = ((phrase(N_("takes {player}'s statue"), player=colour(statue)),)
             if statue not in (None, p) else ()) + notes
    if not notes:
        return province(prov)
    # Translators: a province to choose, with what choosing it does ("Ise (adjacent)")
    return phrase(N_("{province} ({notes})"), province=province(prov),
                  notes=items(list(notes), "; "))


def _ask_place(s: State, p: str, what: str, rule: str, question: dict) -> dict | None:
    own = _own(s, p)
    if not own:
        return None
    return choices.ask(p, what, rule, question, [(x, _where_text(s, p, x)) for x in own],
                       show=NAME)


# ---- X3.3: the draft ------------------------------------------------------------------------
def setup_step(s: State, ev: list[dict]) -> dict | None:
    """After each draft pick: ask the picker whether his leader goes there (hook setup_step)."""
    me = s.expansions[NAME]
    d = s.draft
    if d is None:
        return None
    for prov, p in s.owner.items():
        if p is None or prov in me["asked"]:
            continue
        me["asked"].append(prov)
        if me["at"][p] is not None:
            continue
        if not d["groups"][p]:  # his last province: the leader must go there
            _arrive(s, p, prov, ev, "X3.3")
            continue
        return choices.ask(p, "leader_draft", "X3.3",
                           phrase(N_("put your military leader in {province}? {improvements}"),
                                  province=province(prov), improvements=improvements_phrase(s)),
                           choices.YES_NO, province=prov, show=NAME)
    return None


def _draft_answer(s: State, st: dict, yes: bool, ev: list[dict]) -> None:
    if yes:
        _arrive(s, st["player"], st["province"], ev, "X3.3")
    else:
        ev.append({"event": "leader_not_here", "player": st["player"],
                   "province": st["province"], "rule": "X3.3"})


# ---- X3.2: the fixed set-up, X3.8: back after winter ------------------------------------------
def place_phase(s: State, ev: list[dict]) -> dict | None:
    """Rule X3.2: in the first spring, after the turn order, in turn order."""
    me = s.expansions[NAME]
    if me["placed"]:
        return None
    step = _place_each(s, [p for p in s.turn_order if me["at"][p] is None], "leader_place",
                       "X3.2", phrase(N_("put your military leader in which of your "
                                         "provinces? {improvements}"),
                                      improvements=improvements_phrase(s)), ev)
    if step is None:
        me["placed"] = True
    return step


def _place_each(s: State, players: list[str], kind: str, rule: str, question: dict,
                ev: list[dict]) -> dict | None:
    """Ask each of ``players`` in turn (those not asked yet) where the leader goes; a player
    without a province keeps it off the board. None once all were asked."""
    me = s.expansions[NAME]
    for p in players:
        if p not in me["done"]:
            me["done"].append(p)
            step = _ask_place(s, p, kind, rule, question)
            if step is not None:
                return step
            ev.append({"event": "leader_stays_off", "player": p,
                       "reason": N_("no province to put it in"), "rule": rule})
    me["done"] = []
    return None


def _place_answer(s: State, st: dict, prov: str, ev: list[dict]) -> None:
    _arrive(s, st["player"], prov, ev, st["rule"])


def return_phase(s: State, ev: list[dict]) -> dict | None:
    """Rule X3.8: at the end of the winter a leader taken back is placed again (after the last
    winter the game is over and nothing is placed)."""
    me = s.expansions[NAME]
    if s.result is not None:
        return None
    return _place_each(s, [p for p in s.turn_order if p in me["taken"]], "leader_return",
                       "X3.8", phrase(N_("your military leader comes back: put it in which "
                                         "of your provinces? {improvements}"),
                                      improvements=improvements_phrase(s)), ev)


# ---- X3.5-X3.7: the move at the season's end -------------------------------------------------
def move_phase(s: State, ev: list[dict]) -> dict | None:
    """Rule X3.5: in turn order, each leader on the board moves to another own province."""
    me = s.expansions[NAME]
    if s.season == 3 and not legacy.leaders_move_in_winter(s.game):
        return None  # engine 2: no move at the end of winter
    for p in s.turn_order:
        frm = me["at"][p]
        if frm is None or p in me["done"]:
            continue
        me["done"].append(p)
        others = [x for x in _own(s, p) if x != frm]
        if not others:  # Decision: nowhere to go, the leader stays
            ev.append({"event": "leader_stays", "player": p, "province": frm,
                       "reason": N_("no other province"), "rule": "X3.5"})
            continue
        near = s.map.provinces[frm].neighbours
        options = []
        statue = _no_statue(s, p, frm) is None
        asked = legacy.statue_asked(s.game)
        for x in others:
            if x not in near:
                note = phrase(N_("not adjacent: no statue"))
            elif not statue:
                note = phrase(N_("adjacent"))
            elif asked:
                note = phrase(N_("adjacent: you may leave a statue in {province}"),
                              province=province(frm))
            else:
                note = phrase(N_("statue left in {province}"), province=province(frm))
            options.append((x, _where_text(s, p, x, (note,))))
        return choices.ask(p, "leader_move", "X3.5",
                           phrase(N_("move your military leader from {province} to which of "
                                     "your provinces? (a neighbour lets you leave a statue in "
                                     "{province}: 1 VP at the end)"), province=province(frm)),
                           options, province=frm, show=NAME)
    me["done"] = []
    return None


def _move_answer(s: State, st: dict, to: str, ev: list[dict]) -> None:
    p, frm = st["player"], st["province"]
    ev.append({"event": "leader_moved", "player": p, "from": frm, "to": to,
               "adjacent": to in s.map.provinces[frm].neighbours, "rule": "X3.5"})
    if to not in s.map.provinces[frm].neighbours:
        ev.append({"event": "no_statue", "player": p, "province": frm,
                   "reason": N_("not adjacent: the leader fled"), "rule": "X3.7"})
    elif legacy.statue_asked(s.game) and _no_statue(s, p, frm) is None:
        # rule X3.5: « peut placer »: the player says (the leader arrives once he has)
        s.step = choices.ask(p, "leader_statue", "X3.5",
                             phrase(N_("your military leader left {province} victorious: "
                                       "leave one of your statues there ({left} left)? It "
                                       "scores 1 VP at the end, unless another player's leader "
                                       "arrives there and takes it as a trophy."),
                                    province=province(frm),
                                    left=s.expansions[NAME]["statue_supply"][p]),
                             choices.YES_NO, province=frm, to=to, show=NAME)
        return
    else:
        _statue_left(s, p, frm, ev)
    _arrive(s, p, to, ev, "X3.5")


def _statue_answer(s: State, st: dict, yes: bool, ev: list[dict]) -> None:
    p, frm = st["player"], st["province"]
    if yes:
        _statue_left(s, p, frm, ev)
    else:
        ev.append({"event": "no_statue", "player": p, "province": frm,
                   "reason": N_("the player keeps it"), "rule": "X3.5"})
    _arrive(s, p, st["to"], ev, "X3.5")


# ---- hooks -----------------------------------------------------------------------------------
def action_terms(s: State, p: str, action: str, prov: str) -> dict:
    """Rule X3.4: the improved actions in the leader's province."""
    if s.expansions[NAME]["at"][p] != prov or action not in _data(s)["terms"]:
        return {}
    return dict(_data(s)["terms"][action], rule="X3.4")


def province_changed(s: State, prov: str, old: str | None, new: str | None,
                     ev: list[dict]) -> None:
    """Rule X3.8: the leader of a lost province is taken back (statues stay, X3.5)."""
    me = s.expansions[NAME]
    if old is not None and me["at"].get(old) == prov:
        me["at"][old] = None
        me["taken"].append(old)
        ev.append({"event": "leader_taken_back", "player": old, "province": prov,
                   "rule": "X3.8"})


def statues_a_player(s: State) -> int:
    """Rule X3.1: how many statues each player has in all (the data file's, 6 in the seed)."""
    return _data(s)["statues"]


def statues_on_board(s: State, p: str) -> int:
    return sum(1 for c in s.expansions[NAME]["statues"].values() if c == p)


def final_scoring(s: State, ev: list[dict]) -> dict[str, dict[str, int]]:
    """Rule X3.9: 1 VP per own statue on the board, 1 per trophy."""
    vp = _data(s)["vp"]
    me = s.expansions[NAME]
    return {p: {"statues": statues_on_board(s, p) * vp["statue"],
                "trophies": len(me["trophies"][p]) * vp["trophy"]} for p in s.game.players}


def view(s: State) -> dict:
    """Leaders, statues and trophies for the page and the terminal."""
    me = s.expansions[NAME]
    vp = _data(s)["vp"]
    return {"title": "Military leaders", "rule": "X3", "leaders": dict(me["at"]),
            "taken": list(me["taken"]), "statues": dict(me["statues"]),
            "statue_supply": dict(me["statue_supply"]),
            "trophies": {p: list(t) for p, t in me["trophies"].items()},
            "vp": {p: statues_on_board(s, p) * vp["statue"] + len(me["trophies"][p])
                   * vp["trophy"] for p in s.game.players}}


def problems(s: State) -> list[str]:
    """Rule X3.1: each player's 6 statues are in his supply, on the board or someone's trophies;
    a leader on the board stands in one of its owner's provinces (X3.8)."""
    me, out, total = s.expansions[NAME], [], statues_a_player(s)
    for p in s.game.players:
        board = sum(1 for c in me["statues"].values() if c == p)
        taken = sum(t.count(p) for t in me["trophies"].values())
        where = {"supply": me["statue_supply"][p], "board": board, "trophies": taken}
        if sum(where.values()) != total or min(where.values()) < 0:
            out.append(f"{p} statues {where} do not add up to {total}")
        at = me["at"][p]
        if at is not None and s.owner.get(at) != p:
            out.append(f"{p}'s leader stands in {at}, owned by {s.owner.get(at)}")
        if at is not None and me["statues"].get(at) not in (None, p):
            out.append(f"{p}'s leader stands on {me['statues'][at]}'s statue in {at} (X3.6)")
        if at is not None and p in me["taken"]:
            out.append(f"{p}'s leader is both in {at} and taken back")
        if p in me["trophies"][p]:
            out.append(f"{p} holds his own statue as a trophy")
    return out


def bot_leader(s: State, p: str, st: dict, values: list, rng: Any) -> Any:
    """X3: the leader where the actions pay most (a big province with free building slots);
    a move takes a trophy first, then stays adjacent to leave a statue (X3.5-X3.7)."""
    if st["what"] == "leader_draft":  # the bigger the army group, the likelier the leader
        return s.armies[st["province"]] >= 4 or rng.chance(0.25)

    def worth(x: str) -> float:
        info = s.map.provinces[x]
        free = info.building_slots - len(s.buildings[x])
        return info.tax + info.rice + 2 * free + rng.random()

    if st["what"] == "leader_statue":
        return bot_statue(s, p, st)
    if st["what"] != "leader_move":
        return max(values, key=worth)
    me = s.expansions[NAME]
    near = s.map.provinces[st["province"]].neighbours
    return max(values, key=lambda x: (me["statues"].get(x) not in (None, p), x in near,
                                      worth(x)))


def why_leader(s: State, p: str, st: dict, answer: Any) -> str:
    """Why ``bot_leader`` answers so: the province's worth, a trophy, a statue left."""
    vp = _data(s)["vp"]
    if st["what"] == "leader_draft":
        prov = st["province"]
        return (sentence(s.armies[prov], "Yes: {province} holds {n} army, and there the leader "
                         "makes every action cheaper or stronger.", "Yes: {province} holds {n} "
                         "armies, and there the leader makes every action cheaper or stronger.",
                         province=province_word(prov)) if answer else
                _("No: keep the leader for a province with a bigger army group."))
    if st["what"] == "leader_statue":
        frm = st["province"]
        if answer:
            return sentence(vp["statue"], "Yes: a statue in {frm} scores {n} VP at the end.",
                            "Yes: a statue in {frm} scores {n} VP at the end.",
                            frm=province_word(frm))
        return _("No: another player's armies next to {frm} outnumber yours there, so a statue "
                 "would likely become his trophy, and you have fewer statues left than moves "
                 "to come: keep it for a safer province.").format(frm=province_word(frm))
    info = s.map.provinces[answer]
    free = info.building_slots - len(s.buildings[answer])
    worth = sentence(free, "{province}: tax {tax}, rice {rice} and {n} free building slot, "
                           "where the leader's improved actions pay most.",
                     "{province}: tax {tax}, rice {rice} and {n} free building slots, where "
                     "the leader's improved actions pay most.", province=province_word(answer),
                     tax=info.tax,
                     rice=info.rice)
    if st["what"] != "leader_move":
        return worth
    me = s.expansions[NAME]
    frm = st["province"]
    statue = me["statues"].get(answer)
    if statue not in (None, p):
        return sentence(vp["trophy"], "{province}: your leader takes {other}'s statue there "
                                      "as a trophy ({n} VP at the end).",
                        "{province}: your leader takes {other}'s statue there as a trophy "
                        "({n} VP at the end).", province=province_word(answer),
                        other=colour_word(statue))
    if answer in s.map.provinces[frm].neighbours and frm not in me["statues"] \
            and me["statue_supply"][p] > 0:
        return sentence(vp["statue"], "{province} is next to {frm}: the leader leaves a statue "
                                      "in {frm} ({n} VP at the end).",
                        "{province} is next to {frm}: the leader leaves a statue in {frm} "
                        "({n} VP at the end).", province=province_word(answer),
                        frm=province_word(frm))
    return worth


def help_entries(doc: dict) -> list[tuple[str, str]]:
    """What the leader and the statues do, with the numbers of the data file."""
    cost = {k: doc["building_cost"][k]["value"] for k in BUILDING_COST}
    income = {a: doc["income_bonus"][a]["value"] for a in INCOME_ACTIONS}
    deploy = doc["deploy"]
    vp = {t: doc["vp"][t]["value"] for t in ("statue", "trophy")}
    return [
        (_("Military leader"), _("Each player has 1 military leader and {statues} statues. "
                                 "With the fixed set-up you put your leader in one of your "
                                 "provinces in the first spring, after the turn order; in the "
                                 "draft you decide each time you place an army group.").format(
            statues=doc["statues"]["value"])),
        (_("Improved actions"), _("In the leader's province a castle costs {castle} coins, a "
                                  "temple {temple} and a Nō theatre {theatre}; Rice gives "
                                  "{rice} more and Tax {tax} more; Deploy 5, Deploy 3 and "
                                  "Deploy/Move 1 place {armies5}, {armies3} and {armies1} "
                                  "armies for {cost5}, {cost3} and {cost1} coins.").format(
            castle=cost["castle"], temple=cost["temple"], theatre=cost["theatre"],
            rice=income["rice"], tax=income["tax"], armies5=deploy["deploy5"]["armies"],
            armies3=deploy["deploy3"]["armies"], armies1=deploy["deploy1"]["armies"],
            cost5=deploy["deploy5"]["cost"], cost3=deploy["deploy3"]["cost"],
            cost1=deploy["deploy1"]["cost"])),
        (_("Moving and statues"), _("At the end of each season, winter included, your leader "
                                    "must move to another of your provinces. Moved to a "
                                    "neighbour, you may leave one of your statues on the "
                                    "province it left; moved farther, it leaves none. A "
                                    "province holds one statue at most.")),
        (_("Trophies"), _("A leader that arrives where another player's statue stands takes "
                          "it as a trophy.")),
        (_("A province lost"), _("Lose your leader's province and you take the leader back; "
                                 "you put it in one of your provinces again at the end of the "
                                 "winter.")),
        (_("End points"), _("{statue} VP for each of your statues on the board and {trophy} VP "
                            "for each trophy.").format(statue=vp["statue"],
                                                       trophy=vp["trophy"])),
    ]


LEADER_HELP = N_("Your military leader makes the actions in its province cheaper or "
                 "stronger: buildings cost less, Rice and Tax give more, Deploy places more "
                 "armies.")

def bot_statue(s: State, p: str, st: dict) -> bool:
    """X3.5: a statue is worth its VP unless it is likely to become another's trophy: the bots
    keep it when the province left is outnumbered by another player's armies next to it and
    the statues left are fewer than the moves still to come (8 a game: six seasons, two
    winters)."""
    frm = st["province"]
    me = s.expansions[NAME]
    enemies = max((s.armies[y] for y in s.map.provinces[frm].neighbours
                   if s.owner.get(y) not in (None, p)), default=0)
    moves_left = (2 - s.year) * 4 + (4 - min(s.season, 3)) - 1
    return not (enemies > s.armies[frm] + 1 and me["statue_supply"][p] < moves_left)


def _who(e: dict, key: str = "player") -> str:
    return colour_word(str(e[key]))


def _where(e: dict, key: str = "province") -> str:
    return province_word(str(e[key]))


def _moved(e: dict) -> str:
    values = {"player": _who(e), "frm": _where(e, "from"), "to": _where(e, "to")}
    if e.get("adjacent"):
        return _("{player}'s military leader moves from {frm} to {to}").format(**values)
    return _("{player}'s military leader moves from {frm} to {to} (not adjacent)").format(
        **values)


# What the table reads of the leaders' events (one line each).
NARRATION = {
    "leader_placed": lambda e: _("{player}'s military leader stands in {province}").format(
        player=_who(e), province=_where(e)),
    "leader_not_here": lambda e: _("{player} keeps the military leader out of {province}")
    .format(player=_who(e), province=_where(e)),
    "leader_moved": _moved,
    "statue_placed": lambda e: _("{player} leaves a statue in {province}").format(
        player=_who(e), province=_where(e)),
    "no_statue": lambda e: _("no statue for {player} in {province}: {reason}").format(
        player=_who(e), province=_where(e), reason=stored(e, "reason")),
    "trophy": lambda e: _("{player} takes {other}'s statue in {province} as a trophy").format(
        player=_who(e), other=_who(e, "statue"), province=_where(e)),
    "leader_taken_back": lambda e: _("{player} lost {province} and takes the military leader "
                                     "back until the winter's end").format(
        player=_who(e), province=_where(e)),
    "leader_stays": lambda e: _("{player}'s military leader stays in {province}: {reason}")
    .format(player=_who(e), province=_where(e), reason=stored(e, "reason")),
    "leader_stays_off": lambda e: _("{player}'s military leader stays off the board: {reason}")
    .format(player=_who(e), reason=stored(e, "reason")),
}


EXPANSION = Expansion(
    name=NAME, rule="X3", title=N_("Military leaders"),
    phases=(Phase("leader_place", place_phase, after="specials"),  # rule X3.2
            Phase("leader_moves", move_phase, before="season_end"),  # rule X3.5
            Phase("leader_winter_moves", move_phase, after="winter_scoring"),  # rule X3.5
            Phase("leader_return", return_phase, after="year_end")),  # rule X3.8
    questions={"leader_draft": Question(_draft_answer, bot=bot_leader, why=why_leader,
                                        help=LEADER_HELP),
               "leader_place": Question(_place_answer, bot=bot_leader, why=why_leader,
                                        help=LEADER_HELP),
               "leader_return": Question(_place_answer, bot=bot_leader, why=why_leader,
                                         help=LEADER_HELP),
               "leader_move": Question(
                   _move_answer, bot=bot_leader, why=why_leader,
                   help=N_("At the end of each season, winter included, your leader moves "
                           "to another of your provinces; to a neighbour, you may leave a "
                           "statue where it was (VP at the end of the game).")),
               "leader_statue": Question(
                   _statue_answer, bot=bot_leader, why=why_leader,
                   help=N_("Your leader left a province victorious for a neighbour: you may "
                           "leave one of your statues there. It scores at the end of the game, "
                           "unless another player's leader arrives there and takes it as a "
                           "trophy."))},
    new_state=new_state,
    hooks={"setup_step": setup_step, "province_changed": province_changed,
           "action_terms": action_terms, "final_scoring": final_scoring},
    load_data=load_data,
    view=view,
    invariants=problems,
    narration=NARRATION,
    help=lambda doc: help_entries(load_data(doc)),
)
