"""`play --phones`: four people plan in secret on four phones at once, in Chromium.

The game runs as a real `shogun-tower play` process (the tray typed, four people, no bot), on
127.0.0.1 only (`--phones --host 127.0.0.1`). Each seat's link is read from what the terminal
shows when its player types `phone COLOUR`, as that player would scan it; the pages are real
Chromium pages driven by Playwright.
"""

from __future__ import annotations

import json
import pathlib
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from shogun_tower.games.shogun.journal import Journal

CLI = [sys.executable, "-m", "shogun_tower.cli", "play"]
SEAT_LINK = re.compile(r"^(http://127\.0\.0\.1:\d+/seat/(\S+))$", re.M)
WAITING = "Planning on the phones, waiting for"


class PhoneGame:
    """A `play --phones` process; ``links``/``tokens``: the people's seats, each read from what
    the terminal showed for ``phone COLOUR``."""

    def __init__(self, tmp: pathlib.Path, *table: str, journal: pathlib.Path | None = None,
                 tray: str = "red 2, farmers 1", port: int = 0) -> None:
        self.journal = journal or tmp / "phones.jsonl"
        self.out = tmp / f"terminal-{time.monotonic_ns()}.txt"
        resume = table[:1] == ("--resume",)
        command = [*CLI, *table] if resume else [
            *CLI, "--phones", "--host", "127.0.0.1", "--page-port", str(port),
            *(table or ("--players", "4")), "--seed", "3", "--journal", str(self.journal),
            "--no-clear", "--tower", "manual"]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=self.out.open("w"),
                                     stderr=subprocess.STDOUT, text=True)
        if tray:
            self.type(tray)  # the set-up throw's tray, typed
        self.wait_for(WAITING)
        text = self.text()
        self.before_codes = text
        self.board = re.search(r"the board page: (http://\S+/)", text).group(1)
        people = re.search(r"Secret planning on the phones: (.+) plans? on their own phones?\.",
                           text).group(1).split(", ")
        self.shown: dict[str, str] = {}  # what the terminal showed for each `phone COLOUR`
        self.links = {p: self.code(p) for p in people}
        self.tokens = {p: url.rsplit("/", 1)[1] for p, url in self.links.items()}

    def type(self, *lines: str) -> None:
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def text(self) -> str:
        return self.out.read_text() if self.out.exists() else ""

    def wait_for(self, what: str, after: int = 0, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and what not in self.text()[after:]:
            assert self.proc.poll() is None, self.text()
            time.sleep(0.1)
        assert what in self.text()[after:], self.text()[-3000:]
        return self.text()[after:]

    def code(self, player: str) -> str:
        """``phone PLAYER`` typed at the laptop, then Enter to show the code and Enter to clear
        it: the one link the terminal showed meanwhile."""
        before = len(self.text())
        self.type(f"phone {player}", "", "")
        shown = self.wait_for(f"{player}'s seat code was shown and cleared", before)
        self.shown[player] = shown
        links = {m.group(1) for m in SEAT_LINK.finditer(shown)}
        assert len(links) == 1, shown
        return links.pop()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()  # the input ends: the game is saved and stops
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture(scope="module")
def phone_game(tmp_path_factory) -> Iterator[PhoneGame]:
    game = PhoneGame(tmp_path_factory.mktemp("phones"))
    yield game
    game.stop()


def _get(url: str, data: dict | None = None) -> tuple[int, dict | str]:
    body = json.dumps(data).encode() if data is not None else None
    req = urllib.request.Request(url, data=body, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            raw = r.read().decode()
            status = r.status
    except urllib.error.HTTPError as err:
        raw, status = err.read().decode(), err.code
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw


# Every element of the page inside the window's width (a phone's 390 px): what sticks out.
FITS_JS = """() => [...document.querySelectorAll('body *')].filter(e => {
  const r = e.getBoundingClientRect();
  return r.width && (r.right > innerWidth + 0.5 || r.left < -0.5);
}).map(e => e.id || e.className || e.tagName).concat(
  document.documentElement.scrollWidth > innerWidth ? ['the page scrolls sideways'] : [])"""


def _sees_its_board(page, state, player: str) -> None:
    """The seat's own provinces with their armies, and each one's neighbours with who holds
    them and how many armies, as the journal's state has them; the army counts."""
    mine = sorted(x for x, o in state.owner.items() if o == player)
    shown = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        '#provinces > li')].map(li => [li.dataset.province, {armies: li.querySelector(
        '.armies').textContent, near: [...li.querySelectorAll('.near')].map(n =>
        [n.dataset.province, n.dataset.owner, n.textContent])}]))""")
    assert sorted(shown) == mine
    for name in mine:
        n = state.armies[name]
        assert shown[name]["armies"] == (f"{n} armies" if n != 1 else "1 army")
        near = {y for y in state.map.provinces[name].neighbours if y in state.owner}
        assert {p for p, _, _ in shown[name]["near"]} == near
        for y, owner, text in shown[name]["near"]:
            assert owner == (state.owner[y] or "neutral") and text.startswith(y)
            if state.owner[y]:
                assert text.endswith(f"{state.owner[y]} {state.armies[y]}")
    on_board = sum(state.armies[x] for x in mine)
    assert page.inner_text("#counts").startswith(
        f"Armies: {on_board} on the board, {state.supply[player]} in supply.")


def _fill_plan(page) -> dict[str, str]:
    """A complete legal plan from what the page offers: the bid chest 0, then the province
    cards and the other chest cards, one per space, as far as the hand goes."""
    options = page.eval_on_selector_all("#space-castle option", "os => os.map(o => o.value)")
    cards = [o for o in options if o and not o.startswith("chest")]
    cards += ["chest 1", "chest 2", "chest 3", "chest 4"]
    spaces = page.eval_on_selector_all("#spaces select", "ss => ss.map(s => s.name)")
    plan = {"bid": "chest 0"}
    for space in spaces[:-1]:
        plan[space] = cards.pop(0) if cards else ""
    for space, card in plan.items():
        page.select_option(f"#space-{space}", card)
    return plan


def test_seat_links_are_private_and_tokens_are_long(phone_game: PhoneGame) -> None:
    g = phone_game
    assert sorted(g.links) == ["black", "purple", "red", "yellow"]
    assert len(set(g.tokens.values())) == 4
    for token in g.tokens.values():
        assert len(token) >= 22 and re.fullmatch(r"[A-Za-z0-9_-]+", token)  # ≥ 128 bits
    # no code and no link is on the laptop until a player asks for theirs, and then only theirs
    assert "/seat/" not in g.before_codes and "▀" not in g.before_codes
    assert "phone black" in g.before_codes  # the laptop says how to ask
    for player, shown in g.shown.items():
        assert "▀" in shown or "▄" in shown, "the link is also shown as a QR code"
        assert [m.group(1) for m in SEAT_LINK.finditer(shown)] == [g.links[player]]
        assert not any(t in shown for p, t in g.tokens.items() if p != player)
        assert f"Only {player} looks now" in shown
    # the journal (shared for replays) holds no token; the key beside it is its owner's only
    journal_text = g.journal.read_text()
    assert not any(t in journal_text for t in g.tokens.values())
    key = g.journal.with_name(g.journal.name + ".seats-key")
    assert key.stat().st_mode & 0o077 == 0
    assert not any(t in key.read_text() for t in g.tokens.values())
    # every seat reads its own hand only
    for player, url in g.links.items():
        status, view = _get(url + "/state")
        assert status == 200 and view["player"] == player
        assert view["hand"]["provinces"] == sorted(
            x for x, o in Journal.load(g.journal).state.owner.items() if o == player)
        assert not any(other in json.dumps(view) for other in g.tokens.values())
    # guessed, altered, swapped into another path, or missing tokens are refused
    base = g.board.rstrip("/")
    red = g.tokens["red"]
    for url in (f"{base}/seat/", f"{base}/seat", f"{base}/seat/{red[:-1]}",
                f"{base}/seat/{red[:-1]}/state", f"{base}/seat/{red.upper()}/state",
                f"{base}/seat/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/state",
                f"{base}/seat/{red}{g.tokens['black']}/state"):
        status, _ = _get(url)
        assert status == 403, url
    status, refused = _get(f"{base}/seat/{red[:-1]}/plan", {"castle": "Kii"})
    assert status == 403 and "no seat" in refused["refused"]
    # the shared page's data never holds a token or a hand
    _, shared = _get(base + "/state")
    assert not any(t in json.dumps(shared) for t in g.tokens.values())


def test_four_seats_plan_at_once_while_the_shared_page_follows(browser, phone_game) -> None:
    g = phone_game
    contexts = [browser.new_context(viewport={"width": 390, "height": 844})
                for _ in g.links]  # four phones
    board_ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    try:
        board = board_ctx.new_page()
        board.goto(g.board)
        board.wait_for_selector("#player-red")
        phones = {}
        for ctx, (player, url) in zip(contexts, g.links.items(), strict=True):
            pg = ctx.new_page()
            pg.set_default_timeout(15_000)
            pg.goto(url)
            pg.wait_for_selector("#space-castle option >> nth=1", state="attached")
            phones[player] = pg
        state = Journal.load(g.journal).state
        for player, pg in phones.items():
            assert player in pg.inner_text("#seat-player").lower()
            assert "plan in secret" in pg.inner_text("#status")
            _sees_its_board(pg, state, player)
            assert pg.evaluate(FITS_JS) == [], player  # 390 px: nothing cut off

        red = phones["red"]
        # each entry is checked as it is chosen, with the rule: the same card twice is refused
        first = red.eval_on_selector_all(
            "#space-castle option",
            "os => os.map(o => o.value).filter(v => v && !v.startsWith('chest'))")[0]
        red.select_option("#space-castle", first)
        red.select_option("#space-temple", first)
        red.wait_for_function("() => document.querySelector('.entry-error[data-space=temple]')"
                              ".textContent.includes('is planned twice')")
        refusal = red.inner_text(".entry-error[data-space=temple]")
        assert f"card {first} is planned" in refusal and "rule" not in refusal
        assert red.inner_text(".entry-error[data-space=castle]") == ""
        assert red.is_disabled("#send")
        red.select_option("#space-temple", "")
        red.wait_for_function("() => !document.querySelector('.entry-error[data-space=temple]')"
                              ".textContent")

        # a refreshed page gets its form back as it was
        red.select_option("#space-rice", "chest 4")
        red.wait_for_timeout(300)
        red.reload()
        red.wait_for_selector("#space-castle option >> nth=1", state="attached")
        assert red.input_value("#space-castle") == first
        assert red.input_value("#space-rice") == "chest 4"

        plans = {player: _fill_plan(pg) for player, pg in phones.items() if player != "purple"}
        # purple takes the suggestion: the strongest bot's plan, a whole legal plan at one tap
        purple = phones["purple"]
        suggested = purple.eval_on_selector_all("#suggestion li",
                                                "ls => ls.map(l => l.textContent)")
        assert len(suggested) == 11 and suggested[0].startswith("Castle: ")
        purple.click("#use-suggestion")
        plans["purple"] = purple.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('#spaces select')]"
            ".map(s => [s.name, s.value]))")
        for space, card in plans["purple"].items():
            label = purple.inner_text(f"#suggestion li[data-space={space}]")
            assert label.split(": ", 1)[1].startswith(card or "— empty —"), (space, label)
        for pg in phones.values():
            pg.wait_for_function("() => !document.getElementById('send').disabled")
        # the first three send; each is told who is still awaited, the board shows "planned"
        for player in ("black", "red", "yellow"):
            phones[player].click("#send")
            phones[player].wait_for_function(
                "() => document.body.dataset.status === 'sent'")
        for player in ("black", "red", "yellow"):
            phones[player].wait_for_function(
                "() => document.getElementById('status').textContent"
                ".includes('Waiting for purple')")
            assert phones[player].is_disabled("#space-castle")
            # said under the button too, where the eyes are once the plan is sent
            assert "Waiting for purple" in phones[player].inner_text("#send-hint")
        board.wait_for_function(
            "() => ['black','red','yellow'].every(p => document.querySelector("
            "`#player-${p} td.bid`).textContent === 'planned')")
        assert board.inner_text("#player-purple td.bid") == ""
        # the board shows who planned, never what: no plan's card sits in its text as a plan
        _, shared = _get(g.board + "state")
        assert "plans" not in shared and all(p.get("bid") is None for p in shared["players"])
        # a plan is sent once: a second send is refused
        status, again = _get(g.links["red"] + "/plan", {k: v for k, v in plans["red"].items()})
        assert status == 409 and "already in" in again["refused"]

        phones["purple"].click("#send")
        for pg in phones.values():
            pg.wait_for_function("() => document.getElementById('status').textContent"
                                 ".includes('All plans are in: the season goes on at the "
                                 "laptop')")
        g.wait_for("All plans are in (purple's was the last): the season goes on here.")
        board.wait_for_function("() => !document.getElementById('next').textContent"
                                ".includes('planning')")
        # the journal holds the four plans exactly as chosen on the phones
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            state = Journal.load(g.journal).state
            if len(state.plans) == 4 or state.phase != "plan":
                break
            time.sleep(0.1)
        journal = Journal.load(g.journal)
        sent = {c["player"]: c for c in journal.commands if c["type"] == "plan"}
        assert sorted(sent) == sorted(plans)
        for player, plan in plans.items():
            for space, card in plan.items():
                got = sent[player]["bid"] if space == "bid" else sent[player]["actions"][space]
                want = None if card == "" else (int(card[6:]) if card.startswith("chest") else card)
                assert got == want, (player, space)
        for player in plans:
            assert f"{player} has planned" in g.text()
    finally:
        for ctx in contexts:
            ctx.close()
        board_ctx.close()


def test_a_seat_in_a_court_game_plans_the_three_extra_spaces(browser, tmp_path) -> None:
    """Rule X1.4: with the court the seat's form has Convert 3/2/1 after the bid, offers the
    cube-tower cards, checks those spaces as chosen, and the plan sent includes them."""
    g = PhoneGame(tmp_path, "--players", "3", "--bots", "black,yellow", "--expansions", "court")
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        assert sorted(g.links) == ["red"]
        pg = ctx.new_page()
        pg.set_default_timeout(15_000)
        pg.goto(g.links["red"])
        pg.wait_for_selector("#space-convert1 option >> nth=1", state="attached")
        spaces = pg.eval_on_selector_all("#spaces select", "ss => ss.map(s => s.name)")
        assert spaces[-4:] == ["bid", "convert3", "convert2", "convert1"]
        assert pg.inner_text("label[for=space-convert3]") == "Convert 3"
        assert "3 tower cards" in pg.inner_text("#hand")
        options = pg.eval_on_selector_all("#space-convert2 option", "os => os.map(o => o.value)")
        assert "tower" in options
        provinces = [o for o in options if o and not o.startswith("chest") and o != "tower"]
        # the base spaces: the province cards but one, then chest cards; the bid chest 0
        cards = provinces[:-1] + ["chest 1", "chest 2", "chest 3", "chest 4"]
        plan = {space: cards.pop(0) if cards else "" for space in spaces[:10]}
        plan["bid"] = "chest 0"
        for space, card in plan.items():
            pg.select_option(f"#space-{space}", card)
        # a court space is checked as it is chosen: a province already planned is refused
        pg.select_option("#space-convert3", plan["castle"])
        pg.wait_for_function("() => document.querySelector('.entry-error[data-space=convert3]')"
                             ".textContent.includes('is planned twice')")
        assert f"card {plan['castle']} is planned" in pg.inner_text(
            ".entry-error[data-space=convert3]")
        assert pg.is_disabled("#send")
        extra = {"convert3": provinces[-1], "convert2": "tower", "convert1": "tower"}
        for space, card in extra.items():
            pg.select_option(f"#space-{space}", card)
        pg.wait_for_function("() => !document.getElementById('send').disabled")
        assert pg.inner_text(".entry-error[data-space=convert3]") == ""
        pg.click("#send")
        pg.wait_for_function("() => document.body.dataset.status === 'sent'")
        # the engine took the plan as sent, the court's spaces included
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and "red has planned" not in g.text():
            time.sleep(0.1)
        sent = [c for c in Journal.load(g.journal).commands
                if c["type"] == "plan" and c["player"] == "red"]
        assert len(sent) == 1, g.text()[-2000:]
        assert sent[0]["extra"] == extra
        assert sent[0]["bid"] == 0 and sent[0]["actions"]["castle"] == plan["castle"]
        assert "refused" not in g.text()
    finally:
        ctx.close()
        g.stop()


def _draft(url: str) -> dict:
    status, view = _get(url + "/state")
    assert status == 200, view
    return view["draft"]


def test_a_resume_keeps_the_address_the_links_and_the_form(browser, tmp_path) -> None:
    """The page's port and every seat's link are the same after a resume (even when the first
    port asked for was busy); an open page says the game does not answer meanwhile and comes
    back by itself with its form; a page opened after the laptop forgot the form gets it back
    from the phone's storage; a link whose key is gone says what to do."""
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    wanted = busy.getsockname()[1]
    table = ("--players", "3", "--bots", "black,yellow")
    first = PhoneGame(tmp_path, *table, port=wanted)
    journal = first.journal
    phone = browser.new_context(viewport={"width": 390, "height": 844})  # one phone throughout
    games = [first]
    try:
        assert f"port {wanted} is busy" in first.text() and f":{wanted}/" not in first.board
        red = first.links["red"]
        page = phone.new_page()
        page.set_default_timeout(20_000)
        page.goto(red)
        page.wait_for_selector("#space-castle option >> nth=1", state="attached")
        province = page.eval_on_selector_all(
            "#space-castle option", "os => os.map(o => o.value).filter(v => v && "
            "!v.startsWith('chest'))")[0]
        page.select_option("#space-castle", province)
        page.select_option("#space-rice", "chest 3")
        page.wait_for_function("() => document.getElementById('send-hint').textContent")
        time.sleep(0.5)
        assert _draft(red) == {"castle": province, "rice": "chest 3"}

        first.stop()  # the laptop stops: the open page says so and keeps its form
        page.wait_for_selector("#offline", state="visible")
        assert "does not answer" in page.inner_text("#offline")
        assert page.input_value("#space-castle") == province
        assert page.evaluate(FITS_JS) == []

        second = PhoneGame(tmp_path, "--resume", str(journal), tray="")
        games.append(second)
        assert second.board == first.board  # the same address, though 8765... was busy
        assert second.links == first.links  # the same links
        page.wait_for_selector("#offline", state="hidden")
        assert page.input_value("#space-castle") == province
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _draft(red) != {"castle": province,
                                                               "rice": "chest 3"}:
            time.sleep(0.1)
        assert _draft(red) == {"castle": province, "rice": "chest 3"}  # given back to it
        page.close()

        second.stop()
        third = PhoneGame(tmp_path, "--resume", str(journal), tray="")
        games.append(third)
        assert _draft(red) == {}  # the laptop forgot the form; the phone did not
        page = phone.new_page()
        page.set_default_timeout(20_000)
        page.goto(red)
        page.wait_for_selector("#restored", state="visible")
        assert page.input_value("#space-castle") == province
        assert page.input_value("#space-rice") == "chest 3"
        page.wait_for_function("() => document.querySelector('#space-castle').value !== ''")
        time.sleep(0.5)
        assert _draft(red) == {"castle": province, "rice": "chest 3"}

        third.stop()
        journal.with_name(journal.name + ".seats-key").unlink()  # every link is revoked
        fourth = PhoneGame(tmp_path, "--resume", str(journal), tray="")
        games.append(fourth)
        assert "every seat has a new link" in fourth.text()
        assert fourth.links["red"] != red
        page.wait_for_function("() => document.body.dataset.status === 'forbidden'")
        assert page.inner_text("#status") == "This link no longer opens red's seat."
        assert "type phone red" in page.inner_text("#gone")
        assert page.is_hidden("#plan") and page.evaluate(FITS_JS) == []
        # the old link opened afresh: the seat page's own look, saying what to do
        stale = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        response = stale.goto(red)
        assert response.status == 403
        assert stale.inner_text("#status") == "This link opens no seat at this table."
        assert "phone red" in stale.inner_text("#gone")
        assert stale.evaluate("getComputedStyle(document.querySelector('header'))"
                              ".backgroundColor") == "rgb(43, 43, 43)"
        assert stale.evaluate(FITS_JS) == []
        stale.context.close()
    finally:
        phone.close()
        for g in games:
            g.stop()
        busy.close()
