"""The board-page fixtures of tests/web (Debian's Chromium through Playwright), for the odds on
the page: one sync Playwright a process, whichever test folder starts it first."""

from web.conftest import browser, page  # noqa: F401
