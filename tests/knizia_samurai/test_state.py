"""The scoring console's state and journal: counts, the two ends of the game, refusals that
change nothing, undo, resume and an edited journal refused."""

from __future__ import annotations

import json
import pathlib

import pytest

from shogun_tower import games
from shogun_tower.errors import JournalError, RulesError
from shogun_tower.games.knizia_samurai.state import (
    SamuraiGame,
    SamuraiJournal,
    SamuraiState,
    end_reason,
)


def test_figures_per_player_count_come_from_the_seed() -> None:
    assert [SamuraiGame.create(n).figures_per_type for n in (2, 3, 4)] == [7, 10, 13]
    assert SamuraiGame.create("blue,green").players == ("blue", "green")


@pytest.mark.parametrize("players, words", [
    (5, "Samurai is for 2 to 4 players"), ("red,purple", "purple is not a Samurai colour"),
    ("red,red", "named twice"), ("red", "not 1"),
])
def test_a_bad_table_is_refused_in_one_line(players: object, words: str) -> None:
    with pytest.raises(Exception, match=words):
        SamuraiGame.create(players)  # type: ignore[arg-type]


def test_the_last_figure_of_a_type_ends_the_game_and_the_winner_is_ranked() -> None:
    s = SamuraiState.new(SamuraiGame.create(2))  # 7 of each type
    for i in range(6):
        s.apply({"capture": "rice", "player": ("red", "yellow")[i % 2]})
    s.apply({"capture": "helmet", "player": "red"})
    assert s.over is None and s.on_board()["rice"] == 1
    events = s.apply({"tie": "rice"})
    assert events[0] == {"event": "removed", "figure": "rice"}
    assert events[1]["event"] == "game_over" and events[1]["rule"] == "last"
    assert events[1]["text"] == "the last rice field has left the board"
    assert s.result["winners"] == ["red"]  # rice 3-3 (nobody), helmets red 1: rule 2
    with pytest.raises(RulesError, match="the game is over"):
        s.apply({"capture": "helmet", "player": "red"})


def test_a_4th_figure_removed_on_a_tie_ends_the_game() -> None:
    s = SamuraiState.new(SamuraiGame.create(4))
    for figure in ("helmet", "buddha", "rice"):
        s.apply({"tie": figure})
    assert s.over is None
    events = s.apply({"surrounded": "helmet", "tiles": [["red", "helmet", 2],
                                                         ["blue", "ship", 2]]})
    assert events[0]["event"] == "removed" and events[0]["influence"] == {"red": 2, "blue": 2}
    assert s.over["rule"] == "ties"
    assert s.over["text"] == "a 4th figure has left the board on a tie"


def test_end_reason_names_the_figure_that_just_left_first() -> None:
    assert end_reason({"helmet": 0, "buddha": 0, "rice": 3}, 0, "buddha")["figure"] == "buddha"
    assert end_reason({"helmet": 1, "buddha": 1, "rice": 3}, 3) is None


@pytest.mark.parametrize("command, words", [
    ({"capture": "castle", "player": "red"}, "no figure type 'castle'"),
    ({"capture": "helmet", "player": "purple"}, "'purple' is not at this table"),
    ({"tie": "helmet", "capture": "rice"}, "one of capture, tie or surrounded"),
    ({"surrounded": "rice", "tiles": [["red", "rice", 7]]}, "a rice tile shows"),
    ({"surrounded": "rice", "tiles": "red"}, "a list of"),
])
def test_a_refused_command_changes_nothing(command: dict, words: str) -> None:
    s = SamuraiState.new(SamuraiGame.create(3))
    s.apply({"capture": "helmet", "player": "red"})
    before = s.to_json()
    with pytest.raises(RulesError, match=words):
        s.apply(command)
    assert s.to_json() == before


def test_no_figure_of_a_type_left_is_refused() -> None:
    s = SamuraiState.new(SamuraiGame.create(2))
    s.captured["red"]["helmet"] = 7  # as after a (hypothetical) full capture
    with pytest.raises(RulesError, match="no helmet is left on the board"):
        s.apply({"tie": "helmet"})


