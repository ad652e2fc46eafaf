"""The outcomes of a throw in words, for the odds wherever they are shown."""

OUTCOME_WORDS = {"attacker": "attacker wins", "defender": "defender holds",
                 "undecided": "undecided", "neutral_holds": "stays neutral",
                 "player": "revolt put down", "farmers": "farmers win"}
