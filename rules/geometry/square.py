"""Square boards: ``N E S W`` facings, optional diagonal steps, a 90-degree front arc."""
from __future__ import annotations

from collections.abc import Callable

from rules.errors import InputError
from rules.geometry.board import Grid
from rules.geometry.cells import Cell
from rules.geometry.sight import segment_hits_open_box

__all__ = ["SquareGrid", "SQUARE_FACINGS"]

SQUARE_FACINGS = ("N", "E", "S", "W")
_EIGHT = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
_VEC = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0),
        "NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1)}
_NAMES = {v: k for k, v in _VEC.items()}
# (dx, dy) rotated so that the facing points north
_ROTATE: dict[str, Callable[[int, int], tuple[int, int]]] = {
    "N": lambda dx, dy: (dx, dy), "E": lambda dx, dy: (dy, -dx),
    "S": lambda dx, dy: (-dx, -dy), "W": lambda dx, dy: (-dy, dx),
}


class SquareGrid(Grid):
    kind = "square"
    facings = SQUARE_FACINGS
    arc = 90.0

    def _step(self, cell: Cell, direction: str) -> Cell:
        vec = _VEC.get(direction)
        if vec is None:
            raise InputError(
                f"`{direction}` is not a direction: use N E S W (or NE SE SW NW for diagonals)."
            )
        return Cell(cell.col + vec[0], cell.row + vec[1])

    def directions(self, diagonal: bool = False) -> tuple[str, ...]:
        return _EIGHT if diagonal else SQUARE_FACINGS

    def direction(self, a: Cell, b: Cell) -> str | None:
        return _NAMES.get((b.col - a.col, b.row - a.row))

    def _adjacent_direction(self, d: str, diagonal: bool) -> bool:
        return diagonal or len(d) == 1

    def cuts_corner(self, a: Cell, b: Cell) -> bool:
        """A diagonal step with a wall on either square beside it."""
        return a.col != b.col and a.row != b.row and (Cell(b.col, a.row) in self.blocked or Cell(a.col, b.row) in self.blocked)

    def distance(self, a: Cell, b: Cell, diagonal: bool = False) -> int:
        """4-way (Manhattan) or, with ``diagonal``, 8-way (Chebyshev) steps."""
        dx, dy = abs(a.col - b.col), abs(a.row - b.row)
        return max(dx, dy) if diagonal else dx + dy

    def centre(self, cell: Cell) -> tuple[float, float]:
        return (cell.col + 0.5, cell.row + 0.5)

    def in_arc(self, origin: Cell, facing: str, target: Cell, width: float | None = None) -> bool:
        """The 90-degree arc exactly: one square more each side per row ahead."""
        if origin == target or (width is not None and width != 90):
            return super().in_arc(origin, facing, target, width)
        fx, fy = _ROTATE[facing](target.col - origin.col, target.row - origin.row)
        return fy < 0 and abs(fx) <= -fy

    def line_cells(self, a: Cell, b: Cell) -> list[Cell]:
        if a == b:
            return []
        (x0, y0), (x1, y1) = self.centre(a), self.centre(b)
        out = []
        for col in range(min(a.col, b.col), max(a.col, b.col) + 1):
            for row in range(min(a.row, b.row), max(a.row, b.row) + 1):
                c = Cell(col, row)
                if c != a and c != b and segment_hits_open_box(x0, y0, x1, y1, col, row, col + 1, row + 1):
                    out.append(c)
        return out

    def corner_cells(self, a: Cell, b: Cell) -> list[tuple[Cell, Cell]]:
        """At each lattice point the centre line passes through, the two cells beside the line."""
        dx, dy = b.col - a.col, b.row - a.row
        if dx == 0 or dy == 0:
            return []
        out = []
        for i in range(1, abs(dx) + 1):
            # the line crosses the vertical grid line x = a.col + 0.5 + (i - 0.5) * sign(dx)
            t2 = 2 * i - 1  # 2 * |dx| * t, kept in integers
            num = t2 * dy  # y offset from the centre, times 2 * |dx|
            # y = a.row + 0.5 + num / (2|dx|); a corner when that is a whole number
            if (abs(dx) + num) % (2 * abs(dx)) == 0:
                x = a.col + (i if dx > 0 else 1 - i)
                y = a.row + (abs(dx) + num) // (2 * abs(dx))
                if (dx > 0) == (dy > 0):
                    out.append((Cell(x, y - 1), Cell(x - 1, y)))
                else:
                    out.append((Cell(x - 1, y - 1), Cell(x, y)))
        return out
