"""War & Combat's modules read bottom-up: no import cycle, and no import inside a function."""
from __future__ import annotations

import ast
from pathlib import Path

import rules.systems.war_and_combat as package

PACKAGE = Path(package.__file__).parent
NAME = "rules.systems.war_and_combat"


def imports() -> dict[str, list[tuple[str, bool]]]:
    """Module -> the package's modules it imports, each with whether the import is inside a function."""
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    out: dict[str, list[tuple[str, bool]]] = {}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inner = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                 for n in ast.walk(f)}
        found: list[tuple[str, bool]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(NAME):
                rest = node.module[len(NAME):].lstrip(".")
                names = [rest.split(".")[0]] if rest else [a.name for a in node.names]
                found += [(m, id(node) in inner) for m in names if m in modules]
            elif isinstance(node, ast.Import):
                found += [(a.name[len(NAME) + 1:].split(".")[0], id(node) in inner) for a in node.names
                          if a.name.startswith(NAME + ".")]
        out[path.stem] = found
    return out


def test_no_module_imports_another_inside_a_function() -> None:
    """Every import of a sibling module stands at the top of its module, where a reader sees the layers."""
    inside = sorted(f"{m} -> {t}" for m, found in imports().items() for t, nested in found if nested)
    assert inside == []


def test_the_modules_form_no_import_cycle() -> None:
    """Following the imports from any module never comes back to it."""
    graph = {m: {t for t, _ in found} for m, found in imports().items()}
    done: set[str] = set()

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert m not in path, " -> ".join((*path, m))
        if m in done:
            return
        for t in sorted(graph.get(m, ())):
            visit(t, (*path, m))
        done.add(m)

    for m in sorted(graph):
        visit(m, ())
    assert {"rounds", "flurry", "attacks", "movement", "turns"} <= done
