"""The rules of Ravensburger's Shogun (rulebook 003): the start, the moves, "Shogun", the end, and
the seed's three worked examples, as positions in the FEN-like notation (docs/shogun2.md)."""

from __future__ import annotations

import pytest

from shogun_tower.games.shogun2 import Game, MoveRefused, State
from shogun_tower.games.shogun2.board import RED, SHOGUN, WHITE, name, parse_square
from shogun_tower.games.shogun2.dials import DialTable
from shogun_tower.games.shogun2.game import DRAW_PLIES, load_position
from shogun_tower.games.shogun2.notation import (
    PositionError,
    format_position,
    parse_position,
    position_from_json,
    position_to_json,
)


def sq(text: str) -> int:
    square = parse_square(text)
    assert square is not None
    return square


def moves_of(state: State) -> set[str]:
    return {f"{name(m.start)}-{name(m.end)}" for m in state.legal_moves()}


def test_start_eight_pieces_a_side_shogun_fourth_from_the_right() -> None:
    s = State.new(Game(seed=7))
    pos = s.position
    assert pos.board[sq("e1")] == SHOGUN * WHITE  # h1 g1 f1 e1: 4th from white's right
    assert pos.board[sq("d8")] == SHOGUN * RED  # a8 b8 c8 d8: 4th from red's right
    assert len(pos.pieces(WHITE)) == len(pos.pieces(RED)) == 8
    assert all(pos.board[sq(f + "1")] > 0 and pos.board[sq(f + "8")] < 0 for f in "abcdefgh")
    for square in pos.pieces(WHITE) + pos.pieces(RED):  # each dial shows its square's number
        assert pos.dials[square] == s.table.shows(pos.board[square], square)
    assert s.to_move == "white" and State.new(Game(first="red")).to_move == "red"


def test_example_1_the_2_takes_the_3_or_the_3_runs_to_safety() -> None:
    """Rulebook 003, example 1: the piece showing 2 goes 2 squares and takes the opposing 3; if it
    is the other side's turn, the 3 can move to a square where it is safe."""
    text = "7s1/p1p16/4p33/8/4P23/8/8/S1P16"
    white = load_position(Game(seed=1), text + " w")
    assert "e4-e6" in moves_of(white)
    events = white.apply({"move": "e4xe6"})
    assert events[0]["from"] == "e4" and events[0]["to"] == "e6" and events[0]["dial"] == 2
    assert events[1] == {"event": "captured", "side": "red", "kind": "piece", "square": "e6"}
    red = load_position(Game(seed=1), text + " r")
    assert red.position.attacks(WHITE, sq("e6")) == sq("e4")
    escapes = [m for m in red.legal_moves() if m.start == sq("e6")]
    assert escapes
    safe = []
    for m in escapes:
        undo = red.position.play(m, red.table.shows(-1, m.end))
        if red.position.attacks(WHITE, m.end) is None:
            safe.append(m)
        red.position.unplay(m, undo)
    assert safe, "the 3 has a safe square"


EXAMPLE_2 = "4p22s1/8/2p11p43/8/3P34/8/8/S1P1P15"


def test_example_2_the_3_turns_left_to_take_the_1() -> None:
    """Rulebook 003, example 2: the 3 goes forward and turns left to take the 1 (and stays safe);
    turning right to take the 4 it would be taken by the opposing 2 next turn."""
    left = load_position(Game(seed=2), EXAMPLE_2 + " w")
    move = next(m for m in left.legal_moves() if name(m.end) == "c6")
    assert move.start == sq("d4") and move.captured == -1
    forward_then_left = ("d5", "d6", "c6")
    assert name(move.end) == "c6" and len(move.path) == 3
    assert left.position.free_way(sq("d4"), sq("c6")) in (
        tuple(sq(s) for s in forward_then_left), tuple(sq(s) for s in ("c4", "c5", "c6")))
    left.apply({"move": "d4xc6"})
    assert all(m.end != sq("c6") for m in left.legal_moves()), "the 3 on c6 is safe"

    right = load_position(Game(seed=2), EXAMPLE_2 + " w")
    right.apply({"move": "d4xe6"})
    assert right.position.attacks(RED, sq("e6")) == sq("e8")
    assert "e8-e6" in moves_of(right)
    events = right.apply({"move": "e8xe6"})
    assert events[1]["event"] == "captured" and events[1]["side"] == "white"


