"""Grid geometry: square and hex boards, cells, facings, arcs, range, line of sight, paths.

Cells are written like a chess board: column letters (A..Z, then AA..), rows from 1 at the
top, e.g. ``C4``. Internally a :class:`Cell` is a 0-based ``(col, row)`` pair.

Square boards face ``N E S W``. Hex boards are flat-topped columns ("odd-q": odd columns sit
half a hex lower) and face ``N NE SE S SW NW``.
"""
from __future__ import annotations

import heapq
import itertools
import math
import re
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import NamedTuple, TypeVar

from rules.errors import InputError

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

MAX_SIDE = 60
SQUARE_FACINGS = ("N", "E", "S", "W")
HEX_FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
_SQUARE_VEC = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_DIAGONALS = {"NE": (1, -1), "SE": (1, 1), "SW": (-1, 1), "NW": (-1, -1)}
# cube direction vectors (q, r, s) for flat-topped hexes
_HEX_CUBE = {
    "N": (0, -1, 1),
    "NE": (1, -1, 0),
    "SE": (1, 0, -1),
    "S": (0, 1, -1),
    "SW": (-1, 1, 0),
    "NW": (-1, 0, 1),
}
_CELL_RE = re.compile(r"^\s*([A-Za-z]{1,2})\s*(\d{1,3})\s*$")


class Cell(NamedTuple):
    col: int
    row: int

    @property
    def name(self) -> str:
        return cell_name(self)

    def __str__(self) -> str:  # pragma: no cover - convenience
        return cell_name(self)


def _col_letters(col: int) -> str:
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def _col_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


def cell_name(cell: Cell | tuple[int, int]) -> str:
    return f"{_col_letters(cell[0])}{cell[1] + 1}"


def parse_cell(text: str) -> Cell:
    """Read ``C4`` into ``Cell(2, 3)``, without bounds checks."""
    m = _CELL_RE.match(text or "")
    if not m:
        raise InputError(
            f"`{text}` is not a cell: write a column letter and a row number, like `C4` or `AA12`."
        )
    row = int(m.group(2))
    if row < 1:
        raise InputError(f"`{text}` is not a cell: rows are numbered from 1.")
    return Cell(_col_number(m.group(1)), row - 1)


def parse_map_spec(text: str | None) -> tuple[str, int, int]:
    """Read ``"12x10"`` / ``"12x10 hex"`` / ``"none"`` into ``(kind, width, height)``."""
    if text is None or not text.strip() or text.strip().lower() in {"none", "no", "off"}:
        return ("none", 0, 0)
    m = re.match(r"^\s*(\d{1,3})\s*[xX×]\s*(\d{1,3})\s*(hex|square)?\s*$", text)
    if not m:
        raise InputError(
            f"`{text}` is not a map size: write `12x10` for squares, `12x10 hex` for hexes, "
            f"or `none` for no map."
        )
    width, height = int(m.group(1)), int(m.group(2))
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise InputError(f"A map is 1 to {MAX_SIDE} cells wide and high; `{text}` is not.")
    return (m.group(3) or "square").lower(), width, height


def _offset_to_cube(c: Cell) -> tuple[int, int, int]:
    q = c.col
    r = c.row - (c.col - (c.col & 1)) // 2
    return (q, r, -q - r)


def _cube_to_offset(q: int, r: int) -> Cell:
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


