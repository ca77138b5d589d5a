"""Reach, the row behind, line of sight, obstruction and cover in the damage-grid game.

**Reach circles** (:func:`reach_to`), read from the text's diagram (Meena facing up; ``--`` a
square with no number):

    3   2   2   2   C3
    A3  2   B1  2   3
    --  --  X   2   3
    --  --  1   --  --

X is Meena; B "is directly in front" at Reach 1; "both A and C are at a range of 3": A stands in
B's row two squares aside, C two rows ahead two squares aside. The circles are rings round B, the
square in front: the eight squares round B (beside Meena, beside B and the three beyond B) are
Reach 2, the next ring (two squares aside, or three rows ahead) Reach 3, and "Increase the reach
by 1 for every square beyond 3. So the next 'circle' of squares would require Reach 4". The square
immediately behind is Reach 1; the other ``--`` of the row behind are rows she cannot attack, and
the two ``--`` left of her are the wall that makes A "obstructed as two corner to corner lines
... pass through the wall". So a square ``aside`` squares to the side and ``ahead`` rows in front
is at Reach ``max(aside, |ahead - 1|) + 1``.

**The row behind.** A model attacks nothing "in any row behind the model except the square
immediately behind": rows are counted along its facing.

**Line of sight** is the text's corner rule (`rules.geometry.sight.corner_lines`): "Any line from the
model's back 3 corners connecting to the target's back 3 corners", the target's front corner being
the one facing the model. Two lines run along the sides of the band joining the squares (in one row
or column the row's edges, end to end), the third through the middle; a line is obstructed when it
touches a wall or obstacle (not debris), through it or along its side. So the text's wall beside
Meena touches one line to B in front of her, B "will gain the benefits of cover as on
corner-to-corner line passes through the Wall", and the same wall crosses two lines to A, "obstructed
as two corner to corner lines either pass through the wall". One line obstructed: partially
obstructed (-2 Accuracy); two: hidden (-4); three: no line of sight. Other models do not obstruct
("the model can fire around the obstructing model") but give cover.

**Cover.** "A target benefits from cover if any one line from the model's corner touches the
obstruction and is still in Line Of Sight": the cover is the strongest square or model any
corner line touches (the same lines sight counts): a square listed in
``cover_body`` has its own Body (soft 4-6, hard 7-12, impenetrable 13+), another wall Body ``wall_body`` (10, hard), an obstacle ``obstacle_body``
(5, soft), a model its size + Body. "If the Body of the cover is greater than the Power of the
attack the difference is added to the Body of the target."

**Smoke.** "Poor Visibility: Rain, smoke or some kind of interference. The Reach to the target is
increased by 50% rounded up." A cloud on the attacker's square, on the target's, or on a square any
corner line touches (the same lines) makes the visibility of that attack at least poor (option
``smoke``: ``poor-visibility``, or ``abysmal-visibility`` for thick smoke); it is the same factor
as the encounter's ``haze`` (rain and smoke are both Poor Visibility), so the worse of the two
counts. With ``smoke=blocks`` the cloud's squares obstruct the corner lines instead, as walls do
(no cover).

**The environment** multiplies the distance to the target ("Factors are cumulative"):
darkness doubles it unless the attacker sees in the dark or the target is lit; total
darkness allows only Reach 1 without Accuracy unless the attacker sees in the dark or the
target is lit, which double it instead; brightness doubles it unless the attacker is
sightless; extreme brightness allows only Reach 1 without Accuracy unless it is sightless;
poor visibility adds 50 % (rounded up), abysmal visibility doubles it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from rules.errors import IllegalAction
from rules.geometry import Cell, Grid, corner_lines, parse_cell
from rules.models import Combatant, Encounter
from rules.systems.damage_grid.areas import reach_distance
from rules.systems.damage_grid.options import values
from rules.systems.damage_grid.sheet import size
from rules.systems.damage_grid.state import DgCombatant, DgEncounter
from rules.targets import cell_of

__all__ = [
    "reach_distance",
    "reach_to",
    "blocking",
    "Sight",
    "sight",
    "line_of_sight",
    "walls_between",
    "square_body",
    "View",
    "lit",
    "view",
    "behind",
    "in_front_rows",
    "adjacent",
    "FACING_VECTORS",
    "clouds",
    "smoky",
]

FACING_VECTORS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def adjacent(a: Cell, b: Cell) -> bool:
    """One of the nine squares around ``a`` (its own included)."""
    return reach_distance(a, b) <= 1


def _ahead(origin: Cell, facing: str | None, other: Cell) -> tuple[int, int]:
    """``(rows ahead, squares aside)`` of ``other`` as ``origin`` faces."""
    fx, fy = FACING_VECTORS.get(facing or "N", (0, -1))
    dx, dy = other.col - origin.col, other.row - origin.row
    return dx * fx + dy * fy, abs(dx * fy - dy * fx)


def reach_to(origin: Cell, facing: str | None, other: Cell) -> int:
    """The reach circle ``other`` lies on for a model on ``origin`` facing ``facing`` (module text)."""
    ahead, aside = _ahead(origin, facing, other)
    if ahead == -1 and aside == 0:
        return 1
    return max(aside, abs(ahead - 1)) + 1


def in_front_rows(c: Combatant, target: Cell) -> bool:
    """Not in a row behind ``c``, or the square immediately behind it."""
    ahead, aside = _ahead(cell_of(c), c.facing, target)
    return ahead >= 0 or (ahead == -1 and aside == 0)


def behind(target: Combatant, attacker: Cell) -> bool:
    """``attacker`` stands in a row behind ``target`` (+1 Power)."""
    return _ahead(cell_of(target), target.facing, attacker)[0] < 0


def blocking(enc: Encounter, grid: Grid) -> set[Cell]:
    """Squares that obstruct and that no model enters: walls and obstacles not yet reduced to debris."""
    debris = {parse_cell(x) for x in DgEncounter.of(enc).debris}
    solid = set(grid.blocked) | {c for c, kind in grid.terrain.items() if kind == "obstacle"}
    return solid - debris


@lru_cache(maxsize=256)
def _plain(width: int, height: int, solid: frozenset[Cell]) -> Grid:
    return Grid("square", width, height, blocked=solid)


@dataclass(frozen=True)
class Sight:
    """The three corner lines: how many are obstructed, and the strongest cover any line crosses."""

    lines: int
    cover: int = 0
    cover_by: str | None = None

    @property
    def level(self) -> str:
        return ("none", "partial", "hidden", "blocked")[self.lines]


def clouds(enc: Encounter) -> set[Cell]:
    """Squares under a cloud (smoke: see the module's text)."""
    return {parse_cell(x) for e in enc.effects if e.code == "cloud" and e.target is None for x in e.cells}


def _lines(grid: Grid, a: Cell, b: Cell, solid: frozenset[Cell], through: bool = False) -> int:
    """How many corner lines from ``a`` to ``b`` touch a square of ``solid`` (``through``: pass through it)."""
    return corner_lines(_plain(grid.width, grid.height, solid), a, b, through=through)


def walls_between(enc: Encounter, grid: Grid, a: Cell, b: Cell) -> int:
    """How many corner lines from ``a`` to ``b`` walls and obstacles obstruct (clouds left out: smoke stops no blast)."""
    return _lines(grid, a, b, frozenset(blocking(enc, grid)))


def _in_the_way(grid: Grid, a: Cell, b: Cell, cell: Cell) -> bool:
    """A model "in the way of a model's target": a corner line passes through its square (one that
    only runs along its side leaves it beside the line: a model next to a melee target is not in the way)."""
    return _lines(grid, a, b, frozenset({cell}), through=True) > 0


def square_body(enc: Encounter, grid: Grid, cell: Cell) -> int:
    """A wall or obstacle square's Body as cover: its own (option ``cover_body``), else ``obstacle_body`` or
    ``wall_body`` by its kind."""
    opts = values(enc)
    if cell.name in opts.cover_body:
        return int(opts.cover_body[cell.name])
    return int(opts.obstacle_body if grid.terrain.get(cell) == "obstacle" else opts.wall_body)


def sight(enc: Encounter, grid: Grid, a: Cell, b: Cell) -> Sight:
    """Obstruction and cover between squares ``a`` and ``b``."""
    solid = frozenset(blocking(enc, grid))
    lines = _lines(grid, a, b, solid | clouds(enc) if values(enc).smoke == "blocks" else solid)
    # the squares a corner line may touch: the box round both squares and one beyond it; whether
    # a line does is `corner_lines`'s, as for sight
    box = (min(a.col, b.col) - 1, max(a.col, b.col) + 1, min(a.row, b.row) - 1, max(a.row, b.row) + 1)

    def inside(c: Cell) -> bool:
        return box[0] <= c.col <= box[1] and box[2] <= c.row <= box[3] and c not in (a, b)

    best, by = 0, None
    for cell in sorted(c for c in solid if inside(c)):
        body = square_body(enc, grid, cell)
        if body > best and _lines(grid, a, b, frozenset({cell})) > 0:
            best, by = body, cell.name
    for m in enc.combatants:
        at = m.cell
        if m.on_board and at is not None and inside(at):
            body = size(m) + max(DgCombatant.of(m).values.get("body", 0), 0)
            if body > best and _in_the_way(grid, a, b, at):
                best, by = body, m.name
    return Sight(lines, best, by)


def line_of_sight(enc: Encounter, grid: Grid, c: Combatant, where: Cell, name: str) -> Sight:
    """The sight from ``c`` to ``where`` (``name``: what is aimed at there), refused when all three
    corner lines are obstructed."""
    seen = sight(enc, grid, cell_of(c), where)
    if seen.lines == 3:
        raise IllegalAction(f"{c.name} has no line of sight to {name}: all three corner lines are obstructed.")
    return seen


@dataclass(frozen=True)
class View:
    """The environment's effect on one attack: the distance counted, and whether only Reach 1
    without Accuracy is possible (``limited``)."""

    distance: int
    limited: bool = False
    factors: tuple[str, ...] = ()


def lit(enc: Encounter, where: Cell) -> bool:
    """Is the target on ``where`` illuminated ("the target is not illuminated")? When the option ``lit`` says all
    are, the square is listed in ``lit_squares``, or the model on it has ``lit=yes`` on its sheet."""
    opts = values(enc)
    if opts.lit == "yes" or where.name in (opts.lit_squares or ()):
        return True
    m = enc.at(where)
    return m is not None and bool(m.sheet.get("lit"))


#: the visibility factors from the least to the worst
_HAZE = ("clear", "poor-visibility", "abysmal-visibility")


def smoky(enc: Encounter, a: Cell, b: Cell) -> bool:
    """Is a cloud on ``a`` or ``b``, or on a square one of the corner lines between them touches (smoke)?"""
    smoke = clouds(enc)
    grid = enc.grid() if smoke else None
    return grid is not None and (a in smoke or b in smoke or _lines(grid, a, b, frozenset(smoke)) > 0)


def view(enc: Encounter, c: Combatant, distance: int, where: Cell | None = None) -> View:
    """``distance`` to the square ``where`` changed by the environment, cumulatively (see the module's text)."""
    opts = values(enc)
    dark_sight = bool(c.sheet.get("see-in-dark")) or (where is not None and lit(enc, where))
    sightless = bool(c.sheet.get("sightless"))
    haze, named = opts.haze, {}
    if opts.smoke != "blocks" and where is not None and c.cell is not None and smoky(enc, c.cell, where):
        worst = max(haze, opts.environment if opts.environment in _HAZE else "clear", key=_HAZE.index)
        if _HAZE.index(opts.smoke) > _HAZE.index(worst):
            haze, named = opts.smoke, {opts.smoke: f"smoke ({opts.smoke})"}
    factors: list[str] = []
    d, limited = distance, False
    for factor in (opts.environment, haze):
        if factor == "darkness" and not dark_sight:
            d, factors = d * 2, factors + [factor]
        elif factor == "total-darkness":
            if dark_sight:
                d, factors = d * 2, factors + [factor]
            else:
                limited, factors = True, factors + [factor]
        elif factor == "brightness" and not sightless:
            d, factors = d * 2, factors + [factor]
        elif factor == "extreme-brightness" and not sightless:
            limited, factors = True, factors + [factor]
        elif factor == "poor-visibility":
            d, factors = math.ceil(d * 3 / 2), factors + [named.get(factor, factor)]
        elif factor == "abysmal-visibility":
            d, factors = d * 2, factors + [named.get(factor, factor)]
    return View(d, limited, tuple(factors))
