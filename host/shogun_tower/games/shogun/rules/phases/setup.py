"""Set-up (rules S1-S4): fixed starts or the draft, then the first throw into the empty tower."""

from __future__ import annotations

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.rules.core import legacy
from shogun_tower.games.shogun.rules.core.constants import (
    ARMY_GROUPS,
    FARMERS,
    SETUP_THROW_ARMIES,
    SETUP_THROW_FARMERS,
)
from shogun_tower.games.shogun.rules.core.ruleset import ChanceKind, DecisionKind, Phase
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.games.shogun.rules.core.tower import start_throw
from shogun_tower.i18n import N_, _, join
from shogun_tower.words import colour_word, province_word


def begin(s: State, ev: list[dict]) -> None:
    players = s.game.players
    if s.game.setup == "fixed":
        for seat, groups in zip(players, legacy.fixed_setup(s.game), strict=True):
            for prov, n in groups:
                _place(s, seat, prov, n, ev)
    else:
        s.draft = {"faceup": [], "pile": sorted(s.owner), "bottom": [],
                   "groups": {p: list(ARMY_GROUPS[len(players)]) for p in players},
                   "turn": 0, "last_seen": dict.fromkeys(players)}
    s.phase = "setup"


def _place(s: State, player: str, prov: str, n: int, ev: list[dict]) -> None:
    s.owner[prov] = player
    s.armies[prov] = n
    s.supply[player] -= n
    ev.append({"event": "start_province", "player": player, "province": prov, "armies": n})


def _picker(s: State) -> str | None:
    d = s.draft
    assert d is not None
    players = s.game.players
    for i in range(len(players)):
        p = players[(d["turn"] + i) % len(players)]
        if d["groups"][p]:
            return p
    return None


def next_step(s: State, ev: list[dict]) -> dict | None:
    d = s.draft
    if d is not None and not d.get("done"):
        asked = next((st for st in s.hook("setup_step", ev) if st), None)
        if asked is not None:  # an expansion's question about the last pick (hook setup_step)
            return asked
        picker = _picker(s)
        if picker is not None:
            if len(d["faceup"]) < 2 and (d["pile"] or d["bottom"]):
                return {"kind": "chance", "what": "draft_faceup", "rule": "S2"}
            return {"kind": "draft", "player": picker, "rule": "S2",
                    "faceup": list(d["faceup"]), "groups": sorted(set(d["groups"][picker]),
                                                                  reverse=True),
                    "can_refresh": _can_refresh(s, picker)}
        d["done"] = True  # rule S2: unclaimed cards are the neutral supply
    if not s.setup_thrown:
        # rule S3: 7 armies per player and 10 farmers into the empty tower
        into = {p: SETUP_THROW_ARMIES for p in s.game.players}
        into[FARMERS] = SETUP_THROW_FARMERS
        for c, n in into.items():
            s.supply[c] -= n
        return start_throw(s, into, {"reason": "setup"}, ev)
    return None


def _can_refresh(s: State, p: str) -> bool:
    d = s.draft
    assert d is not None
    return (len(d["faceup"]) == 2 and sorted(d["faceup"]) == d["last_seen"][p]
            and len(d["pile"]) >= 2)


def legal(s: State) -> list[dict]:
    st = s.step
    assert st is not None and s.draft is not None
    p = st["player"]
    takes = list(s.draft["faceup"])
    if s.game.chance == "auto":
        takes.append("pile")
    else:
        takes += sorted(s.draft["pile"]) + s.draft["bottom"]
    out = [{"type": "draft", "player": p, "take": t, "group": g}
           for t in takes for g in st["groups"]]
    if st["can_refresh"]:
        out.append({"type": "draft", "player": p, "take": "refresh"})
    return out


