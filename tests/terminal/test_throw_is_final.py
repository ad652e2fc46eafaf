"""A throw is final, as at a real table (tmux, the simulated tower): taking one back needs the
table's yes, and thrown again the same cubes fall the same way, the set-up throw too. A
defender sees the attack before he is asked about his special card, and a resumed game says
where it stands first."""

from __future__ import annotations

import json
import pathlib
import re

from shogun_tower.cli.commands.play import TABLE_DEFAULTS
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.runner import TowerDriver

from .bot_table import bot_command
from .tmux import PLAY, Terminal


def _until_red_defends(path: pathlib.Path) -> Journal:
    """A 3-player game (red a person, black and yellow bots, the simulated tower) played by
    bots up to the question whether red uses his +1 defending army (rule P5)."""
    game = Game.create(3, seed=1)
    table = dict(TABLE_DEFAULTS, bots=["black", "yellow"], tower="sim", page=False)
    j = Journal.new(game, path, table=table)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
    tower = TowerDriver(1)
    while j.state.step is not None:
        st = j.state.step
        if st.get("what") == "use_special" and st["card"] == "P5" and st["player"] == "red":
            return j
        j.apply(bot_command(j.state, bots, tower))
    raise AssertionError("red never defended with P5 in this seeded game")


def _tray_after(screen: str, headline: str) -> str:
    part = screen.rsplit(headline, 1)[1]
    return re.search(r"out of the tower into the tray: ([^\n]+)", part).group(1)


def test_the_defender_sees_the_attack_and_undo_never_changes_what_fell(
        tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "defend.jsonl"
    j = _until_red_defends(journal)
    st = j.state.step
    province = st["battle"]["to"]
    term = Terminal([*PLAY, "--resume", str(journal)], str(tmp_path), width=80, height=24)
    try:
        assert term.wait_prompt(timeout=90) == "yes / no?"
        screen = term.screen()
        # (3) after a resume: where the game stands, a recap, then the question
        assert "Where the game stands: Year 1 · " in screen
        assert "The last of the game so far:" in screen
        # (3) the attack itself before the question about the special card
        asked = " ".join(screen.split())
        assert re.search(rf"red: black attacks your {province} \(\d+ arm(?:y|ies)\) from \w+ with "
                         rf"\d+ arm(?:y|ies): use your special card “\+1 defending army”", asked)
        assert "rule P5" not in screen
        term.send("no")
        headline = f"Battle for {province}: black against red"
        term.wait_for(headline)
        term.wait_prompt(timeout=120)
        fell = _tray_after(term.history(), headline)
        # (1) undo back past the throw: the table must agree
        term.send("undo")
        term.wait_for("Does the whole table agree to take it back (y/n)?")
        told = " ".join(term.screen().split())
        assert f"This takes back the throw of the battle for {province} ({fell} fell out)" \
            in told
        term.send("n")
        term.wait_for("nothing was taken back")
        term.wait_prompt()
        term.send("undo")
        term.wait_for("Does the whole table agree")
        term.send("y")
        term.wait_for("taken back: red's answer “no” to: black attacks your")
        assert term.wait_prompt() == "yes / no?"
        term.send("no")  # the same answer: the same cubes fall the same way
        term.wait_for("the same cubes fall as they fell before")
        term.wait_prompt(timeout=120)
        history = term.history()
        assert history.count(headline) == 2
        thrown_again = history.rsplit(headline, 1)[1]
        assert thrown_again.index("the same cubes fall as they fell before") \
            < thrown_again.index("out of the tower into the tray")
        assert _tray_after(history, headline) == fell
        term.send("quit")
        term.wait_for("The game is saved in")
    finally:
        term.close()
    # the journal holds the tray as it fell, taken back and applied again the same
    recorded = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    trays = [r["command"]["counts"] for r in recorded if r.get("command", {}).get("type")
             == "tray"]
    battle = trays[sum(1 for c in j.commands if c["type"] == "tray")]  # the first after resume
    assert trays.count(battle) >= 2 and any(r.get("undo") for r in recorded)


def test_the_set_up_throw_falls_as_it_fell_after_an_undo(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "setup.jsonl"
    term = Terminal([*PLAY, "--players", "3", "--bots", "black,yellow", "--seed", "6",
                     "--journal", str(journal), "--no-page"], str(tmp_path), width=80,
                    height=24)
    try:
        assert "Press Enter to go on" in term.wait_prompt(timeout=90)
        # (4) a number of players says which colours it takes
        assert "players: black (bot), red, yellow (bot) (the first 3 colours" in \
            " ".join(term.history().split())
        first = _tray_after(term.screen(), "The set-up throw")
        term.send("yes")  # (4) a word at a Press Enter prompt is refused, never taken
        term.wait_for("'yes' is not taken here: press Enter alone to go on")
        term.send("undo")
        term.wait_for("This takes back the set-up throw")
        term.send("y")
        term.wait_for("the same cubes fall as they fell before")
        assert "Press Enter to go on" in term.wait_prompt(timeout=60)
        assert _tray_after(term.history(), "the same cubes fall as they fell before") == first
        term.send("quit")
        term.wait_for("The game is saved in")
    finally:
        term.close()
