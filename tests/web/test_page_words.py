"""The board page speaks the game's words: no rule IDs ("(rule X1.7)": the card's or action's
name says it), no internal names ("convert2", "court_favour") in its text or its tooltips,
through whole games with every expansion."""

from __future__ import annotations

import re

import pytest

from shogun_tower.games.shogun.rules import Game

from .games import BotGame

# Everything a person can read on the page: its text and every tooltip (title attributes and
# the map's SVG <title> elements), but the legend's note on the map data, which is for the
# people who maintain the map file (test_page_fit).
READABLE_JS = """() => [document.body.innerText,
  ...[...document.querySelectorAll('[title]:not(#legend)')].map(e => e.getAttribute('title')),
  ...[...document.querySelectorAll('svg title')].map(e => e.textContent)].join('\\n')"""
RULE_ID = re.compile(r"\brules? [A-Z]\d")  # "(rule X1.7)", "rule T3:"; P4 is a card's name
INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b|\bconvert\d\b|\bdeploy\d\b")
# the page's own sentences about a province (the map's tooltips) count in good English
MAP_TIPS_JS = """() => [...document.querySelectorAll('#provinces-layer title')]
  .map(t => t.textContent)"""
BAD_PLURAL = re.compile(r"\b1 (armies|revolt markers|building slots)\b"
                        r"|\b(0|1\d+|[2-9]\d*) (army|revolt marker|building slot)\b")


@pytest.mark.parametrize("seed", [1, 5])
def test_no_rule_ids_or_internal_names_on_the_page(page, board, seed) -> None:
    g = BotGame(Game.create(players=4, seed=seed, expansions="court,samurai,leaders,chambers"),
                seed=seed)
    page.goto(board.url)
    checked = skipped = 0
    while g.state.step is not None:
        events = g.step()
        skipped += sum(1 for e in events if e.get("event") == "skipped")
        if len(g.commands) % 8 and g.state.step is not None:
            continue
        version = board.publish(g.view())
        page.wait_for_selector(f"body[data-version='{version}']", state="attached")
        text = page.evaluate(READABLE_JS)
        assert not RULE_ID.search(text), RULE_ID.search(text).group(0) + "\n" + text[-3000:]
        found = INTERNAL.search(text)
        assert not found, found.group(0)
        tips = "\n".join(page.evaluate(MAP_TIPS_JS))
        assert tips and not BAD_PLURAL.search(tips), BAD_PLURAL.search(tips).group(0)
        checked += 1
    assert checked > 20 and skipped, (checked, skipped)  # skipped actions were told on the page
