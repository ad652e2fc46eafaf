"""Building situations for rules tests through the engine's own commands (physical-cards mode,
so the test chooses every card that would otherwise be drawn)."""

from __future__ import annotations

from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.constants import ACTIONS, CHESTS, PLAN_SPACES

DEFAULT_ORDER = list(ACTIONS)
DEFAULT_SPECIALS = ["P1", "P2", "P3", "P4", "P5"]
DEFAULT_EVENTS = ["E5", "E1", "E2", "E3"]


def chance(s: State, what: str, outcome: object) -> list[dict]:
    return s.apply({"type": "chance", "what": what, "outcome": outcome})


def to_planning(players: int = 4, order: list[str] | None = None,
                specials: list[str] | None = None, events: list[str] | None = None,
                setup_tray: dict | None = None, expansions: tuple[str, ...] = (),
                favours: list[int] | None = None) -> State:
    """A fixed-start game in physical mode, past the set-up throw, waiting for plans (with the
    court: after the favours ``favours`` are revealed, rule X1.5)."""
    s = State.new(Game.create(players, chance="physical", setup="fixed",
                              expansions=expansions))
    s.apply({"type": "tray", "counts": setup_tray or {}})
    chance(s, "year_events", events or DEFAULT_EVENTS)
    for a in (order or DEFAULT_ORDER)[:5]:
        chance(s, "action_card", a)
    chance(s, "specials", specials or DEFAULT_SPECIALS)
    if "court" in expansions:
        chance(s, "favours", favours or [1, 2, 3])
    assert s.pending()["kind"] == "plan"
    return s


def through_specials(s: State, first: list[str], plans: dict[str, dict] | None = None,
                     event: str = "E5") -> list[dict]:
    """Plans (all bid 0, so the tie order is ``first`` + the rest), the event, the specials
    taken in position order: the i-th player of the tie order takes position i."""
    plans = plans or {}
    events: list[dict] = []
    for p in s.game.players:
        events += s.apply(quiet_plan(s, p, **plans.get(p, {})))
    events += chance(s, "event", event)
    order = first + [p for p in s.game.players if p not in first]
    events += chance(s, "bid_tie", order)
    for i, p in enumerate(order):
        events += s.apply({"type": "special", "player": p, "position": i + 1})
    return events


def quiet_plan(s: State, p: str, bid: object = 0, extra: dict | None = None,
               **actions: object) -> dict:
    """A legal plan: the given actions, chests elsewhere, spare provinces on the last
    action spaces of the track order (so they act late, after what a test looks at)."""
    mine = sorted(x for x, o in s.owner.items() if o == p)
    plan: dict[str, object] = dict.fromkeys(ACTIONS)
    plan.update(actions)
    used = set(v for v in list(plan.values()) + list((extra or {}).values()) if v is not None)
    used.add(bid)
    chests = [c for c in CHESTS if c not in used or isinstance(c, bool)]
    chests = [c for c in CHESTS if not any(type(u) is int and u == c for u in used)]
    spare = [x for x in mine if x not in used]
    need = min(PLAN_SPACES, len(mine) + len(CHESTS)) \
        - sum(1 for v in plan.values() if v is not None) - 1
    order = list(reversed(s.action_cards + [a for a in ACTIONS if a not in s.action_cards]))
    pool: list[object] = chests + spare
    towers = s.pending()["hands"][p].get("cards", {}).get("tower", 0)
    pool += ["tower"] * (towers - sum(1 for v in (extra or {}).values() if v == "tower")
                         - (3 if extra is None and towers else 0))
    for a in order:
        if need <= 0:
            break
        if plan[a] is None:
            plan[a] = pool.pop(0)
            need -= 1
    command = {"type": "plan", "player": p, "actions": plan, "bid": bid}
    spaces = s.pending()["hands"][p].get("spaces", [])
    if spaces:  # the court's spaces (X1.4): cube-tower cards unless the test says otherwise
        command["extra"] = {x: "tower" for x in spaces}
        command["extra"].update(extra or {})
    return command


def cube_totals(s: State) -> dict[str, int]:
    return {c: sum(d.values()) for c, d in s.cube_count().items()}