def pick(s: State, cmd: dict, ev: list[dict]) -> None:
    d = s.draft
    st = s.step
    assert d is not None and st is not None
    p = st["player"]
    group = cmd.get("group")
    if group not in d["groups"][p]:
        raise RulesError("S2", _("{player} has no army group of {group!r} left; groups left: "
                                 "{groups}").format(
            player=colour_word(p), group=group,
            groups=join([str(g) for g in sorted(d["groups"][p], reverse=True)])))
    take = cmd.get("take")
    if not isinstance(take, str):
        take = repr(take)  # not a card's name: refused below as any other unknown card
    seen = sorted(d["faceup"])
    if take in d["faceup"]:
        d["last_seen"][p] = seen
        d["faceup"].remove(take)
        _claim(s, p, take, group, ev)
        s.step = None
        return
    if s.game.chance == "physical":
        if take in d["pile"] or take in d["bottom"]:
            d["last_seen"][p] = seen
            _from_pile(d, take)
            _claim(s, p, take, group, ev)
            s.step = None
            return
    elif take == "pile" and (d["pile"] or d["bottom"]):
        d["last_seen"][p] = seen
        s.step = {"kind": "chance", "what": "draft_pile", "rule": "S2", "player": p,
                  "group": group}
        return
    if take in s.map.provinces and take not in s.owner:
        raise RulesError("S1", _("{province} is out of play with {n} players").format(
            province=province_word(take), n=len(s.game.players)))
    faceup = join([province_word(x) for x in d["faceup"]])
    if s.game.chance == "auto":
        raise RulesError("S2", _("take a face-up card ({faceup}) or the pile; {take!r} is not "
                                 "available").format(faceup=faceup, take=take))
    raise RulesError("S2", _("take a face-up card ({faceup}) or name the pile card; {take!r} is "
                             "not available").format(faceup=faceup, take=take))


def refresh(s: State, cmd: dict, ev: list[dict]) -> None:
    st = s.step
    d = s.draft
    assert st is not None and d is not None
    if not st["can_refresh"]:
        raise RulesError("S2", _("a player may put the face-up cards under the pile only when "
                                 "they are the same two as on his previous pick"))
    d["bottom"].extend(sorted(d["faceup"]))
    d["faceup"] = []
    d["last_seen"][st["player"]] = None
    ev.append({"event": "draft_refresh", "player": st["player"]})
    s.step = None


def _from_pile(d: dict, card: str) -> None:
    if card in d["pile"]:
        d["pile"].remove(card)
    else:
        d["bottom"].remove(card)


def draft(s: State, cmd: dict, ev: list[dict]) -> None:
    """The command ``draft``: take a province card with an army group, or put the face-up
    cards under the pile (``take: "refresh"``)."""
    if cmd.get("take") == "refresh":
        refresh(s, cmd, ev)
    else:
        pick(s, cmd, ev)


def _draft_options(s: State, st: dict) -> list[str]:
    d = s.draft
    assert d is not None
    return sorted(d["pile"]) if d["pile"] else d["bottom"][:1]  # rule S2: "under the pile"


def turn_up(s: State, st: dict, card: str, ev: list[dict]) -> None:
    d = s.draft
    assert d is not None
    _from_pile(d, card)
    d["faceup"].append(card)


def take_from_pile(s: State, st: dict, card: str, ev: list[dict]) -> None:
    d = s.draft
    assert d is not None
    _from_pile(d, card)
    _claim(s, st["player"], card, st["group"], ev)


def _claim(s: State, p: str, prov: str, group: int, ev: list[dict]) -> None:
    d = s.draft
    assert d is not None
    d["groups"][p].remove(group)
    d["turn"] = (s.game.players.index(p) + 1) % len(s.game.players)
    _place(s, p, prov, group, ev)


def describe(s: State, st: dict) -> str:
    faceup = join([province_word(x) for x in st.get("faceup") or []]) or _("none")
    return _("{player} drafts a starting province (face up: {faceup}, or the pile)").format(
        player=colour_word(st.get("player", "")), faceup=faceup)


PHASE = Phase("setup", next_step)
DECISIONS = (DecisionKind("draft", "draft", draft, legal, describe=describe, rule="S2"),)
CHANCE = {
    "draft_faceup": ChanceKind(_draft_options, turn_up,
                               name=N_("a province card to lie face up in the draft")),
    "draft_pile": ChanceKind(_draft_options, take_from_pile, name=N_("the draft pile's top card")),
}
