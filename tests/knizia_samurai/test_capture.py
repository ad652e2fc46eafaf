"""Capture of a surrounded figure (rulebook 004): the rulebook's page-2 influence examples and its
page-3 capture examples, as named tests. The seed text has the numbers but not the pictures, so
each example's tiles are rebuilt to give exactly the influences the text states."""

from __future__ import annotations

import pytest

from shogun_tower.errors import ShogunError
from shogun_tower.games.knizia_samurai.capture import Tile, adjudicate, influence, tile_from_text


def tiles(*texts: str) -> list[Tile]:
    return [tile_from_text(t) for t in texts]


# ---- page 2: which figures a tile influences -------------------------------------------------
def test_page2_1_green_helmet_tile_influences_the_helmet_by_4() -> None:
    assert influence(tiles("green:helmet:4"), "helmet") == {"green": 4}
    assert influence(tiles("green:helmet:4"), "buddha") == {"green": 0}


def test_page2_2_yellow_samurai_1_influences_helmet_buddha_and_rice() -> None:
    for figure in ("helmet", "buddha", "rice"):
        assert influence(tiles("yellow:samurai:1"), figure) == {"yellow": 1}


def test_page2_3_green_buddha_3_influences_both_buddhas_not_the_rice_field() -> None:
    assert influence(tiles("green:buddha:3"), "buddha") == {"green": 3}
    assert influence(tiles("green:buddha:3"), "rice") == {"green": 0}


def test_page2_4_red_cavalry_1_influences_all_three() -> None:
    for figure in ("helmet", "buddha", "rice"):
        assert influence(tiles("red:cavalry:1"), figure) == {"red": 1}


def test_page2_5_yellow_ship_2_influences_every_type() -> None:
    for figure in ("helmet", "buddha", "rice"):
        assert influence(tiles("yellow:ship:2"), figure) == {"yellow": 2}


# ---- page 3: captures ------------------------------------------------------------------------
def test_page3_1_blue_takes_the_helmet_3_to_2() -> None:
    # a red Buddha tile next to the helmet counts nothing for it
    v = adjudicate(tiles("blue:helmet:3", "red:samurai:2", "red:buddha:4"), "helmet")
    assert v.winner == "blue"
    assert v.influence == {"blue": 3, "red": 2}


# Red plays the cavalry and the samurai 2: red's double capture, and on the same turn green's
# rice field and yellow's Buddha. Red's cavalry 1 is next to both Buddhas; red's samurai 2 next
# to the helmet and the right Buddha.
HELMET = ("red:samurai:2", "green:samurai:1")
RIGHT_BUDDHA = ("red:samurai:2", "red:cavalry:1", "yellow:buddha:2")
RICE_FIELD = ("green:rice:3", "blue:samurai:2", "red:buddha:1")
LEFT_BUDDHA = ("yellow:buddha:4", "green:buddha:3", "red:cavalry:1", "blue:rice:2")


def test_page3_2_red_double_capture_helmet_2_to_1_and_right_buddha_3_to_2() -> None:
    helmet = adjudicate(tiles(*HELMET), "helmet")
    assert (helmet.winner, helmet.influence) == ("red", {"red": 2, "green": 1})
    buddha = adjudicate(tiles(*RIGHT_BUDDHA), "buddha")
    assert (buddha.winner, buddha.influence) == ("red", {"red": 3, "yellow": 2})


def test_page3_3_green_takes_the_rice_field_3_to_blue_2() -> None:
    v = adjudicate(tiles(*RICE_FIELD), "rice")
    assert v.winner == "green"
    assert v.influence == {"green": 3, "blue": 2, "red": 0}


def test_page3_4_yellow_takes_the_buddha_4_against_3_and_1() -> None:
    v = adjudicate(tiles(*LEFT_BUDDHA), "buddha")
    assert v.winner == "yellow"
    assert v.influence == {"yellow": 4, "green": 3, "red": 1, "blue": 0}


def test_page3_blue_gets_nothing_that_turn() -> None:
    winners = [adjudicate(tiles(*t), f).winner for t, f in
               ((HELMET, "helmet"), (RIGHT_BUDDHA, "buddha"), (RICE_FIELD, "rice"),
                (LEFT_BUDDHA, "buddha"))]
    assert winners == ["red", "red", "green", "yellow"]


# ---- ties and the exchange tile ---------------------------------------------------------------
def test_a_tie_for_the_most_influence_sends_the_figure_off_the_board() -> None:
    v = adjudicate(tiles("red:helmet:3", "blue:samurai:3", "green:ship:1"), "helmet")
    assert v.winner is None
    assert v.tied == ("red", "blue")
    assert "leaves the board" in v.text("helmet")


def test_the_exchange_tile_is_worth_0() -> None:
    assert influence(tiles("yellow:exchange"), "rice") == {"yellow": 0}
    v = adjudicate(tiles("yellow:exchange", "yellow:rice:2", "blue:samurai:2"), "rice")
    assert v.winner is None and v.influence == {"yellow": 2, "blue": 2}


def test_no_tile_counting_for_the_figure_is_a_tie_at_0() -> None:
    v = adjudicate(tiles("red:buddha:4", "blue:rice:2"), "helmet")
    assert v.winner is None and v.influence == {"red": 0, "blue": 0}
    assert "a tie at 0" in v.text("helmet")


@pytest.mark.parametrize("text, words", [
    ("blue:hat:3", "no tile kind 'hat'"),
    ("blue:helmet:9", "a helmet tile shows 1, 2, 3 or 4, not 9"),
    ("blue:helmet:x", "is not a number"),
    ("purple:helmet:2", "'purple' is not a player"),
    ("yellow:exchange:2", "shows only 0"),
    ("red:figure-exchange", "never next to a figure"),
    ("blue", "PLAYER:KIND:VALUE"),
])
def test_a_bad_tile_is_one_line_saying_what_and_what_to_do(text: str, words: str) -> None:
    with pytest.raises(ShogunError) as err:
        tile_from_text(text)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_figure_needs_tiles_and_a_known_type() -> None:
    with pytest.raises(ShogunError, match="at least one tile"):
        adjudicate([], "helmet")
    with pytest.raises(ShogunError, match="the figure types are helmet, buddha, rice"):
        adjudicate(tiles("red:samurai:1"), "castle")
