"""Which unix port runs the simulated tower (SHOGUN_MICROPYTHON) and its native code."""

from __future__ import annotations

import pathlib
import platform

import pytest

from shogun_tower.device.micropython_port import (
    MICROPYTHON_ENV,
    micropython_executable,
    native_arch,
)
from shogun_tower.device.romfs import launch_command
from shogun_tower.errors import ShogunError


def test_the_installed_port_runs_this_machines_native_code() -> None:
    expected = {"x86_64": "x64", "i686": "x86"}.get(platform.machine())
    arch = native_arch()
    assert arch == expected if expected else arch, arch


def test_a_port_named_by_the_environment_is_used(
        monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    other = tmp_path / "other-micropython"
    other.symlink_to(micropython_executable())
    monkeypatch.setenv(MICROPYTHON_ENV, str(other))
    assert micropython_executable() == str(other)
    assert native_arch() == native_arch(str(other))


def test_a_port_that_is_not_there_is_refused_in_one_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    missing = tmp_path / "micropython"
    monkeypatch.setenv(MICROPYTHON_ENV, str(missing))
    with pytest.raises(ShogunError) as err:
        micropython_executable()
    said = str(err.value)
    assert "\n" not in said and MICROPYTHON_ENV in said and str(missing) in said
    assert "unset it" in said


def test_another_port_maps_a_romfs_image_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    image, mapper = pathlib.Path("fw.romfs"), pathlib.Path("firmware/sim_rom.py")
    monkeypatch.delenv(MICROPYTHON_ENV, raising=False)
    inside = launch_command(image, ["-X", "heapsize=64K", "main.py", "--seed", "1"], mapper)
    assert inside[1:4] == ["-m", "shogun_tower.device.romfs", "fw.romfs"]  # in this CPython
    port = micropython_executable()
    monkeypatch.setenv(MICROPYTHON_ENV, port)
    own = launch_command(image, ["-X", "heapsize=64K", "main.py", "--seed", "1"], mapper)
    assert own == [port, "-X", "heapsize=64K", str(mapper), "fw.romfs", "main.py", "--seed", "1"]
