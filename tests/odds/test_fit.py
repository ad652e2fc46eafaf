"""`shogun-tower tower fit`: journals played on a tower of known parameters
are fitted back within their intervals, and the profile it writes drives the odds."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from shogun_tower.games.shogun.odds import exit_law
from shogun_tower.games.shogun.odds.fit import journal_throws, loglik
from shogun_tower.games.shogun.odds.generate import play_journal
from shogun_tower.games.shogun.odds.model import DEFAULT, TowerParams, load_tower_profile

TRUE = TowerParams((0.7, 0.7), 0.05)


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "shogun_tower.cli", *args],
                          capture_output=True, text=True, timeout=600)


def test_one_throw_into_an_empty_tower_has_the_exact_law_s_likelihood() -> None:
    law = exit_law(9, 0, TRUE).total_out()
    for out in (3, 6, 9):
        assert loglik([[("throw", 9, out)]], TRUE) == pytest.approx(math.log(law[out]))


def test_journals_give_every_throw_with_cubes_in_and_out(tmp_path: Path) -> None:
    play_journal(TRUE, 5, str(tmp_path / "g.jsonl"))
    throws = journal_throws(str(tmp_path / "g.jsonl"))
    assert throws[0][0] == "throw" and throws[0][1] == 45  # the set-up throw (rule S3)
    inside = 0
    for kind, n, out in throws:
        assert kind == "throw" and 0 <= out <= inside + n
        inside += n - out


def test_fit_recovers_known_parameters_and_writes_a_profile(tmp_path: Path) -> None:
    paths = [str(tmp_path / f"game{seed}.jsonl") for seed in range(3)]
    for seed, path in enumerate(paths):
        play_journal(TRUE, seed, path)
    profile = tmp_path / "mine.json"
    done = _cli("tower", "fit", *paths, "--out", str(profile), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)["model"]
    pars = report["parameters"]
    lo, hi = pars["pass_p"]["interval95"]
    assert lo <= 0.7 <= hi and not lo <= DEFAULT.pass_p[0] <= hi
    lo, hi = pars["knock_p"]["interval95"]
    assert lo <= 0.05 <= hi and not lo <= DEFAULT.knock_p <= hi
    assert report["loglik"] > report["loglik_default"]
    fitted = load_tower_profile(str(profile))
    assert fitted.pass_p[0] == pytest.approx(pars["pass_p"]["estimate"])
    # the odds load the profile: a leakier tower changes them
    args = ["referee", "odds", "--attacker", "red", "--armies", "4", "--json"]
    mine = json.loads(_cli(*args, "--tower-profile", str(profile)).stdout)
    default = json.loads(_cli(*args).stdout)
    assert mine["model"]["pass_p"][0] == pytest.approx(fitted.pass_p[0])
    assert mine["outcomes"]["attacker"] < default["outcomes"]["attacker"]


def test_a_file_that_is_not_a_journal_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.jsonl"
    bad.write_text("hello\n", encoding="utf-8")
    done = _cli("tower", "fit", str(bad))
    assert done.returncode == 2
    assert "notes.jsonl" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_bad_profile_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "p.json"
    bad.write_text(json.dumps({"format": "shogun-tower-profile/1", "pass_p": 1.5}))
    done = _cli("referee", "odds", "--attacker", "red", "--armies", "2", "--tower-profile",
                str(bad))
    assert done.returncode == 2 and "0..1" in done.stderr
