"""Fixed numbers of the base game (docs/rules.md, sections C, A, T, W); the cards are in
``cards.py``."""

from __future__ import annotations

# rule C1: the players' colours (the seat order by default) and the farmers', one vocabulary
# for the wire, the firmware and the host
from shogun_common.colours import CUBE_COLOURS, PLAYER_COLOURS  # noqa: F401
from shogun_tower.i18n import N_
from shogun_tower.words import FARMERS  # noqa: F401

ARMIES_PER_PLAYER = 62  # rule C2
FARMER_CUBES = 20  # rule C1
REVOLT_MARKERS = 42  # the first rulebook's list of components: 42 revolt markers in the box
CHESTS = (0, 1, 2, 3, 4)  # rule C2
PLAN_SPACES = 11  # rule T3: ten action spaces and the bid
START_COINS = {3: 18, 4: 15, 5: 12}  # rule C3
ARMY_GROUPS = {  # rule S2
    3: (5, 4, 4, 3, 3, 2, 2, 2, 2),
    4: (5, 4, 4, 3, 3, 2, 2, 2),
    5: (5, 4, 4, 3, 3, 2, 2),
}
SETUP_THROW_ARMIES = 7  # rule S3
SETUP_THROW_FARMERS = 10

CASTLE, TEMPLE, THEATRE = "castle", "temple", "theatre"
BUILDINGS = (CASTLE, TEMPLE, THEATRE)
BUILDING_COST = {CASTLE: 3, TEMPLE: 2, THEATRE: 1}  # rules A1-A3
BUILDING_SUPPLY = {CASTLE: 28, TEMPLE: 26, THEATRE: 26}  # rule C4
MAJORITY_VP = {CASTLE: 3, TEMPLE: 2, THEATRE: 1}  # rule W4

# The ten action cards (rule A1-A10), named as on the cards.
ACTIONS = ("castle", "temple", "theatre", "rice", "tax", "deploy5", "deploy3", "deploy1",
           "battle_a", "battle_b")
# The action cards' and the buildings' names as the cards print them, translated where they
# are shown (``_(ACTION_NAMES[action])``)
ACTION_NAMES = {
    "castle": N_("Castle"), "temple": N_("Temple"), "theatre": N_("Nō theatre"),
    "rice": N_("Rice"), "tax": N_("Tax"), "deploy5": N_("Deploy 5"), "deploy3": N_("Deploy 3"),
    "deploy1": N_("Deploy/Move 1"), "battle_a": N_("Battle/Move A"),
    "battle_b": N_("Battle/Move B"),
}
# Translators: a building's name inside a sentence ("already has a castle")
BUILDING_NAMES = {"castle": N_("castle"), "temple": N_("temple"), "theatre": N_("Nō theatre")}
BUILD_ACTIONS = {"castle": CASTLE, "temple": TEMPLE, "theatre": THEATRE}
DEPLOY = {"deploy5": (3, 5), "deploy3": (2, 3), "deploy1": (1, 1)}  # (cost, armies) A6-A8
BATTLE_ACTIONS = ("battle_a", "battle_b")

SEASONS = ("spring", "summer", "autumn", "winter")
EVENTS_FACE_UP = {0: 4, 1: 3, 2: 2}  # rule T4: face-up events when each season draws

RICE_TRACK_MAX = 18  # rule C5
# rule W2: shortage -> (revolts, extra farmers per revolt)
def provisions(shortage: int) -> tuple[int, int]:
    """Provisions table (rule W2)."""
    if shortage <= 0:
        return (0, 0)
    if shortage == 1:
        return (1, 1)
    if shortage == 2:
        return (1, 2)
    if shortage <= 4:
        return (2, 2)
    if shortage <= 6:
        return (2, 3)
    return (3, 3)
