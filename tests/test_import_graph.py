"""No import cycles: the modules of ``cts_dataset`` parsed with ``ast``, every import counted wherever it
is written (module top, inside functions and methods), so a cycle hidden behind function-level imports
is found too.

Not counted: imports under ``if TYPE_CHECKING:`` (they never run), and the package ``__init__`` that
importing a submodule runs (every package does that; an ``__init__`` that re-exports a submodule which
imports the package back *is* counted, through the explicit ``from cts_dataset.x import name``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent  # holds the cts_dataset package

# Modules whose cycles are to be broken outside models/ and executors/ (owned elsewhere): tolerated,
# never added to. A new cycle anywhere fails the package-wide test.
KNOWN_CYCLES: list[frozenset[str]] = []
STRICT_PREFIXES = ("cts_dataset.models", "cts_dataset.executors")


def modules(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for path in sorted((root / "cts_dataset").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else ""
            if name == "TYPE_CHECKING":
                skipped.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    return skipped


def import_graph(root: Path = ROOT, type_checking: bool = False) -> dict[str, set[str]]:
    """module -> the package modules it imports anywhere in its file (``type_checking``: those under
    ``if TYPE_CHECKING:`` too)."""
    known = modules(root)
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skipped = set() if type_checking else _type_checking_nodes(tree)
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                graph[name].update(alias.name for alias in node.names if alias.name in known)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[:len(package) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                for alias in node.names:
                    if f"{source}.{alias.name}" in known:  # a submodule
                        graph[name].add(f"{source}.{alias.name}")
                    elif source in known:
                        graph[name].add(source)
        graph[name].discard(name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each holds at least one cycle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the graph has a few hundred nodes
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def shown(graph: dict[str, set[str]], component: list[str]) -> str:
    return "; ".join(f"{m} -> {', '.join(sorted(graph[m] & set(component)))}" for m in component)


def test_the_parser_sees_imports_inside_functions(tmp_path):
    package = tmp_path / "cts_dataset"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from cts_dataset.b import g\n    return g\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n"
                                  "def g():\n    from .a import f\n    return f\n")
    (package / "c.py").write_text("import cts_dataset.b\n")
    graph = import_graph(tmp_path)
    assert graph["cts_dataset.a"] == {"cts_dataset.b"} and graph["cts_dataset.b"] == {"cts_dataset.a"}
    assert cycles(graph) == [["cts_dataset.a", "cts_dataset.b"]]
    strict = import_graph(tmp_path, type_checking=True)
    assert cycles(strict) == [["cts_dataset.a", "cts_dataset.b", "cts_dataset.c"]]


def test_models_and_executors_import_each_other_in_one_direction_only():
    graph = import_graph(type_checking=True)  # strict here: not even an annotation-only back-reference
    touching = [c for c in cycles(graph) if any(m.startswith(STRICT_PREFIXES) for m in c)]
    assert not touching, "import cycles through models/ or executors/: " + " | ".join(
        shown(graph, c) for c in touching)


def test_no_new_import_cycle_anywhere_in_the_package():
    graph = import_graph()
    new = [c for c in cycles(graph) if not any(set(c) <= known for known in KNOWN_CYCLES)]
    assert not new, "import cycles: " + " | ".join(shown(graph, c) for c in new)


def test_the_default_model_module_imports_no_engine_at_load():
    graph = import_graph(type_checking=False)
    tree = ast.parse(modules()["cts_dataset.models.default_model"].read_text(encoding="utf-8"))
    top_level = {node.module for node in tree.body if isinstance(node, ast.ImportFrom)}
    assert "cts_dataset.models.transformers_backend" not in top_level
    assert "cts_dataset.models.registry" not in graph["cts_dataset.models.default_model"]
