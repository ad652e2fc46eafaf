"""Winter (rules W1-W6): rice loss, provisions table, revolts, scoring, the year's end."""

from __future__ import annotations

from itertools import permutations

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARDS
from shogun_tower.games.shogun.rules.core.constants import provisions
from shogun_tower.games.shogun.rules.core.ruleset import ChanceKind, DecisionKind, Phase
from shogun_tower.games.shogun.rules.core.scoring import ranking, score
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.games.shogun.rules.core.tower import start_revolt
from shogun_tower.i18n import N_, _, join
from shogun_tower.words import colour_word, province_word


def next_step(s: State, ev: list[dict]) -> dict | None:
    if s.winter is None:
        # rule W1: the year's 4th event card, the one never drawn for a season
        loss = EVENT_CARDS[s.events_up[0]]["rice_loss"] if s.events_up else 0
        queue = []
        for p in s.turn_order:  # rule W3: autumn turn order
            s.rice[p] = max(0, s.rice[p] - loss)
            owned = sum(1 for o in s.owner.values() if o == p)
            shortage = max(0, owned - s.rice[p])  # rule W2
            revolts, extra = provisions(shortage)
            ev.append({"event": "winter_supply", "player": p, "rice_lost": loss,
                       "rice": s.rice[p], "provinces": owned, "shortage": shortage,
                       "revolts": revolts, "extra_farmers": extra})
            if revolts:
                queue.append({"player": p, "revolts": revolts, "extra": extra,
                              "drawn": None, "order": None})
        s.winter = {"queue": queue, "current": None}
    w = s.winter
    while True:
        cur = w["current"]
        if cur is None:
            if not w["queue"]:
                break
            cur = w["current"] = w["queue"].pop(0)
        p = cur["player"]
        if cur["drawn"] is None:
            owned = sum(1 for o in s.owner.values() if o == p)
            k = min(cur["revolts"], owned)
            if k == 0:
                w["current"] = None
                continue
            # rule W3: the left neighbour draws k of the player's province cards
            return {"kind": "chance", "what": "revolt_draw", "rule": "W3", "player": p,
                    "count": k, "drawer": _left(s, p)}
        if cur["order"] is None:
            if len(cur["drawn"]) > 1:
                return {"kind": "revolt_order", "player": p, "rule": "W3",
                        "provinces": list(cur["drawn"])}
            cur["order"] = list(cur["drawn"])
        while cur["order"]:
            prov = cur["order"].pop(0)
            if s.owner.get(prov) == p:
                farmers = s.markers[prov] + cur["extra"]  # rules V2, W3
                return start_revolt(s, p, prov, farmers, {"winter": True}, ev)
        w["current"] = None
    s.winter = None
    return None


def scoring_step(s: State, ev: list[dict]) -> None:
    """Rule W4: the winter's scoring, once every winter revolt is over."""
    table = score(s.map, s.game.players, s.owner, s.buildings)
    for p, row in table.items():
        s.vp[p] += row["total"]
    s.scores.append({"year": s.year, "table": table})
    ev.append({"event": "scored", "year": s.year, "table": table, "vp": dict(s.vp)})


def year_end_step(s: State, ev: list[dict]) -> None:
    """Rules W5, W6: after the first winter a new year; after the second the game's end. The
    expansions' steps of the winter's end (a leader's move, X3.5) come before this one."""
    if s.year == 1:  # rule W5
        s.events_up = []
        for p in s.game.players:
            s.rice[p] = 0
        for prov in s.markers:
            s.markers[prov] = 0
        s.year = 2
        s.season = 0
        return
    final_scoring(s, ev)
    s.result = ranking(s.vp, s.coins)
    ev.append({"event": "game_over", **s.result})


def final_scoring(s: State, ev: list[dict]) -> None:
    """Rule W6: the expansions' end-of-game points (hook ``final_scoring``), added before the
    ranking and kept in the last scores entry under ``final``."""
    final: dict[str, dict[str, int]] = {}
    for terms in s.hook("final_scoring", ev):
        for p, row in terms.items():
            final.setdefault(p, {}).update(row)
    if not final:
        return
    for p, row in final.items():
        s.vp[p] += sum(row.values())
    s.scores[-1]["final"] = final
    ev.append({"event": "final_scored", "table": final, "vp": dict(s.vp), "rule": "W6"})


def _left(s: State, p: str) -> str:
    players = s.game.players
    return players[(players.index(p) + 1) % len(players)]


def after_draw(s: State, st: dict, drawn: list[str], ev: list[dict]) -> None:
    assert s.winter is not None
    s.winter["current"]["drawn"] = list(drawn)


def revolt_order(s: State, cmd: dict, ev: list[dict]) -> None:
    st = s.step
    assert st is not None and s.winter is not None
    order = cmd.get("order")
    if not isinstance(order, list) or sorted(order) != sorted(st["provinces"]):
        raise RulesError("W3", _("give the order of the revolts as a list of exactly "
                                 "{provinces}").format(provinces=join(st["provinces"])))
    s.winter["current"]["order"] = list(order)
    ev.append({"event": "revolt_order", "player": st["player"], "order": list(order)})
    s.step = None


def legal(s: State) -> list[dict]:
    st = s.step
    assert st is not None
    return [{"type": "revolt_order", "player": st["player"], "order": list(o)}
            for o in permutations(st["provinces"])]


def _revolt_cards(s: State, st: dict) -> list[str]:
    return sorted(p for p, o in s.owner.items() if o == st["player"])


def describe(s: State, st: dict) -> str:
    return _("{player} orders the winter revolts: {provinces}").format(
        player=colour_word(st.get("player", "")),
        provinces=join([province_word(x) for x in st.get("provinces") or []]))


# Winter in three phases (rule W): its revolts, its scoring, then the year's end; an expansion's
# step at the end of winter goes between the last two (a leader's move, X3.5).
PHASES = (Phase("winter", next_step), Phase("winter_scoring", scoring_step),
          Phase("year_end", year_end_step))
DECISIONS = (DecisionKind("revolt_order", "revolt_order", revolt_order, legal,
                          describe=describe, rule="W3"),)
CHANCE = {"revolt_draw": ChanceKind(_revolt_cards, after_draw, several=True,
                                    name=N_("revolt cards"))}
