"""hardware/collar.scad renders to a closed, non-empty STL of the size its parameters say."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from hardware_helpers import HARDWARE, HINT, load

Vertex = tuple[str, str, str]
Triangle = tuple[Vertex, Vertex, Vertex]


def read_ascii_stl(text: str) -> list[Triangle]:
    """Triangles of an ASCII STL; vertices kept as the exact strings OpenSCAD wrote, so shared
    vertices compare equal without any tolerance."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip()]
    if not lines or lines[0][0] != "solid":
        raise ValueError("not an ASCII STL")
    tris: list[Triangle] = []
    loop: list[Vertex] = []
    for parts in lines[1:]:
        if parts[0] == "vertex":
            if len(parts) != 4:
                raise ValueError(f"bad vertex line: {parts}")
            loop.append((parts[1], parts[2], parts[3]))
        elif parts[0] == "endloop":
            if len(loop) != 3:
                raise ValueError(f"facet with {len(loop)} vertices")
            tris.append((loop[0], loop[1], loop[2]))
            loop = []
    return tris


def closedness_problems(tris: list[Triangle]) -> list[str]:
    """A closed surface: every edge is shared by exactly two triangles, which run it in
    opposite directions (consistent orientation), and no triangle is degenerate."""
    problems: list[str] = []
    undirected: Counter[frozenset[Vertex]] = Counter()
    directed: Counter[tuple[Vertex, Vertex]] = Counter()
    for a, b, c in tris:
        if len({a, b, c}) < 3:
            problems.append(f"degenerate triangle {a} {b} {c}")
            continue
        for u, v in ((a, b), (b, c), (c, a)):
            undirected[frozenset((u, v))] += 1
            directed[(u, v)] += 1
    for edge, n in undirected.items():
        if n != 2:
            problems.append(f"edge {sorted(edge)} is shared by {n} triangles")
    for (u, v), n in directed.items():
        if n != 1 or directed.get((v, u), 0) != 1:
            problems.append(f"edge {u}->{v} is not matched by one opposite edge")
    return problems[:20]


def test_closedness_checker_on_small_shapes() -> None:
    p = ("0", "0", "0"), ("1", "0", "0"), ("0", "1", "0"), ("0", "0", "1")
    o, x, y, z = p
    tetra = [(o, y, x), (o, x, z), (o, z, y), (x, y, z)]
    assert closedness_problems(tetra) == []
    assert closedness_problems(tetra[:3])  # one face missing: open
    flipped = [(o, x, y), *tetra[1:]]
    assert closedness_problems(flipped)  # inconsistent orientation


@pytest.fixture(scope="module")
def stl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    openscad = shutil.which("openscad")
    if openscad is None:
        pytest.fail(f"openscad is not installed: {HINT}")
    out = tmp_path_factory.mktemp("collar") / "collar.stl"
    run = subprocess.run(
        [openscad, "--export-format", "asciistl", "-o", str(out), str(HARDWARE / "collar.scad")],
        capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return out


def test_collar_stl_is_produced_and_not_empty(stl: Path) -> None:
    assert stl.stat().st_size > 0
    tris = read_ascii_stl(stl.read_text())
    assert len(tris) > 100


def test_collar_stl_is_closed(stl: Path) -> None:
    assert closedness_problems(read_ascii_stl(stl.read_text())) == []


def test_collar_size_follows_its_parameters(stl: Path) -> None:
    p = load("design").scad_params(HARDWARE / "collar.scad")
    pts = [tuple(float(c) for c in v) for t in read_ascii_stl(stl.read_text()) for v in t]
    xs, ys, zs = zip(*pts, strict=True)
    assert max(xs) - min(xs) == pytest.approx(p["outlet_width"] + 2 * p["flange_margin"])
    assert max(zs) == pytest.approx(0, abs=1e-6)  # the outlet lip
    assert min(zs) == pytest.approx(-p["chute_bottom_drop"])
    assert max(ys) - min(ys) == pytest.approx(p["outlet_depth"] + 2 * p["flange_margin"])
