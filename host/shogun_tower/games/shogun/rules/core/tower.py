"""What goes into the tower and what the tray says (rules B1, B8, S3, V2): the one reading of
the rules that the engine, the odds, the referee and the bots share.

``battle_cubes`` and ``revolt_cubes`` are pure (a situation in, cubes out); ``start_throw``,
``start_revolt`` and ``castle_defends`` are the engine's steps that take those cubes from the
board and the supplies.
"""

from __future__ import annotations

from shogun_tower.errors import RulesError
from shogun_tower.games.shogun.rules.core import legacy
from shogun_tower.games.shogun.rules.core.cards import event_card_effect
from shogun_tower.games.shogun.rules.core.constants import CASTLE, CUBE_COLOURS, FARMERS
from shogun_tower.games.shogun.rules.core.state import State
from shogun_tower.i18n import _, join
from shogun_tower.words import colour_word, province_word


def battle_cubes(attacker: str, armies: int, defender: str | None = None,
                 defender_armies: int = 0, attack_card: bool = False,
                 defence_card: bool = False, event: str | None = None,
                 castle: bool = False) -> dict[str, int]:
    """The cubes a battle puts into the tower before the tray's (rules B1, B6, E3/E4, E9):
    the attacking armies, the defender's (or the farmers of a neutral province), each used
    special card's army and the castle event's army. ``event``: the season's event card."""
    effect = event_card_effect(event)
    into = {attacker: armies}
    if defender is None:
        into[FARMERS] = 2 if effect == "neutral_two_farmers" else 1
    else:
        into[defender] = defender_armies + int(defence_card) \
            + int(effect == "castle_defence" and castle)
        into[attacker] += int(attack_card)
    return into


def revolt_cubes(player: str, armies: int, farmers: int,
                 castle_defends: bool = False) -> dict[str, int]:
    """The cubes a revolt puts into the tower before the tray's (rule V2): every army in the
    province against one farmer per revolt marker (plus the winter's, W3); the castle event's
    army for the player when it defends him (E3/E4)."""
    return {player: armies + int(castle_defends), FARMERS: farmers}


def throw_title(st: dict) -> str:
    """What a throw is for, as its title: ``Set-up throw``, ``Battle for Ise``, ``Revolt in
    Ise`` (the console, the page and the page's last throw all say it so)."""
    province = province_word(str(st.get("province")))
    reason = st.get("reason")
    if reason == "setup":
        return _("Set-up throw")
    if reason == "battle":
        return _("Battle for {province}").format(province=province)
    if reason == "revolt":
        return _("Revolt in {province}").format(province=province)
    return _("Throw")


def castle_defends(s: State, defender: str, prov: str) -> bool:
    """Rules E3/E4: the castle event's extra defender army, taken from supply if there is one."""
    if s.event_card_effect() == "castle_defence" and CASTLE in s.buildings[prov] \
            and s.supply[defender] > 0:
        s.supply[defender] -= 1
        return True
    return False


def start_throw(s: State, into: dict[str, int], ctx: dict, ev: list[dict]) -> dict:
    """Rule B1: the cubes (already taken from board/supply) plus the whole tray go in."""
    from_tray = {c: n for c, n in s.tray.items() if n}
    thrown = {}
    for c in CUBE_COLOURS:
        k = into.get(c, 0) + s.tray[c]
        s.tower[c] += k
        s.tray[c] = 0
        if k:
            thrown[c] = k
    step = {"kind": "throw", "rule": "B1", "into_tower": thrown, "from_tray": from_tray,
            "max_out": {c: n for c, n in s.tower.items() if n}}
    step.update(ctx)
    ev.append({"event": "throw_needed", "into_tower": thrown, "from_tray": from_tray})
    return step


def start_revolt(s: State, player: str, prov: str, farmers: int, ctx: dict,
                 ev: list[dict]) -> dict:
    """Rule V2: every army in the province, one farmer per marker (plus the winter bonus W3),
    plus every cube in the tray go into the tower."""
    armies = s.armies[prov]
    s.armies[prov] = 0
    # Decision: the farmer supply is finite (rule C1); a revolt throws only the farmers left.
    farmers = min(farmers, s.supply[FARMERS])
    s.supply[FARMERS] -= farmers
    ev.append({"event": "revolt", "player": player, "province": prov, "armies": armies,
               "farmers": farmers})
    # rules E3/E4 (revised): in a revolt the player is the defender, so a castle helps him too
    castle = legacy.castle_defends_in_revolts(s.game) and castle_defends(s, player, prov)
    if castle:
        ev.append({"event": "castle_defends", "player": player, "province": prov,
                   "rule": "E3"})
    into = revolt_cubes(player, armies, farmers, castle)
    ctx = dict(ctx, reason="revolt", player=player, province=prov, rule="V2")
    return start_throw(s, into, ctx, ev)


def parse_tray(s: State, counts: object, rule: str = "B2", where: str = "tray") -> dict[str, int]:
    """Rule S3/B2 bookkeeping: no colour can fall out more often than it is inside."""
    if not isinstance(counts, dict):
        raise RulesError(rule, _("{where} counts must be an object like {example}").format(
            where=where, example='{"blue": 3, "green": 1}'))
    out = dict.fromkeys(CUBE_COLOURS, 0)
    for c, n in counts.items():
        if c not in out:
            raise RulesError(rule, _("{where}: unknown colour {colour!r}; colours are "
                                     "{colours}").format(where=where, colour=c,
                                                         colours=join(CUBE_COLOURS)))
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RulesError(rule, _("{where}: {colour} count must be a whole number 0 or "
                                     "more, got {n!r}").format(where=where,
                                                               colour=colour_word(c), n=n))
        if n > s.tower[c]:
            raise RulesError(rule, _("{where}: {n} {colour} cubes cannot fall out, only "
                                     "{inside} are in the tower; recount the tray").format(
                where=where, n=n, colour=colour_word(c), inside=s.tower[c]))
        out[c] = n
    return out
