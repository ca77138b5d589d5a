"""Distances in feet, cover from walls, and the cells of an area, on square or hex maps.

Distances: 5 ft a cell; on a square map a diagonal counts as the option ``diagonals`` says
(``5``, ``alternate``: 5 then 10 ft; ``10`` is a step's cost only, distances count 5). Cover: option ``cover`` (see `options.py`), with
`rules.geometry.sight`'s corner lines and centre line; half cover adds 2 to AC (and to Dexterity
saves), three-quarters 5, total cover cannot be targeted. Areas: a ``burst`` is every cell within
its size of the point chosen; a ``cone`` spreads from the attacker towards the point, its width at
each distance equal to that distance (the cells within its size whose centres lie in the triangle from the middle
of the attacker's side facing the point, as long as the size: a 30 ft cone is 6 cells long and
30 ft wide at its end); a ``line`` is 5 ft wide, the cells within its length whose centres
lie within half a cell of the line from the attacker through the point. Walls stop an area: a cell
is in it only with a clear centre line from the area's origin (the burst's point, else the attacker).
"""
from __future__ import annotations

import math

from rules.geometry import Cell, Grid
from rules.geometry.sight import corner_lines
from rules.options import OptionValues
from rules.systems.open.sheet import CELL_FT

__all__ = ["feet", "cover", "COVER_AC", "area_cells"]

#: what each cover adds to AC; "total" cannot be targeted
COVER_AC = {"none": 0, "half": 2, "three-quarters": 5}


def feet(grid: Grid | None, opts: OptionValues, a: Cell | None, b: Cell | None) -> int:
    """The distance in feet between two cells (0 without a map or a cell): for reach, range, areas and
    opportunity attacks. ``diagonals=10`` sets only what a step costs (`movement.step_cost`): a
    diagonal neighbour stays within 5 ft, so the distances are measured as with ``5``."""
    if grid is None or a is None or b is None:
        return 0
    if grid.kind != "square":
        return CELL_FT * grid.distance(a, b)
    dx, dy = abs(a.col - b.col), abs(a.row - b.row)
    diag, straight = min(dx, dy), abs(dx - dy)
    if opts.diagonals == "alternate":
        return CELL_FT * (straight + diag + diag // 2)
    return CELL_FT * (straight + diag)


def cover(grid: Grid | None, opts: OptionValues, a: Cell | None, b: Cell | None) -> str:
    """``none``, ``half``, ``three-quarters`` or ``total``: the cover walls give ``b`` from ``a``."""
    if grid is None or a is None or b is None or a == b:
        return "none"
    if grid.kind == "square" and opts.cover == "corners":
        return ("none", "half", "three-quarters", "total")[corner_lines(grid, a, b)]
    if not grid.line_of_sight(a, b, corner=opts.corner):
        return "total"
    return "half" if not grid.line_of_sight(a, b, corner="blocks") else "none"


def _in_cone(grid: Grid, a: Cell, aim: Cell, b: Cell, length: float) -> bool:
    """Is ``b``'s centre in the cone of ``length`` cells from the middle of ``a``'s side towards ``aim``?"""
    along, beside = _off_line(grid, a, aim, b)
    along -= 0.5
    return 0 < along <= length + 1e-9 and beside <= along / 2 + 1e-9


def _off_line(grid: Grid, a: Cell, aim: Cell, b: Cell) -> tuple[float, float]:
    """How far along the line from ``a`` through ``aim`` ``b``'s centre lies, and how far beside it (cells)."""
    (ax, ay), (px, py), (bx, by) = grid.centre(a), grid.centre(aim), grid.centre(b)
    dx, dy = px - ax, py - ay
    length = math.hypot(dx, dy) or 1.0
    along = ((bx - ax) * dx + (by - ay) * dy) / length
    beside = abs((bx - ax) * dy - (by - ay) * dx) / length
    return along, beside


def area_cells(grid: Grid, opts: OptionValues, shape: str, size: int, origin: Cell, aim: Cell) -> list[Cell]:
    """The open cells of a ``shape`` of ``size`` ft from ``origin`` (the attacker) towards ``aim``."""
    if shape == "burst":
        centre, found = aim, [c for c in grid.cells() if feet(grid, opts, aim, c) <= size]
    else:
        centre = origin
        near = [c for c in grid.cells() if c != origin and 0 < feet(grid, opts, origin, c) <= size]
        if shape == "cone":
            found = [c for c in near if _in_cone(grid, origin, aim, c, size / CELL_FT)]
        else:
            found = [c for c in near if (lb := _off_line(grid, origin, aim, c))[0] > 0 and lb[1] <= 0.5 + 1e-9]
    return [c for c in found if c not in grid.blocked and (c == centre or grid.line_of_sight(centre, c))]
