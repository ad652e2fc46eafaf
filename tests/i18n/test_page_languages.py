"""The board pages of Knizia's Samurai and of the two-player Shogun, and their help page, in
French and in Japanese, in Chromium at a phone's 390 px and a laptop's 1280 px: no English
message on the page (its text, its tooltips, its title), nothing sticking out of the window
and no text cut off (Japanese has no spaces: it must still wrap)."""

from __future__ import annotations

import os
import pathlib

import pytest

from i18n.seen import english_words, untranslated
from shogun_tower.games.knizia_samurai import help as samurai_help
from shogun_tower.games.knizia_samurai import strip
from shogun_tower.games.knizia_samurai.catalogue import catalogue
from shogun_tower.games.knizia_samurai.state import SamuraiGame, SamuraiJournal
from shogun_tower.games.knizia_samurai.view import entry_lines, view
from shogun_tower.games.shogun2 import help as shogun2_help
from shogun_tower.games.shogun2.bots import play_match
from shogun_tower.games.shogun2.game import Game, State
from shogun_tower.games.shogun2.view import page_view
from shogun_tower.web.server import BoardServer
from shogun_tower.words import LETTERS

SHOTS = os.environ.get("SHOGUN_SHOTS")  # a folder: keep a screenshot of every page seen

# What a person reads: the text, the tooltips and labels, the window's title.
READ_JS = """() => [document.title, document.body.innerText,
  ...[...document.querySelectorAll('[title], [aria-label]')].flatMap(e =>
    [e.getAttribute('title') || '', e.getAttribute('aria-label') || ''])].join('\\n')"""

# Every element inside the window's width, and no text cut by its box: a box that hides what
# overflows it while its text is wider (or taller) than the box.
CUT_JS = """() => {
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (!r.width) continue;
    if (r.right > innerWidth + 0.5 || r.left < -0.5) out.push('outside: ' + (e.id || e.tagName));
    const style = getComputedStyle(e);
    const hides = (v) => v !== 'visible';
    if ((hides(style.overflowX) && e.scrollWidth > e.clientWidth + 1)
        || (hides(style.overflowY) && style.overflowY !== 'auto' && style.overflowY !== 'scroll'
            && e.scrollHeight > e.clientHeight + 1)
        || style.textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth)
      out.push('cut: ' + (e.id || e.tagName) + ' ' + e.textContent.slice(0, 40));
  }
  if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
  return out;
}"""

# No word of a table's heading or cell, or of a form's label, broken across two lines
# ("coffr/es", "リーダ/ー"): a text without a space drawn on more than one line. Japanese has no
# spaces, so a cell's Japanese word is one piece too (a list "伊豆、遠江" may break after its
# 、, which is a space's place).
BROKEN_JS = """() => {
  const out = [];
  for (const cell of document.querySelectorAll('th, td, label')) {
    if (!cell.offsetParent) continue;
    const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
      for (const word of node.textContent.trim().split(/[\\s、]+/)) {
        if (!word) continue;
        const at = node.textContent.indexOf(word);
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + word.length);
        const lines = new Set([...range.getClientRects()].map(q => Math.round(q.top)));
        if (lines.size > 1) out.push('broken word: ' + word);
      }
    }
  }
  return out;
}"""

# Every choice of a closed list shows whole: its text (in the list's font) no wider than the
# list's box less its padding and its arrow (20 px, Chromium's is narrower).
CLOSED_JS = """() => {
  const out = [];
  const canvas = document.createElement('canvas').getContext('2d');
  for (const list of document.querySelectorAll('select')) {
    if (!list.offsetParent) continue;
    const style = getComputedStyle(list);
    canvas.font = style.font;
    const room = list.clientWidth - parseFloat(style.paddingLeft)
      - parseFloat(style.paddingRight) - 20;
    for (const choice of list.options) {
      if (canvas.measureText(choice.text).width > room)
        out.push('cut in a closed list: ' + choice.text);
    }
  }
  return [...new Set(out)];
}"""



