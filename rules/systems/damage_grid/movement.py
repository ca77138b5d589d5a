"""Movement in the damage-grid game (the text's Movement page is missing: shared/rules/README.md's default).

A Move activation has Speed points equal to the model's Speed location value (each hit on Speed
takes one away); each square entered costs 1, a `rough` or `difficult` square or debris (a cover
square destroyed by attacks) 1 more (option ``rough_cost``). Steps may be diagonal (option
``diagonal``). Walls, obstacles and other models block. A prone model stands up first, for
``stand_cost`` Speed points (1). A Move activation may be spread over several ``/move``
commands until its Speed points run out. A grappled model cannot move.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from rules.actions import Move
from rules.errors import IllegalAction, InputError
from rules.events import Event
from rules.geometry import Cell, Grid, cheapest_path
from rules.models import Combatant, Encounter
from rules.systems.damage_grid.events import DgMoved, ProneChanged
from rules.systems.damage_grid.options import values
from rules.systems.damage_grid.reach import blocking
from rules.systems.damage_grid.sheet import release
from rules.systems.damage_grid.state import DgCombatant, DgEncounter
from rules.systems.damage_grid.turns import activate, now
from rules.targets import cell_of

__all__ = ["move", "walk", "find_path", "step_cost", "MAX_PATH_STEPS"]

MAX_PATH_STEPS = 60
ROUGH = ("rough", "difficult")


def step_cost(enc: Encounter, grid: Grid, cell: Cell) -> int:
    """Speed points to enter ``cell``: 1, plus ``rough_cost`` for rough ground or debris."""
    return _step_costs(enc, grid)(cell)


def _step_costs(enc: Encounter, grid: Grid) -> Callable[[Cell], int]:
    """`step_cost` of any cell, with the debris and the option ``rough_cost`` read once (a search asks it of every step)."""
    debris, terrain, extra = DgEncounter.of(enc).debris, grid.terrain, values(enc).rough_cost

    def cost(cell: Cell) -> int:
        rough = terrain.get(cell) in ROUGH or (bool(debris) and cell.name in debris)
        return 1 + (extra if rough else 0)
    return cost


def _directions(enc: Encounter, grid: Grid) -> tuple[str, ...]:
    return grid.directions(values(enc).diagonal == "yes")


def _path_steps(enc: Encounter, grid: Grid, c: Combatant, text: str) -> list[Cell]:
    tokens = [t for t in re.split(r"[\s,]+", text.strip().upper()) if t]
    dirs = _directions(enc, grid)
    if not tokens or len(tokens) > MAX_PATH_STEPS:
        raise InputError(f"`path` takes 1 to {MAX_PATH_STEPS} steps like `N NE E`.")
    here, cells = cell_of(c), []
    for d in tokens:
        if d not in dirs:
            raise InputError(f"`{d}` is not a step here: use {' '.join(dirs)}.")
        nxt = grid.step(here, d)
        if nxt is None:
            raise IllegalAction(f"The step {d} from {here.name} leaves the map.")
        cells.append(nxt)
        here = nxt
    return cells


def _open(enc: Encounter, grid: Grid, c: Combatant, cell: Cell, solid: set[Cell] | None = None,
          holders: dict[Cell, Combatant] | None = None) -> str | None:
    """Why ``c`` cannot enter ``cell`` (None: it can); ``solid``: `blocking`, ``holders``:
    `Encounter.holders`, worked out already (a search asks it of every step)."""
    if cell in (blocking(enc, grid) if solid is None else solid):
        return f"{cell.name} is a wall or obstacle"
    other = enc.at(cell) if holders is None else holders.get(cell)
    if other is not None and other is not c:
        return f"{cell.name} is taken by {other.name}"
    return None


def find_path(enc: Encounter, grid: Grid, c: Combatant, goal: Cell, budget: int) -> list[Cell]:
    dirs = _directions(enc, grid)
    solid, holders, cost = blocking(enc, grid), enc.holders(), _step_costs(enc, grid)

    def successors(cell: Cell) -> Iterator[tuple[Cell, float, str]]:
        for d in dirs:
            nxt = grid.step(cell, d)
            if nxt is not None and _open(enc, grid, c, nxt, solid, holders) is None:
                yield nxt, cost(nxt), d

    found = cheapest_path(
        cell_of(c), lambda x: x == goal, successors, budget=budget,
        heuristic=lambda x: grid.distance(x, goal, diagonal=len(dirs) > 4),
    )
    if found is None:
        why = _open(enc, grid, c, goal)
        raise IllegalAction(
            f"{c.name} cannot reach {goal.name}" + (f": {why}" if why else f" with {budget} Speed points left")
            + ". Pick a nearer square, or `/init next` to end the activation."
        )
    return [cell for cell, _ in found[1]]


def walk(enc: Encounter, grid: Grid, c: Combatant, cells: list[Cell]) -> DgMoved:
    """Move ``c`` along ``cells`` (each checked), paying Speed points; stand up first if prone."""
    st = DgCombatant.of(c)
    stood = None
    if st.prone:
        stood = values(enc).stand_cost
        if stood > st.speed_left:
            raise IllegalAction(f"{c.name} is prone and needs {stood} Speed points to stand up; it has {st.speed_left}.")
    cost, rough, here = stood or 0, [], cell_of(c)
    for cell in cells:
        why = _open(enc, grid, c, cell)
        if why or not grid.adjacent(here, cell, diagonal=True):
            raise IllegalAction(f"{c.name} cannot step to {cell.name}: {why or 'not a single step'}.")
        step = step_cost(enc, grid, cell)
        if step > 1:
            rough.append(cell.name)
        cost += step
        here = cell
    if cost > st.speed_left:
        raise IllegalAction(
            f"That move costs {cost} Speed points and {c.name} has {st.speed_left} left: move less far, "
            f"or `/init next` to end the activation."
        )
    path = [c.position or ""] + [x.name for x in cells]
    st.speed_left -= cost
    if stood is not None:
        st.prone = False
    if cells:
        st.run = (st.run if st.moved >= now(enc) - 1 else 0) + len(cells)
        st.moved = now(enc)
        c.position = cells[-1].name
        release(enc, c)
    return DgMoved(actor=c.name, path=path, cost=cost, unit="Speed", left=st.speed_left, stood=stood, rough=rough)


def move(enc: Encounter, grid: Grid, action: Move) -> list[Event]:
    c = enc.get(action.actor)
    if action.facing and not action.to and not action.path:
        events = activate(enc, c, "move")
        c.facing = grid.parse_facing(action.facing)
        return events + [DgMoved(actor=c.name, path=[c.position or ""], cost=0, unit="Speed",
                                 left=DgCombatant.of(c).speed_left, facing=c.facing)]
    if bool(action.to) == bool(action.path):
        raise InputError("Give either `to` (a square: the cheapest path is found) or `path` (steps like `N NE E`).")
    events = activate(enc, c, "move")
    st = DgCombatant.of(c)
    budget = st.speed_left - (values(enc).stand_cost if st.prone else 0)
    cells = find_path(enc, grid, c, grid.parse(action.to), max(budget, 0)) if action.to else _path_steps(enc, grid, c, action.path or "")
    start = cell_of(c)
    was_prone = st.prone
    moved = walk(enc, grid, c, cells)
    if cells:
        c.facing = action.facing and grid.parse_facing(action.facing) or grid.facing_towards(start, cells[-1])
    elif action.facing:
        c.facing = grid.parse_facing(action.facing)
    moved.facing = c.facing
    events.append(moved)
    if was_prone:
        events.append(ProneChanged(actor=c.name, prone=False, cause="stood"))
    return events
