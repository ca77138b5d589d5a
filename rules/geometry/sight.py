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
*front* corner is the one closest to the other square and the other three are *back* corners
(in one row or column two corners are equally close and the looker picks one; the target's
front corner is then the one facing it, opposite the looker's). The looker's three back corners
join the target's three back corners: two lines run along the sides of the band joining the two
squares (the sides of their outline: in one row or column the two edges of the row, end to end,
else the two same corners of each square) and the third joins the two remaining corners through
the middle. A line is obstructed when it *touches* a blocked square other than the two ends,
that is when it meets it along more than a point: through its inside or along one of its sides
(so in one row or column a wall beside the looker, beside the target or beside a square between
touches a line along that edge). :func:`corner_lines` counts the obstructed lines: 0 is a clear
view, 1 or 2 partial obstruction, 3 no line of sight; :func:`corner_segments` gives the lines.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Literal, Protocol

from rules.geometry.cells import Cell

__all__ = ["CORNER_RULES", "line_of_sight", "corner_lines", "obstruction", "corner_segments", "segment_hits_open_box",
           "segment_meets_box"]

class Board(Protocol):
    """What sight reads of a board (`rules.geometry.board.Grid` gives each)."""

    @property
    def blocked(self) -> frozenset[Cell]: ...
    def line_cells(self, a: Cell, b: Cell) -> list[Cell]: ...
    def corner_cells(self, a: Cell, b: Cell) -> list[tuple[Cell, Cell]]: ...


CornerRule = Literal["open", "blocks", "either"]
CORNER_RULES: tuple[str, ...] = ("open", "blocks", "either")
#: a square's corners as offsets from its top-left corner
_CORNERS = ((0, 0), (1, 0), (0, 1), (1, 1))


def line_of_sight(
    grid: Board, a: Cell, b: Cell, blockers: Iterable[Cell] = (), corner: str = "open"
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


Segment = tuple[float, float, float, float]


def _pairs(a: Cell, b: Cell, front: tuple[int, int]) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The three (looker corner, target corner) offsets joined when ``front`` is the looker's front corner."""
    facing = (1 - front[0], 1 - front[1])  # the target's front corner, and the looker's far back corner
    if a.row != b.row and a.col != b.col:
        sides = [o for o in _CORNERS if o not in (front, facing)]
        return [(s, s) for s in sides] + [(facing, front)]
    axis = 1 if a.col == b.col else 0  # the offset that runs along the row or column
    far = front[axis] ^ 1  # the looker's side away from the target
    backs = [o for o in _CORNERS if o != front]
    edges = [(o, (o[0] ^ (axis == 0), o[1] ^ (axis == 1))) for o in backs if o[axis] == far]
    used = {t for _, t in edges} | {facing}
    rest = [o for o in backs if o[axis] != far]
    return edges + [(rest[0], next(o for o in _CORNERS if o not in used))]


def corner_segments(a: Cell, b: Cell, front: tuple[int, int] | None = None) -> list[Segment]:
    """The three back-corner lines from square ``a`` to square ``b`` as ``(x0, y0, x1, y1)`` in corner
    coordinates, for ``a``'s front corner ``front`` (by default the first closest to ``b``)."""
    f = front if front is not None else _front(a, b)[0]
    return [(a.col + m[0], a.row + m[1], b.col + t[0], b.row + t[1]) for m, t in _pairs(a, b, f)]


@lru_cache(maxsize=4096)
def _fronts_lines(a: Cell, b: Cell) -> tuple[tuple[Segment, ...], ...]:
    """`corner_segments` from ``a`` to ``b`` for each of ``a``'s front corners, worked out once a pair of squares
    (a board's cover and sight ask them again and again)."""
    return tuple(tuple(corner_segments(a, b, front)) for front in _front(a, b))


def corner_lines(grid: Board, a: Cell, b: Cell, blockers: Iterable[Cell] = (), through: bool = False) -> int:
    """How many of the three back-corner lines from square ``a`` to square ``b`` touch a blocked square
    (the looker picks the front corner that leaves fewer); ``through``: only lines that pass through
    a blocked square's inside count (running along its side does not)."""
    stop = (set(blockers) | grid.blocked) - {a, b}
    lo_col, hi_col = min(a.col, b.col) - 1, max(a.col, b.col) + 1
    lo_row, hi_row = min(a.row, b.row) - 1, max(a.row, b.row) + 1
    boxes = [(c.col, c.row, c.col + 1, c.row + 1) for c in stop if lo_col <= c.col <= hi_col and lo_row <= c.row <= hi_row]
    if not boxes:  # nothing near enough to touch a line
        return 0
    meets = segment_hits_open_box if through else segment_meets_box
    fewest = 3
    for lines in _fronts_lines(a, b):
        touched = 0
        for x0, y0, x1, y1 in lines:
            for bx0, by0, bx1, by1 in boxes:
                if meets(x0, y0, x1, y1, bx0, by0, bx1, by1):
                    touched += 1
                    break
        fewest = min(fewest, touched)
    return fewest


def obstruction(grid: Board, a: Cell, b: Cell, blockers: Iterable[Cell] = ()) -> str:
    """``none``, ``partial`` or ``hidden``, from :func:`corner_lines`."""
    n = corner_lines(grid, a, b, blockers)
    return "none" if n == 0 else "hidden" if n == 3 else "partial"


def _clip(x0: float, y0: float, x1: float, y1: float, box: tuple[float, float, float, float]) -> tuple[float, float]:
    """The part ``(t0, t1)`` of the segment inside the closed box (empty when ``t0 > t1``)."""
    bx0, by0, bx1, by1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = x1 - x0, y1 - y0
    # Liang-Barsky, each side of the box in turn (left, right, top, bottom); written out, not looped over
    # pairs made for each call: sight asks it for every corner line and every square near one
    if dx == 0:
        if x0 - bx0 < 0 or bx1 - x0 < 0:
            return 1.0, 0.0
    elif dx > 0:  # entering at the left side, leaving at the right
        t0 = max(t0, (x0 - bx0) / -dx)
        t1 = min(t1, (bx1 - x0) / dx)
    else:
        t1 = min(t1, (x0 - bx0) / -dx)
        t0 = max(t0, (bx1 - x0) / dx)
    if dy == 0:
        if y0 - by0 < 0 or by1 - y0 < 0:
            return 1.0, 0.0
    elif dy > 0:
        t0 = max(t0, (y0 - by0) / -dy)
        t1 = min(t1, (by1 - y0) / dy)
    else:
        t1 = min(t1, (y0 - by0) / -dy)
        t0 = max(t0, (by1 - y0) / dy)
    return t0, t1


def segment_hits_open_box(
    x0: float, y0: float, x1: float, y1: float, bx0: float, by0: float, bx1: float, by1: float
) -> bool:
    """Does the segment cross the open box's interior (touching an edge or corner does not count)?"""
    eps = 1e-9
    t0, t1 = _clip(x0, y0, x1, y1, (bx0 + eps, by0 + eps, bx1 - eps, by1 - eps))
    return t0 < t1


def segment_meets_box(
    x0: float, y0: float, x1: float, y1: float, bx0: float, by0: float, bx1: float, by1: float
) -> bool:
    """Does the segment meet the closed box along more than a point (through it, or along a side)?"""
    t0, t1 = _clip(x0, y0, x1, y1, (bx0, by0, bx1, by1))
    return t1 - t0 > 1e-9  # corners are whole numbers: a true overlap is far longer
