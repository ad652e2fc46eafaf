"""`play --phones` at the laptop, in tmux at 80x24: no seat's code is on the screen until its
player asks for it (`phone red`), the whole code then fits the screen, and it is gone from the
screen and the scrollback once its player presses Enter; the laptop takes words while it waits
for the phones and says when the season goes on."""

from __future__ import annotations

import json
import pathlib
import re
import urllib.request

from .tmux import PLAY, Terminal

WAITING = "Planning on the phones, waiting for red:"


def _post(url: str, form: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(form).encode(), method="POST")
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def test_one_seat_code_at_a_time_and_gone_after(tmp_path: pathlib.Path) -> None:
    journal = tmp_path / "phones.jsonl"
    term = Terminal([*PLAY, "--phones", "--host", "127.0.0.1", "--page-port", "0",
                     "--players", "3", "--bots", "black,yellow", "--seed", "3",
                     "--journal", str(journal)], str(tmp_path), width=80, height=24)
    try:
        term.wait_for(WAITING)
        shown = term.history()
        assert "/seat/" not in shown and "▀" not in shown  # no code until someone asks
        assert "phone black" in shown or "phone red" in shown  # the laptop says how to ask

        term.send("page")
        term.wait_for("To get your seat's code")
        assert "/seat/" not in term.history()
        term.send("help")
        term.wait_for("phone COLOUR: that seat's code for its phone")
        term.send("phone green")
        term.wait_for("No one plans on a phone as green: the phones' seats are red.")
        term.send("undo")
        term.wait_for("cannot be taken back while planning is open")

        term.send("phone red")
        assert term.wait_prompt() == ("Only red looks now: red, press Enter to show your "
                                      "seat's code:")
        assert "▀" not in term.screen()
        term.send("")
        term.wait_for("(the screen clears):")
        screen = term.screen().splitlines()
        assert screen[0].startswith("red: scan this code")
        link = re.fullmatch(r"(http://127\.0\.0\.1:\d+/seat/[\w-]+)", screen[1].strip())
        assert link, screen
        code = [ln for ln in screen if "█" in ln or "▀" in ln]
        assert len(code) >= 17  # the whole code on the 24 lines, with the prompt under it
        assert screen.index(code[-1]) < len(screen) - 1
        term.send("")
        term.wait_for("red's seat code was shown and cleared.")
        term.wait_for(WAITING)
        after = term.history()
        assert "▀" not in after and "█" not in after and "/seat/" not in after

        # red's phone sends the suggested plan: the laptop goes on by itself
        url = link.group(1)
        with urllib.request.urlopen(url + "/state", timeout=10) as answer:
            seat = json.loads(answer.read())
        _post(url + "/plan", seat["suggestion"])
        term.wait_for("red has planned")
        term.wait_for("All plans are in (red's was the last): the season goes on here.")
        assert WAITING not in term.prompt()
    finally:
        term.close()
