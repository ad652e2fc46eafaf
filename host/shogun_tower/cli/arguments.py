"""Argument types the subcommands share: a bad value is a one-line error, never a traceback."""

from __future__ import annotations

import argparse


def count(text: str) -> int:
    """A number of things on the table: a whole number, 0 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n}: give 0 or more")
    return n


class OneLineParser(argparse.ArgumentParser):
    """argparse's errors in one line (which command, what was wrong, where to look), instead
    of the whole usage text above the error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


EXAMPLES = "examples:"


def examples(*commands: str) -> str:
    """A --help epilog of whole commands, one a line (tests/host/test_help_examples.py runs
    every one of them)."""
    return EXAMPLES + "\n" + "\n".join(f"  {command}" for command in commands)


class ExamplesFormatter(argparse.HelpFormatter):
    """The description wrapped to the terminal, the examples kept one command a line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith(EXAMPLES):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)
