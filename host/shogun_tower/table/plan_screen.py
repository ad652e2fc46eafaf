"""The secret planning screen at the laptop (rule T3): what a player plans with, with the board
in view. His coins and cards, the season's action cards in order and the special cards, each
of his provinces with its armies, buildings and revolt markers and its neighbours (his own,
another player's with their armies, or neutral), what an expansion's spaces and cards do, and
a plan as a compact table with the actions the rules foresee being skipped."""

from __future__ import annotations

from shogun_tower.games.shogun.narrate import action_word
from shogun_tower.games.shogun.rules import State
from shogun_tower.games.shogun.rules.core.cards import special_words
from shogun_tower.games.shogun.rules.phases.actions import plan_forecast
from shogun_tower.games.shogun.rules.phases.season import hand as season_hand
from shogun_tower.games.shogun.rules.phases.season import plan_extension
from shogun_tower.i18n import _, and_list, ngettext
from shogun_tower.lines import cells
from shogun_tower.table.console import wrap
from shogun_tower.table.phones import plan_spaces, space_name
from shogun_tower.table.terminal import colour_word
from shogun_tower.words import LETTERS, province_word, sentence
from shogun_tower.words import colour_word as colour_name

BUILDING_LETTERS = {"castle": "C", "temple": "T", "theatre": "N"}


def header(state: State, player: str, colour: bool) -> list[str]:
    """Who plans, with what; the season's action cards in order; the special cards."""
    h = season_hand(state, player)
    cards = and_list([_card_kind(k, n) for k, n in h.get("cards", {}).items()])
    face_down = 10 - len(state.action_cards)
    order = and_list([action_word(a) for a in state.action_cards])
    specials = and_list([_("{n} {card}").format(n=i, card=special_words(c))
                     for i, c in enumerate(state.specials, 1)])
    who = colour_word(player, colour)
    coins = sentence(h["coins"], "{n} coin", "{n} coins")
    hand = _("{player} plans in secret: {coins}; chest cards 0-4; {cards}.").format(
        player=who, coins=coins, cards=cards) if cards else \
        _("{player} plans in secret: {coins}; chest cards 0-4.").format(player=who, coins=coins)
    if face_down:
        actions = _("Actions in order: {actions}, then {n} face down. Special cards by place: "
                    "{specials}.").format(actions=order, n=face_down, specials=specials)
    else:
        actions = _("Actions in order: {actions}. Special cards by place: {specials}.").format(
            actions=order, specials=specials)
    return [hand, actions]


def _card_kind(kind: str, n: int) -> str:
    if kind == "tower":
        return ngettext("{n} cube-tower card", "{n} cube-tower cards", n).format(n=n)
    return ngettext("{n} {kind} card", "{n} {kind} cards", n).format(n=n, kind=kind)


def hand_lines(state: State, player: str, width: int = 0) -> list[str]:
    """Each of the player's provinces: armies, buildings (C, T, N), revolt markers (!), and
    its neighbours: his own with *, another player's by its letter and armies, neutral plain
    (provinces out of play left out)."""
    mine = sorted(x for x, o in state.owner.items() if o == player)
    other = next(p for p in state.game.players if p != player)  # a colour in play
    marks = any(state.buildings[x] or state.markers[x] for x in mine)
    if marks:
        first = _("Your provinces, armies, C T N buildings, ! revolt; next to them: * yours, "
                  "{letter}4 {other}'s 4, plain neutral")
    else:
        first = _("Your provinces, armies; next to them: * yours, {letter}4 {other}'s 4, "
                  "plain neutral")
    out = [first.format(letter=LETTERS[other], other=colour_name(other))]
    names = {x: _province(state, x) for x in mine}
    column = max((cells(n) for n in names.values()), default=0) + 4
    for x in mine:
        near = []
        for y in sorted(state.map.provinces[x].neighbours):
            if y not in state.owner:
                continue  # out of play (rule S1)
            owner = state.owner[y]
            name = province_word(y)
            if owner == player:
                near.append(f"{name}*")
            elif owner is None:
                near.append(name)
            else:
                near.append(f"{name} {LETTERS[owner]}{state.armies[y]}")
        line = f"  {_pad(names[x], column - 2)}" + ", ".join(near)
        out += wrap(line, width, hang=column) if width else [line]
    return out


def _province(state: State, x: str) -> str:
    marks = "".join(BUILDING_LETTERS.get(b, "?") for b in state.buildings[x])
    marks += "!" * state.markers[x]
    return f"{province_word(x)} {state.armies[x]}" + (f" {marks}" if marks else "")


def expansion_lines(state: State, player: str) -> list[str]:
    """What the expansions' plan spaces and cards do (the court's Convert spaces and its
    cube-tower card), each said once, as the expansion declares it."""
    return [_(text) for text in plan_extension(state, player)["texts"].values()]


def plan_table(state: State, player: str, command: dict, width: int = 0) -> list[str]:
    """The plan's spaces and cards, in as many columns (up to 3) as the terminal is wide."""
    extra = command.get("extra") or {}
    boxes = []
    for space in plan_spaces(state, player):
        if space == "bid":
            card = command.get("bid_card", command.get("bid"))
        elif space in command.get("actions", {}):
            card = command["actions"][space]
        else:
            card = extra.get(space)
        boxes.append(f"{_pad(_(space_name(space)), 13)} {card_name(card)}")
    size = max(cells(c) for c in boxes)
    columns = max(1, min(3, (width - 1) // (size + 2))) if width else 2
    rows = -(-len(boxes) // columns)
    return [" " + "  ".join(_pad(boxes[i], size) for i in range(r, len(boxes), rows)).rstrip()
            for r in range(rows)]


def _pad(text: str, size: int) -> str:
    """``text`` filled with spaces to ``size`` columns (a kanji takes two)."""
    return text + " " * max(0, size - cells(text))


def forecast_lines(state: State, player: str, command: dict) -> list[str]:
    """The actions of the plan the rules foresee being skipped (rule T6), one line each."""
    return [f"  ! {line}" for line in plan_forecast(state, player, command)]


def card_name(card: object) -> str:
    if card is None:
        return "—"
    if isinstance(card, int) and not isinstance(card, bool):
        return _("chest {n}").format(n=card)
    return _("tower card") if card == "tower" else province_word(str(card))
