"""`play --phones`: four people plan in secret on four phones at once, in Chromium.

The game runs as a real `shogun-tower play` process (the tray typed, four people, no bot), on
127.0.0.1 only (`--phones --host 127.0.0.1`). Each seat's link is read from what the terminal
printed, as a player would scan it; the pages are real Chromium pages driven by Playwright.
"""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from shogun_tower.games.shogun.journal import Journal

CLI = [sys.executable, "-m", "shogun_tower.cli", "play"]
LINK = re.compile(r"^(black|red|yellow|purple|blue): (http://127\.0\.0\.1:\d+/seat/(\S+))$", re.M)


class PhoneGame:
    def __init__(self, tmp: pathlib.Path, *table: str) -> None:
        self.journal = tmp / "phones.jsonl"
        self.out = tmp / "terminal.txt"
        self.proc = subprocess.Popen(
            [*CLI, "--phones", "--host", "127.0.0.1", "--page-port", "0",
             *(table or ("--players", "4")),
             "--seed", "3", "--journal", str(self.journal), "--no-clear", "--tower", "manual"],
            stdin=subprocess.PIPE, stdout=self.out.open("w"), stderr=subprocess.STDOUT,
            text=True)
        self.proc.stdin.write("red 2, farmers 1\n")  # the set-up throw's tray, typed
        self.proc.stdin.flush()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and "waiting for" not in self.text():
            assert self.proc.poll() is None, self.text()
            time.sleep(0.1)
        text = self.text()
        assert "Secret planning on the phones (rule T3): waiting for" in text, text
        self.links = {m.group(1): m.group(2) for m in LINK.finditer(text)}
        self.tokens = {m.group(1): m.group(3) for m in LINK.finditer(text)}
        self.board = re.search(r"the board page: (http://\S+/)", text).group(1)

    def text(self) -> str:
        return self.out.read_text() if self.out.exists() else ""

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
    assert "▀" in g.text() or "▄" in g.text(), "each link is also shown as a QR code"
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
    status, _ = _get(f"{base}/seat/{red[:-1]}/plan", {"castle": "Kii"})
    assert status == 403
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
        for player, pg in phones.items():
            assert player in pg.inner_text("#seat-player").lower()
            assert "plan in secret" in pg.inner_text("#status")

        red = phones["red"]
        # each entry is checked as it is chosen, with the rule: the same card twice is refused
        first = red.eval_on_selector_all(
            "#space-castle option",
            "os => os.map(o => o.value).filter(v => v && !v.startsWith('chest'))")[0]
        red.select_option("#space-castle", first)
        red.select_option("#space-temple", first)
        red.wait_for_function("() => document.querySelector('.entry-error[data-space=temple]')"
                              ".textContent.includes('rule T3')")
        assert f"card {first} is planned" in red.inner_text(".entry-error[data-space=temple]")
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

        plans = {player: _fill_plan(pg) for player, pg in phones.items()}
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
                                 ".includes('All plans are in')")
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
                             ".textContent.includes('rule T3')")
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
