"""What the players type at the scoring console, read as engine commands; each bad entry is one
line naming this table's players."""

from __future__ import annotations

import pytest

from shogun_tower.errors import ShogunError
from shogun_tower.games.knizia_samurai.console import help_text, parse_entry

TABLE = ("red", "yellow", "blue")
CITY = [["blue", "helmet", 3], ["red", "samurai", 2]]


@pytest.mark.parametrize("typed, command", [
    ("blue helmet", {"capture": "helmet", "player": "blue"}),
    ("helmet blue", {"capture": "helmet", "player": "blue"}),
    ("b h", {"capture": "helmet", "player": "blue"}),
    ("Red Rice Field", {"capture": "rice", "player": "red"}),
    ("yellow rice fields", {"capture": "rice", "player": "yellow"}),
    ("yellow Buddhas", {"capture": "buddha", "player": "yellow"}),
    ("tie rice", {"tie": "rice"}),
    ("tie b", {"tie": "buddha"}),
    ("helmet: blue:helmet:3 red:samurai:2",
     {"surrounded": "helmet", "tiles": [["blue", "helmet", 3], ["red", "samurai", 2]]}),
    ("rice field: yellow:exchange red:ship:1",
     {"surrounded": "rice", "tiles": [["yellow", "exchange", 0], ["red", "ship", 1]]}),
    # one tile, several figures (rule K10): they leave the board together
    ("blue helmet, tie buddha",
     {"figures": [{"capture": "helmet", "player": "blue"}, {"tie": "buddha"}]}),
    ("red helmet and yellow buddha; tie rice",
     {"figures": [{"capture": "helmet", "player": "red"},
                  {"capture": "buddha", "player": "yellow"}, {"tie": "rice"}]}),
    ("helmet buddha: blue:helmet:3 red:samurai:2",  # a city's two figures, the same tiles
     {"figures": [{"surrounded": "helmet", "tiles": CITY}, {"surrounded": "buddha",
                                                          "tiles": CITY}]}),
    ("helmet buddha: blue:helmet:3, red:samurai:2",  # tiles separated by commas too
     {"figures": [{"surrounded": "helmet", "tiles": CITY}, {"surrounded": "buddha",
                                                          "tiles": CITY}]}),
    ("rice: red:rice:2, blue helmet",
     {"figures": [{"surrounded": "rice", "tiles": [["red", "rice", 2]]},
                  {"capture": "helmet", "player": "blue"}]}),
])
def test_an_entry_as_typed(typed: str, command: dict) -> None:
    assert parse_entry(typed, TABLE) == command


@pytest.mark.parametrize("typed, words", [
    ("green helmet", "no player of this table named; players are red, yellow, blue"),
    ("blue castle", "'castle' is not a figure"),
    ("tie", "type PLAYER FIGURE (red helmet)"),
    ("helmet:", "give the tiles next to the helmet, e.g. helmet: red:samurai:3"),
    ("helmet: green:helmet:2", "'green' is not a player here"),
    ("blue takes a helmet", "type PLAYER FIGURE"),
    ("helmet helmet: red:samurai:2", "the figures of one city are of different types"),
    ("blue helmet, castle", "'castle': type PLAYER FIGURE"),
    (", ;", "type PLAYER FIGURE"),
])
def test_a_bad_entry_is_one_line(typed: str, words: str) -> None:
    with pytest.raises(ShogunError) as err:
        parse_entry(typed, TABLE)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_help_names_this_tables_players() -> None:
    text = help_text(("green", "yellow"))
    assert "(green helmet)" in text and "green:helmet:3 yellow:samurai:2" in text
    assert "(green helmet, tie buddha)" in text and "helmet buddha: green:samurai:3" in text
    assert "blue" not in text
