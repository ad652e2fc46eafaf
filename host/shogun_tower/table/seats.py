"""Who decides at each seat: a bot, or a person at the table typing answers.

A seat answers ``decide(state, player, turn)`` with one command for the engine. ``turn`` is the
number of commands in the journal so far: a bot draws its choices from a generator seeded by the
game's seed and that number, so a replayed or resumed game asks the same bot the same question
and gets the same answer.
"""

from __future__ import annotations

from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.bots import BOT_KINDS, HeuristicBot
from shogun_tower.games.shogun.narrate import CHANCE_NAMES, special_text
from shogun_tower.games.shogun.rules import RulesError, State
from shogun_tower.games.shogun.rules.core.chance import draws_several
from shogun_tower.games.shogun.rules.core.chance import options as chance_options
from shogun_tower.games.shogun.rules.core.constants import ACTION_NAMES, ACTIONS
from shogun_tower.games.shogun.rules.engine import describe
from shogun_tower.table.boards import board_lines
from shogun_tower.table.console import Console, match
from shogun_tower.table.phones import (
    card_value,
    plan_cards,
    plan_command,
    plan_entry_errors,
    plan_spaces,
    space_name,
)
from shogun_tower.table.terminal import colour_word

SPACE_NAMES = {**ACTION_NAMES, "bid": "Bid"}


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

    def __init__(self, console: Console, suggest_seed: int = 0, odds: object = "default") -> None:
        self.console = console
        self.suggest_seed = suggest_seed
        # the tower model for 'odds' at the Battle/Move question; None: no odds
        self.odds = odds

    def _who(self, player: str) -> str:
        return colour_word(player, self.console.colour)

    def decide(self, state: State, player: str, turn: int) -> dict:
        st = state.pending()
        kind = st["kind"]
        ask = getattr(self, f"_{kind}", None) or self._any  # a kind with no prompt of its own
        return ask(state, player, st, turn)

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
        """Rule T3: one card per action space, a bid; typed in private, each entry checked by
        the engine as it is typed, every entry kept when the plan is refused."""
        c = self.console
        season = (state.year, state.season)
        if c.held_for != season:
            # the season's last results (and the winter's scoring) stay readable until now
            c.hold("The screen is cleared next for secret planning.")
            c.held_for = season
        c.private(player)
        hand = st["hands"][player]
        more = "".join(f"; {n} {k} cards" for k, n in hand.get("cards", {}).items())
        c.say(f"{self._who(player)} plans in secret (rule T3). Your province cards: "
              f"{', '.join(hand['provinces'])}; chest cards 0-4{more}; coins {hand['coins']}.")
        c.say("This season's actions, in order: " +
              ", ".join(ACTION_NAMES[a] for a in state.action_cards) +
              f". Special cards: {', '.join(special_text(p) for p in state.specials)}.")
        suggestion = HeuristicBot((self.suggest_seed + turn) & 0xFFFFFFFF).decide(state, player)
        c.say("The assistant's suggestion:")
        c.say(plan_text(suggestion))
        if c.confirm("take the suggestion (y) or type your own plan (n)? "):
            # the bid as planned: a cube-tower card bid is kept as the card (bid_card, X1.4)
            entries = {**suggestion["actions"], **suggestion.get("extra", {}),
                       "bid": suggestion.get("bid_card", suggestion["bid"])}
        else:
            kinds = "".join(f", a {k} card" for k in hand.get("cards", {}))
            c.say(f"For each space type a province card (Tab completes the name), a chest value "
                  f"0-4{kinds}, or Enter to leave it empty. Each entry is checked as you type it.")
            entries = {}
            for space in plan_spaces(state, player):
                self._type_entry(state, player, entries, space)
        spaces = {space_name(s): s for s in plan_spaces(state, player)}
        while True:
            command = plan_command(state, player, entries)
            c.say(plan_text(command))
            try:
                state.check(command)
                ready = True
            except RulesError as err:
                c.say(f"refused: {err}")  # every entry is kept: change only what is wrong
                ready = False
            prompt = ("Enter: this is my plan; or a space to change (e.g. Rice, Bid)? " if ready
                      else "which space do you change (e.g. Rice, Bid)? ")
            answer = c.ask(prompt, words=list(spaces))
            if not answer and ready:
                break
            if not answer:
                continue
            try:
                space = spaces[match(answer, list(spaces))]
            except ShogunError as err:
                c.say(str(err))
                continue
            self._type_entry(state, player, entries, space)
        c.wipe()  # the game then tells the table "<player> has planned"
        return command

    def _type_entry(self, state: State, player: str, entries: dict, space: str) -> None:
        """One space of the plan, typed and checked at once by the engine's plan rule."""
        c = self.console
        cards = plan_cards(state, player)  # with the expansions' cards (e.g. "tower")
        label = space_name(space) + (f" (chest 0-{min(4, state.coins[player])} or a province)"
                                     if space == "bid" else "")
        now = entries.get(space)
        shown = "" if now is None else f" [{_card_name(now)}; Enter keeps it, - empties it]"
        while True:
            answer = c.ask(f"  {label}{shown}: ", words=cards)
            if not answer:
                value = now  # Enter keeps what is there (empty at first)
            elif answer.lower() in ("-", "empty", "none"):
                value = None
            else:
                try:
                    value = card_value(match(answer, cards))
                except ShogunError as err:
                    c.say(str(err))
                    continue
            trial = dict(entries)
            trial[space] = value
            error = plan_entry_errors(state, player, trial).get(space)
            if error:
                c.say(f"refused: {error}")
                continue
            entries[space] = value
            return

    def _special(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        c.say(f"{self._who(player)} chooses a place in the turn order (rule T5):")
        for pos in st["positions"]:
            c.say(f"  place {pos}: {special_text(st['cards'][str(pos)])}")
        pos = c.choose("which place? ", [str(p) for p in st["positions"]])
        return {"type": "special", "player": player, "position": int(pos)}

    def _march(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        action = ACTION_NAMES.get(st.get("action", ""), st.get("action", ""))
        c.say(f"{self._who(player)}: {action} from {st['from']} ({st['max_armies'] + 1} armies "
              f"there, at least 1 stays). Targets: {', '.join(st['targets'])}")
        if self.odds:
            c.say("(odds: the chance of each battle with every army count)")
        while True:
            to = c.choose("into which province? ",
                          list(st["targets"]) + (["odds"] if self.odds else []))
            if to != "odds":
                break
            from shogun_tower.games.shogun.odds.model import DEFAULT
            from shogun_tower.games.shogun.odds.table import march_odds, march_odds_lines

            params = DEFAULT if self.odds == "default" else self.odds
            for line in march_odds_lines(march_odds(state, params)):  # type: ignore[arg-type]
                c.say("  " + line)
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

    def _any(self, state: State, player: str, st: dict, turn: int) -> dict:
        """A decision kind without a prompt of its own: what the rules say it is, and its legal
        commands to choose from by number."""
        c = self.console
        c.say(f"{self._who(player)}: {describe(state)} (rule {st.get('rule', '?')})")
        legal = state.legal_commands()
        if not legal:
            raise ShogunError(f"the assistant cannot ask for a {st['kind']!r} decision: the "
                              f"rules list no command for it")
        for i, command in enumerate(legal, start=1):
            c.say(f"  {i}: " + ", ".join(f"{k} {v}" for k, v in command.items()
                                         if k not in ("type", "player")))
        return legal[c.number(f"which (1-{len(legal)})? ", 1, len(legal)) - 1]

    def _choose(self, state: State, player: str, st: dict, turn: int) -> dict:
        """Any question the engine declares with its options (rules P3-P5, the expansions)."""
        c = self.console
        for line in board_lines(state, st["show"], c.colour) if st.get("show") else ():
            c.say(line)  # the board the question is about (e.g. the chamber board, X4)
        c.say(f"{self._who(player)}: {st['question']} (rule {st['rule']})")
        texts = [o["text"] for o in st["options"]]
        text = c.choose(f"{' / '.join(texts)}? ", texts)
        option = st["options"][texts.index(text)]["value"]
        return {"type": "choose", "player": player, "what": st["what"], "option": option}

    def _chance(self, state: State, player: str, st: dict, turn: int) -> dict:
        """Physical cards: the players shuffled and drew; they tell the assistant what came."""
        c = self.console
        opts = chance_options(state, st)
        what = CHANCE_NAMES.get(st["what"], st["what"].replace("_", " "))
        if draws_several(state, st):
            n = st.get("count", len(opts))
            things = st.get("items", "cards")  # what is drawn: cards, or tiles (X4)
            c.say(f"Draw {n} {things} ({what}) from: {', '.join(opts)}")
            while True:
                answer = c.ask(f"the {n} drawn, in order, separated by commas? ")
                try:
                    outcome = [match(w.strip(), opts) for w in answer.split(",")]
                except ShogunError as err:
                    c.say(str(err))
                    continue
                return {"type": "chance", "what": st["what"], "outcome": outcome}
        c.say(f"Draw {what}: one of {', '.join(opts)}")
        outcome = c.choose("which card was drawn? ", opts)
        return {"type": "chance", "what": st["what"], "outcome": outcome}


def plan_text(command: dict) -> str:
    lines = [f"  {SPACE_NAMES[a]:16s} {_card_name(command['actions'].get(a))}" for a in ACTIONS]
    lines.append(f"  {SPACE_NAMES['bid']:16s} "
                 f"{_card_name(command.get('bid_card', command.get('bid')))}")
    # an expansion's spaces (e.g. the court's convert3/2/1), after the base game's
    lines += [f"  {space_name(x):16s} {_card_name(v)}"
              for x, v in (command.get("extra") or {}).items()]
    return "\n".join(lines)


def _card_name(card: object) -> str:
    if card is None:
        return "—"
    if isinstance(card, int):
        return f"chest {card}"
    return str(card)
