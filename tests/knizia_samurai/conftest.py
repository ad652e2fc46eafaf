"""The board-page fixtures of tests/web (Debian's Chromium through Playwright), for the Samurai
page's tests."""

from web.conftest import browser, page  # noqa: F401
