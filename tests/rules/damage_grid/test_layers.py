"""The damage-grid package reads bottom-up: each module imports only the modules below it, at any
depth of the file (no import cycle held together by an import inside a function), and only their
public names."""
from __future__ import annotations

from pathlib import Path

from tests.layers import layer_problems, package_problems

PACKAGE = "rules.systems.damage_grid"
FOLDER = Path(__file__).resolve().parents[3] / "rules" / "systems" / "damage_grid"
#: the package's modules, bottom first: the grid arithmetic and the plain declarations, the flips
#: arithmetic, the stored state and the facts worked out for the text, the sheet,
#: the turn sequence, reach and sight, movement, the target's flips, attacks on models, areas and
#: cover, the `/act` table, the text; the system class in ``__init__`` stands on all of them
LAYERS = ("grid", "mode", "areas", "events", "options", "flips", "state", "facts", "damage", "sheet", "turns", "reach",
          "movement", "asking", "attacks", "blasts", "cover", "actions", "present")


def test_the_package_reads_bottom_up() -> None:
    """Every module of the package is in the layers, and imports only public names of the modules below it."""
    assert package_problems(FOLDER, PACKAGE, LAYERS) == []


def test_the_layers_check_catches_a_cycle_inside_a_function_and_a_private_name(tmp_path: Path) -> None:
    """An import of a module above, even inside a function, and a sibling's private name are both refused."""
    f = tmp_path / "turns.py"
    f.write_text(
        "from rules.systems.damage_grid.state import DgCombatant\nfrom rules.systems.damage_grid.sheet import _weapon\n"
        "def later():\n    from rules.systems.damage_grid.blasts import phase_begins\n"
        "    from rules.systems.damage_grid import attacks\n"
    )
    assert layer_problems(f, PACKAGE, LAYERS, "turns") == [
        "turns:2 imports the private sheet._weapon",
        "turns:4 imports blasts (only grid, mode, areas, events, options, flips, state, facts, damage, sheet)",
        "turns:5 imports attacks (only grid, mode, areas, events, options, flips, state, facts, damage, sheet)",
    ]
