"""The demo read as a game report, and the terminal's colour and LED track as a person sees
them: headlines before their throws, the track only as a settled frame with a letter per
player, a table or a line per season, and no colour when NO_COLOR says so."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tempfile

import pytest

from shogun_tower.table.terminal import track_letters, use_colour

DEMO = [sys.executable, "-m", "shogun_tower.cli", "demo", "--players", "3", "--seed", "2",
        "--no-page"]
LED = {"black": (200, 200, 200), "red": (255, 0, 0), "yellow": (255, 150, 0)}  # firmware's


def _gamma(rgb: tuple[int, int, int]) -> bytes:
    return bytes(int(255 * (v / 255) ** 2.2) for v in rgb)


def _frame(lit: dict[int, tuple[int, int, int]]) -> bytes:
    cells = []
    for i in range(81):
        rgb = lit.get(i, (60, 60, 60) if i % 10 == 0 else (0, 0, 0))
        cells.append(_gamma(rgb))
    return b"".join(cells)


@pytest.fixture(scope="module")
def demo_reports() -> dict[str, subprocess.CompletedProcess]:
    """The seed-2 demo told in full and with --quiet, both played at once (each on its own
    simulated tower): the tests that read them take the longer one's time."""
    modes = {"full": [], "quiet": ["--quiet"]}
    with tempfile.TemporaryDirectory() as folder:
        started = {}
        for mode, extra in modes.items():
            # output to files, not pipes: a full pipe would stall one demo while the other runs
            with open(f"{folder}/{mode}.out", "w") as out, \
                    open(f"{folder}/{mode}.err", "w") as err:
                started[mode] = subprocess.Popen([*DEMO, *extra], stdout=out, stderr=err)
        done = {}
        for mode, proc in started.items():
            proc.wait(timeout=300)
            with open(f"{folder}/{mode}.out") as out, open(f"{folder}/{mode}.err") as err:
                done[mode] = subprocess.CompletedProcess(proc.args, proc.returncode,
                                                         out.read(), err.read())
    return done


def test_the_track_is_shown_only_as_a_settled_frame_with_a_letter_per_player() -> None:
    scores = [("black", 3, 0), ("red", 3, 0), ("yellow", 12, 0)]
    track = track_letters(_frame({3: LED["black"], 12: LED["yellow"]}), scores, False)
    assert track is not None and len(track) == 81
    assert track[3] == "K" and track[12] == "Y" and track[0] == "+" and track[1] == "·"
    # red shares black's space: the strip shows them in turn, either is the settled picture
    assert track_letters(_frame({3: LED["red"], 12: LED["yellow"]}), scores, False)[3] == "R"
    # a battle's flash (every LED in the winner's colour) or a player missing is no track
    assert track_letters(_frame({i: LED["yellow"] for i in range(81)}), scores, False) is None
    assert track_letters(_frame({3: LED["black"]}), scores, False) is None


def test_no_color_is_honoured(monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert use_colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_colour(io.StringIO())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.delenv("FORCE_COLOR")
    assert not use_colour(io.StringIO()), "a pipe or a file gets no colour"


def test_the_demo_reads_like_a_game_report(demo_reports) -> None:
    done = demo_reports["full"]
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    headline = ""
    for line in lines:
        if not line.startswith(" "):
            headline = line
        if line.startswith("  into the tower:"):
            # the battle's (or revolt's) headline comes before what goes into the tower
            assert headline.startswith(("Battle for", "Revolt in", "The set-up throw")), line
            headline = ""
    tracks = [ln for ln in lines if ln.startswith("  score track: ")]
    assert tracks and all(re.fullmatch(r"  score track: [KRY+·]{81}", ln) for ln in tracks)
    assert any("K" in ln for ln in tracks), "black is K on the track"
    tables = [i for i, ln in enumerate(lines) if ln.startswith("After Year ")]
    assert len(tables) >= 6 and "game over" in lines[tables[-1]]
    for i in tables:  # each season's table: VP, coins and provinces of every player
        assert "VP" in lines[i + 2] and "coins" in lines[i + 2] and "provinces" in lines[i + 2]
        assert {ln.split()[1] for ln in lines[i + 4:i + 7]} == {"black", "red", "yellow"}


def test_demo_quiet_is_one_line_per_season(demo_reports) -> None:
    done = demo_reports["quiet"]
    assert done.returncode == 0, done.stderr
    seasons = [ln for ln in done.stdout.splitlines() if ln.startswith("Year ")]
    assert len(seasons) >= 6 and seasons[0].startswith("Year 1 · spring:")
    assert seasons[-1].startswith("Year 2 · ") and "game over" in seasons[-1]
    for line in seasons:
        assert all(re.search(rf"{p} \d+ VP \d+ coins \d+ provinces", line)
                   for p in ("black", "red", "yellow")), line
    assert "attacks" not in done.stdout and "score track" not in done.stdout
    assert "won" in done.stdout


def test_demo_writes_the_summary_of_the_games_finished_when_the_simulator_dies(tmp_path
                                                                                ) -> None:
    import json
    import os
    import signal

    summary = tmp_path / "summary.json"
    proc = subprocess.Popen([*DEMO, "--games", "2", "--quiet", "--summary", str(summary)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    for line in proc.stdout:  # game 1 plays to its end, then game 2 starts
        seen.append(line)
        if line.startswith("Game 2:"):
            break
    # the simulated board's process (this test's grandchild) dies during game 2
    children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True)
    for pid in children.stdout.split():
        os.kill(int(pid), signal.SIGKILL)
    out, err = proc.communicate(timeout=120)
    lines = err.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, "".join(seen) + out + err
    assert "game 2 stopped: the simulated tower's program ended" in lines[0]
    assert f"the summary of the 1 finished game is in {summary}" in lines[0]
    data = json.loads(summary.read_text())
    assert [g["game"] for g in data["games"]] == [1] and data["stopped"].startswith("game 2")
