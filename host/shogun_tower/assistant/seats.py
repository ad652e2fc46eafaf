"""Who decides at each seat: a bot, or a person at the table typing answers.

A seat answers ``decide(state, player, turn)`` with one command for the engine. ``turn`` is the
number of commands in the journal so far: a bot draws its choices from a generator seeded by the
game's seed and that number, so a replayed or resumed game asks the same bot the same question
and gets the same answer.
"""

from __future__ import annotations

from shogun_tower.errors import ShogunError
from shogun_tower.rules import State
from shogun_tower.rules.bots import Bot, HeuristicBot, RandomBot
from shogun_tower.rules.chance import options as chance_options
from shogun_tower.rules.constants import ACTIONS, CHESTS, SPECIALS
from shogun_tower.terminal import colour_word

from .console import Console, match

BOT_KINDS: dict[str, type[Bot]] = {"heuristic": HeuristicBot, "random": RandomBot}

ACTION_TITLES = {"castle": "build a castle", "temple": "build a temple",
                 "theatre": "build a Nō theatre", "rice": "collect rice", "tax": "collect tax",
                 "deploy5": "deploy 5 armies", "deploy3": "deploy 3 armies",
                 "deploy1": "deploy 1 army and move", "battle_a": "attack (first battle)",
                 "battle_b": "attack (second battle)"}
SPECIAL_TITLES = {"P1": "+1 tax", "P2": "+1 rice", "P3": "deploy 5 places 6",
                  "P4": "+1 army attacking", "P5": "+1 army defending"}


class BotSeat:
    human = False

    def __init__(self, kind: str = "heuristic", seed: int = 0) -> None:
        if kind not in BOT_KINDS:
            raise ValueError(kind)
        self.kind = kind
        self.seed = seed

    def decide(self, state: State, player: str, turn: int) -> dict:
        bot = BOT_KINDS[self.kind]((self.seed * 1_000_003 + turn * 7919) & 0xFFFFFFFF)
        return bot.decide(state, player)


