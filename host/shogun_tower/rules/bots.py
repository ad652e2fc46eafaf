"""Computer players: a random-legal bot and a heuristic bot, so full games run unattended.

A bot answers ``decide(state, player)`` with a command for the current decision point; it keeps
its own Rng so the engine's stream of chance is never disturbed by the bots' choices.
"""

from __future__ import annotations

from shogun_common.rng import Rng

from .constants import ACTIONS, BUILD_ACTIONS, BUILDING_COST, CHESTS, EVENTS, TEMPLE
from .state import State


class Bot:
    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def decide(self, s: State, player: str) -> dict:
        st = s.step
        assert st is not None
        kind = st["kind"]
        command = self.plan(s, player) if kind == "plan" else self.choose(s, player, st)
        if s.game.expansions or kind == "choose":  # the expansions' spaces and questions
            from .expansions.bots import decide

            command = decide(s, player, command, self.rng)
        return command

    def plan(self, s: State, player: str) -> dict:
        raise NotImplementedError

    def choose(self, s: State, player: str, st: dict) -> dict:
        return self.rng.choice(s.legal_commands())


class RandomBot(Bot):
    """Any legal choice, uniformly; plans are random legal card layouts (rule T3)."""

    name = "random"

    def plan(self, s: State, player: str) -> dict:
        provinces = sorted(x for x, o in s.owner.items() if o == player)
        cards: list[object] = list(provinces) + list(CHESTS)
        self.rng.shuffle(cards)
        need = min(11, len(cards))
        bids = [c for c in cards if not isinstance(c, int) or c <= s.coins[player]]
        bid = self.rng.choice(bids)
        rest = [c for c in cards if c != bid or type(c) is not type(bid)]
        slots: list[object] = rest[: need - 1] + [None] * (10 - (need - 1))
        self.rng.shuffle(slots)
        return {"type": "plan", "player": player, "actions": dict(zip(ACTIONS, slots, strict=True)),
                "bid": bid}


