"""The one exception type a user ever sees: a clear one-line message saying what and what to do."""


class ShogunError(Exception):
    """A user-facing error. ``str(err)`` is one line: what was wrong and what to do."""
