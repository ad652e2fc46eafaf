"""The browser fixtures of tests/web, shared (one Chromium per session)."""

from web.conftest import board, browser, page  # noqa: F401
