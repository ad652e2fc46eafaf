"""Whole bot games with every subset of the expansions: cubes and courtiers are conserved after
every command, a journal replays them exactly (a short seeded slice; thousands of games run in
``bench/bench_expansions.py``; any tray counts: ``test_properties_and_bots.py``)."""

from __future__ import annotations

import pytest

from shogun_tower.games.shogun.bots import HeuristicBot, RandomBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.invariants import problems
from shogun_tower.games.shogun.rules.expansions import subsets
from shogun_tower.games.shogun.runner import play_game

SUBSETS = subsets()


def _check(s: State, cmd: dict) -> None:
    assert problems(s) == [], cmd


@pytest.mark.parametrize("expansions", SUBSETS, ids=lambda e: "+".join(e) or "base")
@pytest.mark.parametrize("seed", range(4))
def test_bot_games_conserve_cubes_and_courtiers_and_replay(expansions, seed, tmp_path) -> None:
    players = 3 + seed % 3
    game = Game.create(players, seed=seed, setup="draft" if seed % 2 else "fixed",
                       expansions=expansions)
    kinds = (HeuristicBot, RandomBot)
    bots = {p: kinds[(i + seed) % 2](seed * 10 + i) for i, p in enumerate(game.players)}
    record: list[dict] = []
    end = play_game(game, bots, tower_seed=seed, on_command=_check, record=record)
    assert end.phase == "over" and end.result["winners"]
    j = Journal.new(game, tmp_path / "g.jsonl")
    for c in record:
        j.apply(c)
    assert Journal.load(tmp_path / "g.jsonl").state.to_json() == end.to_json()
    if "court" in expansions:
        assert any(c["type"] == "choose" and c["what"] == "court_favour" for c in record)
    if "samurai" in expansions and players == 3:
        assert any(c["type"] == "choose" and c["what"] == "samurai_bonus" for c in record)


def test_the_view_data_shows_the_court_and_every_samurai_stack() -> None:
    import json

    from shogun_tower.games.shogun.rules.expansions import views

    s = State.new(Game.create(3, seed=2, expansions=["court", "samurai"]))
    s.apply({"type": "tray", "counts": {"red": 2}})
    v = views(s)
    assert v["court"]["courtiers"]["red"] == {"supply": 5, "hall": 2, "room": 0}
    assert len(v["court"]["places"]) == 3 and v["court"]["pile"] == 18
    assert [p["courtiers"] for p in v["court"]["places"]] == [4, 3, 2]
    assert set(v["samurai"]["stacks"]) == {"black", "red", "yellow"}
    assert v["samurai"]["stacks"]["red"]["next"]["coins"] == 2
    json.dumps(v)  # the page gets it as JSON


def test_expansions_are_named_as_a_list_or_a_comma_string_and_unknown_ones_refused() -> None:
    from shogun_tower.games.shogun.rules import RulesError

    assert Game.create(4, expansions="samurai,court").expansions == ("court", "samurai")
    with pytest.raises(RulesError, match="unknown expansion 'ninjas'; expansions are court, "
                                         "samurai, leaders"):
        Game.create(4, expansions="court,ninjas")
    with pytest.raises(RulesError, match="engine 1 games have no expansions"):
        Game.create(4, expansions=["court"], engine=1)


def test_a_journal_whose_embedded_favour_cards_were_edited_badly_is_refused(tmp_path) -> None:
    from shogun_tower.errors import JournalError

    Journal.new(Game.create(4, seed=1, expansions=["court"]), tmp_path / "c.jsonl")
    text = (tmp_path / "c.jsonl").read_text().replace('"effect":"vp"', '"effect":"gold"', 1)
    (tmp_path / "c.jsonl").write_text(text)
    with pytest.raises(JournalError, match="line 1: bad game description .*card #7: field "
                                           "'effect' 'gold'"):
        Journal.load(tmp_path / "c.jsonl")


ALL_FOUR = ("court", "samurai", "leaders", "chambers")


@pytest.mark.parametrize("seed", range(100, 124))
def test_all_four_expansions_conserve_every_component_after_every_command(seed) -> None:
    """The seeded slice of ``make expansion-games``'s all-four run: 3-5 players, fixed and
    drafted starts, heuristic and random bots; every component of the box (cubes, buildings,
    revolt markers, cards, courtiers, favours, stacks, leaders, statues, chamber tiles and
    markers) is where it can be after every command."""
    players = 3 + seed % 3
    game = Game.create(players, seed=seed, setup="draft" if seed % 2 else "fixed",
                       expansions=ALL_FOUR)
    kinds = (HeuristicBot, RandomBot)
    bots = {p: kinds[(i + seed // 2) % 2](seed * 10 + i) for i, p in enumerate(game.players)}
    record: list[dict] = []
    end = play_game(game, bots, tower_seed=seed, on_command=_check, record=record)
    assert end.phase == "over" and end.result["winners"]
    asked = {c["what"] for c in record if c["type"] == "choose"}
    assert {"court_favour", "leader_move"} <= asked
    final = end.scores[-1]["final"]
    assert all(set(row) == {"statues", "trophies", "chambers"} for row in final.values())


@pytest.mark.parametrize("spoil", ["statue", "building", "marker", "tile", "courtier",
                                   "leader"])
def test_the_conservation_check_sees_a_component_gone_missing(spoil) -> None:
    """The invariants are not vacuous: one component taken off the table is reported."""
    game = Game.create(4, seed=3, expansions=ALL_FOUR)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
    seen: list[State] = []

    def keep(s: State, cmd: dict) -> None:
        if not seen and s.year == 2 and s.expansions["leaders"]["statues"] \
                and s.expansions["chambers"]["markers"]:
            seen.append(s.copy())

    play_game(game, bots, tower_seed=3, on_command=keep)
    s = seen[0]
    assert problems(s) == []
    p = s.game.players[0]
    if spoil == "statue":
        s.expansions["leaders"]["statue_supply"][p] -= 1
    elif spoil == "building":
        s.building_supply["castle"] -= 1
    elif spoil == "marker":
        s.markers[next(iter(s.markers))] = 43
    elif spoil == "tile":
        s.expansions["chambers"]["bag"].pop()
    elif spoil == "courtier":
        s.expansions["court"]["hall"][p] += 1
    else:
        s.expansions["leaders"]["at"][p] = next(x for x, o in s.owner.items() if o != p)
    assert problems(s)
