"""A short seeded slice of bench/bench_colour.py (make bench runs 10,000 cubes): the classifier
on the colour window's optical model, every colour, black and purple included."""

from __future__ import annotations

import importlib.util

from shogun_common.colours import CUBE_COLOURS
from shogun_tower.sim_device import repo_root


def _bench():
    spec = importlib.util.spec_from_file_location(
        "bench_colour", repo_root() / "bench" / "bench_colour.py")
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def test_every_colour_is_told_and_hardly_any_taken_for_another() -> None:
    rows = _bench().run(1800, 7)["colours"]
    for colour, (n, right, wrong, unknown) in zip(CUBE_COLOURS, rows, strict=True):
        assert n == right + wrong + unknown == 300
        assert wrong <= 3, (colour, rows)  # 1 %
        # black is dim at every pose: told at its dimmest and brightest poses, unknown between
        # (never purple nor yellow); the rest nearly always
        assert right >= (0.3 if colour == "black" else 0.9) * n, (colour, rows)
