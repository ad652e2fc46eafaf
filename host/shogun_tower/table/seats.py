"""Who decides at each seat: a bot, or a person at the table typing answers.

A seat answers ``decide(state, player, turn)`` with one command for the engine. ``turn`` is the
number of commands in the journal so far: a bot draws its choices from a generator seeded by the
game's seed and that number, so a replayed or resumed game asks the same bot the same question
and gets the same answer.

A person is asked only what has more than one answer: a question with one possible answer says
what happens instead ("1 army moves (the only choice)").
"""

from __future__ import annotations

from shogun_tower import words
from shogun_tower.errors import ShogunError
from shogun_tower.games.shogun.bots import BOT_KINDS, HeuristicBot
from shogun_tower.games.shogun.narrate import CHANCE_NAMES, action_word, special_text
from shogun_tower.games.shogun.rules import RulesError, State
from shogun_tower.games.shogun.rules.core.chance import draws_several
from shogun_tower.games.shogun.rules.core.chance import options as chance_options
from shogun_tower.games.shogun.rules.core.choices import option_text, question_text
from shogun_tower.games.shogun.rules.engine import describe
from shogun_tower.i18n import _, and_list, join, ngettext
from shogun_tower.lines import cells
from shogun_tower.table import plan_screen
from shogun_tower.table.boards import board_lines
from shogun_tower.table.console import Console, UndoRequested, match, or_list, refusal
from shogun_tower.table.phones import (
    card_value,
    plan_cards,
    plan_command,
    plan_entry_errors,
    plan_spaces,
    space_name,
)
from shogun_tower.table.telling import command_words
from shogun_tower.table.terminal import colour_word

