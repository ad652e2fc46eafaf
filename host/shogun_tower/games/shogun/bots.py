"""Computer players: a random-legal bot and a heuristic bot, so full games run unattended.

A bot answers ``decide(state, player)`` with a command for the current decision point; it keeps
its own Rng so the engine's stream of chance is never disturbed by the bots' choices.
"""

from __future__ import annotations

from shogun_common.rng import Rng
from shogun_tower.games.shogun.rules import State
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARDS, special_words
from shogun_tower.games.shogun.rules.core.constants import (
    ACTION_NAMES,
    ACTIONS,
    BUILD_ACTIONS,
    BUILDING_COST,
    CHESTS,
    DEPLOY,
    MAJORITY_VP,
    PLAN_SPACES,
    TEMPLE,
)
from shogun_tower.games.shogun.rules.core.tower import battle_cubes
from shogun_tower.i18n import _, join
from shogun_tower.words import colour_word, province_word, region_word, sentence


class Bot:
    name = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def decide(self, s: State, player: str) -> dict:
        st = s.step
        assert st is not None
        kind = st["kind"]
        command = self.plan(s, player) if kind == "plan" else self.choose(s, player, st)
        rules = s.game.rules
        if kind == "plan":  # the expansions' plan spaces (rule T3), as each fills its own
            for e in rules.expansions:
                if e.bot_plan is not None:
                    command = e.bot_plan(s, player, command, self.rng)
        elif kind == "choose":  # each question's own policy, else any option
            values = [o["value"] for o in st["options"]]
            question = rules.questions[st["what"]]
            option = question.bot(s, player, st, values, self.rng) if question.bot \
                else self.rng.choice(values)
            command = {"type": "choose", "player": player, "what": st["what"],
                       "option": option}
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
        need = min(PLAN_SPACES, len(cards))
        bids = [c for c in cards if not isinstance(c, int) or c <= s.coins[player]]
        bid = self.rng.choice(bids)
        rest = [c for c in cards if c != bid or type(c) is not type(bid)]
        slots: list[object] = rest[: need - 1] + [None] * (len(ACTIONS) - (need - 1))
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
        # buildings first (each is a VP every winter), where they help a region majority
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
        # deployments where the threat is highest
        for action, cost in (("deploy5", 3), ("deploy3", 2), ("deploy1", 1)):
            if budget - cost < 2:
                continue
            x = best(lambda x: threat[x] - s.armies[x] + self.rng.random())
            if x is not None and threat[x] > 0:
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
        return _complete_plan(player, actions, bid, leftover, len(mine))

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
            peace = s.event_card_effect() == "temple_peace"
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

    # ---- why: what the coach's `hint` says (table/coach.py); it decides nothing ------------
    def why(self, s: State, player: str, command: dict) -> list[str]:
        """Why this bot answers ``command`` at the current decision point, in sentences for a
        player, from what its decision read ([] where it has nothing to say). An expansion's
        spaces and questions say their own (``Expansion.plan_why``, ``Question.why``)."""
        st = s.step
        explain = getattr(self, f"_why_{st['kind']}", None) if st else None
        return explain(s, player, st, command) if explain is not None else []

    def _why_draft(self, s: State, player: str, st: dict, command: dict) -> list[str]:
        take = command["take"]
        if take not in s.map.provinces:
            return [_("Take the top card of the pile: no province card lies face up.")]
        info = s.map.provinces[take]
        return [_("Take {province} (rice {rice}, tax {tax}), the richest card face up, and put "
                  "your group of {group} armies there.").format(
                    province=province_word(take), rice=info.rice, tax=info.tax,
                    group=command["group"])]

    def _why_special(self, s: State, player: str, st: dict, command: dict) -> list[str]:
        place = command["position"]
        card = st["cards"][str(place)]
        planned = s.plans[player]["actions"]
        reasons = {
            "P4": (_("Take place {place} ({card}): you plan a Battle/Move this season.")
                   if any(isinstance(planned[a], str) for a in ("battle_a", "battle_b"))
                   else None),
            "P1": (_("Take place {place} ({card}): you plan a Tax this season.")
                   if isinstance(planned["tax"], str) else None),
            "P3": (_("Take place {place} ({card}): you plan a Deploy 5 this season.")
                   if isinstance(planned["deploy5"], str) else None),
            "P5": _("Take place {place} ({card}): it makes your provinces harder to take."),
            "P2": _("Take place {place} ({card}): more rice for the winter."),
        }
        text = reasons.get(card) or _("Take place {place}, the first one free: none of the "
                                      "cards the bot looks for is left.")
        return [text.format(place=place, card=special_words(card))]

    def _why_move(self, s: State, player: str, st: dict, command: dict) -> list[str]:
        frm, to = st["from"], command.get("to")
        if to is not None:
            threat = self._threat(s, player, to)
            return [sentence(threat, "Move {armies} armies from {frm} to {to}: no enemy "
                                     "borders {frm}, and {to} borders {n} enemy army.",
                             "Move {armies} armies from {frm} to {to}: no enemy borders "
                             "{frm}, and {to} borders {n} enemy armies.",
                             armies=command["armies"], frm=province_word(frm),
                             to=province_word(to))]
        threat = self._threat(s, player, frm)
        if threat:
            return [sentence(threat, "No move: {frm} borders {n} enemy army, so its armies "
                                     "stay.", "No move: {frm} borders {n} enemy armies, so "
                                              "its armies stay.", frm=province_word(frm))]
        return [_("No move: none of the provinces you could reach borders an enemy army.")]

    def _why_revolt_order(self, s: State, player: str, st: dict,
                          command: dict) -> list[str]:
        return [_("Fight the revolts where you hold the most armies first: {order}.").format(
            order=join([province_word(p) for p in command["order"]]))]