class HeuristicBot(Bot):
    """Keeps rice for winter, collects tax when poor, builds for majorities, attacks weaker
    neighbours, reinforces threatened borders."""

    name = "heuristic"

    def plan(self, s: State, player: str) -> dict:
        mine = [x for x, o in s.owner.items() if o == player]
        provs = s.map.provinces
        free = dict.fromkeys(mine)  # ordered, so a seeded game is reproducible
        actions: dict[str, object] = dict.fromkeys(ACTIONS)
        coins = s.coins[player]
        budget = coins

        def take(action: str, prov: str | None) -> None:
            if prov is not None:
                actions[action] = prov
                free.pop(prov, None)

        def best(key, pool=None) -> str | None:  # noqa: ANN001
            cands = [x for x in (pool if pool is not None else free) if x in free]
            return max(cands, key=key) if cands else None

        # rice for winter: expected loss is unknown until the last season; assume 4
        seasons_left = 3 - s.season
        need = len(mine) + 4 - s.rice[player]
        if need > 0 or seasons_left <= 1:
            take("rice", best(lambda x: provs[x].rice * 2 - 3 * s.markers[x]))
        if coins < 12 or self.rng.chance(0.5):
            take("tax", best(lambda x: provs[x].tax * 2 - 3 * s.markers[x]))
        budget += provs[actions["tax"]].tax if isinstance(actions["tax"], str) else 0

        threat = {x: self._threat(s, player, x) for x in mine}
        # attacks: strongest province with a weaker neighbour
        for action in ("battle_a", "battle_b"):
            cand = None
            best_gain = 0.0
            for x in free:
                a = s.armies[x]
                if a < 3:
                    continue
                for y in sorted(provs[x].neighbours):
                    if y not in s.owner or s.owner[y] == player:
                        continue
                    d = s.armies[y] if s.owner[y] else 1
                    gain = (a - 1) - 1.6 * d - 1
                    if gain > best_gain:
                        best_gain, cand = gain, x
            take(action, cand)
        # deployments where the threat is highest
        for action, cost in (("deploy5", 3), ("deploy3", 2), ("deploy1", 1)):
            if budget - cost < 2:
                continue
            x = best(lambda x: threat[x] - s.armies[x] + self.rng.random())
            if x is not None and threat[x] > 0:
                take(action, x)
                budget -= cost
        # buildings where they help a region majority
        for action in ("castle", "temple", "theatre"):
            kind = BUILD_ACTIONS[action]
            cost = BUILDING_COST[kind]
            if budget - cost < 1:
                continue
            cands = [x for x in free if kind not in s.buildings[x]
                     and len(s.buildings[x]) < provs[x].building_slots]
            if not cands:
                continue
            x = max(cands, key=lambda x: (-threat[x], self._region_weight(s, player, x),
                                          s.armies[x]))
            take(action, x)
            budget -= cost
        # bid: a province card is free and beats chest 0 (rule T5)
        leftover = sorted(free)
        bid: object
        if coins > 14 and self.rng.chance(0.5):
            bid = min(2, coins)
        elif leftover:
            bid = leftover.pop(0)
        else:
            bid = 0
        # fill the remaining spaces with cards so the plan is complete (rule T3)
        pool: list[object] = leftover + [c for c in CHESTS if c != bid]
        need = min(11, len(mine) + 5)
        filled = sum(1 for v in actions.values() if v is not None) + 1
        for a in ACTIONS:
            if filled >= need:
                break
            if actions[a] is None:
                # prefer chests on empty spaces: spare provinces would be forced to act
                chest = next((c for c in pool if isinstance(c, int)), None)
                card = chest if chest is not None else pool[0]
                pool.remove(card)
                actions[a] = card
                filled += 1
        return {"type": "plan", "player": player, "actions": actions, "bid": bid}

    def _threat(self, s: State, p: str, x: str) -> int:
        return sum(s.armies[y] for y in s.map.provinces[x].neighbours
                   if y in s.owner and s.owner[y] not in (None, p))

    def _region_weight(self, s: State, p: str, x: str) -> int:
        region = s.map.provinces[x].region
        return sum(1 for y in s.map.regions[region] if s.owner.get(y) == p)

    def choose(self, s: State, player: str, st: dict) -> dict:
        kind = st["kind"]
        if kind == "draft":
            provs = s.map.provinces
            faceup = st["faceup"]
            take = max(faceup, key=lambda x: 3 * provs[x].rice + 2 * provs[x].tax) \
                if faceup else "pile"
            return {"type": "draft", "player": player, "take": take, "group": st["groups"][0]}
        if kind == "special":
            plan = s.plans[player]
            want = []
            if isinstance(plan["actions"]["battle_a"], str) or \
                    isinstance(plan["actions"]["battle_b"], str):
                want.append("P4")
            if isinstance(plan["actions"]["tax"], str):
                want.append("P1")
            if isinstance(plan["actions"]["deploy5"], str):
                want.append("P3")
            want += ["P5", "P2"]
            for card in want:
                for pos in st["positions"]:
                    if st["cards"][str(pos)] == card:
                        return {"type": "special", "player": player, "position": pos}
            return {"type": "special", "player": player, "position": st["positions"][0]}
        if kind == "march":
            frm = st["from"]
            a = st["max_armies"]
            peace = s.event_effect() == "temple_peace"
            best, score = None, -1e9
            for y in st["targets"]:
                owner = s.owner[y]
                if owner == player:
                    sc = self._threat(s, player, y) - self._threat(s, player, frm) - 2
                else:
                    d = s.armies[y] if owner else 1
                    sc = a - 1.6 * d + s.map.provinces[y].rice
                    if peace and TEMPLE in s.buildings[y]:
                        continue
                if sc > score:
                    best, score = y, sc
            assert best is not None
            if s.owner[best] == player:
                n = max(1, a // 2)
            else:
                n = a
            return {"type": "march", "player": player, "to": best, "armies": n}
        if kind == "move":
            frm = st["from"]
            if self._threat(s, player, frm) == 0:
                to = max(st["targets"], key=lambda y: self._threat(s, player, y))
                if self._threat(s, player, to) > 0:
                    return {"type": "move", "player": player, "to": to,
                            "armies": st["max_armies"]}
            return {"type": "move", "player": player, "to": None, "armies": 0}
        if kind == "revolt_order":
            order = sorted(st["provinces"], key=lambda x: -s.armies[x])
            return {"type": "revolt_order", "player": player, "order": order}
        return super().choose(s, player, st)


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
assert EVENTS
