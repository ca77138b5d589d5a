"""Board geometry: cells, square and hex boards behind one interface, sight, and paths.

- :mod:`~rules.geometry.cells`: :class:`Cell` and the chess-board notation, parsed once;
- :mod:`~rules.geometry.board`: the :class:`Grid` interface (``Grid(kind, ...)`` picks the kind);
- :mod:`~rules.geometry.square` and :mod:`~rules.geometry.hex`: the two kinds;
- :mod:`~rules.geometry.sight`: the centre line with its corner rule, corner-to-corner lines;
- :mod:`~rules.geometry.paths`: the cheapest path within a budget, ties by a second cost.
"""
from __future__ import annotations

from rules.geometry.board import Grid
from rules.geometry.cells import (
    MAX_SIDE,
    Cell,
    cell_name,
    normal_cell,
    parse_cell,
    parse_map_spec,
)
from rules.geometry.hex import HEX_FACINGS, HexGrid
from rules.geometry.paths import cheapest_path
from rules.geometry.sight import (
    CORNER_RULES,
    corner_lines,
    corner_segments,
    obstruction,
)
from rules.geometry.square import SQUARE_FACINGS, SquareGrid

__all__ = [
    "Cell",
    "Grid",
    "SquareGrid",
    "HexGrid",
    "cell_name",
    "normal_cell",
    "parse_cell",
    "parse_map_spec",
    "SQUARE_FACINGS",
    "HEX_FACINGS",
    "CORNER_RULES",
    "cheapest_path",
    "corner_lines",
    "corner_segments",
    "obstruction",
    "MAX_SIDE",
]
