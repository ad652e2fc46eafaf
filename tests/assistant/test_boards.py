"""The expansions' boards as the terminal draws them: the chamber board reads right with ties and
names only the colours in play; the leaders board in plain words."""

from __future__ import annotations

from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.expansions import views
from shogun_tower.table.boards import chambers, leaders


def _board() -> list[str]:
    s = State.new(Game.create(["red", "yellow", "blue"], seed=2, expansions=["chambers"]))
    me = s.expansions["chambers"]
    # column A: red A1 and yellow A2 tie; row 1: red, yellow, the neutral F1 all tie
    me["bag"] = [t for t in me["bag"] if t not in ("A1", "B2", "A2", "F1", "C3")]
    me["box"] = ["A1", "A2", "B2"]
    me["markers"] = {"A1": "red", "A2": "yellow", "B2": "blue"}
    me["down"], me["up"] = ["F1"], ["C3"]
    for p in ("red", "yellow", "blue"):
        me["supply"][p] -= 1
    return chambers.lines(views(s)["chambers"])


def test_the_chamber_board_reads_right_with_ties_and_names_only_colours_in_play() -> None:
    board = _board()
    legend = board[0]
    assert legend.startswith("Chamber board (R red, Y yellow, B blue; # neutral")
    assert "K" not in legend.split(";")[0] and "black" not in legend
    header, rows = board[1], board[2:8]
    column = {c: header.index(c) for c in "ABCDEF"}
    most = next(line for line in board if line.startswith("  most"))
    # one character under each column: a tie is "=", spelled out below the board
    assert most[column["A"]] == "=" and most[column["B"]] == "B" and most[column["C"]] == "-"
    assert len(most.rstrip()) <= column["F"] + 1
    assert "  ties: column A R=Y" in board
    assert rows[0].rstrip().endswith("3  #=R")  # row 1: red and the neutral tile tie
    assert rows[0][column["A"]] == "R" and rows[0][column["F"]] == "#"


def test_the_leaders_board_says_a_leader_not_placed_yet_plainly() -> None:
    s = State.new(Game.create(3, expansions=["leaders"]))
    lines = leaders.lines(views(s)["leaders"])
    assert "  red: leader not placed yet; statues none (6 left); trophies none; 0 VP at the " \
        "end" in lines