def test_undo_resume_and_replay(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "samurai.jsonl"
    j = SamuraiJournal.new(SamuraiGame.create(3), path)
    j.apply({"capture": "helmet", "player": "red"})
    j.apply({"capture": "buddha", "player": "blue"})
    j.undo()
    j.apply({"tie": "rice"})
    assert games.journal_game(path) == "knizia-samurai"  # its journal still says "samurai"
    again = SamuraiJournal.load(path)
    assert again.state.to_json() == j.state.to_json()
    assert again.state.captured["blue"]["buddha"] == 0 and again.state.removed["rice"] == 1
    # resume: the game goes on where it was
    again.apply({"capture": "rice", "player": "yellow"})
    assert SamuraiJournal.load(path).state.entries == 3


def test_an_edited_journal_is_refused_with_its_line(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "samurai.jsonl"
    j = SamuraiJournal.new(SamuraiGame.create(2), path)
    j.apply({"capture": "helmet", "player": "red"})
    path.write_text(path.read_text().replace('"player":"red"', '"player":"yellow"'))
    with pytest.raises(JournalError, match="line 2: digest mismatch"):
        SamuraiJournal.load(path)


def test_a_shogun_journal_is_not_a_samurai_game(tmp_path: pathlib.Path) -> None:
    from shogun_tower.games.shogun.journal import Journal
    from shogun_tower.games.shogun.rules import Game

    path = tmp_path / "shogun.jsonl"
    Journal.new(Game.create(3, seed=1), path)
    with pytest.raises(JournalError, match="line 1: bad game description"):
        SamuraiJournal.load(path)


def test_shogun_s_own_commands_say_a_samurai_journal_is_another_game(tmp_path: pathlib.Path
                                                                    ) -> None:
    from shogun_tower.games.shogun.journal import Journal

    path = tmp_path / "samurai.jsonl"
    SamuraiJournal.new(SamuraiGame.create(2), path).apply({"tie": "rice"})
    with pytest.raises(JournalError, match="line 1: a journal of samurai, not of Shogun; "
                                           "continue it with `shogun-tower play --resume"):
        Journal.load(path)


def test_samurai_is_the_old_name_of_knizias_game():
    """`--game samurai` still chooses Knizia's game (its name before the Shogun expansion
    Samurai kept the word alone), and the catalogue names it knizia-samurai."""
    from shogun_tower.cli import build_parser

    args = build_parser().parse_args(["play", "--game", "samurai"])
    assert games.chosen(args).name == "knizia-samurai"
    assert games.entry("knizia-samurai") is games.entry("samurai")


def _before_the_last_city() -> SamuraiState:
    """Two players, 7 of each type; one helmet and one Buddha left, together in one city."""
    s = SamuraiState.new(SamuraiGame.create(2))
    for player in ("red", "yellow"):
        for figure, n in (("helmet", 3), ("buddha", 3), ("rice", 2)):
            for _ in range(n):
                s.apply({"capture": figure, "player": player})
    assert s.on_board() == {"helmet": 1, "buddha": 1, "rice": 3} and s.over is None
    return s


def test_one_tile_takes_both_figures_of_a_city_and_the_end_comes_after_both() -> None:
    """Rule K10/K11: the tile that closes a city surrounds its two figures at once
    ("la figurine est immédiatement capturée"); both leave, then the end is checked. One at a
    time, whoever was typed first would end the game and win alone."""
    one_by_one = []
    for first, second in ((("red", "helmet"), ("yellow", "buddha")),
                          (("yellow", "buddha"), ("red", "helmet"))):
        s = _before_the_last_city()
        s.apply({"capture": first[1], "player": first[0]})
        with pytest.raises(RulesError, match="the game is over"):
            s.apply({"capture": second[1], "player": second[0]})
        one_by_one.append(s.result["winners"])
    assert one_by_one == [["red"], ["yellow"]]  # the typing order decided: the old defect

    helmet = {"capture": "helmet", "player": "red"}
    buddha = {"capture": "buddha", "player": "yellow"}
    for parts in ([helmet, buddha], [buddha, helmet]):
        s = _before_the_last_city()
        events = s.apply({"figures": parts})
        assert [e["event"] for e in events] == ["captured", "captured", "game_over"]
        assert s.entries == 17 and s.on_board() == {"helmet": 0, "buddha": 0, "rice": 3}
        assert s.over["text"] == "the last helmet and the last Buddha have left the board"
        # red the most helmets, yellow the most Buddhas, 5 other figures and 9 in all each
        assert s.result["winners"] == ["red", "yellow"] and s.result["rule"] == 5


def test_a_city_adjudicated_from_its_tiles_in_one_entry() -> None:
    s = _before_the_last_city()
    tiles = [["red", "helmet", 2], ["yellow", "buddha", 3], ["red", "samurai", 1]]
    events = s.apply({"figures": [{"surrounded": "helmet", "tiles": tiles},
                                  {"surrounded": "buddha", "tiles": tiles}]})
    assert events[0]["text"] == "red captures the helmet: red 3, yellow 0"
    assert events[1]["text"] == "yellow captures the Buddha: yellow 3, red 1"
    assert events[2]["event"] == "game_over"


def test_a_4th_and_a_5th_tie_on_one_tile_end_the_game_with_five_ties() -> None:
    s = SamuraiState.new(SamuraiGame.create(4))
    for figure in ("helmet", "buddha", "rice"):
        s.apply({"tie": figure})
    events = s.apply({"figures": [{"tie": "helmet"}, {"tie": "rice"}]})
    assert [e["event"] for e in events] == ["removed", "removed", "game_over"]
    assert s.ties() == 5 and s.over["rule"] == "ties"
    assert s.over["text"] == "a 4th figure has left the board on a tie"


@pytest.mark.parametrize("command, words", [
    ({"figures": [{"tie": "rice"}, {"tie": "rice"}]},
     r"this entry takes more rice fields than are left on the board \(1\)"),
    ({"figures": [{"tie": "helmet"}, {"capture": "helmet", "player": "blue"}]}, "not at this"),
    ({"figures": []}, "figures: a list of capture, tie or surrounded"),
    ({"figures": [{"tie": "rice"}], "tie": "rice"}, "figures: a list of"),
])
def test_a_refused_entry_of_several_figures_changes_nothing(command: dict, words: str) -> None:
    s = SamuraiState.new(SamuraiGame.create(2))
    for player in ("red", "yellow", "red"):
        for _ in range(2):
            s.apply({"capture": "rice", "player": player})
    before = s.to_json()
    with pytest.raises(RulesError, match=words):
        s.apply(command)
    assert s.to_json() == before


def test_a_journal_of_engine_1_still_loads_and_goes_on(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "old.jsonl"
    old = SamuraiJournal.new(SamuraiGame(("red", "yellow"), engine=1), path)
    old.apply({"capture": "helmet", "player": "red"})
    assert json.loads(path.read_text().splitlines()[0])["game"]["engine"] == 1
    again = SamuraiJournal.load(path)
    assert again.game.engine == 1 and again.state.captured["red"]["helmet"] == 1
    again.apply({"figures": [{"tie": "rice"}, {"capture": "buddha", "player": "yellow"}]})
    assert SamuraiJournal.load(path).state.entries == 2
    assert SamuraiGame.create(2).engine == 2
