"""No import cycles in rules/: each package's modules read bottom-up.

The graph is built from the source with `ast`: every import, at module level or inside a
function or an ``if TYPE_CHECKING:`` block (an import placed there only to break a cycle is
still one), relative or absolute. ``from a.b import c`` is an edge to the module ``a.b.c``
where that is a module, else to ``a.b``.
"""
from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: the packages checked, each by the dotted prefix of its modules (the core: rules/*.py alone)
ACYCLIC = (
    "rules.*",
    "rules.turns",
    "rules.geometry",
    "rules.systems.knights_of_valour",
    "rules.systems.coup_de_grace",
    "rules.systems.tote",
    "rules.systems.open",
    "rules.systems.damage_grid",
    "rules.systems.war_and_combat",
)
#: packages whose modules are being untangled; each joins `ACYCLIC` once it has no cycle
UNTANGLING: tuple[str, ...] = ()


def module_name(path: Path, root: Path) -> str:
    """``rules/geometry/board.py`` -> ``rules.geometry.board``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, name: str, modules: set[str]) -> Iterator[tuple[str, int]]:
    """``(module, line)`` for each module of ``modules`` that the module ``name`` (at ``path``)
    imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        for target in targets:
            while target and target not in modules:  # `import rules.geometry.board` names the module
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target, node.lineno


def import_graph(root: Path, folder: str = "rules") -> dict[str, dict[str, int]]:
    """Module -> {module it imports: the line of the first such import}, for every module under ``folder``."""
    paths = {module_name(p, root): p for p in sorted((root / folder).rglob("*.py"))}
    graph: dict[str, dict[str, int]] = {}
    for name, path in paths.items():
        edges: dict[str, int] = {}
        for target, line in imported(path, name, set(paths)):
            edges.setdefault(target, line)
        graph[name] = edges
    return graph


def in_package(module: str, package: str) -> bool:
    """Whether ``module`` belongs to ``package`` (``rules.*``: the modules of rules/ itself)."""
    if package.endswith(".*"):
        parent = package[:-2]
        return module == parent or module.rpartition(".")[0] == parent
    return module == package or module.startswith(package + ".")


def knots(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module: each module of one reaches every other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def _one_cycle(graph: dict[str, dict[str, int]], group: set[str], start: str) -> list[str]:
    """The shortest way from ``start`` back to itself within ``group``."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w == start:
                    return [*paths[v], start]
                if w in group and w not in paths:
                    paths[w] = [*paths[v], w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"{start} is in no cycle")  # pragma: no cover - a group is strongly connected


def shown(graph: dict[str, dict[str, int]], cycle: list[str]) -> str:
    """``a:12 -> b:3 -> a``: each module with the line of its import of the next."""
    return " -> ".join(f"{a}:{graph[a][b]}" for a, b in zip(cycle, cycle[1:])) + f" -> {cycle[-1]}"


def cycles_touching(package: str, graph: dict[str, dict[str, int]]) -> list[str]:
    """For each knot holding a module of ``package``, one cycle through the first such module, shown."""
    found = []
    for group in knots(graph):
        mine = [m for m in group if in_package(m, package)]
        if mine:
            found.append(shown(graph, _one_cycle(graph, set(group), mine[0])))
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, int]]:
    return import_graph(ROOT)


@pytest.mark.parametrize("package", ACYCLIC)
def test_no_import_cycle_touches_the_package(package: str, graph: dict[str, dict[str, int]]) -> None:
    """No module of the package is in an import cycle (function-level and type-only imports count)."""
    assert cycles_touching(package, graph) == []


def test_the_packages_being_untangled_are_named_and_exist(graph: dict[str, dict[str, int]]) -> None:
    """Every package named in `UNTANGLING` exists and is not also in `ACYCLIC` (move it over once acyclic)."""
    for package in UNTANGLING:
        assert package not in ACYCLIC
        assert any(in_package(m, package) for m in graph), package


def test_the_cycle_check_sees_function_level_relative_and_type_only_imports(tmp_path: Path) -> None:
    """A cycle closed by a function-level relative import, or by an import under TYPE_CHECKING,
    is found and shown with its lines; a package importing its own module is no cycle by itself."""
    pkg = tmp_path / "rules" / "geo"
    pkg.mkdir(parents=True)
    (tmp_path / "rules" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from rules.geo.a import A\n")
    (pkg / "a.py").write_text("from rules.geo import b\nA = 1\n")
    (pkg / "b.py").write_text("def f():\n    from .a import A\n    return A\n")
    (tmp_path / "rules" / "x.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rules.y import Y\n"
    )
    (tmp_path / "rules" / "y.py").write_text("import rules.x\nY = 2\n")
    graph = import_graph(tmp_path)
    assert graph["rules.geo"] == {"rules.geo.a": 1}
    assert cycles_touching("rules.geo", graph) == ["rules.geo.a:1 -> rules.geo.b:2 -> rules.geo.a"]
    assert cycles_touching("rules.*", graph) == ["rules.x:3 -> rules.y:1 -> rules.x"]


def test_a_stored_encounter_reads_typed_with_only_the_store_imported() -> None:
    """A process that imports only the store reads a stored encounter's state with its system's
    models: the registry, which gives `rules.state` its look-up, comes with the store."""
    code = (
        "from data.store import read_state\n"
        "enc, error = read_state('{\"system\": \"tote\", \"state\": {\"distance\": \"far\"}}')\n"
        "print(error, type(enc.state).__name__, enc.state.distance)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["None", "ToteEncounter", "far"]