class OddsBot(HeuristicBot):
    """Plans with the exact battle odds and the scoring (rule W4): attacks where the
    odds pay for the armies at risk, builds where a region majority is won or kept, collects
    just the rice the winter needs, deploys where attacks are planned or borders threatened."""

    name = "odds"

    def __init__(self, seed: int = 0, params: object = None) -> None:
        super().__init__(seed)
        from shogun_tower.games.shogun.odds.model import DEFAULT

        self.params = params or DEFAULT

    # ---- the exact odds ----------------------------------------------------------------
    def _attack(self, s: State, p: str, frm: str, to: str, n: int) -> tuple[float, float]:
        """(P(the attacker takes ``to``), expected armies moved in if he does)."""
        from shogun_tower.games.shogun.odds.throws import battle_odds

        defender = s.owner[to]
        into = battle_cubes(p, n, defender, s.armies[to] if defender else 0,
                            attack_card=defender is not None and s.special(p) == "P4",
                            defence_card=defender is not None and s.special(defender) == "P5",
                            event=s.event, castle="castle" in s.buildings[to])
        odds = battle_odds(p, defender, into, s.tray, s.tower,
                           farmers_fight=defender is None or s.markers[to] == 0,
                           params=self.params)  # type: ignore[arg-type]
        return odds.outcomes["attacker"], odds.expected_armies("attacker")

    def _worth(self, s: State, p: str, y: str) -> float:
        """VP-like value of owning ``y`` until the game ends: the province and its buildings
        each winter left, a region majority it would tip, a little for rice and tax."""
        winters = 3 - s.year + 1
        info = s.map.provinces[y]
        value = (1 + len(s.buildings[y])) * winters
        region = info.region
        mine = sum(1 for x in s.map.regions[region] if s.owner.get(x) == p)
        value += 0.5 * winters if mine >= len(s.map.regions[region]) // 2 else 0.0
        if s.owner[y] is not None:
            value += 0.5 * (1 + len(s.buildings[y])) * winters  # the defender loses them
        return value + 0.15 * (info.rice + info.tax) - 0.5 * s.markers[y]

    def _best_attack(self, s: State, p: str, frm: str, targets: list[str],
                     n: int) -> tuple[str | None, float, int]:
        """The target with the best expected gain of an attack with ``n`` armies (cheap
        heuristic pre-selection, exact odds for the few best)."""
        army_value = 0.35
        cands = sorted(targets, key=lambda y: -(n - 1.6 * (s.armies[y] if s.owner[y] else 1)
                                               + self._worth(s, p, y)))[:2]
        best, best_gain, best_n = None, 0.0, n
        for y in cands:
            win, moved = self._attack(s, p, frm, y, n)
            gain = win * (self._worth(s, p, y) + army_value * moved) - army_value * n
            if gain > best_gain:
                best, best_gain, best_n = y, gain, n
        return best, best_gain, best_n

    # ---- planning ------------------------------------------------------------------------
    def plan(self, s: State, player: str) -> dict:
        mine = [x for x, o in s.owner.items() if o == player]
        provs = s.map.provinces
        free = dict.fromkeys(mine)
        actions: dict[str, object] = dict.fromkeys(ACTIONS)
        coins = s.coins[player]

        def take(action: str, prov: str | None) -> None:
            if prov is not None and prov in free:
                actions[action] = prov
                free.pop(prov, None)

        threat = {x: self._threat(s, player, x) for x in mine}
        # attacks first: they decide where armies go. The few most promising (origin, target)
        # pairs by a cheap count are priced with the exact odds; the best two origins attack.
        pairs = []
        for x in free:
            if s.armies[x] < 3:
                continue
            for y in sorted(provs[x].neighbours):
                if y in s.owner and s.owner[y] != player:
                    cheap = (s.armies[x] - 1 - 1.6 * (s.armies[y] if s.owner[y] else 1)
                             + self._worth(s, player, y))
                    pairs.append((cheap, x, y))
        priced = []
        for _cheap, x, y in sorted(pairs, reverse=True)[:4]:
            win, moved = self._attack(s, player, x, y, s.armies[x] - 1)
            gain = win * (self._worth(s, player, y) + 0.35 * moved) - 0.35 * (s.armies[x] - 1)
            priced.append((gain, x))
        planned: list[str] = []
        for gain, x in sorted(priced, reverse=True):
            if gain > 0.6 and x not in planned and len(planned) < 2:
                take("battle_b" if planned else "battle_a", x)
                planned.append(x)
        # rice for the coming winter: provinces + the expected loss
        losses = [EVENT_CARDS[e]["rice_loss"] for e in s.events_up] or [3]
        need = len(mine) + sum(losses) / len(losses) - s.rice[player]
        if need > 0:
            take("rice", max(free, key=lambda x: provs[x].rice - 2 * s.markers[x],
                             default=None))
        take("tax", max(free, key=lambda x: provs[x].tax - 2 * s.markers[x], default=None))
        budget = coins + (provs[actions["tax"]].tax if isinstance(actions["tax"], str) else 0)
        # buildings: each is a VP every winter left, plus the region majorities it tips
        for action in ("castle", "temple", "theatre"):
            kind = BUILD_ACTIONS[action]
            cost = BUILDING_COST[kind]
            if budget < cost + 1:
                continue
            cands = [x for x in free if kind not in s.buildings[x]
                     and len(s.buildings[x]) < provs[x].building_slots]
            if not cands:
                continue
            x = max(cands, key=lambda x: (self._majority_gain(s, player, x, kind)
                                          - 0.3 * threat[x] + 0.1 * s.armies[x]))
            take(action, x)
            budget -= cost
        # deployments: the planned attackers first, then the most threatened borders
        for action, cost in (("deploy5", 3), ("deploy3", 2), ("deploy1", 1)):
            if budget < cost:
                continue
            pool = [x for x in planned if x in free] or list(free)
            x = max(pool, key=lambda x: threat[x] - s.armies[x] + self.rng.random(),
                    default=None)
            if x is not None and (x in planned or threat[x] > 0):
                take(action, x)
                budget -= cost
        leftover = sorted(free)
        bid: object = leftover.pop(0) if leftover else 0
        return _complete_plan(player, actions, bid, leftover, len(mine))

    def _majority_gain(self, s: State, p: str, x: str, kind: str) -> float:
        """VP a building of ``kind`` in ``x`` adds at the next winter (itself + majority)."""
        region = s.map.provinces[x].region
        count: dict[str, int] = {}
        for y in s.map.regions[region]:
            o = s.owner.get(y)
            if o and kind in s.buildings[y]:
                count[o] = count.get(o, 0) + 1
        mine = count.get(p, 0)
        others = max((c for o, c in count.items() if o != p), default=0)
        value = MAJORITY_VP[kind]
        before = value if mine > others else (value - 1 if mine == others and mine else 0)
        after = value if mine + 1 > others else (value - 1 if mine + 1 == others else 0)
        return 1 + after - before

    # ---- Battle/Move ---------------------------------------------------------------------
    def choose(self, s: State, player: str, st: dict) -> dict:
        if st["kind"] != "march":
            return super().choose(s, player, st)
        frm, top = st["from"], st["max_armies"]
        enemies = [y for y in st["targets"] if s.owner[y] != player]
        best, gain, n = self._best_attack(s, player, frm, enemies, top)
        if best is not None:
            return {"type": "march", "player": player, "to": best, "armies": n}
        own = [y for y in st["targets"] if s.owner[y] == player]
        if own:
            to = max(own, key=lambda y: self._threat(s, player, y))
            n = top if self._threat(s, player, frm) == 0 else max(1, top // 2)
            return {"type": "march", "player": player, "to": to, "armies": n}
        return super().choose(s, player, st)  # a battle is mandatory: the heuristic's

    # ---- why: the reasons of a plan and of a Battle/Move, from the same odds and scores ----
    def _why_march(self, s: State, player: str, st: dict, command: dict) -> list[str]:
        to, n, frm = command["to"], command["armies"], st["from"]
        if s.owner[to] == player:
            return [sentence(n, "No battle from {frm} pays for the armies it risks: move {n} "
                                "army to {to}, the province of yours most exposed to enemy "
                                "armies.",
                             "No battle from {frm} pays for the armies it risks: move {n} "
                             "armies to {to}, the province of yours most exposed to enemy "
                             "armies.", frm=province_word(frm), to=province_word(to))]
        enemies = [y for y in st["targets"] if s.owner[y] != player]
        best = self._best_attack(s, player, frm, enemies, st["max_armies"])[0]
        return [self._battle_sentence(s, player, frm, to, n, chosen=best == to)]

    def _battle_sentence(self, s: State, player: str, frm: str, to: str, n: int,
                         chosen: bool = True) -> str:
        """One battle's chance, from the exact odds (what is known inside the tower)."""
        win, moved = self._attack(s, player, frm, to, n)
        defender = s.owner[to]
        values = {"to": province_word(to), "frm": province_word(frm),
                  "defender": colour_word(defender) if defender else defender,
                  "held": s.armies[to],
                  "win": round(100 * win), "moved": round(moved),
                  "inside": sum(s.tower.values())}
        if not chosen:  # Battle/Move must be done when it can (A9)
            return sentence(n, "Battle/Move must be done and no battle pays: {to} from "
                               "{frm} with {n} army is the least bad, {win}% to take it.",
                            "Battle/Move must be done and no battle pays: {to} from {frm} "
                            "with {n} armies is the least bad, {win}% to take it.", **values)
        # one army says no "staying there" (it is the one that stays): two sentences, chosen
        # by what they say, each translated whole
        if defender is None:
            return (_("From {frm}, attack neutral {to} with {n} army: {win}% to take it (cubes "
                      "inside the tower: {inside}).") if n == 1 else
                    _("From {frm}, attack neutral {to} with {n} armies: {win}% to take it, "
                      "about {moved} staying there (cubes inside the tower: {inside}).")
                    ).format(n=n, **values)
        return (_("From {frm}, attack {defender}'s {to} ({held} there) with {n} army: {win}% "
                  "to take it (cubes inside the tower: {inside}).") if n == 1 else
                _("From {frm}, attack {defender}'s {to} ({held} there) with {n} armies: {win}% "
                  "to take it, about {moved} staying there (cubes inside the tower: "
                  "{inside}).")).format(n=n, **values)

    def _why_plan(self, s: State, player: str, st: dict, command: dict) -> list[str]:
        """One sentence per planned action and for the bid: what it brings, by the numbers
        the plan weighed (the odds of its battles, the winter's rice, the majorities)."""
        from shogun_tower.games.shogun.rules.phases.actions import action_terms

        mine = [x for x, o in s.owner.items() if o == player]
        planned = command["actions"]
        attackers = [planned[a] for a in ("battle_a", "battle_b") if isinstance(planned[a], str)]
        losses = [EVENT_CARDS[e]["rice_loss"] for e in s.events_up] or [3]
        out = []
        for action in ACTIONS:
            x = planned[action]
            if not isinstance(x, str):
                continue
            if x not in s.map.provinces:  # the court's cube-tower card, kept off its spaces
                out.append(_("{action} — a cube-tower card: no action there, like a chest card "
                             "(it converts only on the court's spaces).").format(
                    action=_(ACTION_NAMES[action])))
                continue
            terms = action_terms(s, player, action, x)
            info = s.map.provinces[x]
            values = {"province": province_word(x), "region": region_word(info.region)}
            if action in ("battle_a", "battle_b"):
                text = self._plan_battle(s, player, x)
            elif action == "rice":
                need = round(len(mine) + sum(losses) / len(losses) - s.rice[player])
                amount = info.rice + terms["amount"]
                text = (sentence(need, "{province} gives {amount} rice; the winter needs about "
                                       "{n} more.", "{province} gives {amount} rice; the "
                                                    "winter needs about {n} more.",
                                 amount=amount, **values) if need > 0 else
                        _("{province} gives {amount} rice; the winter is already covered.")
                        .format(amount=amount, **values))
            elif action == "tax":
                tax = info.tax + terms["amount"]
                text = (_("{province} gives {n} coin.") if tax == 1 else
                        _("{province} gives {n} coins, the best tax of the provinces left "
                          "free.")).format(n=tax, **values)
            elif action in BUILD_ACTIONS:
                kind = BUILD_ACTIONS[action]
                cost = max(0, BUILDING_COST[kind] + terms["cost"])
                gain = round(self._majority_gain(s, player, x, kind))
                text = (_("{province}: 1 VP every winter (cost {cost}).") if gain == 1 else
                        _("{province}: {n} VP next winter, the building and the {region} "
                          "region's majority (cost {cost}).")).format(n=gain, cost=cost,
                                                                      **values)
            else:  # the three Deploy actions
                armies = DEPLOY[action][1] + terms["amount"]
                if x in attackers:
                    text = sentence(armies, "{province}: {n} army more for the attack planned "
                                            "there.", "{province}: {n} armies more for the "
                                                      "attack planned there.", **values)
                else:
                    text = sentence(self._threat(s, player, x),
                                    "{province}: it borders {n} enemy army.",
                                    "{province}: it borders {n} enemy armies.", **values)
            # Translators: a planned action and why ("Tax — Owari gives 5 coins, ...")
            out.append(_("{action} — {reason}").format(action=_(ACTION_NAMES[action]),
                                                        reason=text))
        bid = command.get("bid")
        if isinstance(bid, str):
            out.append(_("Bid — {province}: a province card bids for free and comes before a "
                         "bid of 0; {province} does no action this season.").format(
                province=province_word(bid)))
        elif bid is not None:
            out.append(sentence(bid, "Bid — {n} coin.", "Bid — {n} coins.")
                       if bid else _("Bid — 0: no province card is left to bid."))
        chests = [_(ACTION_NAMES[a]) for a in ACTIONS if isinstance(planned[a], int)]
        if chests:
            out.append(_("Chest cards, no action — {spaces}.").format(spaces=join(chests)))
        return out

    def _plan_battle(self, s: State, player: str, x: str) -> str:
        """The best battle from ``x`` with every army but one, as the plan priced it."""
        n = s.armies[x] - 1
        enemies = [y for y in sorted(s.map.provinces[x].neighbours)
                   if y in s.owner and s.owner[y] != player]
        if n < 1 or not enemies:
            return _("{province}: no battle from it now; it moves armies if it can.").format(
                province=province_word(x))
        best = max(enemies, key=lambda y: self._gain(s, player, x, y, n))
        return self._battle_sentence(s, player, x, best, n)

    def _gain(self, s: State, player: str, x: str, y: str, n: int) -> float:
        win, moved = self._attack(s, player, x, y, n)
        return win * (self._worth(s, player, y) + 0.35 * moved) - 0.35 * n


BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "odds": OddsBot}
assert EVENT_CARDS


def _complete_plan(player: str, actions: dict, bid: object, leftover: list,
                   provinces: int) -> dict:
    """Fill the spaces still empty so the plan is complete (rule T3): chests first, since a
    spare province card on an empty space would be forced to act."""
    pool: list[object] = leftover + [c for c in CHESTS if c != bid]
    need = min(PLAN_SPACES, provinces + len(CHESTS))
    filled = sum(1 for v in actions.values() if v is not None) + 1
    for a in ACTIONS:
        if filled >= need:
            break
        if actions[a] is None:
            chest = next((c for c in pool if isinstance(c, int)), None)
            card = chest if chest is not None else pool[0]
            pool.remove(card)
            actions[a] = card
            filled += 1
    return {"type": "plan", "player": player, "actions": actions, "bid": bid}


# Shogun's bots by the name --bot gives them (the table's seats and the games' catalogue)
BOT_KINDS: dict[str, type[Bot]] = {"heuristic": HeuristicBot, "random": RandomBot,
                                    "odds": OddsBot}
