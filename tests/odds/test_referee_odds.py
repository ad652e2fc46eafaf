"""`shogun-tower referee odds` as a person runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from shogun_tower.games.shogun.odds import battle_cubes, battle_odds


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shogun_tower.cli", "referee", "odds", *args],
                          capture_output=True, text=True, timeout=60)


def test_json_gives_the_outcomes_of_referee_battle() -> None:
    done = _run("--attacker", "red", "--armies", "5", "--defender", "blue",
                "--defender-armies", "3", "--defence-card", "--tower", "farmers=4,red=2",
                "--tray-before", "black=1", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert set(data["outcomes"]) == {"attacker", "defender", "undecided"}
    expected = battle_odds("red", "blue", battle_cubes("red", 5, "blue", 3, defence_card=True),
                           {"black": 1}, {"green": 4, "red": 2})
    for outcome, p in expected.outcomes.items():
        assert data["outcomes"][outcome] == pytest.approx(p)
    assert data["into_tower"] == {"red": 5, "blue": 4, "black": 1}
    assert data["tower"] == {"red": 2, "green": 4}


def test_text_names_each_outcome_and_the_armies() -> None:
    done = _run("--attacker", "red", "--armies", "4")
    assert done.returncode == 0, done.stderr
    assert "attacker wins" in done.stdout and "stays neutral" in done.stdout
    assert "armies in the province" in done.stdout


@pytest.mark.parametrize(("args", "words"), [
    (["--attacker", "red", "--armies", "0"], "at least 1 army"),
    (["--attacker", "red", "--armies", "3", "--tower", "green=two"], "--tower"),
    (["--attacker", "red", "--armies", "3", "--tower-profile", "/nonexistent.json"],
     "--tower-profile"),
])
def test_bad_input_is_one_clear_line(args: list[str], words: str) -> None:
    done = _run(*args)
    assert done.returncode == 2
    assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_every_example_of_the_help_runs() -> None:
    import shlex

    done = _run("--help")
    examples = done.stdout.split("examples:", 1)[1].strip().splitlines()
    assert examples
    for line in examples:
        args = shlex.split(line.strip())[3:]  # after "shogun-tower referee odds"
        assert _run(*args).returncode == 0, line
