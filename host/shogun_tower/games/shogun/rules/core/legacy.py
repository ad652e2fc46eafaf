"""The rulings of older engines, kept so that games saved then replay to the same end.

Every difference between engine versions is asked here, by name, and nowhere else.
"""

from __future__ import annotations

from shogun_tower.games.shogun.rules.core.game import Game

# rule S2 before its correction: the 5-player fixed set-up gave player D Etchu, not Bitchu.
_ENGINE1_SUN_5P = {3: ("Bitchu", "Etchu")}


def fixed_setup(game: Game) -> tuple:
    """The fixed starting groups per seat (rule S2) as this game's engine reads them."""
    groups = game.game_map.fixed_setups[len(game.players)]
    if game.engine == 1 and game.map_ref == "sun" and len(game.players) == 5:
        out = []
        for seat, seat_groups in enumerate(groups):
            old, new = _ENGINE1_SUN_5P.get(seat, (None, None))
            out.append(tuple((new if prov == old else prov, n) for prov, n in seat_groups))
        return tuple(out)
    return groups


def specials_may_be_declined(game: Game) -> bool:
    """Rules P3-P5: engine 1 always used a special card; since engine 2 its holder decides."""
    return game.engine >= 2


def castle_defends_in_revolts(game: Game) -> bool:
    """Rules E3/E4: engine 1 gave the castle's extra army only against another player."""
    return game.engine >= 2


def leaders_move_in_winter(game: Game) -> bool:
    """Rule X3.5: since engine 3 the military leaders move at the end of winter too."""
    return game.engine >= 3


def statue_asked(game: Game) -> bool:
    """Rule X3.5: since engine 3 the player says whether he leaves a statue (« peut »)."""
    return game.engine >= 3


def samurai_card_may_stay(game: Game) -> bool:
    """Rule X2.2: since engine 3 a player who qualifies may leave his stack as it is."""
    return game.engine >= 3


def favour_theatre_calms(game: Game) -> bool:
    """Rules E1/E2: since engine 3 a Nō theatre built with a favour calms its province too."""
    return game.engine >= 3
