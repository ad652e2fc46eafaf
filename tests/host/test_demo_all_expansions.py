"""`shogun-tower demo --expansions court,samurai,leaders,chambers --players 5`: a whole game of
the full box between bots through the simulated tower's real firmware path. One game
here to keep `make test` short; the two-game run is the same command with `--games 2`."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules.expansions import chambers
from shogun_tower.table.terminal import LETTERS, VP_SPACES

ALL_FOUR = "court,samurai,leaders,chambers"


def test_demo_plays_a_five_player_game_with_all_four_expansions(tmp_path: pathlib.Path) -> None:
    summary = tmp_path / "all4.json"
    journals = tmp_path / "journals"
    journals.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "shogun_tower.cli", "demo", "--expansions", ALL_FOUR,
         "--players", "5", "--games", "1", "--seed", "3", "--no-page", "--summary",
         str(summary), "--journals", str(journals)],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr
    out = proc.stdout
    game = json.loads(summary.read_text())["games"][0]
    assert game["cubes"]["agree"] and game["in_tower"]["agree"], game
    assert len(game["scores"]) == 5 and game["winner"]
    state = Journal.load(game["journal"]).state
    assert state.game.expansions == ("court", "samurai", "leaders", "chambers")
    assert state.result is not None and dict(state.vp) == game["scores"]
    final = state.scores[-1]["final"]
    assert {p: row["chambers"] for p, row in final.items()} == chambers.points(state)
    for p in state.game.players:  # the end's points are in the VP the summary and LEDs show
        winters = sum(sc["table"][p]["total"] for sc in state.scores)
        assert state.vp[p] >= winters + sum(final[p].values())
    # each expansion was played: its events were told
    for words in ("favours in the audience room", "Samurai", "leader",
                  "chamber tiles face up", "swaps a marker for chamber tile",
                  "the chambers' rows and columns score"):
        assert words in out, words
    # the LED score track's last settled picture puts each player on his final VP
    track = [ln.split("score track: ", 1)[1] for ln in out.splitlines()
             if "score track: " in ln][-1]
    assert len(track) == VP_SPACES
    spaces: dict[int, list[str]] = {}
    for p in state.game.players:
        spaces.setdefault(state.vp[p] % VP_SPACES, []).append(p)
    for at, who in spaces.items():
        assert track[at] in {LETTERS[p] for p in who}, (track, dict(state.vp))
    assert re.search(r"Game 1: \w+ won", out) and "they agree" in out
