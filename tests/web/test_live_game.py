"""A whole 4-player bot game on the simulated tower, through the real firmware path, with the
board page following it live in Chromium: what `shogun-tower demo` does."""

from __future__ import annotations

import io
import pathlib
import threading

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.rules import Game
from shogun_tower.table.conductor import TableGame
from shogun_tower.table.console import Console
from shogun_tower.table.equipment import open_tower
from shogun_tower.table.seats import BotSeat

from .seen import provinces


def test_the_page_follows_a_whole_game_live(page, board, tmp_path: pathlib.Path) -> None:
    page.goto(board.url)
    game = Game.create(4, seed=8)
    journal = Journal.new(game, tmp_path / "live.jsonl")
    seats = {p: BotSeat("heuristic", i) for i, p in enumerate(game.players)}
    console = Console(out=io.StringIO(), clear_screen=False)
    done: dict = {}

    def play() -> None:
        try:
            with open_tower("sim", console, seed=8) as kit:
                table = TableGame(journal, seats, kit.tower, console, link=kit.link,
                                  page=board, narrate=False)
                done["state"] = table.run()
                done["table"] = table
                done["agrees"] = table.tower_agrees()
                done["status"] = kit.link.status()
        except BaseException as err:  # noqa: BLE001 - reported by the test below
            done["error"] = err

    thread = threading.Thread(target=play)
    thread.start()
    seen_versions: set[int] = set()
    seen_when: set[str] = set()
    throws_seen: set[str] = set()
    while thread.is_alive():
        version = int(page.locator("body").get_attribute("data-version") or 0)
        seen_versions.add(version)
        seen_when.add(page.locator("#when").inner_text())
        throws_seen.add(page.locator("#last-throw").inner_text())
        page.wait_for_timeout(250)
    thread.join()
    assert "error" not in done, done.get("error")
    state = done["state"]
    table = done["table"]
    final, _ = board.snapshot()
    page.wait_for_function(f"document.body.dataset.version >= {final}")

    # It was live: the page redrew many times during the game, through its seasons and throws.
    assert len(seen_versions) > 20, seen_versions
    assert any("Year 1" in w for w in seen_when) and any("Year 2" in w for w in seen_when), \
        seen_when
    assert len(throws_seen) > 5

    # At the end it shows the game as the rules have it.
    assert state.result is not None
    assert "Game over" in page.locator("#when").inner_text()
    drawn = provinces(page)
    for name, owner in state.owner.items():
        assert drawn[name]["owner"] == (owner or "neutral"), name
        assert int(drawn[name]["armies"]) == state.armies[name], name
    for colour in game.players:
        assert int(page.locator(f"#vp-{colour}").first.get_attribute("data-value")) \
            == state.vp[colour]
    tower = page.locator("#tower")
    assert int(tower.get_attribute("data-total")) == sum(state.tower.values())
    for colour in CUBE_COLOURS:
        shown = tower.locator(f'.cube-count[data-colour="{colour}"]')
        if state.tower[colour]:  # the colour's own count, not any digit on the line
            assert int(shown.get_attribute("data-count")) == state.tower[colour], colour
            assert shown.inner_text().strip().endswith(f" {state.tower[colour]}"), colour
        else:
            assert shown.count() == 0, colour

    # Every cube that fell out was counted once by the device and applied by the rules, and the
    # simulated tower holds what the rules say is inside it.
    assert done["agrees"] is True
    assert done["status"]["cubes"] == done["status"]["hw_count"] == table.record.cubes_applied
    assert Journal.load(tmp_path / "live.jsonl").state.to_json() == state.to_json()
