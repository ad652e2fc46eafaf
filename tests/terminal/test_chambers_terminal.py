"""`shogun-tower play --expansions chambers` in tmux, read off the screen (rules X4.2-X4.4): the
region row and the chamber tiles told at the season's start, and a person who holds most
provinces of a region sees the chamber board and swaps a marker for a tile by its name."""

from __future__ import annotations

import pathlib

from shogun_tower.cli.commands.play import TABLE_DEFAULTS
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.runner import TowerDriver

from .bot_table import bot_command
from .tmux import PLAY, Terminal


def test_play_with_the_chambers_tells_the_region_row_and_the_tiles_drawn(
        tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "chambers.jsonl"
    term = Terminal([*PLAY, "--players", "3", "--bots", "black,yellow", "--tower", "manual",
                     "--expansions", "chambers", "--seed", "4", "--journal", str(journal),
                     "--no-page", "--no-clear"], str(tmp_path))
    try:
        assert "cubes in the tray" in term.wait_prompt()
        term.send("black 2, red 2, yellow 2, farmers 5")
        assert "red, press Enter when ready" in term.wait_prompt()  # planning after the draw
        shown = term.history()
        assert "the region tiles lie in this row:" in shown  # rule X4.2
        assert "chamber tiles face up:" in shown and "(30 left in the bag)" in shown  # X4.3
        term.send("quit")
    finally:
        term.close()
    state = Journal.load(journal).state
    me = state.expansions["chambers"]
    assert len(me["row"]) == 5 and len(me["up"]) == 6 and len(me["bag"]) == 30
    for tile in me["up"]:
        assert tile in shown


def _until_red_claims(path: pathlib.Path) -> Journal:
    """A 3-player chambers game at the table (red a person, black and yellow bots, tray counts
    typed), played by bots up to the first time red holds most provinces of a region (X4.4)."""
    for seed in range(1, 40):
        path.unlink(missing_ok=True)
        game = Game.create(3, seed=seed, expansions=["chambers"])
        table = dict(TABLE_DEFAULTS, bots=["black", "yellow"], tower="manual", page=False)
        j = Journal.new(game, path, table=table)
        bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
        tower = TowerDriver(seed)
        while j.state.step is not None and j.state.season < 3 and j.state.year == 1:
            st = j.state.step
            if st.get("what") == "chamber_tile" and st["player"] == "red":
                return j
            j.apply(bot_command(j.state, bots, tower))
    raise AssertionError("no seed gave red a chamber tile to claim in the first year")


def test_a_person_sees_the_chamber_board_and_takes_a_tile_by_its_name(
        tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "claim.jsonl"
    j = _until_red_claims(journal)
    st = j.state.step
    assert st is not None
    faceup = [o["value"] for o in st["options"] if o["value"] != "none"]
    done = len(j.commands)
    term = Terminal([*PLAY, "--resume", str(journal), "--no-clear"], str(tmp_path))
    try:
        question = term.wait_prompt()
        screen = term.screen()
        assert f"holds most provinces of the {st['region']} region" in screen
        assert "rule X4.4" not in screen  # rule IDs are the docs', not the players'
        assert "Chamber board (K black, R red, Y yellow; # neutral, + face up" in screen
        assert "VP  most" in screen and "markers left: black" in screen
        assert "  none (keep the marker)" in screen and question == "which?"
        rows = [ln for ln in screen.splitlines() if ln[:4].strip().isdigit()]
        assert len(rows) == 6 and sum(ln.split()[1:7].count("+") for ln in rows) == len(faceup)
        term.send("Z9")  # not a face-up tile: refused in words, asked again
        term.wait_for("'Z9' is not one of")
        term.send("show")  # the tables, the chamber board among them, then the same question
        term.wait_for("Inside the tower:")
        assert term.wait_prompt() == question
        assert term.history().count("Chamber board (") == 2
        tile = faceup[-1]
        term.send(tile.lower())  # a tile by its name, any case
        term.wait_for(f"red swaps a marker for chamber tile {tile} (14 markers left)")
        term.wait_prompt()
        term.send("quit")
    finally:
        term.close()
    again = Journal.load(journal)
    assert again.commands[done] == {"type": "choose", "player": "red", "what": "chamber_tile",
                                    "option": tile}
    assert again.state.expansions["chambers"]["markers"][tile] == "red"


def test_with_physical_cards_the_players_type_the_region_row_and_the_tiles_drawn(
        tmp_path: pathlib.Path) -> None:
    """Rules X4.2, X4.3 with --cards physical: the players lay the region tiles and draw six
    chamber tiles from the bag, and type what came (a tile by its name, any case)."""
    journal = tmp_path / "physical.jsonl"
    term = Terminal([*PLAY, "--players", "3", "--bots", "black,yellow", "--tower", "manual",
                     "--cards", "physical", "--expansions", "chambers", "--seed", "2",
                     "--journal", str(journal), "--no-page", "--no-clear"], str(tmp_path))
    try:
        assert "cubes in the tray" in term.wait_prompt()
        term.send("black 1, red 1, farmers 4")
        for answer in ("E1, E2, E3, E4", "castle", "temple", "theatre", "rice", "tax",
                       "P1, P2, P3, P4, P5"):
            term.wait_prompt()
            term.send(answer)
        term.wait_for("Draw 5 tiles (the region tiles, in the order laid in a row) from: "
                      "brown, green, purple, red, yellow")
        term.wait_prompt()
        term.send("red, brown, yellow, purple, green")
        term.wait_for("Draw 6 tiles (chamber tiles from the bag) from: A1, B1, C1")
        term.wait_prompt()
        term.send("a1, b2, c3, d4, e5, Z9")  # Z9 is no tile: refused, asked again
        term.wait_for("'Z9' is not one of")
        term.wait_prompt()
        term.send("f6, e5, d4, c3, b2, a1")
        term.wait_for("chamber tiles face up: A1, B2, C3, D4, E5, F6 (30 left in the bag)")
        assert "red, press Enter when ready" in term.wait_prompt()
        term.send("quit")
    finally:
        term.close()
    me = Journal.load(journal).state.expansions["chambers"]
    assert me["row"] == ["red", "brown", "yellow", "purple", "green"]
    assert me["up"] == ["A1", "B2", "C3", "D4", "E5", "F6"] and len(me["bag"]) == 30
