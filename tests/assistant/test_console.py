"""What players type: names, numbers, counts, and the words that work at every question."""

from __future__ import annotations

import io

import pytest

from shogun_tower.counts import parse_counts
from shogun_tower.errors import ShogunError
from shogun_tower.table.console import Console, QuitRequested, UndoRequested, match


def _console(*lines: str) -> tuple[Console, io.StringIO]:
    answers = iter(lines)
    out = io.StringIO()

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    return Console(read, out, clear_screen=False), out


def test_names_match_exactly_or_by_start_and_numbers_are_values_never_positions() -> None:
    options = ["Settsu", "Shima", "Shinano", "Suruga"]
    assert match("settsu", options) == "Settsu"
    assert match("su", options) == "Suruga"
    with pytest.raises(ShogunError, match="is not one of"):
        match("2", options)  # not the second name
    places = ["2", "3", "4", "5"]  # places offered in the turn order (rule T5)
    assert match("3", places) == "3"
    with pytest.raises(ShogunError, match="is not one of: 2, 3, 4 or 5"):
        match("1", places)  # not the first place offered
    cards = ["Suruga", "Kai", "0", "1", "2", "3", "4"]
    with pytest.raises(ShogunError, match="is not one of"):
        match("7", cards)  # a bid of 7 is not the seventh card
    assert match("14", ["1", "14"]) == "14" and match("1", ["1", "14"]) == "1"
    with pytest.raises(ShogunError, match="could be Shima or Shinano"):
        match("shi", options)
    with pytest.raises(ShogunError, match="is not one of"):
        match("Kai", options)


def test_one_reader_of_names_loose_as_people_type_them() -> None:
    """Spaces, cards and options are read the same way at every question: any case, accents
    ignored, spaces optional, a word of the name, or a name the prompt printed for it."""
    spaces = ["Castle", "Temple", "Nō theatre", "Rice", "Tax", "Deploy 5", "Deploy 3",
              "Deploy/Move 1", "Battle/Move A", "Battle/Move B", "Bid"]
    for typed in ("no theatre", "theatre", "No", "NO THEATRE", "nō"):
        assert match(typed, spaces) == "Nō theatre", typed
    assert match("deploy5", spaces) == "Deploy 5" and match("Deploy 3", spaces) == "Deploy 3"
    assert match("move a", spaces) == "Battle/Move A" and match("deploy/move", spaces) \
        == "Deploy/Move 1"
    with pytest.raises(ShogunError, match="could be Deploy 5, Deploy 3 or Deploy/Move 1"):
        match("deploy", spaces)
    # the names a prompt prints: "place 1: ..." takes "place 1"
    assert match("place 1", ["1", "2"], {"1": ["place 1"], "2": ["place 2"]}) == "1"
    # a bonus: by its kind, by a word, by its number (the value it says, never a position)
    bonus = ["2 coins", "1 army into the tray", "none: leave the stack as it is"]
    names = {"2 coins": ["coins"], "1 army into the tray": ["armies"]}
    for typed in ("armies", "1", "1 a", "army", "tray"):
        assert match(typed, bonus, names) == "1 army into the tray", typed
    assert match("none", bonus, names).startswith("none")
    with pytest.raises(ShogunError, match="is not one of"):
        match("3", bonus, names)
    with pytest.raises(ShogunError, match="^type one of: Iyo, Kii or Tosa$"):
        match("", ["Iyo", "Kii", "Tosa"])  # an empty answer: what to type, not "'' is not"
    assert match("awa-boso", ["Awa-Boso", "Awa-Shikoku"]) == "Awa-Boso"
    assert match("awa boso", ["Awa-Boso", "Awa-Shikoku"]) == "Awa-Boso"


