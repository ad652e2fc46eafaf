"""The expansions of seed 002, one module each, plugged into named points of the base season.

``EXPANSION_NAMES`` is the one list of known expansions, in the order their additions run when
several are chosen (rule X: Samurai before the Court's actions).
"""

from __future__ import annotations

EXPANSION_NAMES: tuple[str, ...] = ()