SUGGESTION = "suggestion"  # the undo history's mark of the suggestion taken whole


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
        c.say(_("{player} drafts a province. Face up: {faceup}; army groups left: "
                "{groups}.").format(player=self._who(player), faceup=", ".join(faceup),
                                    groups=", ".join(map(str, st["groups"]))))
        takes = faceup + ["pile"]
        if st.get("can_refresh"):
            takes.append("refresh")
            prompt = _("take which province ({faceup}, the pile, or refresh: two new face-up "
                       "cards)? ").format(faceup=", ".join(faceup))
        else:
            prompt = _("take which province ({faceup} or the pile)? ").format(
                faceup=", ".join(faceup)) if faceup else _("take which province (the pile)? ")
        while True:
            answer = c.ask(prompt, words=takes)
            try:
                take = match(answer, takes,
                             {"pile": ["the pile", "top of the pile", _("the pile")]})
                break
            except ShogunError as err:
                if answer.strip().lower() == "refresh":  # offered only when the rule allows
                    c.say(_("refresh is not possible now: a player may put the two face-up "
                            "cards under the pile only when he faces the same two as at his "
                            "last pick (and the pile still holds two cards)"))
                else:
                    c.say(str(err))
        if take == "refresh":
            return {"type": "draft", "player": player, "take": "refresh"}
        groups = [str(g) for g in st["groups"]]
        if len(groups) == 1:
            c.say(_("the army group of {n} goes there (the only one left)").format(
                n=groups[0]))
            group = groups[0]
        else:
            group = c.choose(_("place which army group there ({groups})? ").format(
                groups=or_list(groups)), groups,
                             names={g: [f"{g} armies", f"group {g}"] for g in groups})
        return {"type": "draft", "player": player, "take": take, "group": int(group)}

    # ---- a season -------------------------------------------------------------------------
    def _plan(self, state: State, player: str, st: dict, turn: int) -> dict:
        """Rule T3: one card per space, a bid; typed in private with the board in view, each
        entry checked by the engine as it is typed, every entry kept when the plan is refused.
        ``undo`` takes back the plan's last entry (the plan is kept); with none, the last
        saved step. ``plan`` or Ctrl-L draws the planning screen again."""
        c = self.console
        season = (state.year, state.season)
        if c.held_for != season:
            # the season's last results (and the winter's scoring) stay readable until now
            c.hold(_("The screen is cleared next for secret planning."))
            c.held_for = season
        planned = [p for p in state.game.players if p in state.plans]
        c.private(player, _("Planned already: {players}.").format(
            players=and_list([words.colour_word(p) for p in planned]))
                  if planned else "")
        suggestion = HeuristicBot((self.suggest_seed + turn) & 0xFFFFFFFF).decide(state, player)
        suggested = {**suggestion["actions"], **suggestion.get("extra", {}),
                     # a cube-tower card bid is kept as the card (bid_card, X1.4)
                     "bid": suggestion.get("bid_card", suggestion["bid"])}
        spaces = list(plan_spaces(state, player))
        # "deploy5" names Deploy 5 too, and so does its name in the players' language
        names = {space_name(s): [s, _(space_name(s))] for s in spaces}
        entries: dict[str, object] = {}
        history: list[tuple[str, dict[str, object]]] = []  # (what changed, entries before)
        stage, index = "choice", 0
        shown: dict[str, object] | None = None  # the entries last shown in the review

        def draw() -> None:
            c.wipe()
            self._plan_screen(state, player)
            if stage == "choice":
                self._suggestion(state, player, suggestion)
            else:
                self._plan_check(state, player, entries, show_errors=False)

        c.redraw = draw
        try:
            self._plan_screen(state, player)
            self._suggestion(state, player, suggestion)
            while True:
                try:
                    if stage == "choice":
                        if c.confirm(_("take the suggestion (y) or type your own plan (n)? ")):
                            history.append((SUGGESTION, dict(entries)))
                            entries.clear()
                            entries.update(suggested)
                            stage = "review"
                        else:
                            c.say(_("For each space type a province card (Tab completes "
                                    "the name), a chest value 0-4, or Enter to leave it empty. "
                                    "Each entry is checked as you type it; undo takes back the "
                                    "last one."))
                            stage, index = "typing", 0
                    elif stage == "typing":
                        if index >= len(spaces):
                            stage = "review"
                            continue
                        space = spaces[index]
                        value = self._type_entry(state, player, entries, space)
                        history.append((space, dict(entries)))
                        entries[space] = value
                        index += 1
                    else:
                        ready = self._plan_check(state, player, entries, quiet=shown == entries)
                        shown = dict(entries)
                        prompt = (_("Enter: this is my plan; or a space to change (e.g. "
                                    "Rice, Bid)? ") if ready else
                                  _("which space do you change (e.g. Rice, Bid)? "))
                        answer = c.ask(prompt, words=list(names))
                        if not answer and ready:
                            break
                        if not answer:
                            continue
                        try:
                            space = spaces[[space_name(s) for s in spaces].index(
                                match(answer, list(names), names))]
                        except ShogunError as err:
                            c.say(str(err))
                            continue
                        value = self._type_entry(state, player, entries, space)
                        history.append((space, dict(entries)))
                        entries[space] = value
                except UndoRequested:
                    if not history and stage == "choice":
                        raise  # nothing typed in this plan: the last saved step goes back
                    if not history:
                        stage = "choice"
                        c.say(_("taken back: your own plan; the suggestion again:"))
                        self._suggestion(state, player, suggestion)
                        continue
                    what, before = history.pop()
                    entries.clear()
                    entries.update(before)
                    if what == SUGGESTION:
                        stage = "choice"
                        c.say(_("taken back: the suggestion taken; it stands again:"))
                        self._suggestion(state, player, suggestion)
                    else:
                        c.say(_("taken back: the entry {space} of your plan (the rest is "
                                "kept)").format(space=_(space_name(what))))
                        if stage == "typing":
                            index = spaces.index(what)
        finally:
            c.redraw = None
        c.wipe()  # the game then tells the table "<player> has planned"
        return plan_command(state, player, entries)

    def _plan_screen(self, state: State, player: str) -> None:
        c = self.console
        width = c.width()
        for line in plan_screen.header(state, player, c.colour):
            c.say(line)
        for line in plan_screen.expansion_lines(state, player):
            c.say(line)
        for line in plan_screen.hand_lines(state, player, width):
            c.say(line)

    def _suggestion(self, state: State, player: str, suggestion: dict) -> None:
        c = self.console
        c.say(_("The assistant's suggestion (plan or Ctrl-L: this screen again):"))
        for line in plan_screen.plan_table(state, player, suggestion, c.width()):
            c.say(line)
        for line in plan_screen.forecast_lines(state, player, suggestion):
            c.say(line)

    def _plan_check(self, state: State, player: str, entries: dict,
                    show_errors: bool = True, quiet: bool = False) -> bool:
        """The plan as it stands, what the rules foresee being skipped, and whether it may be
        sent (a refusal says why; every entry is kept). ``quiet``: only whether it may."""
        c = self.console
        command = plan_command(state, player, entries)
        if not quiet:
            c.say(_("Your plan:"))
            for line in plan_screen.plan_table(state, player, command, c.width()):
                c.say(line)
            for line in plan_screen.forecast_lines(state, player, command):
                c.say(line)
        try:
            state.check(command)
            return True
        except RulesError as err:
            if show_errors and not quiet:
                c.say(refusal(err))  # every entry is kept: change only what is wrong
            return False

    def _type_entry(self, state: State, player: str, entries: dict, space: str) -> object:
        """One space of the plan, typed and checked at once by the engine's plan rule; its new
        card (None: empty)."""
        c = self.console
        cards = plan_cards(state, player)  # with the expansions' cards (e.g. "tower")
        # the cards as the players may type them, in English and in their language
        names = {str(v): [f"chest {v}", _("chest {n}").format(n=v)] for v in range(5)}
        names["tower"] = ["cube tower", "cube-tower card", "tower card", _("tower card")]
        names.update({x: [words.province_word(x)] for x in cards if x in state.owner})
        label = _("{space} (chest 0-{most} or a province)").format(
            space=_(space_name(space)), most=min(4, state.coins[player])) if space == "bid" \
            else _(space_name(space))
        now = entries.get(space)
        if now is None:
            prompt = _("{space}: ").format(space=label)
        else:
            prompt = _("{space} [{card}; Enter keeps it, - empties it]: ").format(
                space=label, card=plan_screen.card_name(now))
        while True:
            answer = c.ask("  " + prompt, words=cards)
            if not answer:
                value = now  # Enter keeps what is there (empty at first)
            elif answer.lower() in ("-", "empty", "none"):
                value = None
            else:
                try:
                    value = card_value(match(answer, cards, names))
                except ShogunError as err:
                    c.say(str(err))
                    continue
            trial = dict(entries)
            trial[space] = value
            # the engine's plan rule, entry by entry: what this entry breaks (on its own space
            # or on another one it now clashes with) refuses it
            before = plan_entry_errors(state, player, entries)
            after = plan_entry_errors(state, player, trial)
            new = [e for k, e in after.items() if before.get(k) != e]
            if new:
                c.say(refusal(new[0]))
                continue
            return value

    def _special(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        positions = [str(p) for p in st["positions"]]
        if len(positions) == 1:
            pos = positions[0]
            c.say(_("{player} takes place {n} in the turn order (the only one left): "
                    "{card}").format(player=self._who(player), n=pos,
                                     card=special_text(st["cards"][pos])))
            return {"type": "special", "player": player, "position": int(pos)}
        c.say(_("{player} chooses a place in the turn order:").format(
            player=self._who(player)))
        for pos in positions:
            c.say("  " + _("place {n}: {card}").format(n=pos, card=special_text(
                st["cards"][pos])))
        pos = c.choose(_("which place? "), positions,
                       names={p: [f"place {p}", special_text(st["cards"][p])]
                              for p in positions})
        return {"type": "special", "player": player, "position": int(pos)}

    def _march(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        action = action_word(st.get("action", ""))
        targets = list(st["targets"])
        c.say(_("{player}: {action} from {province} ({n} armies there, at least 1 stays). It "
                "can enter: {targets}.").format(
            player=self._who(player), action=action, province=words.province_word(st["from"]),
            n=st["max_armies"] + 1,
            targets=join([_target(state, player, t) for t in targets])))
        if len(targets) == 1:
            to = targets[0]
            c.say(_("into {province} (the only province it can enter)").format(
                province=words.province_word(to)))
        else:
            if self.odds:
                c.say(_("(type odds for the chance of each battle with every army count)"))
            options = targets + (["odds"] if self.odds else [])
            while True:
                to = c.choose(_("into which province? "), options)
                if to != "odds":
                    break
                self._odds(state)
        n = self._armies(st["max_armies"], to)
        return {"type": "march", "player": player, "to": to, "armies": n}

    def _odds(self, state: State) -> None:
        from shogun_tower.games.shogun.odds.model import DEFAULT
        from shogun_tower.games.shogun.odds.table import march_odds, march_odds_lines

        params = DEFAULT if self.odds == "default" else self.odds
        for line in march_odds_lines(march_odds(state, params)):  # type: ignore[arg-type]
            self.console.say("  " + line)

    def _armies(self, most: int, province: str) -> int:
        if most == 1:
            self.console.say(_("1 army moves into {province} (the only choice)").format(
                province=words.province_word(province)))
            return 1
        return self.console.number(_("how many armies (1-{most})? ").format(most=most), 1,
                                   most)

    def _move(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        c.say(_("{player} may move armies from {province} ({n} there, at least 1 stays) into "
                "one of: {targets}.").format(player=self._who(player),
                                             province=words.province_word(st["from"]),
                                             n=st["max_armies"] + 1,
                                             targets=join([words.province_word(t)
                                                           for t in st["targets"]])))
        to = c.choose(_("move into which province (Enter: no move)? "), list(st["targets"]),
                      "")
        if not to:
            return {"type": "move", "player": player, "to": None, "armies": 0}
        return {"type": "move", "player": player, "to": to,
                "armies": self._armies(st["max_armies"], to)}

    def _revolt_order(self, state: State, player: str, st: dict, turn: int) -> dict:
        c = self.console
        provinces = list(st["provinces"])
        c.say(_("{player}: in which order do the revolts in {provinces} take place?").format(
            player=self._who(player),
            provinces=or_list([words.province_word(x) for x in provinces])))
        while True:
            answer = c.ask(_("order, separated by commas (Enter: as listed)? "),
                           words=provinces)
            if not answer:
                return {"type": "revolt_order", "player": player, "order": provinces}
            try:
                order = [match(w.strip(), provinces) for w in answer.split(",")]
            except ShogunError as err:
                c.say(str(err))
                continue
            if sorted(order) != sorted(provinces):
                c.say(_("name each of {provinces} once").format(
                    provinces=or_list([words.province_word(x) for x in provinces])))
                continue
            return {"type": "revolt_order", "player": player, "order": order}

    def _any(self, state: State, player: str, st: dict, turn: int) -> dict:
        """A decision kind without a prompt of its own: what the rules say it is, and its legal
        commands to choose from by number."""
        c = self.console
        legal = state.legal_commands()
        if not legal:
            raise ShogunError(_("the assistant cannot ask for a {kind!r} decision: the rules "
                                "list no command for it").format(kind=st["kind"]))
        c.say(_("{player}: {question}").format(player=self._who(player),
                                              question=describe(state)))
        if len(legal) == 1:
            c.say("  " + _("{choice} (the only choice)").format(
                choice=command_words(legal[0], st)))
            return legal[0]
        for i, command in enumerate(legal, start=1):
            c.say(f"  {i}: {command_words(command, st)}")
        return legal[c.number(_("which (1-{n})? ").format(n=len(legal)), 1, len(legal)) - 1]

    def _choose(self, state: State, player: str, st: dict, turn: int) -> dict:
        """Any question the engine declares with its options (rules P3-P5, the expansions)."""
        c = self.console
        for line in board_lines(state, st["show"], c.colour) if st.get("show") else ():
            c.say(line)  # the board the question is about (e.g. the chamber board, X4)
        options = st["options"]
        question = question_text(st)
        texts = [option_text(o) for o in options]
        if len(options) == 1:
            c.say(_("{player}: {question} {choice} (the only choice)").format(
                player=self._who(player), question=question, choice=texts[0]))
            return {"type": "choose", "player": player, "what": st["what"],
                    "option": options[0]["value"]}
        c.say(_("{player}: {question}").format(player=self._who(player), question=question))
        # each option by its text in the players' language, by its English text (typed words
        # stay English everywhere), and by its value where that is a name or a number (a
        # favour's number, a province, a bonus's kind)
        names = {text: [o["text"], *([] if isinstance(o["value"], bool) else [str(o["value"])])]
                 for text, o in zip(texts, options, strict=True)}
        # Translators: a question's options on one line, "yes / no? "
        one_line = _("{options}? ").format(options=" / ".join(texts))
        if cells(one_line) <= (c.width() or 80) - 2:
            prompt = one_line
        else:
            for text in texts:
                c.say(f"  {text}")
            prompt = _("which? ")
        text = c.choose(prompt, texts, names=names)
        option = options[texts.index(text)]["value"]
        return {"type": "choose", "player": player, "what": st["what"], "option": option}

    def _chance(self, state: State, player: str, st: dict, turn: int) -> dict:
        """Physical cards: the players shuffled and drew; they tell the assistant what came."""
        c = self.console
        opts = chance_options(state, st)
        kind = st["what"]
        what = _(CHANCE_NAMES[kind]) if kind in CHANCE_NAMES else kind.replace("_", " ")
        if draws_several(state, st):
            n = st.get("count", len(opts))
            things = st.get("items", "cards")  # what is drawn: cards, or tiles (X4)
            if n >= len(opts) == 1:
                c.say(_("{what}: {card} (the only one)").format(what=what, card=opts[0]))
                return {"type": "chance", "what": st["what"], "outcome": list(opts)}
            if things == "tiles":
                draw = ngettext("Draw {n} tile ({what}) from: {options}",
                                "Draw {n} tiles ({what}) from: {options}", n)
            else:
                draw = ngettext("Draw {n} card ({what}) from: {options}",
                                "Draw {n} cards ({what}) from: {options}", n)
            c.say(draw.format(n=n, what=what, options=join(opts)))
            while True:
                answer = c.ask(_("the {n} drawn, in order, separated by commas? ").format(n=n),
                               words=opts)
                try:
                    outcome = [match(w.strip(), opts) for w in answer.split(",")]
                except ShogunError as err:
                    c.say(str(err))
                    continue
                return {"type": "chance", "what": st["what"], "outcome": outcome}
        if len(opts) == 1:
            c.say(_("{what}: {card} (the only one left)").format(what=what, card=opts[0]))
            return {"type": "chance", "what": st["what"], "outcome": opts[0]}
        c.say(_("Draw {what}: one of {options}").format(what=what, options=", ".join(opts)))
        outcome = c.choose(_("which card was drawn? "), opts)
        return {"type": "chance", "what": st["what"], "outcome": outcome}


def _target(state: State, player: str, province: str) -> str:
    """A province a Battle/Move can enter, with whose it is: "Kii (yours, 3)", "Iyo
    (neutral)", "Mino (purple, 4)"."""
    owner = state.owner.get(province)
    name = words.province_word(province)
    if owner is None:
        return _("{province} (neutral)").format(province=name)
    if owner == player:
        return _("{province} (yours, {n})").format(province=name, n=state.armies[province])
    return _("{province} ({player}, {n})").format(
        province=name, player=colour_word(owner, False), n=state.armies[province])
