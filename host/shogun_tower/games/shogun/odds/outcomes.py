"""The outcomes of a throw in words, for the odds wherever they are shown."""

from shogun_tower.i18n import N_, _

# translated where they are shown (``outcome_word``)
OUTCOME_WORDS = {"attacker": N_("attacker wins"), "defender": N_("defender holds"),
                 "undecided": N_("undecided"), "neutral_holds": N_("stays neutral"),
                 "player": N_("revolt put down"), "farmers": N_("farmers win")}


def outcome_word(outcome: str) -> str:
    """A throw's outcome in the players' language ("attacker wins")."""
    return _(OUTCOME_WORDS[outcome]) if outcome in OUTCOME_WORDS else outcome
