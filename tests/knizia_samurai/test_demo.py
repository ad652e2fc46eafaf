"""`demo --game knizia-samurai`: a whole game of seeded surrounded figures through the simulated
tower, the same game for the same seed, and its summary replaying from its journal."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

from shogun_tower.games.knizia_samurai.state import SamuraiJournal

DEMO = [sys.executable, "-m", "shogun_tower.cli", "demo", "--game", "knizia-samurai", "--no-page"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*DEMO, *args], capture_output=True, text=True, timeout=120)


def test_a_demo_game_ends_with_a_winner_and_the_strip_agreeing(tmp_path: pathlib.Path) -> None:
    summary = tmp_path / "s.json"
    done = run("--players", "3", "--seed", "7", "--summary", str(summary))
    assert done.returncode == 0, done.stderr
    assert "The game is over: " in done.stdout and "Winner: " in done.stdout
    assert "DISAGREES" not in done.stdout
    s = json.loads(summary.read_text())
    assert s["players"] == ["red", "yellow", "blue"] and s["strip_agrees"] is True
    assert s["over"]["rule"] in ("last", "ties")
    # the journal in the summary replays to the same end
    text = "\n".join(json.dumps(line, sort_keys=True, separators=(",", ":"))
                     for line in s["journal"]) + "\n"
    replayed = SamuraiJournal.loads(text)
    assert replayed.state.result == s["result"] and replayed.state.entries == s["entries"]
    again = run("--players", "3", "--seed", "7", "--quiet")
    def winner(out: str) -> str:
        return next(ln for ln in out.splitlines() if ln.startswith("Winner: "))

    assert winner(again.stdout) == winner(done.stdout)
    assert len(again.stdout.splitlines()) < len(done.stdout.splitlines()) / 4  # --quiet


def test_demo_refuses_what_samurai_does_not_take() -> None:
    for args, words in ((("--players", "5"), "Samurai is for 2 to 4 players"),
                        (("--map", "moon"), "--map is an option of Shogun"),
                        (("--bot", "heuristic"), "the bots of knizia-samurai are random")):
        done = run(*args)
        assert done.returncode == 2 and words in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1
