"""The game's data files: where the packaged ones are, and reading one a player gives (a map,
an expansion's corrected data) — the core's only reading of files, done when a game is
created, never during play."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable

from shogun_tower.i18n import _

DATA_DIR = pathlib.Path(__file__).resolve().parents[2] / "data"


def packaged(name: str) -> dict:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


def json_file(path: pathlib.Path, fail: Callable[[str], Exception], label: str) -> object:
    """The parsed content of ``path``; ``fail(message)`` is raised, naming ``label``, when it is
    not JSON text."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise fail(_("{label}: not valid JSON ({err}); fix the file").format(
            label=label, err=err)) from None
