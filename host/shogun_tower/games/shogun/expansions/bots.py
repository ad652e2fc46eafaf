"""What the bots of ``rules/bots.py`` do with the expansions: one entry, ``decide``, that the
base bots call after making their own move (the base bots know nothing of the expansions).

- A plan gets the expansions' extra spaces filled (rule X1.4: cube-tower cards, or a spare
  province with armies to spare on a convert space).
- A ``choose`` question is answered by a small policy per question; any question without one
  gets a random option, so a new question never stops a bot game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shogun_common.rng import Rng
    from shogun_tower.games.shogun.rules.state import State


def decide(s: State, player: str, command: dict, rng: Rng) -> dict:
    st = s.step
    assert st is not None
    if st["kind"] == "plan":
        return _complete_plan(s, player, command, rng)
    if st["kind"] == "choose":
        return {"type": "choose", "player": player, "what": st["what"],
                "option": _answer(s, player, st, rng)}
    return command


def _complete_plan(s: State, p: str, command: dict, rng: Rng) -> dict:
    from shogun_tower.games.shogun.rules.season import plan_extension

    ext = plan_extension(s, p)
    if not ext["spaces"] or "extra" in command:
        return command
    used = set(v for v in command["actions"].values() if isinstance(v, str))
    used.add(command.get("bid"))  # type: ignore[arg-type]
    spare = [x for x, o in s.owner.items() if o == p and x not in used]
    towers = [k for k, n in ext["cards"].items() for _ in range(n)]
    # cards of a kind already on base spaces or the bid are not in hand any more
    for v in list(command["actions"].values()) + [command.get("bid")]:
        if v in towers:
            towers.remove(v)
    extra: dict[str, Any] = {}
    for space in ext["spaces"]:
        k = int(space[-1]) if space[-1].isdigit() else 1
        rich = [x for x in spare if s.armies[x] >= k + 3]
        if rich and rng.chance(0.5):
            x = max(rich, key=lambda y: s.armies[y])
            spare.remove(x)
            extra[space] = x
        elif towers:
            extra[space] = towers.pop(0)
        elif spare:
            extra[space] = spare.pop(0)  # the hand allows it, so the space must be filled
        else:
            extra[space] = None
    return dict(command, extra=extra)


def _answer(s: State, p: str, st: dict, rng: Rng) -> Any:
    values = [o["value"] for o in st["options"]]
    what = st["what"]
    if what == "use_special":  # rules P3-P5: an extra army helps its holder
        return True
    if what == "court_favour":  # the highest number is the strongest favour (X1.5)
        taken = [v for v in values if v]
        return max(taken) if taken and rng.chance(0.9) else values[-1]
    if what == "samurai_bonus":
        if "vp" in values:
            return "vp"
        if s.coins[p] < 6 and "coins" in values:
            return "coins"
        return values[-1] if rng.chance(0.5) else values[0]
    if what == "court_favour_use" and st.get("play_or_keep"):
        return rng.chance(0.5)  # a protection now, or kept for a season with more at stake
    if what == "court_favour_use" and True in values:
        return True
    if what.startswith("leader_"):
        return _leader(s, p, st, values, rng)
    if what == "chamber_tile":
        return _chamber_tile(s, p, values, rng)
    return rng.choice(values)


def _leader(s: State, p: str, st: dict, values: list, rng: Rng) -> Any:
    """X3: the leader where the actions pay most (a big province with free building slots);
    a move takes a trophy first, then stays adjacent to leave a statue (X3.5-X3.7)."""
    if st["what"] == "leader_draft":  # the bigger the army group, the likelier the leader
        return s.armies[st["province"]] >= 4 or rng.chance(0.25)

    def worth(x: str) -> float:
        info = s.map.provinces[x]
        free = info.building_slots - len(s.buildings[x])
        return info.tax + info.rice + 2 * free + rng.random()

    if st["what"] != "leader_move":
        return max(values, key=worth)
    from shogun_tower.games.shogun.expansions.leaders import NAME

    me = s.expansions[NAME]
    near = s.map.provinces[st["province"]].neighbours
    return max(values, key=lambda x: (me["statues"].get(x) not in (None, p), x in near,
                                      worth(x)))


def _chamber_tile(s: State, p: str, values: list, rng: Rng) -> Any:
    """X4.4: the tile that adds most to the player's rows and columns if the game ended now
    (the face-up tiles not taken count as neutral), then the richest lines; always one."""
    from shogun_tower.games.shogun.expansions.chambers import (
        NEUTRAL,
        NO_TILE,
        board,
        owners,
        points,
    )

    me = s.expansions["chambers"]
    held = dict(owners(s), **dict.fromkeys(me["up"], NEUTRAL))
    now = points(s, held)[p]
    b = board(s)

    def worth(t: str) -> tuple:
        c, r = b.space(t)
        return points(s, dict(held, **{t: p}))[p] - now, b.rows[r] + b.columns[c], rng.random()

    tiles = [v for v in values if v != NO_TILE]
    return max(tiles, key=worth) if tiles else NO_TILE
