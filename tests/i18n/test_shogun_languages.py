"""Shogun played in French and in Japanese, as a person sees it: the last season of a seeded
three-player game with the court and the military leaders (bots for black and yellow, the
simulated tower) played to its end on an 80x24 terminal (tmux), red answering every question
as a person would (and asking help, hint and show); then the board page and red's phone page
of that game in Chromium at a phone's 390 px and a laptop's 1280 px. Nothing on any of them is
English (no marked message left untranslated, no unmarked English sentence), every line the
console writes fits the 80 columns, and nothing on the pages sticks out or is cut off."""

from __future__ import annotations

import os
import pathlib
import re
import time

import pytest
from terminal.tmux import PLAY, Terminal, with_exit_status

from i18n.seen import english_words, said, too_wide, untranslated
from i18n.test_page_languages import BROKEN_JS, CLOSED_JS, CUT_JS, READ_JS
from shogun_tower import i18n
from shogun_tower.cli.commands.play import TABLE_DEFAULTS
from shogun_tower.errors import JournalError
from shogun_tower.games.shogun.bots import HeuristicBot
from shogun_tower.games.shogun.journal import Journal
from shogun_tower.games.shogun.narrate import SEASON_NAMES
from shogun_tower.games.shogun.rules import Game, State
from shogun_tower.games.shogun.rules.core.choices import option_text
from shogun_tower.games.shogun.runner import TowerDriver
from shogun_tower.games.shogun.view import Chronicle
from shogun_tower.lines import cells
from shogun_tower.table.phones import PlanDesk
from shogun_tower.web.server import BoardServer

LANGUAGES = ["fr", "ja"]
SEED = 5
EXPANSIONS = ["court", "leaders"]
PERSON = "red"
SHOTS = os.environ.get("SHOGUN_SHOTS")  # a folder: keep every screen and page seen there
# the questions that only wait for Enter (a pause before a secret screen, the game's end)
PAUSES = ("{player}, press Enter when ready (or undo): ", "{why} Press Enter to go on: ",
          "Enter: this is my plan; or a space to change (e.g. Rice, Bid)? ",
          "order, separated by commas (Enter: as listed)? ")




def asks(line: str, lang: str, message: str) -> bool:
    """Is ``line`` the question ``message`` in ``lang``: its words between the placeholders,
    in order (a wrapped question's last line holds at least its last words)?"""
    pieces = [p.strip(" ?？:：") for p in re.split(r"\{[^{}]*\}", said(lang, message))]
    pieces = [p for p in pieces if len(p) >= 2]
    return bool(pieces) and pieces[-1] in line


def last_season(path: pathlib.Path) -> Journal:
    """The game played by bots up to the planning of its last season (year 2's autumn), red's
    seat a person's, the table's tower the simulated one."""
    game = Game.create(3, seed=SEED, expansions=EXPANSIONS)
    table = dict(TABLE_DEFAULTS, bots=["black", "yellow"], tower="sim", page=False)
    j = Journal.new(game, path, table=table)
    bots = {p: HeuristicBot(SEED + i) for i, p in enumerate(game.players)}
    tower = TowerDriver(SEED)
    while not (j.state.year == 2 and j.state.season == 2 and j.state.step["kind"] == "plan"):
        st = j.state.step
        if st["kind"] == "throw":
            j.apply({"type": "tray", "counts": tower.throw(st["into_tower"])})
            continue
        p = next(p for p in game.players if p not in j.state.plans) if st["kind"] == "plan" \
            else st["player"]
        j.apply(bots[p].decide(j.state, p))
    return j


