"""`hint` gives what the strongest bot would answer and why, from what the player who must
answer may know: a hint computed from a state whose secrets differ (the other players' plans,
the cards still to come, the magnets under the two-player board) is the same hint."""

from __future__ import annotations

import re

import pytest

from shogun_common.rng import Rng
from shogun_tower.games.knizia_samurai.hints import hint as samurai_hint
from shogun_tower.games.knizia_samurai.state import SamuraiGame, SamuraiState
from shogun_tower.games.shogun.bots import HeuristicBot, OddsBot, RandomBot
from shogun_tower.games.shogun.hints import conceal, decider, hint
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.constants import ACTIONS
from shogun_tower.games.shogun.runner import TowerDriver
from shogun_tower.games.shogun2 import hints as shogun2_hints
from shogun_tower.games.shogun2.board import SQUARES
from shogun_tower.games.shogun2.bots import AlphaBetaBot
from shogun_tower.games.shogun2.bots import RandomBot as Shogun2Random
from shogun_tower.games.shogun2.dials import DialTable
from shogun_tower.games.shogun2.game import Game as Game2
from shogun_tower.games.shogun2.game import State as State2

ALL = ("court", "samurai", "leaders", "chambers")
INTERNAL = re.compile(r"\b(court_favour|samurai_bonus|leader_\w+|chamber_tile|use_special|"
                      r"battle_[ab]|deploy\d|convert\d|None|vp \d|1 armies|1 coins)\b")


def secrets_changed(s: State, player: str | None, seed: int) -> State:
    """The same table with every secret of ``player``'s rivals drawn again: their plans'
    cards shuffled over their spaces (the bid too while it is face down), the engine's
    generator, the order of the event deck."""
    rng = Rng(seed)
    c = s.copy()
    c.rng = Rng(seed + 99)
    rng.shuffle(c.event_deck)
    for p, plan in c.plans.items():
        if p == player:
            continue
        cards = [plan["actions"][a] for a in ACTIONS]
        rng.shuffle(cards)
        plan["actions"] = dict(zip(ACTIONS, cards, strict=True))
        if not c.bids_paid:
            plan["bid"] = rng.choice([0, 1, 2, None])
    return c


def questions(expansions: tuple[str, ...], seed: int, limit: int = 900,
              always: tuple[str, ...] = ("march",)):
    """A bots' game, stopped at the first question of each kind (and each question of the
    expansions) and at every question of the kinds ``always``: (state, journal length)."""
    s = State.new(Game.create(4, seed=seed, expansions=expansions))
    bots = {p: HeuristicBot(seed + i) for i, p in enumerate(s.game.players)}
    tower = TowerDriver(seed)
    seen: set[str] = set()
    for turn in range(limit):
        st = s.pending()
        if st["kind"] == "over":
            return
        key = f"{st['kind']}:{st.get('what', '')}"
        if key not in seen or st["kind"] in always:
            seen.add(key)
            yield s, turn
        if st["kind"] == "throw":
            s.apply({"type": "tray", "counts": tower.throw(st["into_tower"])})
        else:
            p = decider(st)
            s.apply(bots[p].decide(s, p))


@pytest.mark.parametrize("expansions,seed", [((), 5), (ALL, 7)])
def test_a_hint_never_depends_on_a_secret(expansions, seed) -> None:
    kinds = set()
    for s, turn in questions(expansions, seed, always=("march", "plan")):
        st = s.pending()
        player = decider(st)
        told = hint(s, turn)
        assert told and all(line.strip() for line in told), st
        assert not INTERNAL.search(" ".join(told)), told
        for trial in range(2):
            other = secrets_changed(s, player, seed * 10 + trial)
            assert hint(other, turn) == told, (st["kind"], st.get("what"))
        if any(p != player for p in s.plans):  # a rival's plan was there, and was changed
            assert secrets_changed(s, player, 1).plans != s.plans
        kinds.add(st["kind"] if st["kind"] != "choose" else st["what"])
    assert {"plan", "special", "march", "throw"} <= kinds, kinds
    if expansions:
        assert {"court_favour", "samurai_bonus", "leader_place", "chamber_tile"} <= kinds, kinds


