"""Draw the import graph of the host package and find its cycles.

Reads every module of ``host/shogun_tower`` with ``ast`` (nothing is imported or run), counts
the imports at module level, those inside functions and those under ``TYPE_CHECKING``, and
prints the package-level graph (one line per package: what it imports) and every cycle
(strongly connected component) among modules. ``--dot FILE`` writes the package graph for
Graphviz. Exit status 1 if there is a cycle.

    .venv/bin/python bench/import_graph.py [--dot build/imports.dot]
"""

from __future__ import annotations

import argparse
import ast
import collections
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1] / "host" / "shogun_tower"


def modules(root: pathlib.Path = ROOT) -> dict[str, tuple[pathlib.Path, bool]]:
    out = {}
    for f in sorted(root.rglob("*.py")):
        parts = list(f.relative_to(root.parent).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        out[".".join(parts)] = (f, is_pkg)
    return out


def imports(root: pathlib.Path = ROOT) -> dict[str, dict[str, list[str]]]:
    """{module: {"top": [...], "function": [...], "typing": [...]}} within the package."""
    mods = modules(root)
    out: dict[str, dict[str, list[str]]] = {}
    for name, (path, is_pkg) in mods.items():
        found: dict[str, list[str]] = {"top": [], "function": [], "typing": []}

        def target(node: ast.AST, name: str = name, is_pkg: bool = is_pkg) -> list[str]:
            if isinstance(node, ast.Import):
                cands = [a.name for a in node.names]
            else:
                assert isinstance(node, ast.ImportFrom)
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                if node.level:
                    base = base[:len(base) - (node.level - 1)]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                cands = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in mods else prefix
                         for a in node.names]
            res = []
            for c in cands:
                while c not in mods and "." in c:
                    c = c.rsplit(".", 1)[0]
                if c in mods and c != name:
                    res.append(c)
            return res

        def walk(node: ast.AST, where: str, found: dict[str, list[str]] = found) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    found[where] += target(child)
                elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    walk(child, "function" if where == "top" else where)
                elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                    walk(child, "typing")
                else:
                    walk(child, where)

        walk(ast.parse(path.read_text(encoding="utf-8")), "top")
        out[name] = found
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    sys.setrecursionlimit(10_000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def package_of(module: str, packages: set[str]) -> str:
    """The package a module lives in (a package is its own)."""
    return module if module in packages else module.rsplit(".", 1)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dot", help="write the package graph for Graphviz to this file")
    args = parser.parse_args(argv)
    found = imports()
    graph = {m: set(f["top"]) | set(f["function"]) | set(f["typing"]) for m, f in found.items()}
    counts = {k: sum(len(f[k]) for f in found.values()) for k in ("top", "function", "typing")}
    print(f"{len(found)} modules; imports: {counts['top']} at module level, "
          f"{counts['function']} inside functions, {counts['typing']} for type checking only")
    is_pkg = {m for m, (_, pkg) in modules().items() if pkg}
    packages: dict[str, set[str]] = collections.defaultdict(set)
    for m, targets in graph.items():
        for t in targets:
            a, b = package_of(m, is_pkg), package_of(t, is_pkg)
            if a != b:
                packages[a].add(b)
    short = len("shogun_tower.")
    for p in sorted(set(packages) | {package_of(m, is_pkg) for m in graph}):
        print(f"  {p[short:] or '(top)'} -> "
              f"{', '.join(b[short:] or '(top)' for b in sorted(packages.get(p, ()))) or '-'}")
    if args.dot:
        lines = ["digraph imports {", "  rankdir=BT; node [shape=box, fontsize=10];"]
        lines += [f'  "{a}" -> "{b}";' for a in sorted(packages) for b in sorted(packages[a])]
        pathlib.Path(args.dot).parent.mkdir(parents=True, exist_ok=True)
        pathlib.Path(args.dot).write_text("\n".join(lines + ["}"]) + "\n", encoding="utf-8")
        print(f"wrote {args.dot}")
    found_cycles = cycles(graph)
    for c in found_cycles:
        print(f"cycle of {len(c)} modules: {', '.join(c)}")
    for c in cycles(packages):  # a package's modules may use each other both ways
        print(f"packages that import each other (no module cycle): {', '.join(c)}")
    if not found_cycles:
        print("no import cycle between modules")
    return 1 if found_cycles else 0


if __name__ == "__main__":
    sys.exit(main())