class Grid:
    """A board: its kind, size and the cells the GM has marked."""

    def __init__(
        self,
        kind: str,
        width: int,
        height: int,
        blocked: Iterable[Cell] = (),
        terrain: dict[Cell, str] | None = None,
        heights: dict[Cell, int] | None = None,
    ) -> None:
        if kind not in ("square", "hex"):
            raise ValueError(f"unknown grid kind {kind!r}")
        self.kind = kind
        self.width = width
        self.height = height
        self.blocked = frozenset(blocked)
        self.terrain = dict(terrain or {})
        self.heights = dict(heights or {})

    # -- cells -------------------------------------------------------------------------
    @property
    def facings(self) -> tuple[str, ...]:
        return SQUARE_FACINGS if self.kind == "square" else HEX_FACINGS

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell.col < self.width and 0 <= cell.row < self.height

    def parse(self, text: str) -> Cell:
        cell = parse_cell(text)
        if not self.contains(cell):
            last = cell_name(Cell(self.width - 1, self.height - 1))
            raise InputError(f"{cell_name(cell)} is off the map: cells run from A1 to {last}.")
        return cell

    def cells(self) -> Iterator[Cell]:
        for row in range(self.height):
            for col in range(self.width):
                yield Cell(col, row)

    def parse_facing(self, text: str) -> str:
        f = (text or "").strip().upper()
        if f not in self.facings:
            raise InputError(f"`{text}` is not a facing here: use one of {' '.join(self.facings)}.")
        return f

    # -- steps and adjacency ---------------------------------------------------------------
    def step(self, cell: Cell, direction: str) -> Cell | None:
        """The cell one step from ``cell`` towards ``direction`` (None if off the map)."""
        direction = direction.upper()
        if self.kind == "square":
            vec = _SQUARE_VEC.get(direction) or _DIAGONALS.get(direction)
            if vec is None:
                raise InputError(
                    f"`{direction}` is not a direction: use N E S W (or NE SE SW NW for diagonals)."
                )
            nxt = Cell(cell.col + vec[0], cell.row + vec[1])
        else:
            cube = _HEX_CUBE.get(direction)
            if cube is None:
                raise InputError(f"`{direction}` is not a hex direction: use {' '.join(HEX_FACINGS)}.")
            q, r, _ = _offset_to_cube(cell)
            nxt = _cube_to_offset(q + cube[0], r + cube[1])
        return nxt if self.contains(nxt) else None

    def neighbours(self, cell: Cell, diagonal: bool = False) -> list[Cell]:
        dirs: Iterable[str] = self.facings
        if self.kind == "square" and diagonal:
            dirs = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
        out = []
        for d in dirs:
            n = self.step(cell, d)
            if n is not None:
                out.append(n)
        return out

    def direction(self, a: Cell, b: Cell) -> str | None:
        """The direction of the single step from ``a`` to ``b``, if they touch."""
        if self.kind == "square":
            vec = (b.col - a.col, b.row - a.row)
            for name, v in itertools.chain(_SQUARE_VEC.items(), _DIAGONALS.items()):
                if v == vec:
                    return name
            return None
        qa, ra, _ = _offset_to_cube(a)
        qb, rb, _ = _offset_to_cube(b)
        for name, (dq, dr, _) in _HEX_CUBE.items():
            if (qa + dq, ra + dr) == (qb, rb):
                return name
        return None

    def adjacent(self, a: Cell, b: Cell, diagonal: bool = False) -> bool:
        d = self.direction(a, b)
        if d is None:
            return False
        return diagonal or self.kind == "hex" or len(d) == 1

    def distance(self, a: Cell, b: Cell, diagonal: bool = False) -> int:
        """Steps on an empty board: 4-way (or 8-way with ``diagonal``) squares, or hexes."""
        if self.kind == "hex":
            qa, ra, sa = _offset_to_cube(a)
            qb, rb, sb = _offset_to_cube(b)
            return max(abs(qa - qb), abs(ra - rb), abs(sa - sb))
        dx, dy = abs(a.col - b.col), abs(a.row - b.row)
        return max(dx, dy) if diagonal else dx + dy

    # -- facing and arcs -------------------------------------------------------------------
    def front(self, cell: Cell, facing: str) -> Cell | None:
        return self.step(cell, facing)

    def opposite(self, facing: str) -> str:
        fs = self.facings
        i = fs.index(facing)
        return fs[(i + len(fs) // 2) % len(fs)]

    def turn_steps(self, a: str, b: str) -> int:
        """How many facing steps (one side of the grid each) turn ``a`` into ``b``."""
        fs = self.facings
        d = abs(fs.index(a) - fs.index(b))
        return min(d, len(fs) - d)

    def centre(self, cell: Cell) -> tuple[float, float]:
        """The cell's centre in board units (a square side, or a hex's flat-to-flat height)."""
        if self.kind == "square":
            return (cell.col + 0.5, cell.row + 0.5)
        x = cell.col * math.sqrt(3) / 2 + 0.5
        y = cell.row + 0.5 + (0.5 if cell.col & 1 else 0.0)
        return (x, y)

    def bearing(self, a: Cell, b: Cell) -> float:
        """Angle from ``a`` to ``b`` in degrees clockwise from north."""
        ax, ay = self.centre(a)
        bx, by = self.centre(b)
        return math.degrees(math.atan2(bx - ax, -(by - ay))) % 360

    def _facing_angle(self, facing: str) -> float:
        fs = self.facings
        return fs.index(facing) * 360 / len(fs)

    def in_arc(self, origin: Cell, facing: str, target: Cell, width: float | None = None) -> bool:
        """Is ``target`` in the front arc: 90 degrees on squares, 120 (three hex sides) on hexes."""
        if origin == target:
            return False
        if self.kind == "square" and (width is None or width == 90):
            dx, dy = target.col - origin.col, target.row - origin.row
            # rotate so that the facing points north (dy negative)
            rot = {"N": (dx, dy), "E": (dy, -dx), "S": (-dx, -dy), "W": (-dy, dx)}[facing]
            fx, fy = rot
            return fy < 0 and abs(fx) <= -fy
        width = width or (90 if self.kind == "square" else 120)
        diff = (self.bearing(origin, target) - self._facing_angle(facing) + 180) % 360 - 180
        return abs(diff) <= width / 2 + 1e-9

    def facing_towards(self, a: Cell, b: Cell) -> str:
        """The facing from ``a`` that points most directly at ``b``."""
        angle = self.bearing(a, b)
        fs = self.facings
        step = 360 / len(fs)
        return fs[int(((angle + step / 2) % 360) // step)]

    # -- line of sight -----------------------------------------------------------------------
    def line_cells(self, a: Cell, b: Cell) -> list[Cell]:
        """Cells strictly between ``a`` and ``b`` whose interior the centre line crosses."""
        if a == b:
            return []
        if self.kind == "hex":
            n = self.distance(a, b)
            qa, ra, sa = _offset_to_cube(a)
            qb, rb, sb = _offset_to_cube(b)
            out: list[Cell] = []
            for i in range(1, n):
                t = i / n
                # nudge to break ties the same way every time
                q, r, _ = _cube_round(
                    qa + (qb - qa) * t + 1e-6, ra + (rb - ra) * t + 1e-6, sa + (sb - sa) * t - 2e-6
                )
                c = _cube_to_offset(q, r)
                if c not in (a, b) and c not in out:
                    out.append(c)
            return out
        (x0, y0), (x1, y1) = self.centre(a), self.centre(b)
        out = []
        for col in range(min(a.col, b.col), max(a.col, b.col) + 1):
            for row in range(min(a.row, b.row), max(a.row, b.row) + 1):
                c = Cell(col, row)
                if c in (a, b):
                    continue
                if _segment_hits_open_box(x0, y0, x1, y1, col, row, col + 1, row + 1):
                    out.append(c)
        return out

    def line_of_sight(self, a: Cell, b: Cell, blockers: Iterable[Cell] = ()) -> bool:
        """True when the line between centres crosses no blocked cell and no blocker."""
        stop = set(blockers) | self.blocked
        return not any(c in stop for c in self.line_cells(a, b))


def _segment_hits_open_box(
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


S = TypeVar("S", bound=Hashable)


def cheapest_path(
    start: S,
    is_goal: Callable[[S], bool],
    successors: Callable[[S], Iterable[tuple[S, float, str]]],
    budget: float | None = None,
    limit: int = 20000,
) -> tuple[float, list[tuple[S, str]]] | None:
    """Dijkstra over search states.

    ``successors(state)`` yields ``(next_state, cost, label)``. Returns the total cost and the
    list of ``(state, label)`` steps taken, or None when no goal is reachable within ``budget``.
    """
    counter = itertools.count()
    frontier: list[tuple[float, int, S]] = [(0.0, next(counter), start)]
    best: dict[S, float] = {start: 0.0}
    back: dict[S, tuple[S, str]] = {}
    seen = 0
    while frontier:
        cost, _, state = heapq.heappop(frontier)
        if cost > best.get(state, math.inf):
            continue
        if is_goal(state):
            steps: list[tuple[S, str]] = []
            cur = state
            while cur in back:
                prev, label = back[cur]
                steps.append((cur, label))
                cur = prev
            steps.reverse()
            return cost, steps
        seen += 1
        if seen > limit:
            break
        for nxt, step_cost, label in successors(state):
            new = cost + step_cost
            if budget is not None and new > budget:
                continue
            if new < best.get(nxt, math.inf):
                best[nxt] = new
                back[nxt] = (state, label)
                heapq.heappush(frontier, (new, next(counter), nxt))
    return None
