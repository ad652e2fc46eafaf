"""The one catalogue of the base game's cards: the twelve event cards (rule E) and the five
special cards (rule P). Each card says once what it is: its ``effect`` (the key the rules test),
what it does to an action's amount (``modifies`` {action: (op, value)}, applied by
``modifiers.py``), its words (``text``, translated where shown) and, for an event card, the
rice it costs in winter (``rice_loss``, rule W1). The engine, the odds, the referee, the bots,
the narration and the page all read them here.
"""

from __future__ import annotations

from shogun_tower.i18n import N_, _

EVENT_CARDS = {
    "E1": {"effect": "theatre_calms", "rice_loss": 5,
           "text": N_("a Nō theatre built removes 1 revolt marker")},
    "E2": {"effect": "theatre_calms", "rice_loss": 7,
           "text": N_("a Nō theatre built removes 1 revolt marker")},
    "E3": {"effect": "castle_defence", "rice_loss": 2,
           "text": N_("a castle adds 1 defending army")},
    "E4": {"effect": "castle_defence", "rice_loss": 6,
           "text": N_("a castle adds 1 defending army")},
    "E5": {"effect": "tax_max5", "rice_loss": 0, "modifies": {"tax": ("at_most", 5)},
           "text": N_("tax gives at most 5")},
    "E6": {"effect": "tax_min6", "rice_loss": 2, "modifies": {"tax": ("at_least", 6)},
           "text": N_("tax gives at least 6")},
    "E7": {"effect": "rice_min4", "rice_loss": 3, "modifies": {"rice": ("at_least", 4)},
           "text": N_("rice gives at least 4")},
    "E8": {"effect": "rice_max3", "rice_loss": 4, "modifies": {"rice": ("at_most", 3)},
           "text": N_("rice gives at most 3")},
    "E9": {"effect": "neutral_two_farmers", "rice_loss": 3,
           "text": N_("neutral provinces defend with 2 farmers")},
    "E10": {"effect": "temple_peace", "rice_loss": 3,
            "text": N_("provinces with a temple cannot be attacked")},
    "E11": {"effect": "temple_peace", "rice_loss": 4,
            "text": N_("provinces with a temple cannot be attacked")},
    "E12": {"effect": "small_deploy", "rice_loss": 1,
            "modifies": {"deploy5": ("set", 3), "deploy3": ("set", 2)},
            "text": N_("Deploy 5 gives 3 armies, Deploy 3 gives 2")},
}
EVENT_CARD_IDS = tuple(EVENT_CARDS)

SPECIAL_CARDS = {
    "P1": {"effect": "tax_plus1", "modifies": {"tax": ("add", 1)},
           "text": N_("+1 coin on Tax")},
    "P2": {"effect": "rice_plus1", "modifies": {"rice": ("add", 1)},
           "text": N_("+1 rice on Rice")},
    "P3": {"effect": "deploy5_six", "modifies": {"deploy5": ("at_least", 6)},
           "text": N_("Deploy 5 places 6")},
    "P4": {"effect": "attack_plus1", "text": N_("+1 attacking army")},
    "P5": {"effect": "defence_plus1", "text": N_("+1 defending army")},
}
SPECIAL_CARD_IDS = tuple(SPECIAL_CARDS)


def event_card_effect(card: str | None) -> str | None:
    """The effect key of an event card (None: no event this season)."""
    return EVENT_CARDS[card]["effect"] if card else None


def event_card_text(card: str) -> str:
    """``E5`` → ``E5: tax gives at most 5 (winter: lose 0 rice)``."""
    info = EVENT_CARDS.get(card)
    if info is None:
        return _("{card}: unknown event").format(card=card)
    text, rice = info["text"], info["rice_loss"]
    return _("{card}: {text} (winter: lose {rice} rice)").format(card=card, text=_(text),
                                                                 rice=rice)


def special_text(card: str) -> str:
    """``P1`` → ``P1 +1 coin on Tax``."""
    if card not in SPECIAL_CARDS:
        return _("{card} unknown special").format(card=card)
    return f"{card} {special_words(card)}"


def special_name(card: str) -> str:
    """A special card as a question names it: "“+1 defending army”" (its words, quoted)."""
    return _("“{card}”").format(card=special_words(card) or card)


def special_words(card: str) -> str:
    """What a special card does, without its ID, in the players' language ('' for an unknown
    card)."""
    if card not in SPECIAL_CARDS:
        return ""
    text = SPECIAL_CARDS[card]["text"]
    return _(text)
