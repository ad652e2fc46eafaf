"""The rules engine's layers, read from the source with ``ast`` (bench/import_graph.py): the
core imports only the core, the phases and the expansions only the core, the engine only those;
none of them imports inside a function or for type checking only, none does I/O; and no module
of the host imports itself back through others."""

from __future__ import annotations

import ast
import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("import_graph", ROOT / "bench" / "import_graph.py")
import_graph = importlib.util.module_from_spec(SPEC)  # type: ignore[arg-type]
SPEC.loader.exec_module(import_graph)  # type: ignore[union-attr]

P = "shogun_tower.games.shogun."
CORE, PHASES, ENGINE = P + "rules.core", P + "rules.phases", P + "rules.engine"
EXPANSIONS = P + "rules.expansions"
# the words players read: errors, the display vocabulary and the translations (i18n: every
# module that says something to players goes through it)
SHARED = ("shogun_tower.errors", "shogun_tower.words", "shogun_tower.i18n")
# Each layer and what it may import from the host (besides itself and SHARED).
LAYERS = {
    CORE: (CORE,),
    PHASES: (CORE,),
    EXPANSIONS + ".": (CORE,),  # an expansion's module
    EXPANSIONS: (CORE, EXPANSIONS + "."),  # the catalogue of expansions
    ENGINE: (CORE, PHASES, EXPANSIONS),
    P + "rules": (CORE, ENGINE),  # the package's front: Game, State, errors
}
# I/O and the clock stay out of the engine; the core reads the packaged map and data files
# (a game names "sun" or a file) when a game is created, in these modules only.
NO_IO = {"os", "io", "socket", "subprocess", "time", "datetime", "random", "threading",
         "serial", "pathlib"}
READS_DATA_FILES = {CORE + ".files", CORE + ".map", CORE + ".data"}


@pytest.fixture(scope="module")
def imports() -> dict[str, dict[str, list[str]]]:
    return import_graph.imports()


def layer_of(module: str) -> str | None:
    if module == EXPANSIONS:
        return EXPANSIONS
    for layer in sorted(LAYERS, key=len, reverse=True):
        if layer != EXPANSIONS and (module == layer or module.startswith(layer + ".")
                                    or (layer.endswith(".") and module.startswith(layer))):
            return layer
    return None


def test_every_module_of_the_rules_has_a_layer(imports):
    rules = [m for m in imports if m.startswith((P + "rules", EXPANSIONS))]
    assert len(rules) >= 20, rules
    assert all(layer_of(m) for m in rules), [m for m in rules if not layer_of(m)]


def test_each_layer_imports_only_the_layers_below(imports):
    broken = []
    for module, found in imports.items():
        layer = layer_of(module)
        if layer is None:
            continue
        allowed = (layer, *LAYERS[layer], *SHARED)
        for target in found["top"]:
            if not any(target == a or target.startswith(a if a.endswith(".") else a + ".")
                       for a in allowed):
                broken.append(f"{module} imports {target}")
    assert not broken, "\n".join(broken)


def test_no_import_inside_a_function_or_for_type_checking_in_the_rules(imports):
    hidden = [f"{m}: {found['function'] + found['typing']}" for m, found in imports.items()
              if layer_of(m) and (found["function"] or found["typing"])]
    assert not hidden, hidden


def test_the_rules_do_no_io():
    found = []
    for path in (ROOT / "host").rglob("*.py"):
        module = ".".join(path.relative_to(ROOT / "host").with_suffix("").parts)
        module = module.removesuffix(".__init__")
        if layer_of(module) is None:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                top = name.split(".")[0]
                if top in NO_IO and not (top == "pathlib" and module in READS_DATA_FILES):
                    found.append(f"{module} imports {name}")
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("open",
                                                                                   "print"):
                found.append(f"{module} calls {node.func.id}()")  # type: ignore[attr-defined]
    assert not found, found


def test_the_layer_test_fails_on_a_broken_layer(imports):
    """A phase that imported the engine would be refused (the test can fail)."""
    broken = {**imports, PHASES + ".season": {"top": [ENGINE], "function": [], "typing": []}}
    with pytest.raises(AssertionError):
        test_each_layer_imports_only_the_layers_below(broken)


def test_no_module_of_the_host_imports_itself_back(imports):
    graph = {m: set(f["top"]) | set(f["function"]) | set(f["typing"])
             for m, f in imports.items()}
    assert import_graph.cycles(graph) == []
    assert import_graph.cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]  # it sees one


def test_every_module_of_the_rules_can_be_imported_first(imports):
    """Whatever a program imports first (an expansion, a phase, the core), the package loads:
    the front (``rules/__init__``) builds the engine before any module that needs it."""
    import subprocess
    import sys

    rules = sorted(m for m in imports if layer_of(m))
    script = ("import importlib, sys\n"
              f"for name in {rules!r}:\n"
              "    for loaded in [m for m in sys.modules if m.startswith('shogun_tower')]:\n"
              "        del sys.modules[loaded]\n"
              "    importlib.import_module(name)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
