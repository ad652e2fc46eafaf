"""`shogun-tower play --expansions leaders` in tmux, read off the screen (rules X3.2, X3.5): a
person places the military leader after the first spring's turn order, and at the season's end
moves it, seeing the leaders, statues and trophies with the question."""

from __future__ import annotations

import pathlib

from shogun_tower.cli.commands.play import TABLE_DEFAULTS
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.games.shogun.runner import TowerDriver

from .bot_table import bot_command
from .tmux import PLAY, Terminal


def _until(path: pathlib.Path, what: str, seed: int = 4, red_leader: str | None = None,
           setup: str = "fixed") -> Journal:
    """A 3-player leaders game at the table (red a person, black and yellow bots, tray counts
    typed), played by bots up to red's first ``what`` question (red's leader placed in
    ``red_leader`` if given)."""
    game = Game.create(3, seed=seed, expansions=["leaders"], setup=setup)
    table = dict(TABLE_DEFAULTS, bots=["black", "yellow"], tower="manual", page=False)
    j = Journal.new(game, path, table=table)
    bots = {p: HeuristicBot(i) for i, p in enumerate(game.players)}
    tower = TowerDriver(seed)
    while j.state.step is not None:
        st = j.state.step
        if st.get("what") == what and st["player"] == "red":
            return j
        if st.get("what") == "leader_place" and st["player"] == "red" and red_leader:
            j.apply({"type": "choose", "player": "red", "what": "leader_place",
                     "option": red_leader})
            continue
        j.apply(bot_command(j.state, bots, tower))
    raise AssertionError(f"red was never asked {what}")


def test_a_person_places_the_leader_in_the_first_spring_by_the_provinces_name(
        tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "place.jsonl"
    j = _until(journal, "leader_place")
    done = len(j.commands)
    mine = sorted(x for x, o in j.state.owner.items() if o == "red")
    term = Terminal([*PLAY, "--resume", str(journal), "--no-clear"], str(tmp_path))
    try:
        term.wait_prompt()
        screen = term.screen()
        assert "Military leaders (a statue stays where it stands" in screen
        assert "red: leader not placed yet; statues none (6 left)" in screen
        assert "red: put your military leader in which of your provinces? In the province " \
            "where your leader stands, your actions are better: Castle 2 coins, Temple 1 " \
            "coin, Nō theatre free, Rice +1, Tax +1" in " ".join(screen.split())
        assert "rule X3" not in screen
        term.send("Mino")  # black's province: refused in words, asked again
        term.wait_for("'Mino' is not one of")
        term.send(mine[-1].lower())
        term.wait_for(f"red's military leader stands in {mine[-1]}")
        term.send("quit")
    finally:
        term.close()
    again = Journal.load(journal)
    assert again.commands[done] == {"type": "choose", "player": "red", "what": "leader_place",
                                    "option": mine[-1]}
    assert again.state.expansions["leaders"]["at"]["red"] == mine[-1]


def test_a_person_moves_the_leader_at_the_seasons_end_and_leaves_a_statue(
        tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "move.jsonl"
    j = _until(journal, "leader_move", red_leader="Yamato")  # between red's Ise and Kii
    st = j.state.step
    assert st is not None
    frm = st["province"]
    near = [o for o in st["options"] if "you may leave a statue in" in o["text"]]
    assert near, st["options"]
    to = near[0]["value"]
    done = len(j.commands)
    term = Terminal([*PLAY, "--resume", str(journal), "--no-clear"], str(tmp_path))
    try:
        term.wait_prompt()
        screen = term.screen().replace("\n", "")  # the question's options run over lines
        assert f"red: leader in {frm}; statues none (6 left); trophies none" in screen
        assert f"move your military leader from {frm} to which of your provinces?" in screen
        assert f"{to} (adjacent: you may leave a statue in {frm})" in screen
        assert "(not adjacent: no statue)" in screen
        term.send(to)  # the province's name is enough
        term.wait_for("leave one of your statues there (6 left)?")  # rule X3.5: "may"
        term.send("yes")
        term.wait_for(f"red's military leader moves from {frm} to {to}")
        term.wait_for(f"red leaves a statue in {frm}")
        term.send("quit")
    finally:
        term.close()
    again = Journal.load(journal)
    assert again.commands[done] == {"type": "choose", "player": "red", "what": "leader_move",
                                    "option": to}
    assert again.commands[done + 1] == {"type": "choose", "player": "red",
                                        "what": "leader_statue", "option": True}
    assert again.state.expansions["leaders"]["statues"][frm] == "red"


def test_in_the_draft_a_person_is_asked_after_each_pick_and_answers_yes(
        tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "draft.jsonl"
    j = _until(journal, "leader_draft", setup="draft")
    prov = j.state.step["province"]
    done = len(j.commands)
    term = Terminal([*PLAY, "--resume", str(journal), "--no-clear"], str(tmp_path))
    try:
        question = term.wait_prompt()
        assert f"red: put your military leader in {prov}? In the province where" \
            in term.screen()
        assert question.endswith("yes / no?")
        term.send("y")
        term.wait_for(f"red's military leader stands in {prov}")
        term.send("quit")
    finally:
        term.close()
    again = Journal.load(journal)
    assert again.commands[done] == {"type": "choose", "player": "red", "what": "leader_draft",
                                    "option": True}
    assert again.state.expansions["leaders"]["at"]["red"] == prov
