"""`play --game knizia-samurai` as the table sees it: typed in tmux (send-keys, read with
capture-pane), the strip lit on the simulated tower and read back, the board page in Chromium
following every entry, the end and the winner announced, undo, and a resume after the laptop
dies (SIGKILL)."""

from __future__ import annotations

import json
import os
import pathlib
import re
import signal
import subprocess
import time

from terminal.tmux import PLAY, Terminal, with_exit_status

from shogun_tower.games.knizia_samurai.state import SamuraiJournal


def wait_entry(term: Terminal, n: int, timeout: float = 60) -> str:
    """The screen once the console asks for entry ``n`` (its last line, empty after "> ")."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if term.prompt().strip() == f"entry {n}>":
            return term.screen()
        if term.dead():
            break
        time.sleep(0.1)
    raise AssertionError(f"no prompt for entry {n}; the screen shows:\n{term.screen()}")


def page_counts(page) -> dict[str, dict[str, str]]:
    rows = page.locator("#captured tbody tr")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        cells = row.locator("td[data-type]")
        out[row.get_attribute("data-player")] = {
            cells.nth(k).get_attribute("data-type"): cells.nth(k).inner_text()
            for k in range(cells.count())}
    return out


def wait_version_after(page, version: int) -> int:
    page.wait_for_function(f"Number(document.body.dataset.version) > {version}")
    return int(page.evaluate("document.body.dataset.version"))


def test_a_scored_game_in_the_terminal_on_the_strip_and_the_page(tmp_path: pathlib.Path,
                                                                  page) -> None:
    journal = tmp_path / "samurai.jsonl"
    term = Terminal([*PLAY, "--game", "knizia-samurai", "--players", "4", "--journal", str(journal),
                     "--page-port", "0"], str(tmp_path))
    try:
        shown = wait_entry(term, 1)
        assert "Samurai, 4 players: red, yellow, blue, green; 13 figures of each type" in shown
        url = re.search(r"the board page: (http://\S+)", shown).group(1)
        page.goto(url)
        page.wait_for_selector("#captured tbody tr")
        version = int(page.evaluate("document.body.dataset.version"))

        term.send("blue helmet")
        shown = wait_entry(term, 2)
        assert "blue captures a helmet · blue now has 1 helmet, 0 Buddhas, 0 rice fields" in shown
        assert "strip: blue   B······|·······|·······" in shown
        assert "the strip read back from the tower agrees with the counts" in shown
        version = wait_version_after(page, version)

        # page 3 of the rulebook: the console adjudicates from the tiles
        term.send("helmet: blue:helmet:3 red:samurai:2")
        assert "blue captures the helmet: blue 3, red 2" in wait_entry(term, 3)
        term.send("buddha: yellow:buddha:4 green:buddha:3 red:cavalry:1")
        assert "yellow captures the Buddha: yellow 4, green 3, red 1" in wait_entry(term, 4)
        term.send("rice: green:rice:3 blue:samurai:2")
        assert "green captures the rice field: green 3, blue 2" in wait_entry(term, 5)

        # every bad entry: one line, nothing recorded
        for bad, words in (("purple helmet", "no player of this table named"),
                           ("blue castle", "'castle' is not a figure"),
                           ("rice: blue:helmet:9", "a helmet tile shows 1, 2, 3, 4, not 9"),
                           ("tie", "type PLAYER FIGURE (red helmet), tie FIGURE")):
            term.send(bad)
            term.wait_for(words)
            line = [ln for ln in term.screen().splitlines() if words in ln][-1]
            assert line.startswith("entry 5> not recorded: ") or line.startswith(
                "not recorded: "), line
        page.wait_for_function("document.querySelector('#captured tbody tr[data-player=green] "
                               "td[data-type=rice]').textContent === '1'")
        assert page_counts(page)["blue"] == {"helmet": "2", "buddha": "0", "rice": "0",
                                             "all": "2"}
        assert page.locator("#strip .band[data-player=blue] .segment[data-type=helmet]"
                            ).get_attribute("data-shown") == "2"
        assert page.locator("#strip-note").inner_text() == \
            "read back from the tower: it agrees with the counts"
        assert "helmets" in page.locator("#on-board").inner_text()
        assert page.locator("#on-board li[data-type=helmet]").inner_text() == "11 helmets"

        term.send("undo")
        assert "undone: entry 4 (rice: green:rice:3 blue:samurai:2)" in wait_entry(term, 4)
        page.wait_for_function("document.querySelector('#captured tbody tr[data-player=green] "
                               "td[data-type=rice]').textContent === '0'")

        # four figures leave the board on ties: the game ends, the winner with the reason
        for n, entry in enumerate(("tie rice", "tie helmet", "tie buddha"), start=4):
            term.send(entry)
            wait_entry(term, n + 1)
        term.send("rice: red:rice:2 blue:ship:2")
        shown = term.wait_for("Enter ends:")
        assert "The game is over: a 4th figure has left the board on a tie." in shown
        assert "Winner: blue — blue and yellow tie on other figures (0); in all blue has 2 " \
               "against yellow 1" in shown
        assert "1. blue: the most helmets; other figures 0, 2 in all" in shown
        page.wait_for_selector("#result:not([hidden])")
        assert page.locator("#over").inner_text() == \
            "The game is over: a 4th figure has left the board on a tie."
        assert page.locator("#winner").inner_text().startswith("Winner: blue — ")
        assert page.locator("#ranking li").first.get_attribute("data-player") == "blue"

        # undo after the end: the game goes on; then the laptop dies
        term.send("undo")
        wait_entry(term, 7)
        page.wait_for_selector("#result[hidden]", state="attached")
        os.kill(term.pid(), signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not term.dead() and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        term.close()

    saved = SamuraiJournal.load(journal)
    assert saved.state.entries == 6 and saved.state.over is None
    assert json.loads(journal.read_text().splitlines()[0])["game"]["name"] == "samurai"

    # play --resume finds the game in the journal and goes on with its table
    refused = subprocess.run([*PLAY, "--resume", str(journal), "--no-page"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and refused.stderr == (
        f"shogun-tower play: error: --resume {journal}: --page off conflicts with the saved "
        f"table (--page on); drop --page to continue as saved\n")
    term = Terminal([*PLAY, "--resume", str(journal)], str(tmp_path))
    try:
        shown = wait_entry(term, 7)
        assert f"resumed {journal}: 6 entries replayed" in shown
        term.send("show")
        # the last line `show` prints: the lines before it are on the screen by then
        shown = term.wait_for("the strip read back from the tower")
        assert "tie removals 3 of 4" in shown
        assert re.search(r"blue\s+2\s+0\s+0", shown) and re.search(r"yellow\s+0\s+1\s+0", shown)
        assert "the strip read back from the tower agrees with the counts" in shown
        term.send("quit")
        term.wait_for("The game is saved in")
    finally:
        term.close()


def test_one_entry_for_the_figures_of_one_tile_the_end_and_ctrl_c(tmp_path: pathlib.Path
                                                                   ) -> None:
    """At 80x24, two players, no tower: one entry holds every figure one tile surrounds (the
    city with the last helmet and the last Buddha), the end comes after both (rule K11), a word
    typed at the end is not taken, undo goes back, and Ctrl-C saves and exits 130."""
    journal = tmp_path / "city.jsonl"
    term = Terminal(with_exit_status([*PLAY, "--game", "knizia-samurai", "--players", "2",
                                      "--tower", "manual", "--no-page", "--journal",
                                      str(journal)]), str(tmp_path), width=80, height=24)
    try:
        wait_entry(term, 1)
        # 3 helmets, 3 Buddhas and 2 rice fields each, typed as two entries of many figures
        for player in ("red", "yellow"):
            term.send(", ".join([f"{player} helmet"] * 3 + [f"{player} buddha"] * 3
                                + [f"{player} rice"] * 2))
        wait_entry(term, 3)
        term.send("helmet buddha: red:helmet:2 yellow:buddha:3 red:samurai:1")
        shown = term.wait_for("Enter ends:")
        assert "red captures the helmet: red 3, yellow 0" in shown
        assert "yellow captures the Buddha: yellow 3, red 1" in shown
        assert "The game is over: the last helmet and the last Buddha have left the board." \
            in shown
        assert "Winner: red and yellow — " in shown
        term.send("done")
        term.wait_for("the game is over: type undo to take back the last entry, or press "
                      "Enter to end")
        term.send("undo")
        # (the console wraps the long line at a word: compared with its line ends as spaces)
        assert "undone: entry 3 (helmet: red:helmet:2 yellow:buddha:3 red:samurai:1, buddha: " \
            "red:helmet:2 yellow:buddha:3 red:samurai:1)" in " ".join(wait_entry(term, 3).split())
        term.key("C-c")
        term.wait_for("stopped: Ctrl-C. The game is saved in")
        term.wait_for("[exit status 130]")
    finally:
        term.close()
    saved = SamuraiJournal.load(journal)
    assert saved.state.entries == 2 and saved.state.over is None
