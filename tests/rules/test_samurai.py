"""X2 Samurai (rulebook 002 "SAMURAI"): bonus stacks, the 4-regions condition, the reset (X2.n)."""

from __future__ import annotations

import copy
import json

import pytest
from helpers import (
    DEFAULT_EVENTS,
    DEFAULT_ORDER,
    DEFAULT_SPECIALS,
    chance,
    cube_totals,
    through_specials,
    to_planning,
)

from shogun_tower.errors import DataError
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.data import packaged
from shogun_tower.games.shogun.rules.expansions import samurai
from shogun_tower.games.shogun.runner import play_game


def test_x2_2_the_bonus_phase_comes_after_the_turn_order_and_the_reset_after_winter() -> None:
    g = Game.create(3, expansions=["samurai"])
    assert g.season_phases == ("season_start", "plan", "bids", "specials", "samurai_bonus",
                               "actions", "season_end")
    assert g.year_end_phases == ("winter", "winter_scoring", "year_end", "samurai_reset")


def test_x2_1_every_stack_starts_on_the_empty_banner() -> None:
    s = State.new(Game.create(3, expansions=["samurai"]))
    assert s.expansions["samurai"]["top"] == {"black": 0, "red": 0, "yellow": 0}


def test_x2_2_x2_3_four_regions_flip_the_stack_and_the_player_takes_one_bonus() -> None:
    s = to_planning(3, expansions=("samurai",))
    # 3-player fixed start: red and yellow hold provinces in 4 regions, black in 3
    assert [samurai.regions_held(s, p) for p in s.game.players] == [3, 4, 4]
    through_specials(s, ["yellow", "black", "red"])
    st = s.pending()
    assert (st["kind"], st["what"], st["player"], st["card"]) == \
        ("choose", "samurai_bonus", "yellow", 1)
    # card 1: 2 coins or 1 army into the tray (its rice 0 and VP 0 are not offered), or keep
    # the stack as it is (rule X2.2: « peut faire passer »)
    assert [o["text"] for o in st["options"]] == ["2 coins", "1 army into the tray",
                                                  "none: leave the stack as it is"]
    assert [o["value"] for o in st["options"]] == ["coins", "armies", "keep"]
    assert s.expansions["samurai"]["top"]["yellow"] == 0  # turned only with the answer
    before = cube_totals(s)
    supply, tray = s.supply["yellow"], s.tray["yellow"]
    s.apply({"type": "choose", "player": "yellow", "what": "samurai_bonus", "option": "armies"})
    assert (s.supply["yellow"], s.tray["yellow"]) == (supply - 1, tray + 1)  # rule X2.4
    assert cube_totals(s) == before
    st = s.pending()
    assert (st["player"], st["card"]) == ("red", 1)  # black (3 regions) was passed over
    events = s.apply({"type": "choose", "player": "red", "what": "samurai_bonus",
                      "option": "coins"})
    assert events[:2] == [{"event": "samurai_card", "player": "red", "card": 1, "regions": 4,
                           "rule": "X2.3"},
                          {"event": "samurai_bonus", "player": "red", "bonus": "coins",
                           "amount": 2, "rule": "X2.3"}]
    assert s.expansions["samurai"]["top"] == {"black": 0, "red": 1, "yellow": 1}
    assert s.pending()["kind"] != "choose"  # on to the actions


def test_x2_2_a_player_who_qualifies_may_leave_his_stack_as_it_is() -> None:
    s = to_planning(3, expansions=("samurai",))
    through_specials(s, ["yellow", "black", "red"])
    coins = s.coins["yellow"]
    events = s.apply({"type": "choose", "player": "yellow", "what": "samurai_bonus",
                      "option": "keep"})
    assert events[0] == {"event": "samurai_kept", "player": "yellow", "regions": 4,
                         "rule": "X2.2"}
    assert s.expansions["samurai"]["top"]["yellow"] == 0 and s.coins["yellow"] == coins
    # next season his card 1 is offered again, not card 2
    assert s.pending()["player"] == "red"


def test_x2_2_engine_2_games_turn_the_card_without_asking() -> None:
    s = State.new(Game.create(3, chance="physical", expansions=["samurai"], engine=2))
    s.apply({"type": "tray", "counts": {}})
    chance(s, "year_events", DEFAULT_EVENTS)
    for a in DEFAULT_ORDER[:5]:
        chance(s, "action_card", a)
    chance(s, "specials", DEFAULT_SPECIALS)
    through_specials(s, ["yellow", "black", "red"])
    st = s.pending()
    assert [o["value"] for o in st["options"]] == ["coins", "armies"]
    assert s.expansions["samurai"]["top"]["yellow"] == 1


def test_x2_5_the_stacks_are_reset_after_the_first_winter_only() -> None:
    g = Game.create(3, seed=5, expansions=["samurai"])
    seen: list[tuple[int, int, dict]] = []

    def watch(s: State, cmd: dict) -> None:
        seen.append((s.year, s.season, dict(s.expansions["samurai"]["top"])))

    s = play_game(g, {p: HeuristicBot(i) for i, p in enumerate(g.players)}, 2,
                  on_command=watch)
    flips = [t for y, _, t in seen if y == 1]
    assert any(any(v > 0 for v in t.values()) for t in flips)
    year2_start = next(t for y, season, t in seen if y == 2)
    assert all(v == 0 for v in year2_start.values())  # rule X2.5
    assert s.phase == "over"


def test_the_journal_records_samurai_and_embeds_its_data(tmp_path) -> None:
    g = Game.create(3, seed=8, expansions=["samurai"])
    record: list[dict] = []
    end = play_game(g, {p: HeuristicBot(i) for i, p in enumerate(g.players)}, 4, record=record)
    j = Journal.new(g, tmp_path / "s.jsonl")
    for c in record:
        j.apply(c)
    header = json.loads((tmp_path / "s.jsonl").read_text().splitlines()[0])
    assert header["expansions"] == ["samurai"]
    assert header["game"]["expansion_data"]["samurai"] == packaged("samurai_stacks.json")
    again = Journal.load(tmp_path / "s.jsonl")
    assert again.state.to_json() == end.to_json()


def test_x2_samurai_data_is_validated_at_load_with_a_one_line_error() -> None:
    good = packaged("samurai_stacks.json")
    assert all(c["source"] in ("seed", "decision") for c in good["stack"])
    bad = copy.deepcopy(good)
    bad["stack"][2]["bonuses"]["coins"] = -1
    with pytest.raises(DataError, match="stack card 2 bonus: field 'coins'"):
        Game.create(3, expansions=["samurai"], expansion_data={"samurai": bad})
    bad = copy.deepcopy(good)
    del bad["stack"][1]["reason"]
    with pytest.raises(DataError, match="stack card 1: a decision needs a 'reason'"):
        samurai.load_data(bad)
    fixed = copy.deepcopy(good)
    fixed["stack"][1]["bonuses"]["coins"] = 3  # a player holding the real cards corrects one
    fixed["stack"][1]["source"] = "seed"
    s = to_planning(3, expansions=("samurai",))
    g = Game.create(3, chance="physical", expansions=["samurai"],
                    expansion_data={"samurai": fixed})
    assert g.expansion_data["samurai"]["stack"][1]["bonuses"]["coins"] == 3
    assert s.game.expansion_data["samurai"] == good


