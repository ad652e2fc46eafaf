"""`make hardware` runs every hardware check and fails on a stale generated constant. The run
is on a copy of the repo in a temporary directory (the repo's own files are never edited),
with the repo's virtualenv."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hardware_helpers import HARDWARE, ROOT

VENV = ROOT / ".venv"


def _copy(tmp: Path) -> Path:
    root = tmp / "repo"
    root.mkdir()
    for name in ("Makefile", "pyproject.toml", "requirements-dev.txt"):
        shutil.copy2(ROOT / name, root / name)
        os.utime(root / name, (0, 0))  # older than the virtualenv's stamp: no reinstall
    shutil.copytree(HARDWARE, root / "hardware", copy_function=shutil.copy2,
                    ignore=shutil.ignore_patterns("build"))
    shutil.copytree(ROOT / "firmware" / "shogun_fw", root / "firmware" / "shogun_fw",
                    copy_function=shutil.copy2, ignore=shutil.ignore_patterns("__pycache__"))
    return root


@pytest.mark.skipif(not (VENV / ".installed").exists(), reason="no virtualenv: make setup")
def test_make_hardware_fails_on_a_stale_generated_constant(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    detector = root / "firmware" / "shogun_fw" / "detector.py"
    text = detector.read_text()
    m = re.search(r"^_TC_MAX_US = const\((\d+)\)$", text, re.M)
    assert m, "the detector's generated block has no _TC_MAX_US"
    stale = text.replace(m.group(0), f"_TC_MAX_US = const({int(m.group(1)) - 1})")
    detector.write_text(stale)
    out = subprocess.run(["make", "-s", "hardware", f"VENV={VENV}"], cwd=root,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode != 0
    assert ("firmware/shogun_fw/detector.py: its geometry block is stale" in out.stderr)
    assert "| the detector's timing | firmware/shogun_fw/detector.py | 27 | STALE" in out.stdout
    # nothing was rendered before it failed, and the repo's own file is as it was
    assert not (root / "hardware" / "build").exists()
    assert m.group(0) in (ROOT / "firmware" / "shogun_fw" / "detector.py").read_text()


def test_the_hardware_check_runs_every_check() -> None:
    # (a check left out of `make hardware` is a check nobody runs)
    recipe = (HARDWARE / "Makefile").read_text()
    for script in ("geometry.py --check", "collar.py --check", "design.py --check",
                   "jamcheck.py", "optics.py", "flow.py", "printcheck.py", "parts.py",
                   "pinmap.py", "power.py"):
        assert f"$(BIN)/python {script}" in recipe, script
