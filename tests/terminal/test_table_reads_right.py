"""A whole game of `shogun-tower play` as a person reads it at an 80×24 terminal (tmux): every
line wraps at a word (the terminal never cuts one), each throw's headline comes right before its
cubes and after what caused it, words instead of codes, and the end waits for Enter."""

from __future__ import annotations

import pathlib
import re

from .tmux import PLAY, Terminal, with_exit_status

HEADLINE = re.compile(r"^(Battle for (\S+): (\w+) against|Revolt in (\S+) against (\w+))")


def test_a_bot_game_reads_in_order_in_words_at_80_columns(tmp_path: pathlib.Path) -> None:
    # (the journal named relative to the game's folder: a path longer than the screen is a
    # word the terminal must cut)
    term = Terminal(with_exit_status([*PLAY, "--players", "3", "--bots", "all", "--seed", "9",
                                      "--expansions", "court,leaders", "--journal",
                                      "game.jsonl", "--no-page"]),
                    str(tmp_path), width=80, height=24)
    try:
        term.wait_for("The game is over. Press Enter", timeout=300)
        joined, rows = term.history(), term.history(joined=False)
        # (4) every line was cut at a word by the console: the terminal wrapped none itself
        cut = [row for row in rows.splitlines() if row not in joined.splitlines()]
        assert not cut, cut[:4]
        lines = joined.splitlines()
        headlines = [i for i, ln in enumerate(lines) if HEADLINE.match(ln)]
        assert len(headlines) >= 10 and any(lines[i].startswith("Revolt") for i in headlines)
        for i in headlines:
            # (5) the headline comes right before its cubes go in, after what caused it
            assert lines[i + 1].startswith("  into the tower:"), lines[i - 2:i + 3]
            found = HEADLINE.match(lines[i])
            assert found is not None
            if lines[i].startswith("Revolt"):
                province, player = found.group(4), found.group(5)
                assert lines[i - 1].startswith(f"  revolt in {player}'s {province}:"), \
                    lines[i - 3:i + 2]
            else:
                province, attacker = found.group(2), found.group(3)
                # (a line's continuation is indented deeper: the cause is where it starts)
                cause = next(ln for ln in reversed(lines[:i])
                             if not ln.startswith(("  score track", "    ")))
                assert f"{attacker} attacks" in cause and province in cause \
                    or "special card" in cause, lines[i - 3:i + 2]
        # never a headline between another throw's cubes in and out
        into = [i for i, ln in enumerate(lines) if ln.startswith("  into the tower:")]
        for i in into:
            out = next(j for j in range(i, len(lines)) if lines[j].startswith(
                "  out of the tower into the tray:"))
            assert not [j for j in headlines if i < j < out], lines[i:out + 1]
        # (9) words, not codes: no rule IDs, no internal names, plurals right
        for wrong in ("(rule ", "rule X", "court_favour", " 1 armies", "cube(s)", "favour 1",
                      "vp ", "(1-1)"):
            assert wrong not in joined, wrong
        assert re.search(r"favour #\d+: ", joined)  # a favour by its card's words
        # (11) the end waits for Enter, then the program ends well
        assert term.prompt().startswith("The game is over. Press Enter")
        term.send("")
        term.wait_for("[exit status 0]")
    finally:
        term.close()
