"""Area weapons and clouds.

"Any model in the Area Affect is affected by the weapon or artifact and is affected with separate
die rolls. This includes models friendly to the model that initiated the Area Affect.
Obstructions that the Area Affect cannot penetrate mean obstructed squares are not affected by
it." An area weapon (``area=burst2`` on its profile) attacks a square (``target`` a cell, or a
model's square) within its Reach and line of sight, paying 1 Combat Point; the shape comes from
`areas`. A pulse hits the target square when triggered, then the circle at reach k as the
k-th phase after it begins (an effect counted down at each phase's end). Each model in the
area, in the order they joined, is attacked with its own Power dice (then its own Mode test
dice): with no obstruction or cover between the centre and it.

"Some can stay in effect for multiple phases as Clouds": ``cloud=N`` leaves a cloud on the area's
squares for N phases (an effect counted down at each phase's end). Its squares obstruct lines of
sight. At the start of each phase every cloud rolls a d10 (`areas.roll_drift`): on a 0 it is
gone, else it drifts one square unless obstructed. For ``roll:``, those d10s come in the order
the clouds were placed, in the `/init next` that begins the phase.
"""
from __future__ import annotations

from rules.dice import Dice
from rules.effects import Effect, next_id
from rules.errors import IllegalAction
from rules.events import EffectAdded, Event
from rules.geometry import Cell, Grid
from rules.models import Combatant, Encounter
from rules.systems.damage_grid import areas
from rules.systems.damage_grid.attacks import check_reach, strike
from rules.systems.damage_grid.events import CloudDrifted
from rules.systems.damage_grid.movement import blocking
from rules.systems.damage_grid.reach import sight
from rules.systems.damage_grid.sheet import Weapon, weapon

__all__ = ["area_cells", "area_attack", "drift_clouds"]


def area_cells(enc: Encounter, grid: Grid, c: Combatant, centre: Cell, w: Weapon) -> list[Cell]:
    """The squares ``w``'s area covers when aimed at ``centre`` (on the map, not obstructed)."""
    shape, x = w.area  # type: ignore[misc]
    origin = c.cell
    cells = {
        "burst": lambda: areas.burst(centre, x),
        "corridor": lambda: areas.corridor(origin, centre, x),
        "fan": lambda: areas.fan(origin, centre, x, w.reach),
        "star": lambda: areas.star_burst(centre, x),
        "pulse": lambda: areas.pulse(centre, x, 0),
    }[shape]()
    return areas.on_board(cells, grid.width, grid.height, blocking(enc, grid))


def area_attack(
    enc: Encounter, grid: Grid, c: Combatant, centre: Cell, w: Weapon, words: dict[str, str], dice: Dice, forced: int
) -> list[Event]:
    check_reach(enc, grid, c, centre, w)
    if sight(enc, grid, c.cell, centre).lines == 3:  # type: ignore[arg-type]
        raise IllegalAction(f"{c.name} has no line of sight to {centre.name}: all three corner lines are obstructed.")
    cells = area_cells(enc, grid, c, centre, w)
    events: list[Event] = []
    if w.area and w.area[0] == "pulse":
        effect = Effect(id=next_id(enc.effects), name=w.name, ends="phase_end", left=w.area[1], code="pulse",
                        cells=[centre.name], source=c.name)
        enc.effects = [*enc.effects, effect]
    if w.cloud:
        effect = Effect(id=next_id(enc.effects), name=f"{w.name} cloud", ends="phase_end", left=w.cloud, code="cloud",
                        cells=[x.name for x in cells], source=c.name)
        enc.effects = [*enc.effects, effect]
        events.append(EffectAdded(actor=None, name=effect.name, ends="phase_end", left=w.cloud))
    return events + _caught(enc, grid, c, cells, centre, w, words, dice, forced)


def _caught(enc: Encounter, grid: Grid, c: Combatant, cells: list[Cell], centre: Cell, w: Weapon,
            words: dict[str, str], dice: Dice, forced: int = 0) -> list[Event]:
    """Every model on ``cells`` attacked in turn, each with its own dice."""
    events: list[Event] = []
    for m in [m for m in enc.combatants if m.on_board and m.cell in cells]:
        if m.status != "out":
            events += strike(enc, grid, c, m, w, words, dice, forced=forced, area=centre)
    return events


def phase_begins(enc: Encounter, dice: Dice) -> list[Event]:
    """As a phase begins: each cloud drifts, each pulse strikes its next circle."""
    return drift_clouds(enc, dice) + _pulses(enc, dice)


def _pulses(enc: Encounter, dice: Dice) -> list[Event]:
    """"Pulse X. The Area Affect is the reach circle in phases after the Area Affect is triggered. X is the
    last circle. Only the phasing circle is part of the Area Affect": circle k in the k-th phase after."""
    grid = enc.grid()
    events: list[Event] = []
    for e in [e for e in enc.effects if e.code == "pulse"]:
        c = enc.find(e.source)
        w = weapon(c, e.name) if c is not None else None
        if grid is None or c is None or c.cell is None or w is None or w.area is None:
            continue
        centre = grid.parse(e.cells[0])
        ring = areas.on_board(areas.pulse(centre, w.area[1], w.area[1] - e.left + 1), grid.width, grid.height,
                              blocking(enc, grid))
        events += _caught(enc, grid, c, ring, centre, w, {}, dice)
    return events


def drift_clouds(enc: Encounter, dice: Dice) -> list[Event]:
    """Each cloud's d10 at the start of a phase: gone on a 0, else drift (module text)."""
    grid = enc.grid()
    if grid is None:
        return []
    events: list[Event] = []
    kept: list[Effect] = []
    for e in enc.effects:
        if e.code != "cloud":
            kept.append(e)
            continue
        moved = areas.roll_drift(dice, [grid.parse(x) for x in e.cells], grid.width, grid.height, blocking(enc, grid))
        events.append(CloudDrifted(name=e.name, roll=moved.roll, direction=moved.direction,
                                   cells=[x.name for x in moved.cells], gone=moved.gone, blocked=moved.blocked))
        if not moved.gone:
            kept.append(e.model_copy(update={"cells": [x.name for x in moved.cells]}))
    enc.effects = kept
    return events
