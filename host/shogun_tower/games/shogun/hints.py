"""Shogun's `hint`: what the strongest bot (the odds bot) would answer at the question being
asked, and why, in a few sentences for the player who must answer.

A hint is computed from what that player may know, never from the rest: ``conceal`` gives the
bot a copy of the game where the other players' plans are blank (rule T3: they stay face down
until each action is played), the engine's generator (the cards still to come) is reset and
the event deck is in one fixed order. The tower's cubes are known only as counts (what went in
less what came out), and the odds (``games/shogun/odds``) read just those. The bot's own
choices come from a generator seeded by a public number (the journal's length), so the same
question gets the same hint.

The reasons are the bots' own (``bots.OddsBot.why``, an expansion's ``plan_why`` and each
question's ``Question.why``); a decision kind an expansion declares brings its hint with it
(``DecisionKind.hint``).
"""

from __future__ import annotations

from shogun_common.rng import Rng
from shogun_tower.games.shogun.bots import OddsBot
from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams
from shogun_tower.games.shogun.odds.outcomes import outcome_word
from shogun_tower.games.shogun.odds.table import throw_odds_of
from shogun_tower.games.shogun.rules import State
from shogun_tower.games.shogun.rules.core.cards import EVENT_CARD_IDS
from shogun_tower.games.shogun.rules.core.choices import option_text
from shogun_tower.games.shogun.rules.core.constants import ACTIONS, CUBE_COLOURS
from shogun_tower.games.shogun.rules.core.tower import throw_title
from shogun_tower.i18n import _, join
from shogun_tower.words import colour_word

BOT_NAME = "the odds bot"  # the strongest of Shogun's bots (bots.BOT_KINDS), as players say it


def conceal(s: State, player: str | None) -> State:
    """A copy of ``s`` holding only what ``player`` may know (None: what everyone may know):
    the other players' plans blank but for the bid once paid, the engine's generator reset,
    the event cards still in the deck in one fixed order."""
    c = s.copy()
    c.rng = Rng(0)
    c.event_deck = sorted(c.event_deck, key=EVENT_CARD_IDS.index)
    for p, plan in c.plans.items():
        if p == player:
            continue
        blank = {"actions": dict.fromkeys(ACTIONS), "bid": plan["bid"] if c.bids_paid else None,
                 "void": list(plan.get("void", []))}
        if "extra" in plan:
            blank["extra"] = dict.fromkeys(plan["extra"])
        c.plans[p] = blank
    return c


def decider(st: dict) -> str | None:
    """Who answers the question of step ``st`` (the one planning now, at a plan)."""
    if st.get("kind") == "plan":
        return (st.get("players") or [None])[0]
    return st.get("player")


def hint(s: State, seed: int = 0, params: TowerParams | None = None) -> list[str]:
    """What the odds bot would answer at ``s``'s question, and why: one or a few sentences.
    ``seed``: a public number (the journal's length) seeding the bot's own choices."""
    st = s.pending()
    kind = st["kind"]
    if kind == "over":
        return [_("The game is over: nothing is left to decide.")]
    if kind == "chance":
        return [_("Nothing to decide here: draw the real cards at the table and tell what "
                  "came.")]
    if kind == "throw":
        return _throw_hint(s, st, params or DEFAULT)
    player = decider(st)
    view = conceal(s, player)
    decision = s.game.rules.decisions.get(kind)
    if decision is not None and decision.hint is not None:
        return decision.hint(view, player, seed)
    bot = OddsBot(seed, params or DEFAULT)
    command = bot.decide(view, player)
    if kind == "choose":
        return [_choose_hint(view, player, command)]
    lines = bot.why(view, player, command)
    if kind == "plan":
        for e in s.game.rules.expansions:
            if e.plan_why is not None:
                lines += list(e.plan_why(view, player, command).values())
        return [_("The odds bot would plan this for {player}:").format(
            player=colour_word(player or ""))] + [f"  {line}" for line in lines]
    return lines or [_("The odds bot would answer: {answer}.").format(
        answer=_command_words(command))]


def _choose_hint(view: State, player: str | None, command: dict) -> str:
    st = view.pending()
    option = command["option"]
    question = view.game.rules.questions[st["what"]]
    if question.why is not None:
        return question.why(view, player, st, option)
    text = next(option_text(o) for o in st["options"] if o["value"] == option)
    return _("The odds bot would answer: {answer}.").format(answer=text)


def _throw_hint(s: State, st: dict, params: TowerParams) -> list[str]:
    odds = throw_odds_of(s, params)
    if odds is None:
        return [_("Nothing to decide: throw the cubes named into the tower, then count the "
                  "tray.")]
    into = st["into_tower"]
    inside = sum(s.tower[c] - into.get(c, 0) for c in CUBE_COLOURS)
    chances = join([_("{outcome} {percent}%").format(outcome=outcome_word(o),
                                                    percent=round(100 * p))
                    for o, p in odds.outcomes.items()])
    return [_("Nothing to decide but the count. {throw}: {chances} (cubes inside the tower "
              "before this throw: {inside}).").format(throw=throw_title(st), chances=chances,
                                                      inside=inside)]


def _command_words(command: dict) -> str:
    return ", ".join(f"{k} {v}" for k, v in command.items() if k not in ("type", "player"))