def still_prompt(term: Terminal, timeout: float = 120) -> str | None:
    """The last line once the program waits for an answer, or None once it has ended. The
    line editor leaves the cursor just after the question it asks, while a line the program
    tells ends with a new line: a line that ends as a question does ("…:", "…?") with the
    cursor after it, the same for two looks, is a question waiting (a told line that ends
    with a colon is not one). A question whose cursor cannot be read so (one that fills
    the terminal's width) is taken once it has stayed the same for a second."""
    deadline = time.monotonic() + timeout
    last, since, looks = None, time.monotonic(), 0
    while time.monotonic() < deadline:
        history = term.history(joined=False)
        if "[exit status" in history:
            return None
        rows = term._tmux("capture-pane", "-p", "-t", term.name).splitlines()
        x, y = (int(v) for v in term._tmux("display-message", "-p", "-t", term.name,
                                           "#{cursor_x} #{cursor_y}").split())
        shown = [k for k, row in enumerate(rows) if row.strip()]
        lines = [ln for ln in term.screen().splitlines() if ln.strip()]
        line = lines[-1] if lines else ""
        asking = line.rstrip().endswith((":", "?", "：", "？"))
        at_end = bool(shown) and y == shown[-1] and 0 <= x - cells(rows[y].rstrip()) <= 1
        if line != last:
            last, since, looks = line, time.monotonic(), 0
        looks = looks + 1 if asking and at_end else 0
        if asking and (looks >= 2 or time.monotonic() - since > 1.0):
            return line
        time.sleep(0.05)
    raise AssertionError(f"no question on the screen:\n{term.screen()}")


def current(path: pathlib.Path) -> State:
    """The game as its journal says it now (read again until no line is being written)."""
    for _try in range(50):
        try:
            return Journal.load(path).state
        except (JournalError, ValueError):
            time.sleep(0.1)
    return Journal.load(path).state


def answer(state: State, line: str, lang: str) -> str:
    """What red types at ``line``: the answer the heuristic bot gives in red's place, in the
    words the console takes."""
    if state.step is None:
        return ""  # the game is over: Enter ends it
    if any(asks(line, lang, pause) for pause in PAUSES):
        return ""
    st = state.step
    kind = st["kind"]
    if kind == "plan":
        assert asks(line, lang, "take the suggestion (y) or type your own plan (n)? "), line
        return "y"
    i18n.use(lang)  # the options' words as the console says them
    try:
        command = HeuristicBot(SEED).decide(state, PERSON)
        if kind == "special":
            return str(command["position"])
        if kind in ("march", "move"):
            if asks(line, lang, "how many armies (1-{most})? "):
                return str(command["armies"])
            return command.get("to") or "" if command.get("armies") else ""
        if kind == "choose":
            return next(option_text(o) for o in st["options"] if o["value"] == command["option"])
        if kind == "revolt_order":
            return ""
    finally:
        i18n.use("en")
    raise AssertionError(f"red is asked {line!r} at a {kind} step")


def keep(name: str, text: str) -> None:
    if SHOTS:
        pathlib.Path(SHOTS, f"{name}.txt").write_text(text, encoding="utf-8")


def seen_problems(shown: str, lang: str) -> list[str]:
    """What a French or Japanese reader should not see: English messages, English words."""
    return ([f"untranslated: {p}" for p in untranslated(shown, lang)]
            + [f"English word: {w}" for w in english_words(shown)])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_last_season_played_at_the_terminal(tmp_path: pathlib.Path, lang: str) -> None:
    path = tmp_path / "game.jsonl"
    last_season(path)
    # The journal named from the terminal's folder, as a player types it: a temporary folder's
    # long path is not what a table shows, and a path is never broken across lines.
    term = Terminal(with_exit_status([*PLAY, "--resume", path.name, "--lang", lang,
                                      "--no-clear"]), str(tmp_path), width=80, height=24)
    asked: list[str] = []
    try:
        for n in range(300):
            line = still_prompt(term)
            if line is None:
                break
            state = current(path)
            if n == 0:  # a person's words at the first question: all of them answered
                for word in ("help", "hint", "show"):
                    term.send(word)
                    still_prompt(term)
            typed = answer(state, line, lang)
            asked.append(f"{line!r} -> {typed!r}")
            term.send(typed)
        else:
            raise AssertionError("the game never ended:\n" + "\n".join(asked[-10:]))
        history = "\n".join(ln for ln in term.history().splitlines()
                            if not ln.startswith(("Pane is dead", "[exit status")))
        keep(f"shogun-{lang}-terminal", history)
    finally:
        term.close()
    final = Journal.load(path).state
    assert final.step is None and final.result, "the game was played to its end"
    assert len(asked) >= 5, asked  # red planned, chose and moved in the last season
    problems = seen_problems(history, lang)
    problems += [f"too wide: {ln}" for ln in too_wide(history.splitlines(), 80)]
    assert not problems, "\n".join(problems)


