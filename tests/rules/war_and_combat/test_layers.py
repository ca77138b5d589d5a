"""War & Combat's modules read bottom-up, as the package's docstring lists them: each imports, at any
depth of its file (so no cycle is held together by an import inside a function), only public names
of the modules below it."""
from __future__ import annotations

from pathlib import Path

import rules.systems.war_and_combat as package
from tests.layers import package_problems

FOLDER = Path(package.__file__).parent
#: the package's modules, bottom first (the order of its docstring)
LAYERS = ("task", "catalogue", "tables", "tables_missile", "tables_movement", "tables_options", "options", "state",
          "events", "sheet", "zones", "lengthy", "turns", "limbs", "flurry", "rounds", "attacks", "missiles", "movement", "swipes",
          "harm", "words", "actions", "facts", "present")


def test_the_package_reads_bottom_up() -> None:
    """Every module of the package is in the layers, and imports only public names of the modules below it."""
    assert package_problems(FOLDER, package.__name__, LAYERS) == []