EXAMPLE_3 = "7s1/2p35/8/3p14/2p2S14/8/8/P16P1 w"


def test_example_3_the_trapped_shogun() -> None:
    """Rulebook 003, example 3: the Shogun could take the 1 (then the 2 takes it) or the 2 (then
    the 3 takes it), or go to A or B (the 2 takes it): it cannot be saved; the game is lost."""
    s = load_position(Game(seed=3), EXAMPLE_3)
    assert s.position.threatened(WHITE) == sq("d5")  # the 1 said "Shogun!"
    assert s.legal_moves() == []
    assert s.result == {"winner": "red", "reason": "white's Shogun cannot be saved"}
    free = State.new(Game(seed=3))
    free.position = parse_position(EXAMPLE_3)  # the same board before the end was judged
    for move, taker in (("d4xd5", "c4"), ("d4xc4", "c7"), ("d4-e4", "c4"), ("d4-d3", "c4")):
        with pytest.raises(MoveRefused, match=f"Shogun.*capturable by the red piece on "
                                              f"{taker}"):
            free.apply({"move": move})
    with pytest.raises(MoveRefused, match="Shogun! white's Shogun is threatened"):
        free.apply({"move": "a1-a2"})


def test_the_threatened_side_is_told_shogun_and_must_answer() -> None:
    # red's 2 on e5 goes to e3 where the magnet makes it show 2: it threatens the Shogun on e1
    s = load_position(Game(seed=4), "7s1/p1p16/8/4p23/8/8/8/P1P12S1P12 r")
    s.table = DialTable(piece=(2,) * 64, shogun=(1,) * 64)
    events = s.apply({"move": "e5-e3"})
    assert events[0]["new_dial"] == 2
    assert {"event": "shogun", "side": "white", "by": "e3"} in events
    assert s.legal_moves()
    for m in s.legal_moves():  # every answer leaves the Shogun safe
        undo = s.position.play(m, 1)
        assert s.position.threatened(WHITE) is None
        s.position.unplay(m, undo)


def test_shogun_announced_and_answered_with_a_chosen_dial() -> None:
    s = load_position(Game(seed=5), "7s1/p1p16/8/8/8/4p23/8/P1P12S1P12 w")
    assert s.position.threatened(WHITE) == sq("e3")
    answers = moves_of(s)
    assert answers and all(a.startswith("e1") or a.endswith("e3") or a.endswith("e2")
                           for a in answers)


@pytest.mark.parametrize("move, why", [
    ("e2-e5", "shows 1: it goes exactly 1 square"),
    ("a5-a6", "no white piece on a5"),
    ("zz", "not a move"),
    ("d1-e1", "holds the white Shogun"),
    ("a1a2x", "'a1a2x' is not a move"),  # an x after the squares is no notation of ours
    ("a1xa2", "a1xa2 takes nothing: a2 is empty; to move there, type a1-a2"),
    ("a1--a2", "not a move"),
])
def test_refusals_say_why(move: str, why: str) -> None:
    s = load_position(Game(seed=6), "7s1/p1p16/8/8/8/8/4P13/P1P1P1P1S13 w")
    with pytest.raises(MoveRefused, match=why):
        s.apply({"move": move})
    assert format_position(s.position).endswith(" w"), "a refused move changes nothing"


def test_a_refused_move_shows_an_example_that_is_legal_here() -> None:
    """The example in a refusal is a move of this position (here the Shogun shows 1, so the old
    example e1-e3 would itself be refused)."""
    s = load_position(Game(seed=6), "7s1/p1p16/8/8/8/8/4P13/P1P1P1P1S13 w")
    with pytest.raises(MoveRefused) as err:
        s.apply({"move": "e1e3x"})
    example = str(err.value).rsplit("e.g. ", 1)[1]
    assert example in {str(m) for m in s.legal_moves()} and example != "e1-e3"
    assert s.example() == example
    s.apply({"move": example})


