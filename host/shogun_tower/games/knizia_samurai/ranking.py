"""Who wins once the game has ended (rule K12, rulebook 004 "Les points"), in the rulebook's order:

1. a player with the most figures of 2 or 3 types wins at once;
2. otherwise only the players with a strict most of one type can win (a tie for the most of a
   type gives it to nobody); the others have lost;
3. they set that type aside and compare the figures they have left;
4. tied there, they compare all their figures;
5. still tied, they share the victory.

The full ranking (a decision: the rulebook names only the winner, and its first example ranks
the others by the same count) sorts every player by the key (tier, other figures, all figures):
tier 2 for a winner at once, 1 for a strict most of one type, 0 for none; equal keys share a
place. Should nobody hold a strict most of any type, nobody wins: "Les joueurs qui n'ont aucun
plus fort total ont déjà perdu" holds for every player (a decision, docs/rules.md K12); the
ranking still orders them by all their figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from shogun_tower.errors import ShogunError
from shogun_tower.games.knizia_samurai.catalogue import Catalogue, catalogue
from shogun_tower.i18n import _, and_list, join
from shogun_tower.words import colour_word


@dataclass(frozen=True)
class Standing:
    player: str
    place: int                  # 1 = first (a winner, if tier > 0); equal keys share (1, 1, 3)
    tier: int                   # 2: most of 2-3 types, 1: strict most of one type, 0: none
    most_of: tuple[str, ...]    # the types this player has the strict most of
    others: int                 # figures left once the type of their most is set aside
    total: int                  # all their figures

    def key(self) -> tuple[int, int, int]:
        return (self.tier, self.others, self.total)

    def to_json(self) -> dict:
        return {"player": self.player, "place": self.place, "tier": self.tier,
                "most_of": list(self.most_of), "others": self.others, "total": self.total}


@dataclass(frozen=True)
class Result:
    winners: tuple[str, ...]    # empty when nobody has a strict most of any type
    ranking: tuple[Standing, ...]
    rule: int                   # the step of the rules that decided (1-5; 0: nobody had a most)
    reason: str                 # one sentence for the table

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "rule": self.rule, "reason": self.reason,
                "ranking": [s.to_json() for s in self.ranking]}


def check_counts(counts: dict[str, dict[str, int]], cat: Catalogue | None = None) -> None:
    cat = cat or catalogue()
    if not counts:
        raise ShogunError(_("no players: give each player's helmets, Buddhas and rice "
                            "fields"))
    for player, c in counts.items():
        if set(c) != set(cat.types):
            raise ShogunError(_("{player}: give a count for each of {types}").format(
                player=player, types=", ".join(cat.types)))
        bad = [t for t, n in c.items() if not isinstance(n, int) or n < 0]
        if bad:
            raise ShogunError(_("{player}: the count of {figure} must be a number 0 or "
                                "more").format(player=player, figure=bad[0]))


def most_holders(counts: dict[str, dict[str, int]], cat: Catalogue | None = None
                 ) -> dict[str, str | None]:
    """Each type's holder of a strict most, or None when the most is tied (or all have 0)."""
    cat = cat or catalogue()
    holders: dict[str, str | None] = {}
    for t in cat.types:
        top = max(c[t] for c in counts.values())
        at_top = [p for p, c in counts.items() if c[t] == top]
        holders[t] = at_top[0] if len(at_top) == 1 and top > 0 else None
    return holders


def rank(counts: dict[str, dict[str, int]], cat: Catalogue | None = None) -> Result:
    """The winners, the full ranking and why. ``counts``: player -> type -> figures captured."""
    cat = cat or catalogue()
    check_counts(counts, cat)
    holders = most_holders(counts, cat)
    standings = []
    for player, c in counts.items():
        mine = tuple(t for t in cat.types if holders[t] == player)
        total = sum(c.values())
        tier = 2 if len(mine) >= 2 else len(mine)
        others = total - c[mine[0]] if tier == 1 else total
        standings.append((player, tier, mine, others, total))
    order = sorted(standings, key=lambda s: (-s[1], -s[3], -s[4]))
    ranking = []
    for i, (player, tier, mine, others, total) in enumerate(order):
        place = i + 1
        if i and (tier, others, total) == ranking[-1].key():
            place = ranking[-1].place
        ranking.append(Standing(player, place, tier, mine, others, total))
    # rule K12: a player without a strict most has lost, so nobody wins if nobody has one
    winners = tuple(s.player for s in ranking if s.place == 1 and s.tier > 0)
    rule, reason = _why(ranking, winners, cat)
    return Result(winners, tuple(ranking), rule, reason)


def _why(ranking: list[Standing], winners: tuple[str, ...], cat: Catalogue) -> tuple[int, str]:
    def plural(types: tuple[str, ...]) -> str:
        return and_list([cat.figure(t).said_plural for t in types])

    def scores(standings: list[Standing], count: str) -> str:
        # Translators: one player's count in a list, e.g. "blue 3"
        return join([_("{player} {count}").format(player=colour_word(s.player),
                                                   count=getattr(s, count))
                     for s in standings])

    first = ranking[0]
    who = and_list([colour_word(p) for p in winners])
    if first.tier == 2:
        return 1, _("{player} has the most {figures}: a winner at once").format(
            player=who, figures=plural(first.most_of))
    if first.tier == 0:
        return 0, _("nobody has the most of any type on their own (each is tied at the top), "
                    "and a player without a most has already lost")
    candidates = [s for s in ranking if s.tier == 1]
    if len(candidates) == 1:
        return 2, _("{player} is the only player with the most of a type ({figures})").format(
            player=who, figures=plural(first.most_of))
    rivals = scores([s for s in candidates if s.player not in winners], "others")
    top_others = [s for s in candidates if s.others == first.others]
    if len(top_others) == 1:
        return 3, _("{player} has the most {figures}, and with them set aside the most other "
                    "figures: {n} (against {rivals})").format(
            player=who, figures=plural(first.most_of), n=first.others, rivals=rivals)
    tied = and_list([colour_word(s.player) for s in top_others])
    if len(winners) == 1:
        beaten = scores([s for s in top_others if s.player != winners[0]], "total")
        return 4, _("{players} tie on other figures ({others}); in all {player} has {n} "
                    "against {beaten}").format(players=tied, others=first.others, player=who,
                                               n=first.total, beaten=beaten)
    return 5, _("{players} tie on other figures ({others}) and on all figures ({n}): "
                "{winners} share the victory").format(players=tied, others=first.others,
                                                      n=first.total, winners=who)
