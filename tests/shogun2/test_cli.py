"""`shogun-tower shogun2 moves` and `start`, and play/demo --game shogun2's options, as a
person runs them: exit codes and one-line errors."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

CLI = [sys.executable, "-m", "shogun_tower.cli"]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, input=stdin,
                          timeout=120)


def test_moves_lists_the_legal_moves_with_their_ways() -> None:
    done = run("shogun2", "moves", "4p22s1/8/2p11p43/8/3P34/8/8/S1P1P15 w")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "white to move: 16 legal moves"
    assert any(ln.strip().startswith("d4xc6") and "takes the red piece" in ln for ln in lines)


def test_moves_in_json_from_stdin_and_the_trapped_shogun() -> None:
    done = run("shogun2", "moves", "-", "--json", stdin="7s1/2p35/8/3p14/2p2S14/8/8/P16P1 w")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["moves"] == [] and out["shogun"] == "d5"
    assert out["result"] == {"winner": "red", "reason": "white's Shogun cannot be saved"}
    start = run("shogun2", "start", "--seed", "5", "--json")
    as_json = start.stdout
    again = run("shogun2", "moves", "-", "--json", stdin=as_json)
    assert len(json.loads(again.stdout)["moves"]) > 0


def test_a_finished_position_lists_no_move() -> None:
    """White has only its Shogun and one piece: the game is over, nothing is left to play."""
    for position in ("s1p1p15/8/8/8/8/8/8/P1S16 w",
                     '{"to_move": "white", "pieces": [{"square": "a1", "side": "white", '
                     '"dial": 1}, {"square": "b1", "side": "white", "kind": "shogun", "dial": 1},'
                     ' {"square": "a8", "side": "red", "kind": "shogun", "dial": 1}, '
                     '{"square": "b8", "side": "red", "dial": 1}, {"square": "c8", '
                     '"side": "red", "dial": 1}]}'):
        done = run("shogun2", "moves", position)
        assert done.returncode == 0, done.stderr
        assert done.stdout == ("the game is over: white has only its Shogun and one piece left "
                               "— red wins; no move is left to play\n")
        as_json = json.loads(run("shogun2", "moves", position, "--json").stdout)
        assert as_json["moves"] == [] and as_json["result"]["winner"] == "red"


def test_bad_positions_get_one_line_saying_what_to_do() -> None:
    for position, what in (("8/8 w", "has 2"), ("7s1/8/8/8/8/8/8/S1P5P15 w", "cannot show 5"),
                           ("8/p17/s17/8/8/8/8/P5P1S15 w", "a1: the white piece cannot show 5"),
                           ('{"to_move": "white"}', "needs \"to_move\" and a list")):
        done = run("shogun2", "moves", position)
        assert done.returncode == 2
        assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert done.stderr.startswith("shogun-tower shogun2: error: ") and what in done.stderr


def test_play_and_demo_options_belong_to_their_game(tmp_path: pathlib.Path) -> None:
    for args, what in ((["play", "--game", "shogun2", "--map", "moon"], "--map is an option of "
                                                                        "Shogun"),
                       (["play", "--turned", "90"], "--turned is an option of shogun2"),
                       (["demo", "--game", "shogun2", "--bot", "heuristic"],
                        "the bots of shogun2 are random, alphabeta"),
                       (["play", "--game", "shogun2", "--bots", "blue", "--no-page"],
                        "blue is not a side of shogun2")):
        done = run(*args)
        assert done.returncode == 2 and what in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_demo_plays_whole_games_and_keeps_their_journals(tmp_path: pathlib.Path) -> None:
    summary = tmp_path / "summary.json"
    done = run("demo", "--game", "shogun2", "--games", "2", "--seed", "4", "--no-page",
               "--bot", "random", "--journals", str(tmp_path), "--summary", str(summary))
    assert done.returncode == 0, done.stderr
    games = json.loads(summary.read_text())["games"]
    assert [g["seed"] for g in games] == [4, 5] and all(g["reason"] for g in games)
    assert "Game 1 (board 4): the game is over" in done.stdout
    from shogun_tower.games.shogun2.journal import Shogun2Journal

    replayed = Shogun2Journal.load(tmp_path / "game-1.jsonl")
    assert replayed.state.result == {"winner": games[0]["winner"],
                                     "reason": games[0]["reason"]}


def test_play_between_two_bots_to_the_end_then_resume_is_refused_for_another_game(
        tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "g.jsonl"
    done = run("play", "--game", "shogun2", "--bots", "all", "--bot", "random", "--seed", "3",
               "--turned", "90", "--no-page", "--journal", str(journal))
    assert done.returncode == 0, done.stderr
    assert "the game is over: " in done.stdout and " wins" in done.stdout
    assert "the same board again: shogun-tower play --game shogun2 --seed 3 --turned 90; " \
           "turned a quarter further, as the rulebook suggests after several games: --turned 180" \
           in done.stdout
    wrong = run("play", "--resume", str(journal), "--game", "shogun")
    assert wrong.returncode == 2
    assert "this journal is a game of shogun2, not shogun; drop --game" in wrong.stderr
    conflict = run("play", "--resume", str(journal), "--seed", "4")
    assert conflict.returncode == 2 and "--seed 4 conflicts with the saved game" in \
        conflict.stderr
