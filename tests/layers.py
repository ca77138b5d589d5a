"""A package read bottom-up: its modules in layers, each importing, at any depth of its file (an
import inside a function counts), only public names of the modules below it. The checks of
bot/maps, the damage grid and War & Combat share it."""
from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path

__all__ = ["sibling_imports", "layer_problems", "package_problems"]


def sibling_imports(path: Path, package: str, layers: Sequence[str]) -> list[tuple[str, str, int]]:
    """``(sibling, name, line)`` for each name ``path`` takes from a module of ``package`` (``from
    package import flips`` takes the module ``flips``; any other name taken from the package itself
    comes from ``__init__``; a relative import is ``relative``)."""
    depth = package.count(".") + 1
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name.split(".")[depth], "", node.lineno) for a in node.names if a.name.startswith(package + ".")]
        elif isinstance(node, ast.ImportFrom) and node.module == package:
            found += [(a.name, "", node.lineno) if a.name in layers else ("__init__", a.name, node.lineno)
                      for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(package + "."):
            found += [(node.module.split(".")[depth], a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:
            found += [("relative", a.name, node.lineno) for a in node.names]
    return found


def layer_problems(path: Path, package: str, layers: Sequence[str], module: str) -> list[str]:
    """What ``path`` (the module ``module`` of ``package``) takes that it must not: a module not
    below it in ``layers``, or a private name."""
    below = layers[: layers.index(module)]
    bad = []
    for sibling, name, line in sibling_imports(path, package, layers):
        if sibling not in below:
            bad.append(f"{module}:{line} imports {sibling} (only {', '.join(below) or 'no sibling'})")
        if name.startswith("_"):
            bad.append(f"{module}:{line} imports the private {sibling}.{name}")
    return bad


def package_problems(folder: Path, package: str, layers: Sequence[str]) -> list[str]:
    """Every module of the package's folder out of ``layers``, and every import against them."""
    missing = sorted({p.stem for p in folder.glob("*.py")} ^ {"__init__", *layers})
    return [f"{m}: not in the layers" for m in missing] + [
        problem for m in layers for problem in layer_problems(folder / f"{m}.py", package, layers, m)]
