"""`shogun-tower` command line: discovers the subcommands in :mod:`shogun_tower.cli.commands`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from shogun_tower import __version__, i18n
from shogun_tower.cli import commands
from shogun_tower.cli.arguments import OneLineParser
from shogun_tower.errors import ShogunError
from shogun_tower.i18n import _


def _add_lang(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("--lang", choices=i18n.LANGUAGES, default=default,
                        help=_("the language of everything shown: en, fr or ja (default: the "
                               "system locale's)"))


def _lang_in(argv: list[str]) -> str | None:
    """``--lang`` read before the parser is built, so that its help speaks the language too
    (a wrong value is refused later by the parser itself)."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.partition("=")[2]
        else:
            continue
        return value if value in i18n.LANGUAGES else None
    return None


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="shogun-tower",
        description=_("Electronic battle tower and table-side console for Shogun."),
    )
    parser.add_argument("--version", action="version", version=f"shogun-tower {__version__}")
    _add_lang(parser, None)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    # every subcommand (and each of its own subcommands) takes --lang, before or after it;
    # SUPPRESS keeps a --lang given before the subcommand
    seen: set[int] = set()
    todo = list(subparsers.choices.values())
    while todo:
        sub = todo.pop()
        if id(sub) in seen:  # an alias is the same parser
            continue
        seen.add(id(sub))
        _add_lang(sub, argparse.SUPPRESS)
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo.extend(action.choices.values())
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    i18n.use(_lang_in(argv))
    parser = build_parser()
    args = parser.parse_args(argv)
    i18n.use(args.lang)
    try:
        return int(args.handler(args) or 0)
    except ShogunError as err:
        print(_("shogun-tower {command}: error: {error}").format(command=args.command, error=err),
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(_("shogun-tower {command}: interrupted").format(command=args.command),
              file=sys.stderr)
        return 130

