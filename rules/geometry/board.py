"""The board interface shared by square and hex grids; :class:`Grid` chooses the kind once.

``Grid("square", 12, 10)`` builds a :class:`~rules.geometry.square.SquareGrid`,
``Grid("hex", ...)`` a :class:`~rules.geometry.hex.HexGrid`: each kind implements the few
methods that differ (steps, directions, distance, centres, lines) and inherits the rest.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from rules.errors import InputError
from rules.geometry import sight
from rules.geometry.cells import Cell, cell_name, parse_cell

__all__ = ["Grid"]

_KINDS: dict[str, type[Grid]] = {}


class Grid:
    """A board: its kind, size and the cells the GM has marked. Read-only once built."""

    kind: ClassVar[str] = ""
    facings: ClassVar[tuple[str, ...]] = ()
    #: the front arc's width in degrees
    arc: ClassVar[float] = 90.0

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        _KINDS[cls.kind] = cls

    def __new__(cls, kind: str = "", *args: Any, **kw: Any) -> Grid:
        if cls is Grid:
            if kind not in _KINDS:
                raise ValueError(f"unknown grid kind {kind!r}")
            cls = _KINDS[kind]
        return object.__new__(cls)

    def __init__(
        self,
        kind: str,
        width: int,
        height: int,
        blocked: Iterable[Cell] = (),
        terrain: dict[Cell, str] | None = None,
        heights: dict[Cell, int] | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.blocked = frozenset(blocked)
        self.terrain = dict(terrain or {})
        self.heights = dict(heights or {})
        self._steps: dict[tuple[Cell, str], Cell | None] = {}
        self._exits: dict[tuple[Cell, bool], tuple[tuple[str, Cell], ...]] = {}
        self._around: dict[tuple[Cell, bool], tuple[Cell, ...]] = {}
        self._ways: dict[tuple[Cell, bool], tuple[tuple[str, Cell], ...]] = {}
        self._regions: list[int] | None = None

    # -- what each kind implements ------------------------------------------------------------
    def _step(self, cell: Cell, direction: str) -> Cell:
        raise NotImplementedError

    def directions(self, diagonal: bool = False) -> tuple[str, ...]:
        """The single-step directions (squares add the four diagonals with ``diagonal``)."""
        raise NotImplementedError

    def direction(self, a: Cell, b: Cell) -> str | None:
        """The direction of the single step from ``a`` to ``b``, if they touch."""
        raise NotImplementedError

    def distance(self, a: Cell, b: Cell, diagonal: bool = False) -> int:
        """Steps on an empty board."""
        raise NotImplementedError

    def centre(self, cell: Cell) -> tuple[float, float]:
        """The cell's centre in board units (a square side, or a hex's flat-to-flat height)."""
        raise NotImplementedError

    def line_cells(self, a: Cell, b: Cell) -> list[Cell]:
        """Cells strictly between ``a`` and ``b`` whose interior the centre line crosses."""
        raise NotImplementedError

    def corner_cells(self, a: Cell, b: Cell) -> list[tuple[Cell, Cell]]:
        """The pairs of cells on either side of each corner the centre line passes exactly through."""
        return []

    def _adjacent_direction(self, d: str, diagonal: bool) -> bool:
        return True

    # -- cells -----------------------------------------------------------------------------------
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

    # -- steps and adjacency -------------------------------------------------------------------------
    def step(self, cell: Cell, direction: str) -> Cell | None:
        """The cell one step from ``cell`` towards ``direction`` (None if off the map); cached."""
        key = (cell, direction)
        try:
            return self._steps[key]
        except KeyError:
            pass
        nxt = self._step(cell, direction.upper())
        found = nxt if self.contains(nxt) else None
        self._steps[key] = found
        return found

    def exits(self, cell: Cell, diagonal: bool = False) -> tuple[tuple[str, Cell], ...]:
        """``(direction, cell)`` of each single step from ``cell`` that stays on the map, in the
        order of `directions`; cached (a path search asks for every cell it reaches)."""
        key = (cell, diagonal)
        try:
            return self._exits[key]
        except KeyError:
            pass
        found = self._exits[key] = tuple((d, n) for d in self.directions(diagonal) if (n := self.step(cell, d)) is not None)
        return found

    def ways(self, cell: Cell, diagonal: bool = False) -> tuple[tuple[str, Cell], ...]:
        """`exits` less the steps into a wall and those that cut a wall's corner (`cuts_corner`):
        the steps the walls leave a mover standing on ``cell``; cached."""
        key = (cell, diagonal)
        try:
            return self._ways[key]
        except KeyError:
            pass
        walls = self.blocked
        found = self._ways[key] = tuple(
            (d, n) for d, n in self.exits(cell, diagonal) if n not in walls and not self.cuts_corner(cell, n)
        )
        return found

    def cuts_corner(self, a: Cell, b: Cell) -> bool:
        """Does the single step from ``a`` to ``b`` cut the corner of a wall? (Never on hexes.)"""
        return False

    def neighbours(self, cell: Cell, diagonal: bool = False) -> tuple[Cell, ...]:
        """The cells one step away, in the order of `directions` (`exits`' cells); cached."""
        key = (cell, diagonal)
        try:
            return self._around[key]
        except KeyError:
            pass
        found = self._around[key] = tuple(n for _, n in self.exits(cell, diagonal))
        return found

    def adjacent(self, a: Cell, b: Cell, diagonal: bool = False) -> bool:
        d = self.direction(a, b)
        return d is not None and self._adjacent_direction(d, diagonal)

    def region(self, cell: Cell) -> int:
        """Which part of the board walled off from the others ``cell`` lies in (walls are -1)."""
        if self._regions is None:
            self._regions = self._label_regions()
        return self._regions[cell.col * self.height + cell.row]

    def _label_regions(self) -> list[int]:
        """Label the open cells (by column: ``col * height + row``) by the region their widest steps
        (diagonals too) connect them in. A column's open cells between walls are a run, joined by its
        N and S steps; the runs of neighbouring columns that a step joins are one region
        (union-find), so the work grows with the walls, not the cells."""
        w, h = self.width, self.height
        walls: list[list[int]] = [[] for _ in range(w)]
        for c in self.blocked:
            if self.contains(c):
                walls[c.col].append(c.row)
        runs: list[list[tuple[int, int, int]]] = []  # each column's (first row, last row, run)
        parent: list[int] = []
        for col in range(w):
            here, top = [], 0
            for row in [*sorted(walls[col]), h]:
                if row > top:
                    here.append((top, row - 1, len(parent)))
                    parent.append(len(parent))
                top = row + 1
            runs.append(here)

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = i = parent[parent[i]]
            return i

        # a step east from a column of each parity goes lo..hi rows down
        spans = [(min(rises), max(rises)) for parity in (0, 1)
                 for rises in [[dr for dc, dr in self._offsets(parity) if dc == 1]]]
        for col in range(w - 1):
            lo, hi = spans[col & 1]
            left, right = runs[col], runs[col + 1]
            x = y = 0
            while x < len(left) and y < len(right):  # the runs a step joins: [a + lo, b + hi] meets [p, q]
                a, b, i = left[x]
                p, q, j = right[y]
                if p <= b + hi and a + lo <= q:
                    ri, rj = root(i), root(j)
                    if ri != rj:
                        parent[max(ri, rj)] = min(ri, rj)
                if b + hi <= q:
                    x += 1
                else:
                    y += 1
        labels = [-1] * (w * h)
        for col, here in enumerate(runs):
            for a, b, i in here:
                labels[col * h + a:col * h + b + 1] = [root(i)] * (b - a + 1)
        return labels

    def _offsets(self, parity: int) -> list[tuple[int, int]]:
        """``(dcol, drow)`` of every single step (diagonals too) from a column of this parity."""
        here = Cell(parity, 2)
        return [(n.col - here.col, n.row - here.row) for d in self.directions(True) for n in [self._step(here, d)]]

    # -- facing and arcs ---------------------------------------------------------------------------------
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

    def bearing(self, a: Cell, b: Cell) -> float:
        """Angle from ``a`` to ``b`` in degrees clockwise from north."""
        ax, ay = self.centre(a)
        bx, by = self.centre(b)
        return math.degrees(math.atan2(bx - ax, -(by - ay))) % 360

    def _facing_angle(self, facing: str) -> float:
        fs = self.facings
        return fs.index(facing) * 360 / len(fs)

    def in_arc(self, origin: Cell, facing: str, target: Cell, width: float | None = None) -> bool:
        """Is ``target`` in the front arc (``width`` degrees, the kind's default if None)?"""
        if origin == target:
            return False
        width = width or self.arc
        diff = (self.bearing(origin, target) - self._facing_angle(facing) + 180) % 360 - 180
        return abs(diff) <= width / 2 + 1e-9

    def facing_towards(self, a: Cell, b: Cell) -> str:
        """The facing from ``a`` that points most directly at ``b``."""
        angle = self.bearing(a, b)
        fs = self.facings
        step = 360 / len(fs)
        return fs[int(((angle + step / 2) % 360) // step)]

    # -- line of sight ---------------------------------------------------------------------------------------
    def line_of_sight(
        self, a: Cell, b: Cell, blockers: Iterable[Cell] = (), corner: str = "open"
    ) -> bool:
        """True when the line between centres crosses no blocked cell and no blocker.

        ``corner`` says what a corner the line passes exactly through does (see
        :mod:`rules.geometry.sight`): ``open`` (the default) never blocks, ``blocks`` blocks
        when either cell beside the corner is blocked, ``either`` only when both are.
        """
        return sight.line_of_sight(self, a, b, blockers, corner)