def samurai_views() -> list[dict]:
    """A game of three on the strip: one view mid-game, one at its end with the ranking."""
    cat = catalogue()
    journal = SamuraiJournal.new(SamuraiGame.create(3))
    state = journal.state
    entries = [{"capture": "helmet", "player": "red"},
               {"surrounded": "buddha", "tiles": [["yellow", "buddha", 3], ["blue", "ship", 2]]},
               {"tie": "rice"},
               {"figures": [{"capture": "rice", "player": "blue"},
                            {"capture": "rice", "player": "blue"}]}]
    views = []
    for n, command in enumerate(entries * 4):
        events = journal.apply(command)
        if n == 2 or state.over is not None:
            # the strip as the tower would show it: a lit LED a figure
            s = strip.segment_length(len(state.game.players))
            bands = {p: [LETTERS[p] * min(state.captured[p][t], s)
                         + "·" * (s - min(state.captured[p][t], s)) for t in cat.types]
                     for p in state.game.players}
            views.append(view(state, entry_lines(state, events), state.captured, bands))
        if state.over is not None:
            break
    assert views[-1]["result"], "the game must reach its end"
    return views


def shogun2_views() -> list[dict]:
    """A game on board 5 where red says "Shogun!", and a whole bot game at its end."""
    state = State.new(Game(seed=5))
    for move in ("e1-e2", "g8-e6"):
        state.apply({"move": move})
    assert page_view(state, ["red"])["shogun"]
    return [page_view(state, ["red"]), page_view(play_match(37, "random", "random"),
                                                 ["red", "white"])]


def look(browser, server: BoardServer, lang: str, name: str, width: int,
         path: str = "") -> None:
    """Open the page at ``width``, once its last view is drawn: it is read for English and
    for anything cut off."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(server.url + path)
        if not path:
            page.wait_for_function("Number(document.body.dataset.version) > 0")
        else:
            page.wait_for_function("document.body.dataset.ready === 'true'")
        assert page.evaluate("document.documentElement.lang") == lang
        shown = page.evaluate(READ_JS)
        assert not untranslated(shown, lang), untranslated(shown, lang)
        assert not english_words(shown), english_words(shown)
        assert page.evaluate(CUT_JS) == []
        if SHOTS:
            page.screenshot(path=str(pathlib.Path(SHOTS, f"{name}-{lang}-{width}.png")),
                            full_page=True)
    finally:
        context.close()
    assert not errors, errors


@pytest.mark.parametrize("speaking", ["fr", "ja"], indirect=True)
def test_the_samurai_page_in_the_players_language(browser, speaking: str) -> None:
    server = BoardServer(port=0, front="samurai.html").start()
    try:
        server.serve_help(samurai_help.book(("red", "yellow", "blue")).to_json())
        for k, shown in enumerate(samurai_views()):
            server.publish(shown)
            for width in (390, 1280):
                look(browser, server, speaking, f"samurai-{'mid' if k == 0 else 'end'}", width)
        assert k == 1  # (look() reads each page: the game's middle and its end were both seen)
        look(browser, server, speaking, "samurai-help", 390, "help")
    finally:
        server.stop()


@pytest.mark.parametrize("speaking", ["fr", "ja"], indirect=True)
def test_the_two_player_page_in_the_players_language(browser, speaking: str) -> None:
    server = BoardServer(port=0, front="shogun2.html").start()
    try:
        server.serve_help(shogun2_help.book().to_json())
        for k, shown in enumerate(shogun2_views()):
            server.publish(shown)
            for width in (390, 1280):
                look(browser, server, speaking, f"shogun2-{'shogun' if k == 0 else 'end'}",
                     width)
        assert k == 1  # (look() reads each page: "Shogun!" and the end were both seen)
        look(browser, server, speaking, "shogun2-help", 390, "help")
    finally:
        server.stop()
