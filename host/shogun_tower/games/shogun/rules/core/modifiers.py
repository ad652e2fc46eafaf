"""What changes an action's amount — the rice or tax collected, the armies a Deploy places — in
one order, declared as data: the event card's bound (rules T4, E5-E8, E12), then the special
card (P1-P3), then the expansions' terms (hook ``action_terms``: the leader's improved actions,
X3.4). The cards say what they do in ``constants.EVENT_CARDS`` / ``constants.SPECIAL_CARDS``
(``"modifies": {action: (op, value)}``); nothing here or in ``actions.py`` names a card.

The order is the rulebook's (A5: Settsu tax 7, event cap 5, special +1 → 6) and P3's ruling
(Deploy 5 places 6 even under E12); docs/expansions.md (X3) gives how the leader's terms follow.
"""

from __future__ import annotations

from shogun_tower.games.shogun.rules.core.cards import EVENT_CARDS, SPECIAL_CARDS
from shogun_tower.games.shogun.rules.core.state import State

OPS = {
    "at_most": min,
    "at_least": max,
    "set": lambda amount, value: value,
    "add": lambda amount, value: amount + value,
}


def _apply(modifies: dict, action: str, amount: int) -> int:
    term = modifies.get(action)
    return OPS[term[0]](amount, term[1]) if term else amount


def by_event(s: State, action: str, amount: int) -> int:
    """The season's event bounds the card's value (rules E5-E8, E12)."""
    return _apply(EVENT_CARDS[s.event].get("modifies", {}), action, amount) if s.event else amount


def by_special(s: State, player: str, action: str, amount: int) -> int:
    """The player's special card, after the event (rules P1-P3)."""
    card = s.special(player)
    return _apply(SPECIAL_CARDS[card].get("modifies", {}), action, amount) if card else amount


for _card in [*EVENT_CARDS.values(), *SPECIAL_CARDS.values()]:  # every card's operation is known
    assert all(op in OPS for op, _ in _card.get("modifies", {}).values()), _card
