"""Line of sight: the centre-to-centre line with a corner rule, and corner-to-corner lines.

**The centre line.** A cell blocks sight when the straight line between the two centres
crosses its interior. When the line passes *exactly* through a corner shared by four
squares, two of them lie on the line's way and two beside it; the ``corner`` rule says what
the two beside it do:

- ``open`` (the default, and what every system did before): they never block; the line
  slips between them.
- ``blocks``: the line is blocked if either of them blocks.
- ``either``: the line is blocked only if both of them block (it may pass on either side).

Hex lines never pass exactly through a corner (ties are nudged one way), so the rule has
no effect on hexes.

**Corner-to-corner lines** (the damage-grid system): of each square's four corners, the
*front* corner is the one closest to the other square and the other three are *back*
corners. Each back corner of the looker is joined to the matching back corner of the
target (the same corner of the square, so the three lines run parallel). A line is
obstructed when it crosses the interior of a blocked square other than the two ends.
:func:`corner_lines` counts the obstructed lines: 0 is a clear view, 1 or 2 partial
obstruction, 3 no line of sight. When the two squares share a row or a column two corners
are equally close, and the three lines run along the row's two edges (one along one edge,
two along the other, as the looker picks the front corner): they cross no square, so a line
counts as obstructed when it *touches* one, that is when a blocked square strictly between
the two lies in the row itself or in the one beyond that edge. The looker picks the front
corner that obstructs fewer lines.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

from rules.geometry.cells import Cell

if TYPE_CHECKING:
    from rules.geometry.board import Grid

__all__ = ["CORNER_RULES", "line_of_sight", "corner_lines", "obstruction", "segment_hits_open_box"]

CornerRule = Literal["open", "blocks", "either"]
CORNER_RULES: tuple[str, ...] = ("open", "blocks", "either")
#: a square's corners as offsets from its top-left corner
_CORNERS = ((0, 0), (1, 0), (0, 1), (1, 1))


def line_of_sight(
    grid: Grid, a: Cell, b: Cell, blockers: Iterable[Cell] = (), corner: str = "open"
) -> bool:
    """True when the centre line from ``a`` to ``b`` is not blocked (see the module's rules)."""
    if corner not in CORNER_RULES:
        raise ValueError(f"unknown corner rule {corner!r}")
    stop = set(blockers) | grid.blocked
    if any(c in stop for c in grid.line_cells(a, b)):
        return False
    if corner == "open":
        return True
    for left, right in grid.corner_cells(a, b):
        hit = (left in stop, right in stop)
        if (any(hit) if corner == "blocks" else all(hit)):
            return False
    return True


def _front(a: Cell, b: Cell) -> list[tuple[int, int]]:
    """The corner offsets of ``a`` closest to ``b`` (two when they share a row or column)."""
    def gap(off: tuple[int, int]) -> float:
        x, y = a.col + off[0], a.row + off[1]
        return (x - b.col - 0.5) ** 2 + (y - b.row - 0.5) ** 2

    best = min(gap(o) for o in _CORNERS)
    return [o for o in _CORNERS if gap(o) - best < 1e-9]


def corner_lines(grid: Grid, a: Cell, b: Cell, blockers: Iterable[Cell] = ()) -> int:
    """How many of the three back-corner lines from square ``a`` to square ``b`` are obstructed."""
    stop = (set(blockers) | grid.blocked) - {a, b}
    if a.row == b.row or a.col == b.col:
        return _in_line(a, b, stop)
    lo_col, hi_col = min(a.col, b.col), max(a.col, b.col)
    lo_row, hi_row = min(a.row, b.row), max(a.row, b.row)
    boxes = [c for c in stop if lo_col <= c.col <= hi_col and lo_row <= c.row <= hi_row]
    best = 3
    for front in _front(a, b):
        blocked = 0
        for off in _CORNERS:
            if off == front:
                continue
            x0, y0 = a.col + off[0], a.row + off[1]
            x1, y1 = b.col + off[0], b.row + off[1]
            if any(segment_hits_open_box(x0, y0, x1, y1, c.col, c.row, c.col + 1, c.row + 1) for c in boxes):
                blocked += 1
        best = min(best, blocked)
    return best


def _in_line(a: Cell, b: Cell, stop: set[Cell]) -> int:
    """:func:`corner_lines` for two squares in one row or column: lines along the two edges."""
    if a.row == b.row:
        lane, lo, hi = a.row, min(a.col, b.col), max(a.col, b.col)
        near = {c.row for c in stop if lo < c.col < hi}
    else:
        lane, lo, hi = a.col, min(a.row, b.row), max(a.row, b.row)
        near = {c.col for c in stop if lo < c.row < hi}
    first, second = int(bool(near & {lane - 1, lane})), int(bool(near & {lane, lane + 1}))
    return min(first + 2 * second, 2 * first + second)


def obstruction(grid: Grid, a: Cell, b: Cell, blockers: Iterable[Cell] = ()) -> str:
    """``none``, ``partial`` or ``hidden``, from :func:`corner_lines`."""
    n = corner_lines(grid, a, b, blockers)
    return "none" if n == 0 else "hidden" if n == 3 else "partial"


def segment_hits_open_box(
    x0: float, y0: float, x1: float, y1: float, bx0: float, by0: float, bx1: float, by1: float
) -> bool:
    """Does the segment cross the open box's interior (touching an edge or corner does not count)?"""
    eps = 1e-9
    bx0, by0, bx1, by1 = bx0 + eps, by0 + eps, bx1 - eps, by1 - eps
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    for p, q in ((-dx, x0 - bx0), (dx, bx1 - x0), (-dy, y0 - by0), (dy, by1 - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return t0 < t1
