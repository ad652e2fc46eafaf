"""The dial model: a hidden table per square from the seeded generator, the board turned 90°."""

from __future__ import annotations

from shogun_common.rng import Rng
from shogun_tower.games.shogun2 import Game, State
from shogun_tower.games.shogun2.board import SQUARES, parse_square
from shogun_tower.games.shogun2.dials import DialTable, quarter_turn


def test_the_same_seed_is_the_same_board_and_values_are_on_the_dials() -> None:
    a, b, c = (DialTable.draw(Rng(seed=s)) for s in (1, 1, 2))
    assert a == b and a != c
    assert set(a.piece) == {1, 2, 3, 4} and set(a.shogun) == {1, 2}


def test_turning_the_board_moves_each_magnet_to_the_square_it_lies_under() -> None:
    t = DialTable.draw(Rng(seed=3))
    quarter = t.turned(90)
    assert quarter_turn(parse_square("a1")) == parse_square("a8")
    assert quarter_turn(parse_square("a8")) == parse_square("h8")
    for sq in SQUARES:
        assert quarter.piece[quarter_turn(sq)] == t.piece[sq]
        assert quarter.shogun[quarter_turn(sq)] == t.shogun[sq]
    assert t.turned(90).turned(270) == t == t.turned(0)
    assert t.turned(180) == quarter.turned(90) != t


def test_a_turned_game_plays_with_the_turned_table() -> None:
    plain, turned = State.new(Game(seed=4)), State.new(Game(seed=4, turned=90))
    assert turned.table == plain.table.turned(90)


def test_after_every_move_the_piece_shows_the_number_of_its_new_square() -> None:
    s = State.new(Game(seed=5))
    rng = Rng(seed=9)
    while not s.result and s.plies < 60:
        move = rng.choice(s.legal_moves())
        piece = s.position.board[move.start]
        events = s.apply({"move": str(move)})
        assert events[0]["new_dial"] == s.table.shows(piece, move.end)
        assert s.position.dials[move.end] == events[0]["new_dial"]