def test_an_x_is_taken_for_a_capture_only() -> None:
    s = load_position(Game(seed=9), "7s1/6p1p1/6P11/8/8/8/8/P1P12S1P12 w")
    assert s.apply({"move": "g6xg7"})[1]["event"] == "captured"
    s = load_position(Game(seed=9), "7s1/6p1p1/6P11/8/8/8/8/P1P12S1P12 w")
    assert s.apply({"move": "G6-G7"})[1]["event"] == "captured"  # a dash may take as well


def test_every_move_is_kept_with_what_it_took() -> None:
    s = load_position(Game(seed=9), "7s1/6p1p1/6P11/8/8/8/8/P1P12S1P12 w")
    s.apply({"move": "g6xg7"})
    assert [(m["from"], m["to"], m["took"]) for m in s.moves] == [("g6", "g7", "piece")]
    assert s.to_json()["moves"] == s.moves


def test_no_jumping() -> None:
    s = load_position(Game(seed=8), "7s1/p1p16/8/8/4p13/8/4P13/P1P12S1P12 w")
    s.position.dials[sq("e2")] = 3
    with pytest.raises(MoveRefused, match="blocked by the piece on e4"):
        s.apply({"move": "e2-e5"})


def test_game_ends_when_a_side_has_only_its_shogun_and_one_piece() -> None:
    s = load_position(Game(seed=9), "7s1/6p1p1/8/8/8/8/6P11/P1P12S1P12 w")
    events = s.apply({"move": "g2-g3"})
    assert not s.result
    s = load_position(Game(seed=9), "7s1/6p1p1/6P11/8/8/8/8/P1P12S1P12 w")
    events = s.apply({"move": "g6xg7"})
    assert events[-1] == {"event": "ended", "winner": "white",
                          "reason": "red has only its Shogun and one piece left"}
    with pytest.raises(MoveRefused, match="the game is over"):
        s.apply({"move": "h8-h7"})


def test_a_long_game_without_captures_is_drawn() -> None:
    s = State.new(Game(seed=10))
    s.since_capture = DRAW_PLIES - 1
    move = next(m for m in s.legal_moves() if not m.captured)
    events = s.apply({"move": str(move)})
    assert s.result and s.result["winner"] is None and events[-1]["event"] == "ended"


def test_position_text_and_json_round_trip() -> None:
    s = State.new(Game(seed=11))
    text = format_position(s.position)
    assert format_position(parse_position(text)) == text
    as_json = position_to_json(s.position)
    assert format_position(position_from_json(as_json)) == text


@pytest.mark.parametrize("text, what", [
    ("", "empty"),
    ("8/8/8/8/8/8/8/8 w", "white has 0 Shoguns"),
    ("7s1/8/8/8/8/8/8/S3P16 w", "cannot show 3"),
    ("7s1/8/8/8/8/8/8/S1P 9 w", "a position is the rows then the side"),
    ("7s1/8/8/8/8/8/8/S17P1 w", "row 1 has more than 8 squares"),
    ("7s1/8/8/8/8/8/S17 w", "has 7"),
    ("7s1/8/8/8/8/8/8/S1Q16 w", "'Q' is not a piece"),
    ("7s1/8/8/8/8/8/8/S1P w", "needs the number its dial shows"),
    ("{bad", "not valid JSON"),
    ("3s14/3P14/8/8/8/8/8/S1P1P1P1P1P1P11 w", "red's Shogun can be taken by the white piece on "
                                              "d7 although it is white's turn"),
    # a 5 no dial has, 5 squares from the Shogun: said as such, never a crash
    ("8/p17/s17/8/8/8/8/P5P1S15 w", "a1: the white piece cannot show 5"),
    ("8/p17/s17/8/8/8/8/P0P1S15 w", "a1: the white piece cannot show 0"),
    ('{"to_move": "blue", "pieces": []}', "must be \"white\" or \"red\""),
])
def test_bad_positions_are_refused_in_one_line(text: str, what: str) -> None:
    with pytest.raises(PositionError, match=what) as err:
        parse_position(text)
    assert "\n" not in str(err.value)