def test_conceal_keeps_what_the_player_may_know_and_nothing_else() -> None:
    s = State.new(Game.create(4, seed=3))
    bots = {p: RandomBot(i) for i, p in enumerate(s.game.players)}
    while s.pending()["kind"] != "plan":
        st = s.pending()
        s.apply({"type": "tray", "counts": st["into_tower"]} if st["kind"] == "throw"
                else bots[decider(st)].decide(s, decider(st)))
    first = s.pending()["players"][0]
    s.apply(bots[first].decide(s, first))
    second = s.pending()["players"][0]
    view = conceal(s, second)
    assert list(view.plans) == [first], "that a player has planned is public"
    assert set(view.plans[first]["actions"].values()) == {None}
    assert view.plans[first]["bid"] is None, "a bid is face down until the bids are paid"
    assert view.tower == s.tower and view.owner == s.owner and view.coins == s.coins
    assert conceal(s, first).plans[first] == s.plans[first], "his own plan he knows"


def test_the_hint_is_the_odds_bots_answer_with_its_odds() -> None:
    for s, turn in questions((), 11):
        st = s.pending()
        if st["kind"] != "march":
            continue
        view = conceal(s, st["player"])
        command = OddsBot(turn).decide(view, st["player"])
        told = " ".join(hint(s, turn))
        assert command["to"] in told
        if s.owner[command["to"]] != st["player"]:
            win, _ = OddsBot(turn)._attack(view, st["player"], st["from"], command["to"],
                                           command["armies"])
            assert f"{round(100 * win)}% to take it" in told
            assert f"cubes inside the tower: {sum(s.tower.values())}" in told
        return
    raise AssertionError("no Battle/Move in the game")


def test_a_throws_hint_gives_its_odds_and_a_set_up_throw_none() -> None:
    s = State.new(Game.create(3, seed=2))
    assert s.pending()["kind"] == "throw"
    assert hint(s, 0) == ["Nothing to decide: throw the cubes named into the tower, then count "
                          "the tray."]
    for s, turn in questions((), 4, always=("throw",)):
        st = s.pending()
        if st["kind"] == "throw" and st.get("reason") == "battle":
            (line,) = hint(s, turn)
            assert f"Battle for {st['province']}:" in line and "attacker wins" in line
            return
    raise AssertionError("no battle")


# ---- the two-player Shogun: the magnets are the secret ----------------------------------------
def _shogun2_game(seed: int, plies: int) -> tuple[State2, list[dict]]:
    s = State2.new(Game2(seed=seed))
    moves = []
    for i in range(plies):
        m = {"move": str(Shogun2Random(seed + i).choose(s))}
        s.apply(m)
        moves.append(m)
    return s, moves


def test_a_two_player_hint_never_uses_the_magnets_nobody_has_seen() -> None:
    for seed in (21, 22, 23):
        s, moves = _shogun2_game(seed, 10)
        table, known = shogun2_hints.seen_table(s, moves)
        told = shogun2_hints.hint(s, moves)
        unseen = [sq for sq in SQUARES if ("piece", sq) not in known]
        assert unseen, "most squares are never seen in ten moves"
        # other magnets under every square nobody has seen: the same hint
        rng = Rng(seed)
        other = DialTable(tuple(s.table.piece[sq] if ("piece", sq) in known else
                                rng.randint(1, 4) for sq in SQUARES),
                          tuple(s.table.shogun[sq] if ("shogun", sq) in known else
                                rng.randint(1, 2) for sq in SQUARES))
        s.table = other
        assert shogun2_hints.hint(s, moves) == told
        assert told[0].startswith("The alpha-beta bot would play ")


def test_the_two_player_hint_is_the_searchers_move_on_what_is_seen() -> None:
    s, moves = _shogun2_game(31, 6)
    table, _ = shogun2_hints.seen_table(s, moves)
    view = State2(s.game, s.rng, table, s.position.copy())
    view.plies = s.plies
    move = AlphaBetaBot(seed=s.plies).choose(view)
    assert shogun2_hints.hint(s, moves)[0] == f"The alpha-beta bot would play {move}."


# ---- Knizia's Samurai: nothing to decide, the standing ---------------------------------------
def test_the_samurai_hint_says_who_would_win_and_which_capture_changes_it() -> None:
    s = SamuraiState.new(SamuraiGame.create(3))
    s.apply({"capture": "helmet", "player": "red"})
    s.apply({"capture": "helmet", "player": "red"})
    s.apply({"capture": "buddha", "player": "yellow"})
    told = samurai_hint(s)
    assert "If the game ended now, red would win" in told[1]
    # a helmet more: each leads a type, and yellow has more figures besides (rulebook's step 3)
    assert "Yellow would be the only winner with one more helmet or rice field." in told
    assert not any(line.startswith("Blue") for line in told)
    assert "still on the board: helmets 8, Buddhas 9, rice fields 10" in told[-1]
