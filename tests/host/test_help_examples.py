"""Every example a --help text shows works: the examples of `referee <situation>`,
`replay`, `repl` and `romfs` are run as shown, in a scratch folder, the serial port of the
examples being a simulated tower's. Each option's own "e.g." appears in one of them, and each
of these commands describes itself and states its options' defaults."""

from __future__ import annotations

import argparse
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

import pytest

from shogun_tower.cli import build_parser
from shogun_tower.cli.arguments import EXAMPLES
from shogun_tower.sim_device import SimulatedTower

ROOT = pathlib.Path(__file__).parents[2]
BIN = pathlib.Path(sys.executable).parent
JOURNAL = ROOT / "tests" / "rules" / "fixtures" / "v1_bots_4p_fixed.jsonl"
EXAMPLE_PORT = "/dev/ttyUSB0"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _owned() -> dict[str, argparse.ArgumentParser]:
    top = _subcommands(build_parser())
    owned = {name: top[name] for name in ("replay", "repl", "romfs", "sim")}
    for situation, parser in _subcommands(top["referee"]).items():
        owned[f"referee {situation}"] = parser
    return owned


PARSERS = _owned()
# The commands whose help shows examples, each run below: named here, so a command whose
# examples went missing fails instead of dropping out unseen (`sim` shows none).
WITH_EXAMPLES = sorted(set(PARSERS) - {"sim"})


def _examples(parser: argparse.ArgumentParser) -> list[str]:
    help_text = parser.format_help()
    if EXAMPLES not in help_text:
        return []
    block = help_text.split(EXAMPLES, 1)[1]
    return [line.strip() for line in block.splitlines() if line.startswith("  ")]


def test_every_command_here_shows_examples() -> None:
    assert not [name for name in WITH_EXAMPLES if not _examples(PARSERS[name])]
    assert len(WITH_EXAMPLES) >= 7, WITH_EXAMPLES


def test_referee_situations_are_all_here() -> None:
    assert {"referee battle", "referee revolt", "referee winter", "referee score"} <= set(PARSERS)


@pytest.mark.parametrize("name", sorted(PARSERS))
def test_help_describes_the_command_and_every_default(name: str) -> None:
    parser = PARSERS[name]
    assert parser.description and len(parser.description) > 80, name
    for action in parser._actions:
        if action.option_strings and action.dest != "help" and not action.required \
                and not isinstance(action, argparse._StoreTrueAction):
            assert "default" in (action.help or ""), (name, action.option_strings)
    assert "green" not in parser.format_help(), f"{name}: farmers are farmers"


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_every_option_example_is_in_a_whole_example(name: str) -> None:
    shown = " ".join(_examples(PARSERS[name]))
    assert shown, f"{name} shows no example"
    for action in PARSERS[name]._actions:
        for example in re.findall(r"e\.g\. ([^\s,)]+(?:,[^\s,)]+)*)", action.help or ""):
            assert example in shown, (name, action.option_strings, example)


def _run(command: str, cwd: pathlib.Path, port: str) -> subprocess.CompletedProcess[str]:
    argv = [port if a == EXAMPLE_PORT else a for a in shlex.split(command)]
    if argv[0] == "shogun-tower":
        argv = [sys.executable, "-m", "shogun_tower.cli", *argv[1:]]
    else:
        assert argv[0] == "mpremote", command
        argv[0] = str(BIN / "mpremote")
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_every_example_in_the_help_works(name: str, tmp_path: pathlib.Path) -> None:
    shutil.copy(JOURNAL, tmp_path / "game.jsonl")
    commands = _examples(PARSERS[name])
    assert commands, f"{name} shows no example to run"
    with SimulatedTower(seed=2) as sim:
        for command in commands:
            proc = _run(command, tmp_path, sim.port)
            assert proc.returncode == 0, (command, proc.stdout, proc.stderr)
            assert "error" not in proc.stderr.lower(), (command, proc.stderr)
