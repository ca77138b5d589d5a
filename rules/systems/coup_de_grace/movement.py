"""Coup-De-Grace's movement: steps, turns, the enemy doubling of MP costs, crawls, range and sight.

"You may never move through walls or other blocking obstacles": a `wall` or an `obstacle`
square blocks moves and sight; minis block moves and sight too. The path search calls
`rules.geometry.cheapest_path` (every call is in this module).
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from rules.actions import Move
from rules.dice import Dice
from rules.errors import IllegalAction, InputError
from rules.events import Event
from rules.geometry import Cell, Grid, cheapest_path
from rules.models import Combatant, Encounter
from rules.systems.coup_de_grace.events import Blocker, MiniMoved, MiniTurned
from rules.systems.coup_de_grace.options import values
from rules.systems.coup_de_grace.present import blocker_text
from rules.systems.coup_de_grace.sheet import ruleset, square_of
from rules.systems.coup_de_grace.state import CdgCombatant
from rules.systems.coup_de_grace.tables import (
    ALL_DIRECTIONS,
    MAX_PATH_STEPS,
    ORTHOGONAL,
    STEP_COST,
    TURN_COST,
)
from rules.systems.coup_de_grace.turns import activate, finish

__all__ = [
    "blocked",
    "blocker",
    "clear_line",
    "cost_here",
    "is_open",
    "move",
    "multiplier",
    "range_between",
    "spend",
]

#: a step: the square entered, the direction, and its MP cost
Step = tuple[Cell, str, int]


def blocked(grid: Grid) -> frozenset[Cell]:
    """Walls and blocking obstacles: the squares no mini enters and no line of sight crosses."""
    if not grid.terrain:
        return grid.blocked
    return grid.blocked | {c for c, kind in grid.terrain.items() if kind == "obstacle"}


def is_open(grid: Grid, occupied: set[Cell], cell: Cell | None) -> bool:
    return cell is not None and cell not in blocked(grid) and cell not in occupied


def blocker(enc: Encounter, grid: Grid, cell: Cell | None) -> Blocker:
    """What keeps a mini out of ``cell``."""
    if cell is None:
        return Blocker(what="edge")
    if cell in blocked(grid):
        return Blocker(what="wall", cell=cell.name)
    other = enc.at(cell)
    return Blocker(what="mini", cell=cell.name, by=other.name if other else None)


def _step(enc: Encounter, grid: Grid, occupied: set[Cell], here: Cell, d: str) -> tuple[Cell | None, str]:
    """The square one legal step from ``here`` towards ``d``, or None and why not."""
    nxt = _reach(grid, blocked(grid), occupied, here, d, values(enc).diagonal_squeeze)
    if nxt is not None:
        return nxt, ""
    nxt = grid.step(here, d)
    if not is_open(grid, occupied, nxt):
        return None, blocker_text(blocker(enc, grid, nxt))
    return None, "it squeezes between two blocked squares"


def _reach(grid: Grid, walls: frozenset[Cell], occupied: set[Cell], here: Cell, d: str, squeeze: bool) -> Cell | None:
    """`_step` without the words (the path search asks often): ``walls`` is `blocked`, ``squeeze``
    the option ``diagonal_squeeze``."""
    nxt = grid.step(here, d)
    if nxt is None or nxt in walls or nxt in occupied:
        return None
    if len(d) == 2 and not squeeze and not any(
        (side := grid.step(here, s)) is not None and side not in walls and side not in occupied for s in d
    ):
        return None
    return nxt


def multiplier(enc: Encounter, grid: Grid, c: Combatant, cell: Cell) -> tuple[int, list[str]]:
    """The doubling of MP costs for ``c`` standing on ``cell``, and the enemies causing it."""
    return _doubled(enc, grid, cell, _doublers(enc, c))


def _doublers(enc: Encounter, c: Combatant) -> list[tuple[str, Cell]]:
    """The enemies next to which ``c`` pays double (downed ones too with ``downed_adjacent``), with their squares."""
    downed_count = values(enc).downed_adjacent
    return [(o.name, square_of(o)) for o in enc.enemies_of(c) if o.on_board and (downed_count or o.status == "active")]


def _doubled(enc: Encounter, grid: Grid, cell: Cell, doublers: list[tuple[str, Cell]]) -> tuple[int, list[str]]:
    """`multiplier` with the enemies that double (`_doublers`) found already."""
    rules = ruleset(enc)
    near = [name for name, square in doublers if grid.adjacent(cell, square, diagonal=rules.diagonal)]
    if rules.double_each:
        return 2 ** len(near), near
    return (2 if near else 1), near


def cost_here(enc: Encounter, grid: Grid, c: Combatant, base: int) -> tuple[int, str]:
    """An MP cost paid where ``c`` stands, with the doubling explained (for a refusal)."""
    mult, near = multiplier(enc, grid, c, square_of(c))
    why = f" ({base} MP ×{mult}: next to {', '.join(near)})" if mult > 1 and base else ""
    return base * mult, why


def spend(c: Combatant, cost: int, what: str, why: str = "") -> int:
    s = CdgCombatant.of(c)
    left = s.mp or 0
    if cost > left:
        raise IllegalAction(
            f"{c.name} needs {cost} MP to {what}{why} but has {left} left: do something cheaper "
            f"or end the activation with `/init next`."
        )
    s.mp = left - cost
    return s.mp


def _steps_from_path(enc: Encounter, grid: Grid, c: Combatant, text: str, directions: tuple[str, ...]) -> list[Step]:
    """Follow ``path`` exactly, refusing any illegal step."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip().upper()) if t]
    if not tokens or len(tokens) > MAX_PATH_STEPS:
        raise InputError(f"`path` takes 1 to {MAX_PATH_STEPS} steps like `N N E`.")
    steps: list[Step] = []
    here = square_of(c)
    occupied = enc.occupied(exclude=c)
    for d in tokens:
        if d not in directions:
            raise InputError(
                f"`{d}` is not a step here: use {' '.join(directions)}"
                + ("" if len(directions) > 4 else " (no diagonal moves)")
                + "."
            )
        nxt, why = _step(enc, grid, occupied, here, d)
        if nxt is None:
            raise IllegalAction(
                f"{c.name} cannot step {d} from {here.name}: {why} (no moving into or through "
                f"minis or walls). Try `to:` to find a way round."
            )
        steps.append((nxt, d, multiplier(enc, grid, c, here)[0] * STEP_COST))
        here = nxt
    return steps


