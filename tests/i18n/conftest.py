"""The browser fixtures of tests/web, shared (one Chromium per session), and the language a
test speaks."""

import pytest
from web.conftest import board, browser, page  # noqa: F401

from shogun_tower import i18n


@pytest.fixture
def speak():
    """Switch the process's language as the test goes; English again after it."""
    yield i18n.use
    i18n.use("en")


@pytest.fixture
def speaking(request):
    """The process speaks the test's language (``indirect`` parameter): the page server
    localises every page in it and the views are built in it."""
    i18n.use(request.param)
    yield request.param
    i18n.use("en")