def views_of(path: pathlib.Path, lang: str) -> tuple[State, list[dict]]:
    """The board page's views of the game in ``path``: at the last season's planning, after
    its first battle, and at the end; with the state at the planning."""
    game = Journal.load(path).game
    i18n.use(lang)
    state, chronicle, views = State.new(game), Chronicle(), []
    planning = None
    for command in Journal.load(path).commands:
        before = state.step
        chronicle.record(before, state.apply(command))
        if state.year == 2 and state.season == 2:
            step = state.step
            if planning is None and step and step["kind"] == "plan":
                planning = state.copy()
                views.append(chronicle.view(state, "planning"))
            if len(views) == 1 and before and before["kind"] == "throw" \
                    and before.get("reason") == "battle":
                views.append(chronicle.view(state))
    views.append(chronicle.view(state))
    assert planning is not None and state.step is None
    return planning, views


def look(browser, url: str, lang: str, name: str, width: int, ready: str) -> list[str]:
    """Open ``url`` at ``width`` once ``ready`` holds: what a reader of ``lang`` should not
    see on it, and what sticks out or is cut off."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    try:
        page.goto(url)
        page.wait_for_function(ready)
        assert page.evaluate("document.documentElement.lang") == lang
        shown = page.evaluate(READ_JS)
        problems = [f"{name} {width}px: {p}" for p in seen_problems(shown, lang)]
        problems += [f"{name} {width}px: {p}" for p in page.evaluate(CUT_JS)]
        problems += [f"{name} {width}px: {p}" for p in page.evaluate(BROKEN_JS)]
        problems += [f"{name} {width}px: {p}" for p in page.evaluate(CLOSED_JS)]
        if SHOTS:
            page.screenshot(path=str(pathlib.Path(SHOTS, f"{name}-{lang}-{width}.png")),
                            full_page=True)
    finally:
        context.close()
    return problems + [f"{name}: script error {e}" for e in errors]



@pytest.mark.parametrize("speaking", LANGUAGES, indirect=True)
def test_the_board_and_the_phone_pages(browser, tmp_path: pathlib.Path, speaking: str) -> None:
    lang = speaking
    path = tmp_path / "game.jsonl"
    j = last_season(path)
    bots = {p: HeuristicBot(SEED + i) for i, p in enumerate(j.game.players)}
    tower = TowerDriver(SEED + 1)
    while j.state.step is not None:  # the rest of the game by bots, red's seat too
        st = j.state.step
        if st["kind"] == "throw":
            j.apply({"type": "tray", "counts": tower.throw(st["into_tower"])})
            continue
        p = next(p for p in j.game.players if p not in j.state.plans) if st["kind"] == "plan" \
            else st["player"]
        j.apply(bots[p].decide(j.state, p))
    planning, views = views_of(path, lang)
    problems: list[str] = []
    server = BoardServer(port=0).start()
    try:
        for k, view in enumerate(views):
            server.publish(view)
            for width in (390, 1280):
                problems += look(browser, server.url, lang, f"board{k}", width,
                                 "Number(document.body.dataset.version) > 0")
        desk = PlanDesk(list(planning.game.players))
        server.desk = desk
        desk.open_planning(planning, [PERSON], i18n._(
            "Year {year} · {season} · secret planning").format(
            year=planning.year, season=i18n._(SEASON_NAMES[planning.season])))
        link = desk.links(server.url)[PERSON]
        for width in (390, 1280):
            problems += look(browser, link, lang, "phone", width,
                             "document.body.dataset.status === 'plan'")
        # a refused entry, as the phone says it
        province = next(x for x, o in planning.owner.items() if o == PERSON)
        desk.check(PERSON, {"castle": province, "temple": province})
        problems += look(browser, link, lang, "phone-refused", 390,
                         "[...document.querySelectorAll('.entry-error')].some(e => e.textContent)")
    finally:
        server.stop()
    assert len(views) == 3
    assert not problems, "\n".join(problems)
