"""What the players type at the scoring console, read as engine commands; each bad entry is one
line naming this table's players."""

from __future__ import annotations

import pytest

from shogun_tower.errors import ShogunError
from shogun_tower.games.knizia_samurai.console import help_text, parse_entry

TABLE = ("red", "yellow", "blue")


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
])
def test_a_bad_entry_is_one_line(typed: str, words: str) -> None:
    with pytest.raises(ShogunError) as err:
        parse_entry(typed, TABLE)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_help_names_this_tables_players() -> None:
    text = help_text(("green", "yellow"))
    assert "(green helmet)" in text and "green:helmet:3 yellow:samurai:2" in text
    assert "blue" not in text
