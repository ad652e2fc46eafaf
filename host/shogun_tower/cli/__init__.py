"""`shogun-tower` command line: discovers the subcommands in :mod:`shogun_tower.cli.commands`."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from shogun_tower import __version__
from shogun_tower.cli import commands
from shogun_tower.cli.arguments import OneLineParser
from shogun_tower.errors import ShogunError


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="shogun-tower",
        description="Electronic battle tower and table-side console for Shogun.",
    )
    parser.add_argument("--version", action="version", version=f"shogun-tower {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except ShogunError as err:
        print(f"shogun-tower {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"shogun-tower {args.command}: interrupted", file=sys.stderr)
        return 130

