"""Area effects as cells on the square grid, and clouds drifting on a d10.

"Some weapons produce explosions or effects that cover more than one square. ... Any model in
the Area Affect is affected by the weapon or artifact and is affected with separate die rolls.
This includes models friendly to the model that initiated the Area Affect. Obstructions that
the Area Affect cannot penetrate mean obstructed squares are not affected by it."
(:func:`on_board` drops squares off the map or obstructed.)

The text's diagrams are lost; the shapes chosen, over :class:`~rules.geometry.Cell` (column,
row; rows grow downwards):

- **Burst X**: "X is the reach of the Area Affect. From the top right corner the number is the
  reach of the Area Affect. The radius of the Area Affect is centered on the coloured square.
  Burst 1 Area Affects only affect the targeted square." Read as a disc X squares across: the
  squares whose centres lie within X/2 of its centre, which is the targeted square's centre for
  odd X and its top right corner for even X. Burst 1 is the targeted square; Burst 2 the four
  squares round that corner (the Smoke grenade's "Burst 2 ... will occupy 4 concentrated
  squares"); Burst 3 the nine round the target; Burst 4 a 4 x 4 block without its corners.
- **Corridor X**: "X is the number of columns wide the Area Affect is. The center line is always
  the most direct route from the initiating model to the target square. Odd corridors taken the
  next left column and evens the right." The centre line is one square per step from the model
  to the target (:func:`line`, the model's own square left out); the 2nd column is added on the
  right, the 3rd on the left, the 4th on the right and so on, left and right as seen from the
  model looking at the target. Columns run along the line: across it sideways for a line more
  vertical than not (diagonals included), up and down for a more horizontal one.
- **Fan X**: "X is the final width of the maximum reach of the Area Affect in columns. At half
  reach the Fan's with is half X rounding down". The fan runs along the line through the target
  for the weapon's reach; at step k of R its width is X * k / R rounded down (at least 1), the
  columns added as a corridor's. "Fan 2 Reach 3" is 1, 1 and 2 squares wide: 4 squares.
- **Star Burst X**: "X is the radius in reach of the Blast from the targeted square": every square
  within reach X of the target (:func:`reach_distance`): Star Burst 1 is the target and the
  eight around it.
- **Pulse X**: "The Area Affect is the reach circle in phases after the Area Affect is triggered.
  X is the last circle. Only the phasing circle is part of the Area Affect. Previous phases are
  not affected again": the phase it is triggered the target square (circle 0), then the
  squares at reach exactly 1, 2, ... X in the following phases, then nothing.

**Reach circles** (:func:`reach_distance`): the text's diagram numbers its circles round the square
directly in front of the model (B at Reach 1, the ring of eight round B at 2, the next ring at 3;
`reach.reach_to`). Round a targeted square the same rings are counted from that square: ring k
is the squares k steps away, diagonals included, so Star Burst 1 is the target and the eight
round it, and a pulse's circle k is the square ring k steps out.

**Clouds**: "A Cloud can any one of the Area Affects and is followed by a number, which is the
number of phases the Cloud remains on the grid ... Each phase roll a D10. On a 0 the Cloud
disappears prematurely. Any other result the cloud is moved, if not obstructed, in the
direction of the result". A d10's 10 is its 0. The direction table is lost; the default
(:data:`DRIFT`): 1 N, 2 NE, 3 E, 4 SE, 5 S, 6 SW, 7 W, 8 NW (clockwise from north), 9 no
drift; a move is one square, and a cloud that would enter an obstructed square or leave the
map stays where it is.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rules.dice import Dice
from rules.geometry import Cell, parse_cell

__all__ = [
    "DRIFT",
    "MAX_AREA",
    "reach_distance",
    "line",
    "burst",
    "corridor",
    "fan",
    "star_burst",
    "pulse",
    "on_board",
    "Drift",
    "drift",
    "roll_drift",
    "row_by_row",
]

#: the largest X (or reach) an area shape takes
MAX_AREA = 50
#: d10 result -> (direction, (columns, rows)); 10 reads as 0: the cloud is gone; 9: no drift
DRIFT: dict[int, tuple[str, tuple[int, int]] | None] = {
    1: ("N", (0, -1)),
    2: ("NE", (1, -1)),
    3: ("E", (1, 0)),
    4: ("SE", (1, 1)),
    5: ("S", (0, 1)),
    6: ("SW", (-1, 1)),
    7: ("W", (-1, 0)),
    8: ("NW", (-1, -1)),
    9: None,
}


def _size(x: int) -> int:
    return max(0, min(int(x), MAX_AREA))


def reach_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """The reach circle (ring) ``b`` lies on round square ``a``: the steps between them, diagonals included."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _sorted(cells: Iterable[tuple[int, int]]) -> list[Cell]:
    return sorted({Cell(c, r) for c, r in cells}, key=lambda c: (c.row, c.col))


