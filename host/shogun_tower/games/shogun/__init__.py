"""Shogun (Queen Games, 2006): its rules engine (`rules/`), journal, bots, narration, the board
page's view and the exact odds of a throw (`odds/`), with its data files (`data/`)."""
