"""Property: any command the rules refuse leaves the state as it was (and the journal too).

Hypothesis picks a game (players, set-up, chance mode, expansions), plays it some way with bots
and the tower model, then throws a command at it: one of the bots' legal commands bent out of
shape, or one made up of the command types and fields the engine knows, with values of the
wrong kind, out of range or of another player. Whenever the engine says no, nothing changed.
"""

from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.bots import RandomBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.rules.core.constants import CUBE_COLOURS, PLAYER_COLOURS
from shogun_tower.games.shogun.rules.expansions import EXPANSION_NAMES
from shogun_tower.games.shogun.runner import TowerDriver

TYPES = ("draft", "plan", "special", "march", "move", "revolt_order", "tray", "chance",
         "choose", "spilled", "nonsense")
FIELDS = ("player", "take", "group", "actions", "bid", "extra", "position", "to", "armies",
          "order", "counts", "what", "outcome", "option")
VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 70), st.sampled_from(PLAYER_COLOURS),
    st.sampled_from(["Settsu", "Kai", "Mikawa", "pile", "refresh", "tower", "nowhere"]),
    st.dictionaries(st.sampled_from([*CUBE_COLOURS, "pink"]), st.integers(-2, 70), max_size=3),
    st.lists(st.sampled_from(["Settsu", "Kai", "Echigo", "E1", "P1", 3]), max_size=4),
)


def play(game: Game, steps: int, seed: int) -> Journal:
    j = Journal(game)
    bots = {p: RandomBot(seed + i) for i, p in enumerate(game.players)}
    tower = TowerDriver(seed)
    for _ in range(steps):
        s = j.state
        if s.step is None:
            break
        kind = s.step["kind"]
        if kind == "throw":
            j.apply({"type": "tray", "counts": tower.throw(s.step["into_tower"])})
        elif kind == "plan":
            p = next(p for p in game.players if p not in s.plans)
            j.apply(bots[p].decide(s, p))
        elif kind == "chance":  # physical mode: the first card that can be drawn
            legal = s.legal_commands()
            if not legal:
                break
            j.apply(legal[0])
        else:
            j.apply(bots[s.step["player"]].decide(s, s.step["player"]))
    return j


@st.composite
def commands(draw: st.DrawFn, j: Journal) -> dict:
    s = j.state
    legal = s.legal_commands() if s.step is not None else []
    if legal and draw(st.booleans()):
        cmd = copy.deepcopy(draw(st.sampled_from(legal)))
        for field in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=2)):
            cmd[field] = draw(VALUES)  # bent out of shape: a field of another kind or value
        return cmd
    cmd = {"type": draw(st.sampled_from(TYPES))}
    for field in draw(st.lists(st.sampled_from(FIELDS), max_size=4)):
        cmd[field] = draw(VALUES)
    return cmd


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), players=st.sampled_from([3, 4, 5]), steps=st.integers(0, 120),
       seed=st.integers(0, 10_000), physical=st.booleans(), draft=st.booleans(),
       expansions=st.lists(st.sampled_from(EXPANSION_NAMES), unique=True, max_size=4))
def test_a_refused_command_changes_nothing(data, players, steps, seed, physical, draft,
                                           expansions):
    game = Game.create(players, chance="physical" if physical else "auto",
                       setup="draft" if draft else "fixed", seed=seed, expansions=expansions)
    j = play(game, steps, seed)
    before, lines = j.state.to_json(), list(j.lines)
    cmd = data.draw(commands(j))
    try:
        j.apply(cmd)
    except RulesError:
        assert j.state.to_json() == before, cmd
        assert j.lines == lines, cmd
    else:  # accepted: it was a legal command after all, and the journal recorded it
        assert len(j.lines) == len(lines) + 1
