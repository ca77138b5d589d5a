"""Hex boards: flat-topped columns ("odd-q": odd columns sit half a hex lower), cube
coordinates, six facings ``N NE SE S SW NW`` (one per hexside), a 120-degree front arc."""
from __future__ import annotations

import math

from rules.errors import InputError
from rules.geometry.board import Grid
from rules.geometry.cells import Cell

__all__ = ["HexGrid", "HEX_FACINGS"]

HEX_FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
# cube direction vectors (q, r, s) for flat-topped hexes
_CUBE = {
    "N": (0, -1, 1), "NE": (1, -1, 0), "SE": (1, 0, -1),
    "S": (0, 1, -1), "SW": (-1, 1, 0), "NW": (-1, 0, 1),
}
_NAMES = {(dq, dr): name for name, (dq, dr, _) in _CUBE.items()}


def to_cube(c: Cell) -> tuple[int, int, int]:
    q = c.col
    r = c.row - (c.col - (c.col & 1)) // 2
    return (q, r, -q - r)


def from_cube(q: int, r: int) -> Cell:
    return Cell(q, r + (q - (q & 1)) // 2)


def _cube_round(q: float, r: float, s: float) -> tuple[int, int, int]:
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return int(rq), int(rr), int(rs)


class HexGrid(Grid):
    kind = "hex"
    facings = HEX_FACINGS
    arc = 120.0

    def _step(self, cell: Cell, direction: str) -> Cell:
        cube = _CUBE.get(direction)
        if cube is None:
            raise InputError(f"`{direction}` is not a hex direction: use {' '.join(HEX_FACINGS)}.")
        q, r, _ = to_cube(cell)
        return from_cube(q + cube[0], r + cube[1])

    def directions(self, diagonal: bool = False) -> tuple[str, ...]:
        return HEX_FACINGS

    def direction(self, a: Cell, b: Cell) -> str | None:
        qa, ra, _ = to_cube(a)
        qb, rb, _ = to_cube(b)
        return _NAMES.get((qb - qa, rb - ra))

    def distance(self, a: Cell, b: Cell, diagonal: bool = False) -> int:
        qa, ra, sa = to_cube(a)
        qb, rb, sb = to_cube(b)
        return max(abs(qa - qb), abs(ra - rb), abs(sa - sb))

    def centre(self, cell: Cell) -> tuple[float, float]:
        x = cell.col * math.sqrt(3) / 2 + 0.5
        y = cell.row + 0.5 + (0.5 if cell.col & 1 else 0.0)
        return (x, y)

    def line_cells(self, a: Cell, b: Cell) -> list[Cell]:
        if a == b:
            return []
        n = self.distance(a, b)
        qa, ra, _ = to_cube(a)
        qb, rb, _ = to_cube(b)
        sa, sb = -qa - ra, -qb - rb
        out: list[Cell] = []
        for i in range(1, n):
            t = i / n
            # nudge to break ties the same way every time
            q, r, _ = _cube_round(
                qa + (qb - qa) * t + 1e-6, ra + (rb - ra) * t + 1e-6, sa + (sb - sa) * t - 2e-6
            )
            c = from_cube(q, r)
            if c not in (a, b) and c not in out:
                out.append(c)
        return out