def _steps_to(enc: Encounter, grid: Grid, c: Combatant, dest: Cell) -> list[Step]:
    """The cheapest legal way to ``dest`` (facing is free with every step, so cells suffice)."""
    directions, diagonal = ruleset(enc).directions, ruleset(enc).diagonal
    occupied = enc.occupied(exclude=c)
    walls, squeeze = blocked(grid), values(enc).diagonal_squeeze
    mults: dict[Cell, int] = {}
    doublers: list[tuple[str, Cell]] | None = None  # found when the first square is left, as `multiplier` would

    def successors(cell: Cell) -> Iterator[tuple[Cell, float, str]]:
        nonlocal doublers
        if cell not in mults:
            if doublers is None:
                doublers = _doublers(enc, c)
            mults[cell] = _doubled(enc, grid, cell, doublers)[0]
        for d in directions:
            nxt = _reach(grid, walls, occupied, cell, d, squeeze)
            if nxt is not None:
                yield nxt, mults[cell] * STEP_COST, d

    def heuristic(cell: Cell) -> int:  # a step costs at least 1 MP
        return grid.distance(cell, dest, diagonal=diagonal) * STEP_COST

    start, left = square_of(c), CdgCombatant.of(c).mp or 0
    if grid.region(start) != grid.region(dest):
        raise IllegalAction(
            f"There is no way from {c.position} to {dest.name} for {c.name}: walls cut it off."
        )
    # within the MP left; past them, within twice as many, to say what the move would cost
    found = cheapest_path(start, lambda s: s == dest, successors, budget=left, heuristic=heuristic) or cheapest_path(
        start, lambda s: s == dest, successors, budget=2 * left, heuristic=heuristic
    )
    if found is None:
        raise IllegalAction(
            f"{c.name} cannot reach {dest.name} with the {left} MP left: minis and walls are in the way, "
            f"or it is too far. Pick a nearer square."
        )
    out: list[Step] = []
    prev = square_of(c)
    for cell, d in found[1]:
        out.append((cell, d, mults[prev] * STEP_COST))
        prev = cell
    return out


def _facing_after(grid: Grid, c: Combatant, last: str, wanted: str | None) -> str:
    """The facing after a move: as asked; else the mini keeps its facing ("move ... and change
    its facing to any of the four directions" for the same MP); a mini without one faces along
    its last step."""
    if wanted:
        return grid.parse_facing(wanted)
    if c.facing:
        return c.facing
    return last[0]


