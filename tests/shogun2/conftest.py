"""The board-page tests use the same Chromium fixtures as tests/web (Debian's chromium through
Playwright, a JavaScript error fails the test)."""

from web.conftest import browser, page  # noqa: F401 - fixtures, re-exported for tests/shogun2