def test_names_in_any_script_as_a_japanese_player_types_them() -> None:
    """Kanji and kana are letters too: a Japanese player types the province he reads (伊予),
    an option with full-width brackets by its first words, and the kana keep their voicing
    marks (ど is not と); the English name is still taken."""
    provinces = ["安芸", "伊予", "甲斐"]
    names = {"伊予": ["Iyo"], "安芸": ["Aki"], "甲斐": ["Kai"]}
    assert match("伊予", provinces, names) == "伊予" and match("iyo", provinces, names) == "伊予"
    options = ["#13（廷臣4）：劇場を建てる", "なし"]
    assert match("#13（廷臣4）：劇場を建てる", options) == options[0]
    assert match("なし", options) == "なし"
    with pytest.raises(ShogunError, match="is not one of"):
        match("と", ["ど", "は"])


def test_a_press_enter_prompt_refuses_words_and_never_takes_them() -> None:
    console, out = _console("yes please", "Kii", "")
    console.enter("Press Enter to go on: ")
    told = out.getvalue()
    assert told.count("is not taken here: press Enter alone to go on") == 2
    console, out = _console("undo")
    with pytest.raises(UndoRequested):
        console.enter("Press Enter to go on: ")


def test_numbers_take_a_word_after_them() -> None:
    console, _ = _console("3 armies")
    assert console.number("how many armies (1-5)? ", 1, 5) == 3


def test_long_lines_wrap_at_word_boundaries() -> None:
    from shogun_tower.table.console import wrap

    line = ("  special cards: 1 P2 +1 rice on Rice, 2 P4 +1 attacking army, 3 P3 Deploy 5 "
            "places 6, 4 P1 +1 coin on Tax, 5 P5 +1 defending army, Harima")
    lines = wrap(line, 40)
    assert all(len(x) <= 40 for x in lines)
    assert " ".join(x.strip() for x in lines) == line.strip()  # no word cut
    assert all(x.startswith("    ") for x in lines[1:])  # the rest hang under the first
    assert wrap("\x1b[38;2;1;2;3mred\x1b[0m has planned", 15) == [
        "\x1b[38;2;1;2;3mred\x1b[0m has planned"]  # colour codes take no room


def test_page_shows_the_seats_links_again_with_phones() -> None:
    console, out = _console("page", "Shima")
    console.page_url = "http://127.0.0.1:8765/"
    console.seat_links = lambda: console.say("red: http://127.0.0.1:8765/seat/TOKEN")
    assert console.choose("? ", ["Settsu", "Shima"]) == "Shima"
    assert "the board page: http://127.0.0.1:8765/" in out.getvalue()
    assert "red: http://127.0.0.1:8765/seat/TOKEN" in out.getvalue()


def test_the_hand_over_prompt_takes_undo() -> None:
    with pytest.raises(UndoRequested):
        _console("undo")[0].private("red")


def test_every_question_knows_undo_quit_show_and_help() -> None:
    shown = []
    console, out = _console("help", "show", "page", "Shima")
    console.show = lambda: shown.append(True)
    assert console.choose("? ", ["Settsu", "Shima"]) == "Shima"
    assert shown == [True]
    assert "undo" in out.getvalue() and "no board page" in out.getvalue()
    with pytest.raises(UndoRequested):
        _console("undo")[0].ask("? ")
    with pytest.raises(QuitRequested):
        _console("quit")[0].ask("? ")
    with pytest.raises(QuitRequested):
        _console()[0].ask("? ")  # the input ended: nothing is lost, the journal has it all


def test_a_wrong_answer_is_asked_again_with_the_reason() -> None:
    console, out = _console("nine", "12", "3")
    assert console.number("armies? ", 1, 5) == 3
    assert out.getvalue().count("from 1 to 5") == 2


def test_tray_counts_as_people_type_them() -> None:
    assert parse_counts("red 3, blue 2, green 1")["red"] == 3
    counts = parse_counts("r3 b2 g1 k4")
    assert (counts["red"], counts["blue"], counts["green"], counts["black"]) == (3, 2, 1, 4)
    assert parse_counts("2 farmers")["green"] == 2
    assert sum(parse_counts("").values()) == 0 and sum(parse_counts("none").values()) == 0
    with pytest.raises(ShogunError, match="not a cube colour"):
        parse_counts("pink 2")
    with pytest.raises(ShogunError, match="cannot read"):
        parse_counts("three reds")