def line(origin: Cell, target: Cell, steps: int | None = None) -> list[Cell]:
    """One square per step from ``origin`` (left out) towards ``target``, for ``steps`` steps
    (default: up to the target; more go on past it along the same line)."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    n = max(abs(dx), abs(dy))
    if n == 0:
        return []
    count = n if steps is None else _size(steps)

    def along(d: int, k: int) -> int:  # round(k * d / n), halves away from the origin
        q, r = divmod(abs(d) * k * 2 + n, 2 * n)
        return q if d >= 0 else -q

    return [Cell(origin[0] + along(dx, k), origin[1] + along(dy, k)) for k in range(1, count + 1)]


def _sideways(origin: Cell, target: Cell) -> tuple[int, int]:
    """The unit step to the right, seen from ``origin`` looking at ``target`` (along the minor axis)."""
    dx, dy = target[0] - origin[0], target[1] - origin[1]
    if abs(dy) >= abs(dx):  # more vertical: columns side by side; heading north, right is east
        return (1, 0) if dy < 0 else (-1, 0)
    return (0, 1) if dx > 0 else (0, -1)  # more horizontal: heading east, right is south


def _offsets(width: int) -> list[int]:
    """Column offsets to the right for a width: 0, then +1 (2nd, even: right), -1 (3rd, odd: left), +2, ..."""
    return [0] + [(j // 2) * (1 if j % 2 == 0 else -1) for j in range(2, _size(width) + 1)]


def _widen(centre: Iterable[Cell], right: tuple[int, int], width: int) -> list[tuple[int, int]]:
    return [(c[0] + right[0] * o, c[1] + right[1] * o) for c in centre for o in _offsets(width)]


def burst(target: Cell, x: int) -> list[Cell]:
    """Burst X: the squares whose centres lie within X/2 of the target's centre (odd X) or of its
    top right corner (even X)."""
    x = _size(x)
    # doubled coordinates: a centre is (2c, 2r), the top right corner (2c + 1, 2r - 1)
    cx, cy = (2 * target[0], 2 * target[1]) if x % 2 else (2 * target[0] + 1, 2 * target[1] - 1)
    half = x // 2 + 1
    return _sorted(
        (target[0] + i, target[1] + j)
        for i in range(-half, half + 1)
        for j in range(-half, half + 1)
        if (2 * (target[0] + i) - cx) ** 2 + (2 * (target[1] + j) - cy) ** 2 <= x * x
    )


def corridor(origin: Cell, target: Cell, x: int, length: int | None = None) -> list[Cell]:
    """Corridor X from ``origin`` to ``target`` (or ``length`` steps along that line)."""
    return _sorted(_widen(line(origin, target, length), _sideways(origin, target), x))


def fan(origin: Cell, target: Cell, x: int, reach: int) -> list[Cell]:
    """Fan X of the weapon's ``reach``, along the line from ``origin`` through ``target``."""
    reach, right = _size(reach), _sideways(origin, target)
    cells: list[tuple[int, int]] = []
    for k, step in enumerate(line(origin, target, reach), start=1):
        cells += _widen([step], right, max(1, _size(x) * k // reach))
    return _sorted(cells)


def _circle(target: Cell, radius: int, keep: Callable[[int], bool]) -> list[Cell]:
    r = _size(radius)
    return _sorted(
        (target[0] + i, target[1] + j)
        for i in range(-r - 1, r + 2)
        for j in range(-r - 1, r + 2)
        if keep(reach_distance(target, (target[0] + i, target[1] + j)))
    )


def star_burst(target: Cell, x: int) -> list[Cell]:
    """Star Burst X: every square within reach X of the target."""
    return _circle(target, x, lambda d: d <= _size(x))


def pulse(target: Cell, x: int, phase: int) -> list[Cell]:
    """Pulse X, ``phase`` phases after it was triggered (0: that phase): the squares on that reach
    circle only; nothing after circle X."""
    if not 0 <= phase <= _size(x):
        return []
    return _circle(target, phase, lambda d: d == phase)


def on_board(cells: Iterable[Cell], width: int, height: int, blocked: Iterable[Cell] = ()) -> list[Cell]:
    """The squares of an area on a ``width`` x ``height`` map and not obstructed."""
    shut = {Cell(*c) for c in blocked}
    return [Cell(*c) for c in cells if 0 <= c[0] < width and 0 <= c[1] < height and Cell(*c) not in shut]


@dataclass(frozen=True)
class Drift:
    """A cloud's d10 for the phase: ``gone`` on a 0, else ``direction`` (None: no drift); ``cells``
    where it is now; ``blocked`` when its move was obstructed and it stayed."""

    roll: int
    cells: tuple[Cell, ...]
    direction: str | None = None
    gone: bool = False
    blocked: bool = False


def drift(cells: Iterable[Cell], roll: int, width: int, height: int, blocked: Iterable[Cell] = ()) -> Drift:
    """Move a cloud on its d10 ``roll`` (1..10, 10 read as 0) on a ``width`` x ``height`` map."""
    now = tuple(Cell(*c) for c in cells)
    if roll % 10 == 0:
        return Drift(roll, (), gone=True)
    entry = DRIFT[roll]
    if entry is None:
        return Drift(roll, now)
    name, (dx, dy) = entry
    moved = [Cell(c[0] + dx, c[1] + dy) for c in now]
    if len(on_board(moved, width, height, blocked)) < len(moved):
        return Drift(roll, now, name, blocked=True)
    return Drift(roll, tuple(moved), name)


def roll_drift(dice: Dice, cells: Iterable[Cell], width: int, height: int, blocked: Iterable[Cell] = ()) -> Drift:
    """Roll the cloud's d10 for this phase and move it."""
    return drift(cells, dice.die(10), width, height, blocked)


def row_by_row(names: Iterable[str]) -> list[str]:
    """Square names as a reader scans the board: row by row, each row left to right."""
    return sorted(names, key=lambda x: parse_cell(x)[::-1])