class HumanSeat:
    """A person at the table. Plans are entered in private (the screen is cleared before and
    after); every other answer is public, as at the real table."""

    human = True

    def __init__(self, console: Console, suggest_seed: int = 0) -> None:
        self.console = console
        self.suggest_seed = suggest_seed

    def _who(self, player: str) -> str:
        return colour_word(player, self.console.colour)

    def decide(self, state: State, player: str, turn: int) -> dict:
        st = state.pending()
        kind = st["kind"]
        return getattr(self, f"_{kind}")(state, player, st, turn)

    # ---- set-up ---------------------------------------------------------------------------
    def _draft(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        faceup = list(state.draft["faceup"]) if state.draft else []
        c.say(f"{self._who(player)} drafts a province (rule S2). Face up: {', '.join(faceup)}; "
              f"army groups left: {', '.join(map(str, st['groups']))}")
        takes = faceup + ["pile"] + (["refresh"] if st.get("can_refresh") else [])
        take = c.choose("take which province (or pile / refresh)? ", takes)
        if take == "refresh":
            return {"type": "draft", "player": player, "take": "refresh"}
        groups = [str(g) for g in st["groups"]]
        group = groups[0] if len(groups) == 1 else c.choose(
            f"place which army group there ({', '.join(groups)})? ", groups)
        return {"type": "draft", "player": player, "take": take, "group": int(group)}

    # ---- a season -------------------------------------------------------------------------
    def _plan(self, state: State, player: str, st: dict, turn: int) -> dict:
        """Rule T3: one card per action space, a bid; typed in private."""
        c = self.console
        c.private(player)
        hand = st["hands"][player]
        provinces = hand["provinces"]
        suggestion = HeuristicBot((self.suggest_seed + turn) & 0xFFFFFFFF).plan(state, player)
        while True:
            c.say(f"{self._who(player)} plans in secret (rule T3). Your province cards: "
                  f"{', '.join(provinces)}; chest cards 0-4; coins {hand['coins']}.")
            c.say("This season's actions, in order: " +
                  ", ".join(ACTION_TITLES[a] for a in state.action_cards) +
                  f". Special cards: {', '.join(SPECIAL_TITLES[p] for p in state.specials)}.")
            c.say("The assistant's suggestion:")
            c.say(plan_text(suggestion))
            if c.confirm("take the suggestion (y) or type your own plan (n)? "):
                command = suggestion
            else:
                command = self._type_plan(state, player, provinces, hand["coins"])
            try:
                state.check(command)
            except Exception as err:  # noqa: BLE001 - RulesError: show it and plan again
                c.say(f"refused: {err}")
                continue
            c.say(plan_text(command))
            if c.confirm("is this your plan (y/n)? "):
                break
        c.wipe()
        c.say(f"{self._who(player)} has planned.")
        return command

    def _type_plan(self, state: State, player: str, provinces: list[str], coins: int) -> dict:
        c = self.console
        c.say("For each action type a province card, a chest value 0-4, or Enter to leave the "
              "space empty.")
        cards = provinces + [str(v) for v in CHESTS]
        actions: dict[str, object] = {}
        for action in ACTIONS:
            actions[action] = _card(c.choose(f"  {ACTION_TITLES[action]:28s}: ", cards, ""))
        bid = _card(c.choose(f"  bid (chest 0-{min(4, coins)} or a province): ", cards, ""))
        return {"type": "plan", "player": player, "actions": actions, "bid": bid}

    def _special(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        c.say(f"{self._who(player)} chooses a place in the turn order (rule T5):")
        for pos in st["positions"]:
            card = st["cards"][str(pos)]
            c.say(f"  {pos}: {card} ({SPECIAL_TITLES.get(card, SPECIALS.get(card, ''))})")
        pos = c.choose("which place? ", [str(p) for p in st["positions"]])
        return {"type": "special", "player": player, "position": int(pos)}

    def _march(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        action = ACTION_TITLES.get(st.get("action", ""), st.get("action", ""))
        c.say(f"{self._who(player)}: {action} from {st['from']} ({st['max_armies'] + 1} armies "
              f"there, at least 1 stays). Targets: {', '.join(st['targets'])}")
        to = c.choose("into which province? ", list(st["targets"]))
        n = c.number(f"how many armies (1-{st['max_armies']})? ", 1, st["max_armies"])
        return {"type": "march", "player": player, "to": to, "armies": n}

    def _move(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        c.say(f"{self._who(player)} may move armies from {st['from']} (rule A8) to: "
              f"{', '.join(st['targets'])}")
        to = c.choose("move into which province (Enter: no move)? ", list(st["targets"]), "")
        if not to:
            return {"type": "move", "player": player, "to": None, "armies": 0}
        n = c.number(f"how many armies (1-{st['max_armies']})? ", 1, st["max_armies"])
        return {"type": "move", "player": player, "to": to, "armies": n}

    def _revolt_order(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        provinces = list(st["provinces"])
        c.say(f"{self._who(player)}: in which order do the revolts in "
              f"{', '.join(provinces)} take place (rule W3)?")
        while True:
            answer = c.ask("order, separated by commas (Enter: as listed)? ")
            if not answer:
                return {"type": "revolt_order", "player": player, "order": provinces}
            try:
                order = [match(w.strip(), provinces) for w in answer.split(",")]
            except ShogunError as err:
                c.say(str(err))
                continue
            return {"type": "revolt_order", "player": player, "order": order}

    def _chance(self, state: State, player: str, st: dict, turn: int) -> dict:
        """Physical cards: the players shuffled and drew; they tell the assistant what came."""
        c = self.console
        opts = chance_options(state, st)
        what = st["what"].replace("_", " ")
        if st["what"] in ("year_events", "specials", "bid_tie", "revolt_draw"):
            n = st.get("count", len(opts))
            c.say(f"Draw {n} ({what}) from: {', '.join(opts)}")
            while True:
                answer = c.ask(f"the {n} drawn, in order, separated by commas? ")
                try:
                    outcome = [match(w.strip(), opts) for w in answer.split(",")]
                except ShogunError as err:
                    c.say(str(err))
                    continue
                return {"type": "chance", "what": st["what"], "outcome": outcome}
        c.say(f"Draw the {what}: one of {', '.join(opts)}")
        outcome = c.choose(f"which {what} was drawn? ", opts)
        return {"type": "chance", "what": st["what"], "outcome": outcome}


def _card(word: str) -> object:
    if word == "":
        return None
    return int(word) if word.isdigit() else word


def plan_text(command: dict) -> str:
    lines = [f"  {ACTION_TITLES[a]:28s} {_card_name(command['actions'].get(a))}"
             for a in ACTIONS]
    lines.append(f"  {'bid':28s} {_card_name(command.get('bid'))}")
    return "\n".join(lines)


def _card_name(card: object) -> str:
    if card is None:
        return "—"
    if isinstance(card, int):
        return f"chest {card}"
    return str(card)
