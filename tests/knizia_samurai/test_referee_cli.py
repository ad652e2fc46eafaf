"""`shogun-tower knizia-samurai capture|winner|end` as a person runs them: every --help example
works, answers are what the rules say, and every bad input is one line saying what to do."""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys

import pytest

from shogun_tower.cli import build_parser
from shogun_tower.cli.arguments import EXAMPLES


def run(command: str) -> subprocess.CompletedProcess[str]:
    argv = shlex.split(command)
    assert argv[0] == "shogun-tower" and argv[1] in ("knizia-samurai", "samurai")
    return subprocess.run([sys.executable, "-m", "shogun_tower.cli", *argv[1:]],
                          capture_output=True, text=True, timeout=60)


def _parsers() -> dict:
    top = build_parser()
    sub = next(a for a in top._actions if a.dest == "command").choices["knizia-samurai"]
    return next(a for a in sub._actions if a.dest == "what").choices


EXAMPLE_LINES = [(name, line.strip()) for name, p in _parsers().items()
                 for line in p.format_help().split(EXAMPLES, 1)[1].splitlines()
                 if line.startswith("  ")]


def test_each_command_has_examples() -> None:
    assert {n for n, _ in EXAMPLE_LINES} == {"capture", "winner", "end"}


@pytest.mark.parametrize("name, command", EXAMPLE_LINES)
def test_every_help_example_runs(name: str, command: str) -> None:
    done = run(command)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    if "--json" in command:
        json.loads(done.stdout)


def test_capture_says_who_takes_it() -> None:
    done = run("shogun-tower knizia-samurai capture --figure helmet blue:helmet:3 red:samurai:2")
    assert done.stdout == "blue captures the helmet: blue 3, red 2\n"
    tie = run("shogun-tower knizia-samurai capture --figure buddha red:buddha:2 green:ship:2 "
              "--json")
    assert json.loads(tie.stdout) == {"figure": "buddha", "winner": None,
                                      "influence": {"red": 2, "green": 2},
                                      "tied": ["red", "green"]}


def test_winner_prints_the_full_ranking_of_example_1() -> None:
    done = run("shogun-tower knizia-samurai winner green=3,3,4 blue=5,3,2 red=1,4,3 yellow=4,3,3")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Winner: green — ")
    assert [ln.split(":")[0] for ln in lines[1:]] == ["1. green", "2. blue", "3. red",
                                                     "4. yellow"]
    assert lines[4] == "4. yellow: no most of any type, so lost; 10 figures in all"


def test_winner_when_nobody_has_a_strict_most() -> None:
    """Rule K12: every type tied at the top, so every player has already lost."""
    done = run("shogun-tower knizia-samurai winner red=2,2,2 blue=2,2,2 green=1,1,1")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Nobody wins — nobody has the most of any type")
    assert all("so lost" in ln for ln in lines[1:]) and len(lines) == 4


def test_end_answers() -> None:
    assert run("shogun-tower knizia-samurai end --players 4 --on-board helmet=3,buddha=0,rice=5"
               ).stdout == "the game is over: the last Buddha has left the board\n"
    assert run("shogun-tower knizia-samurai end --on-board helmet=3,buddha=1,rice=5 --ties 3"
               ).stdout.startswith("the game goes on: 3 helmets, 1 Buddha, 5 rice fields")
    # rule K11: the figures of one tile leave together: two types at once, a 5th tie
    assert run("shogun-tower knizia-samurai end --on-board helmet=0,buddha=0,rice=1"
               ).stdout == "the game is over: the last helmet and the last Buddha have left " \
                           "the board\n"
    five = run("shogun-tower knizia-samurai end --on-board helmet=3,buddha=1,rice=1 --ties 5")
    assert five.returncode == 0, five.stderr
    assert five.stdout == "the game is over: a 4th figure has left the board on a tie\n"


@pytest.mark.parametrize("command, words", [
    ("capture --figure helmet blue:hat:3", "no tile kind 'hat'"),
    ("capture --figure helmet blue:helmet:9", "a helmet tile shows 1, 2, 3 or 4, not 9"),
    ("capture --figure helmet purple:helmet:2", "'purple' is not a player"),
    ("capture --figure castle red:samurai:1", "invalid choice: 'castle'"),
    ("capture --figure helmet", "the following arguments are required"),
    ("winner green=1,2", "write PLAYER=HELMETS,BUDDHAS,RICE"),
    ("winner green=3,3,4", "give the figures of every player"),
    ("winner green=3,3,4 green=1,1,1", "green is given twice"),
    ("winner red=1,1,1 blue=1,1,1 green=1,1,1 yellow=1,1,1 purple=1,1,1",
     "'purple' is not a Samurai colour"),
    ("winner red=7,0,0 blue=1,0,0", "8 helmets taken in all, but a game of 2 has 7"),
    ("end --on-board helmet=3,buddha=1", "rice is missing"),
    ("end --on-board helmet=3,buddha=1,rice=x", "write TYPE=N"),
    ("end --players 2 --on-board helmet=8,buddha=1,rice=1", "a game of 2 has 7"),
    ("end --on-board helmet=13,buddha=13,rice=12 --ties 2",
     "more than the figures that have left the board (1)"),
    ("end --on-board helmet=3,buddha=1,rice=1 --ties -1", "give 0 or more"),
])
def test_every_bad_input_is_one_line(command: str, words: str) -> None:
    done = run("shogun-tower knizia-samurai " + command)
    assert done.returncode == 2 and done.stdout == ""
    assert words in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1


def test_each_command_describes_itself_and_every_default() -> None:
    for name, parser in _parsers().items():
        assert parser.description and len(parser.description) > 80, name
        for action in parser._actions:
            if action.option_strings and action.dest != "help" and not action.required \
                    and not isinstance(action, argparse._StoreTrueAction):
                assert "default" in (action.help or ""), (name, action.option_strings)


def test_the_old_name_samurai_still_runs_the_referee():
    """`samurai` was the command's name before the Shogun expansion Samurai kept it alone."""
    done = run("shogun-tower knizia-samurai capture --figure helmet blue:helmet:3 red:samurai:2")
    assert done.returncode == 0 and "blue" in done.stdout, done
