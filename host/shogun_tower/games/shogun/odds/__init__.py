"""Exact battle and revolt odds under the tower model, and fitting the model to a real tower
(docs/odds.md).

Names are imported on first use, so commands that only register their options (the CLI builds
every parser at start) do not pay for numpy.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

# The odds multiply small matrices; a multi-threaded BLAS only spins on them (7 ms of CPU where
# one thread needs 0.3 ms) and takes the other core from the table. Effective when numpy is
# first imported through this package (the only one of the host's that uses it).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

_WHERE = {"Exits": "exits", "exit_law": "exits", "exit_table": "exits", "split_prior": "exits",
          "DEFAULT": "model", "TowerParams": "model", "load_tower_profile": "model",
          "Odds": "throws", "battle_cubes": "throws", "battle_odds": "throws",
          "revolt_odds": "throws", "throw_odds": "throws"}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    if name not in _WHERE:
        raise AttributeError(name)
    return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
