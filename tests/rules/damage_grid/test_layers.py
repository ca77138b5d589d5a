"""The damage-grid package reads bottom-up: each module imports only the modules below it, at any
depth of the file (no import cycle held together by an import inside a function), and only their
public names."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = "rules.systems.damage_grid"
FOLDER = Path(__file__).resolve().parents[3] / "rules" / "systems" / "damage_grid"
#: the package's modules, bottom first: the grid arithmetic and the plain declarations, the sheet,
#: the turn sequence, reach and sight, movement, the target's flips, attacks on models, areas and
#: cover, the `/act` table, the text; the system class in ``__init__`` stands on all of them
LAYERS = ("grid", "mode", "areas", "events", "options", "state", "flips", "damage", "sheet", "turns", "reach",
          "movement", "asking", "attacks", "blasts", "cover", "actions", "present")


def _siblings(path: Path) -> list[tuple[str, str, int]]:
    """``(sibling, name, line)`` for each name ``path`` takes from a module of the package, at any
    depth (``from rules.systems.damage_grid import flips`` takes the module ``flips``; any other
    name taken from the package itself comes from ``__init__``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name.split(".")[3], "", node.lineno) for a in node.names if a.name.startswith(PACKAGE + ".")]
        elif isinstance(node, ast.ImportFrom) and node.module == PACKAGE:
            found += [(a.name, "", node.lineno) if a.name in LAYERS else ("__init__", a.name, node.lineno)
                      for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE + "."):
            found += [(node.module.split(".")[3], a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:
            found += [("relative", a.name, node.lineno) for a in node.names]
    return found


def _problems(path: Path, module: str) -> list[str]:
    """What ``path`` (the module ``module``) takes that it must not: a module not below it, or a private name."""
    below = LAYERS[: LAYERS.index(module)]
    bad = []
    for sibling, name, line in _siblings(path):
        if sibling not in below:
            bad.append(f"{module}:{line} imports {sibling} (only {', '.join(below) or 'no sibling'})")
        if name.startswith("_"):
            bad.append(f"{module}:{line} imports the private {sibling}.{name}")
    return bad


def test_the_package_reads_bottom_up() -> None:
    """Every module of the package is in the layers, and imports only public names of the modules below it."""
    assert {p.stem for p in FOLDER.glob("*.py")} == {"__init__", *LAYERS}
    assert [problem for m in LAYERS for problem in _problems(FOLDER / f"{m}.py", m)] == []


def test_the_layers_check_catches_a_cycle_inside_a_function_and_a_private_name(tmp_path: Path) -> None:
    """An import of a module above, even inside a function, and a sibling's private name are both refused."""
    f = tmp_path / "turns.py"
    f.write_text(
        "from rules.systems.damage_grid.state import DgCombatant\nfrom rules.systems.damage_grid.sheet import _weapon\n"
        "def later():\n    from rules.systems.damage_grid.blasts import phase_begins\n"
        "    from rules.systems.damage_grid import attacks\n"
    )
    assert _problems(f, "turns") == [
        "turns:2 imports the private sheet._weapon",
        "turns:4 imports blasts (only grid, mode, areas, events, options, state, flips, damage, sheet)",
        "turns:5 imports attacks (only grid, mode, areas, events, options, state, flips, damage, sheet)",
    ]