def move(enc: Encounter, grid: Grid, action: Move, dice: Dice) -> list[Event]:
    c = enc.get(action.actor)
    if not (action.to or action.path or action.facing):
        raise InputError("Say where: `to:` a cell, `path:` steps like `N N E`, or `facing:` to turn in place.")
    if action.to and action.path:
        raise InputError("Give `to` or `path`, not both.")
    events = activate(enc, c)
    if c.status == "downed":
        return events + _crawl(enc, grid, c, action, dice)
    here = square_of(c)
    dest = grid.parse(action.to) if action.to else here
    if dest != here and not is_open(grid, enc.occupied(exclude=c), dest):
        raise IllegalAction(
            f"{c.name} cannot end its move on {dest.name}: {blocker_text(blocker(enc, grid, dest))}."
        )
    if action.path or dest != here:
        steps = (
            _steps_from_path(enc, grid, c, action.path, ruleset(enc).directions)
            if action.path
            else _steps_to(enc, grid, c, dest)
        )
        cost = sum(s[2] for s in steps)
        end = steps[-1][0]
        why = f" (steps {'+'.join(str(s[2]) for s in steps)}: adjacent enemies double)" if cost > len(steps) else ""
        left = spend(c, cost, f"move {c.position} → {end.name}", why)
        facing = _facing_after(grid, c, steps[-1][1], action.facing)
        path = [c.position or "", *(s[0].name for s in steps)]
        c.position, c.facing = end.name, facing
        return events + [
            MiniMoved(actor=c.name, path=path, cost=cost, left=left, facing=facing, steps=[s[2] for s in steps])
        ]
    if not action.facing:
        raise IllegalAction(f"{c.name} is already at {c.position}: give another cell, or `facing:` to turn.")
    facing = grid.parse_facing(action.facing)
    if facing == c.facing:
        raise IllegalAction(f"{c.name} already faces {facing}: pick another facing.")
    if ruleset(enc).diagonal and not values(enc).turn_in_place:
        raise IllegalAction(
            f"In this encounter a mini turns only as it steps (`turn_in_place=no`): move {c.name} "
            f"one square with `facing:{facing}`."
        )
    cost, why = cost_here(enc, grid, c, TURN_COST)
    left = spend(c, cost, f"turn to face {facing}", why)
    c.facing = facing
    return events + [MiniTurned(actor=c.name, facing=facing, cost=cost, left=left)]


def _crawl(enc: Encounter, grid: Grid, c: Combatant, action: Move, dice: Dice) -> list[Event]:
    """A downed mini's crawl: one square, its whole activation."""
    rule = values(enc).crawl
    diagonal = ruleset(enc).diagonal if rule == "ruleset" else rule == "any"
    directions = ALL_DIRECTIONS if diagonal else ORTHOGONAL
    if action.facing:
        raise InputError(f"{c.name} is downed and has no facing: leave `facing` out (it picks one on recovering).")
    dest: Cell | None
    if action.path:
        steps = _steps_from_path(enc, grid, c, action.path, directions)
        dest = steps[0][0] if len(steps) == 1 else None
    else:
        dest = grid.parse(action.to or "")
        if not grid.adjacent(square_of(c), dest, diagonal=diagonal):
            dest = None
        elif not is_open(grid, enc.occupied(exclude=c), dest):
            raise IllegalAction(f"{c.name} cannot crawl there: {blocker_text(blocker(enc, grid, dest))}.")
    if dest is None:
        where = "any direction" if diagonal else "N, E, S or W"
        raise IllegalAction(f"{c.name} is downed and can only crawl one square ({where}).")
    path = [c.position or "", dest.name]
    c.position = dest.name
    return [MiniMoved(actor=c.name, path=path, crawl=True), *finish(enc, c, dice)]


def range_between(enc: Encounter, grid: Grid, a: Cell, b: Cell) -> int | None:
    """Squares from ``a`` to ``b`` as range counts them: straight (``range_walls=ignore``), or
    the shortest way round walls and obstacles (``around``; None where there is none)."""
    diagonal = ruleset(enc).diagonal
    if values(enc).range_walls == "ignore":
        return grid.distance(a, b, diagonal=diagonal)
    walls = blocked(grid)

    def successors(cell: Cell) -> Iterator[tuple[Cell, float, str]]:
        for n in grid.neighbours(cell, diagonal=diagonal):
            if n not in walls:
                yield n, 1.0, ""

    found = cheapest_path(a, lambda s: s == b, successors)
    return None if found is None else int(found[0])


def clear_line(enc: Encounter, grid: Grid, a: Cell, b: Cell, blockers: set[Cell]) -> bool:
    """Line of sight: the line between the centres crosses no mini, wall or obstacle square;
    with ``sight_corners=blocked``, touching one of their corners blocks it too."""
    stop = blockers | blocked(grid)
    if any(cell in stop for cell in grid.line_cells(a, b)):
        return False
    if values(enc).sight_corners == "open":
        return True
    (x0, y0), (x1, y1) = grid.centre(a), grid.centre(b)
    for cell in stop - {a, b}:
        for cx, cy in ((cell.col + dx, cell.row + dy) for dx in (0, 1) for dy in (0, 1)):
            cross = (x1 - x0) * (cy - y0) - (y1 - y0) * (cx - x0)
            inside = min(x0, x1) <= cx <= max(x0, x1) and min(y0, y1) <= cy <= max(y0, y1)
            if abs(cross) < 1e-9 and inside:
                return False
    return True
