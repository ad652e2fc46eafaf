"""The simulated board's colour optics (the generated block in boards/sim.py) are what
hardware/optics.py gives for hardware/geometry.json today."""

from __future__ import annotations

import subprocess
import sys

from shogun_tower.sim_device import repo_root

ROOT = repo_root()


def test_the_optics_table_is_current() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "firmware" / "gen_sim_optics.py"),
                           "--check"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr + "\nrun: python firmware/gen_sim_optics.py --write"
