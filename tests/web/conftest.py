"""Browser fixtures for the board-page tests: Debian's Chromium driven by Playwright.

The browser starts once per session (a new context per test is cheap). No browser is ever
downloaded: Playwright launches the system's /usr/bin/chromium, which `make test` installs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from shogun_tower.web.server import BoardServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking"]


# One Playwright and one Chromium for the whole session, shared by every test folder that
# re-exports these fixtures (tests/samurai, tests/shogun2, tests/odds): each folder's session
# fixture is a fixture of its own, and a second sync Playwright cannot start while the first
# runs.
_SHARED: dict = {}


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package (`make test` "
                    f"does) to run the board-page browser tests")
    if not _SHARED:
        from playwright.sync_api import sync_playwright

        pw = sync_playwright().start()
        _SHARED.update(pw=pw, users=0, browser=pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS))
    _SHARED["users"] += 1
    yield _SHARED["browser"]
    _SHARED["users"] -= 1
    if not _SHARED["users"]:
        _SHARED["browser"].close()
        _SHARED["pw"].stop()
        _SHARED.clear()


@pytest.fixture
def page(browser) -> Iterator[object]:
    """A fresh page; any JavaScript error on it fails the test."""
    context = browser.new_context(viewport={"width": 1500, "height": 1000})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda err: errors.append(str(err)))
    pg.set_default_timeout(10_000)
    yield pg
    context.close()
    assert not errors, f"the page raised JavaScript errors: {errors}"


@pytest.fixture
def board() -> Iterator[BoardServer]:
    """A board server on a free port of 127.0.0.1."""
    server = BoardServer(port=0).start()
    yield server
    server.stop()
