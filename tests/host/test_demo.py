"""`shogun-tower demo`: whole bot games through the simulated tower's real firmware path,
reproducible from the seed, with every cube accounted for."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.games.shogun.journal import Journal

_Run = tuple[subprocess.Popen, pathlib.Path]


def _start_demo(tmp_path: pathlib.Path, name: str, *extra: str) -> _Run:
    summary = tmp_path / name
    # Output to files, not pipes: a full pipe would stall one demo while the other is awaited.
    with open(tmp_path / (name + ".out"), "w") as out, \
            open(tmp_path / (name + ".err"), "w") as err:
        proc = subprocess.Popen(
            [sys.executable, "-m", "shogun_tower.cli", "demo", "--seed", "5", "--players", "3",
             "--no-page", "--summary", str(summary), *extra], stdout=out, stderr=err)
    return proc, summary


def _finish_demo(started: _Run) -> tuple[dict, str]:
    proc, summary = started
    proc.wait(timeout=400)
    out = summary.with_name(summary.name + ".out").read_text()
    err = summary.with_name(summary.name + ".err").read_text()
    assert proc.returncode == 0, out[-3000:] + err
    return json.loads(summary.read_text()), out


def _without_timing(game: dict) -> dict:
    # The colour sensor's unknowns depend on how busy the laptop is (see docs/assistant.md).
    return {k: v for k, v in game.items() if k not in ("colour_unknown", "journal")}


def test_demo_plays_whole_games_reproducibly_and_counts_every_cube(
        tmp_path: pathlib.Path) -> None:
    journals = tmp_path / "journals"
    journals.mkdir()
    # Both demos at once (each its own simulated tower): the test takes the longer one's time.
    two_run = _start_demo(tmp_path, "two.json", "--games", "2", "--journals", str(journals))
    one_run = _start_demo(tmp_path, "one.json")
    two, out = _finish_demo(two_run)
    one, _ = _finish_demo(one_run)
    assert _without_timing(one["games"][0]) == _without_timing(two["games"][0])
    assert one["throws"] == two["throws"][: len(one["throws"])]
    assert len(two["games"]) == 2 and two["games"][0] != two["games"][1]
    assert two["lost_events"] == 0
    for game in two["games"]:
        assert game["winner"] and game["winner"][0] == game["ranking"][0]
        assert set(game["scores"]) == {"black", "red", "yellow"}
        assert game["battles"] > 0 and game["throws"] >= game["battles"] + 1
        cubes = game["cubes"]
        assert cubes["agree"], cubes
        assert cubes["device"] == cubes["hardware_counter"] == cubes["engine"] > 0
        assert game["in_tower"]["agree"], game["in_tower"]
        # the journal replays to the game's end and its final scores
        state = Journal.load(game["journal"]).state
        assert state.result is not None and state.result["winners"] == game["winner"]
        assert dict(state.vp) == game["scores"]
    # Rule S3: the first throw of each game is the set-up throw.
    assert one["throws"][0]["in"] == {"black": 7, "red": 7, "yellow": 7, "green": 10}
    out_total = sum(sum(t["out"].values()) for t in one["throws"])
    assert out_total == one["games"][0]["cubes"]["engine"]
    assert set(one["in_tower"]) == set(CUBE_COLOURS)
    assert "won" in out and "they agree" in out


def test_bad_arguments_get_one_line_errors(tmp_path: pathlib.Path) -> None:
    for args, words in ((["--games", "0"], "--games"),
                        (["--summary", str(tmp_path / "no" / "dir" / "s.json")], "no folder"),
                        (["--tower", "device"], "--port"),
                        (["--players", "7"], "invalid choice")):
        proc = subprocess.run([sys.executable, "-m", "shogun_tower.cli", "demo", *args],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2, args
        lines = proc.stderr.strip().splitlines()
        assert words in lines[-1], (args, proc.stderr)
        assert len([ln for ln in lines if "error" in ln]) == 1
