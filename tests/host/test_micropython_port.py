"""What native code the installed unix port runs (`make deploy PORT=<sim> MPY_ARCH=host`
compiles the firmware's native code for it)."""

from __future__ import annotations

import platform

from shogun_tower.device.micropython_port import native_arch


def test_the_installed_port_runs_this_machines_native_code() -> None:
    expected = {"x86_64": "x64", "i686": "x86"}.get(platform.machine())
    arch = native_arch()
    assert arch == expected if expected else arch, arch
