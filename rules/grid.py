"""Compatibility names: the board geometry lives in :mod:`rules.geometry`."""
from __future__ import annotations

from rules.geometry import (
    HEX_FACINGS,
    MAX_SIDE,
    SQUARE_FACINGS,
    Cell,
    Grid,
    cell_name,
    cheapest_path,
    parse_cell,
    parse_map_spec,
)

__all__ = [
    "Cell",
    "Grid",
    "cell_name",
    "parse_cell",
    "parse_map_spec",
    "SQUARE_FACINGS",
    "HEX_FACINGS",
    "cheapest_path",
    "MAX_SIDE",
]
