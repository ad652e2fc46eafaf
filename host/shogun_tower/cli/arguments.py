"""Argument types the subcommands share: a bad value is a one-line error, never a traceback."""

from __future__ import annotations

import argparse
import re

from shogun_tower.i18n import N_, _


def count(text: str) -> int:
    """A number of things on the table: a whole number, 0 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{text!r} is not a whole number").format(text=text)) from None
    if n < 0:
        raise argparse.ArgumentTypeError(_("{n}: give 0 or more").format(n=n))
    return n


# argparse's own refusals (its English, as Python 3.10-3.13 words them), said again in the
# players' language: argparse itself is left as it is (its "usage:" and "options:" stay English)
_ARGPARSE_REFUSALS = tuple((re.compile(pattern), message) for pattern, message in (
    (r"argument (?P<name>.+?): invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)$",
     N_("argument {name}: invalid choice: {value} (choose from {choices})")),
    (r"argument (?P<name>.+?): invalid (?:int|float) value: (?P<value>.+)$",
     N_("argument {name}: {value} is not a number")),
    (r"argument (?P<name>.+?): expected one argument$",
     N_("argument {name}: give it a value")),
    (r"argument (?P<name>.+?): not allowed with argument (?P<other>.+)$",
     N_("argument {name}: not allowed with argument {other}")),
    (r"argument (?P<name>.+?): ignored explicit argument (?P<value>.+)$",
     N_("argument {name}: takes no value, {value} given")),
    (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)$",
     N_("ambiguous option: {option} could be {matches}")),
    (r"the following arguments are required: (?P<names>.+)$",
     N_("the following arguments are required: {names}")),
    (r"unrecognized arguments: (?P<names>.+)$", N_("unrecognized arguments: {names}")),
    # an argument type's own refusal (count() above), already in the players' language
    (r"argument (?P<name>.+?): (?P<message>.+)$", N_("argument {name}: {message}")),
))


def refusal_words(message: str) -> str:
    """argparse's refusal ``message`` in the players' language (one it does not know, as it
    is)."""
    for pattern, words in _ARGPARSE_REFUSALS:
        match = pattern.match(message)
        if match:
            return _(words).format(**match.groupdict())
    return message


class OneLineParser(argparse.ArgumentParser):
    """argparse's errors in one line (which command, what was wrong, where to look), instead
    of the whole usage text above the error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, _("{prog}: error: {message} (see {prog} --help)").format(
            prog=self.prog, message=refusal_words(message)) + "\n")


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
