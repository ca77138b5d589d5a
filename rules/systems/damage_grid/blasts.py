"""Area weapons and clouds.

"Any model in the Area Affect is affected by the weapon or artifact and is affected with separate
die rolls. This includes models friendly to the model that initiated the Area Affect.
Obstructions that the Area Affect cannot penetrate mean obstructed squares are not affected by
it." An area weapon (``area=burst2`` on its profile) attacks a square (``target`` a cell, or a
model's square) within its Reach and line of sight, paying 1 Combat Point; the shape comes from
`areas`. A pulse hits the target square when triggered, then the circle at reach k as the
k-th phase after it begins (an effect counted down at each phase's end). Each model in the
area, in the order they joined, is attacked with its own Power dice (then its own Mode test
dice): with no obstruction or cover between the centre and it, except the model on the targeted
square, which has that square's sight and cover from the attacker (a Burst 1 aimed at a hidden
model is as hidden as a shot). A square behind an obstruction seen from the centre (a corridor
or fan: from the attacker) is not affected: two obstructed corner lines or more, the text's own
"obstructed" (option ``area_obstructed``), unless the weapon is marked ``penetrate``. Clouds and
models stop no area.

"Some can stay in effect for multiple phases as Clouds": ``cloud=N`` leaves a cloud on the area's
squares for N phases (an effect counted down at each phase's end). It is smoke: an attack through
it, into it or out of it is in Poor Visibility (`reach.view`, option ``smoke``). At the start of each later phase it lasts every cloud rolls a d10 (`areas.roll_drift`): on
a 0 it is gone, else it drifts one square unless obstructed; then it attacks the models under it
with its weapon. For ``roll:``, each cloud's d10 and the dice of the models under it come in the
order the clouds were placed, in the `/init next` that begins the phase.
"""
from __future__ import annotations

from rules.dice import Dice
from rules.effects import Effect, next_id
from rules.errors import IllegalAction
from rules.events import Event
from rules.geometry import Cell, Grid
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.damage_grid import areas
from rules.systems.damage_grid.attacks import NO_ATTACK_WORDS, check_reach, strike
from rules.systems.damage_grid.events import (
    AreaEmpty,
    CloudDrifted,
    CloudPlaced,
    DgAttack,
)
from rules.systems.damage_grid.options import values
from rules.systems.damage_grid.reach import (
    Sight,
    blocking,
    line_of_sight,
    walls_between,
)
from rules.systems.damage_grid.sheet import Weapon, weapon
from rules.targets import cell_of

__all__ = ["area_cells", "area_attack", "drift_clouds"]


#: a cloud's name is its weapon's with this after it
CLOUD = " cloud"
#: the obstructed corner lines, seen from an area's centre, that leave a square out (option ``area_obstructed``)
OBSTRUCTED = {"partial": 1, "hidden": 2, "blocked": 3}


def unobstructed(enc: Encounter, grid: Grid, origin: Cell, cells: list[Cell], w: Weapon) -> list[Cell]:
    """"Obstructions that the Area Affect cannot penetrate mean obstructed squares are not affected by it":
    the squares of ``cells`` on the map, not obstructed, and not behind an obstruction seen from ``origin``
    (unless ``w`` penetrates)."""
    cells = areas.on_board(cells, grid.width, grid.height, blocking(enc, grid))
    if w.penetrate:
        return cells
    need = OBSTRUCTED[values(enc).area_obstructed]
    return [x for x in cells if x == origin or walls_between(enc, grid, origin, x) < need]


def area_cells(enc: Encounter, grid: Grid, c: Combatant, centre: Cell, w: Weapon) -> list[Cell]:
    """The squares ``w``'s area covers when aimed at ``centre`` (see :func:`unobstructed`): a burst, star burst
    or pulse seen from the targeted square, a corridor or fan from the attacker's."""
    if w.area is None:
        raise IllegalAction(f"The {w.name} has no area: attack a model with it.")
    shape, x = w.area
    origin = cell_of(c)
    cells = {
        "burst": lambda: areas.burst(centre, x),
        "corridor": lambda: areas.corridor(origin, centre, x),
        "fan": lambda: areas.fan(origin, centre, x, w.reach),
        "star": lambda: areas.star_burst(centre, x),
        "pulse": lambda: areas.pulse(centre, x, 0),
    }[shape]()
    return unobstructed(enc, grid, origin if shape in ("corridor", "fan") else centre, cells, w)


def area_attack(
    enc: Encounter, grid: Grid, c: Combatant, centre: Cell, w: Weapon, words: OptionValues, dice: Dice, forced: int
) -> list[Event]:
    check_reach(enc, grid, c, centre, w)
    seen = line_of_sight(enc, grid, c, centre, centre.name)
    cells = area_cells(enc, grid, c, centre, w)
    events: list[Event] = []
    if w.area and w.area[0] == "pulse":
        effect = Effect(id=next_id(enc.effects), name=w.name, ends="phase_end", left=w.area[1], code="pulse",
                        cells=[centre.name], source=c.name)
        enc.effects = [*enc.effects, effect]
    if w.cloud:
        # the aimed square first: it drifts with the cloud and names where the cloud attacks from
        names = sorted((x.name for x in cells), key=lambda name: name != centre.name)
        effect = Effect(id=next_id(enc.effects), name=f"{w.name}{CLOUD}", ends="phase_end", left=w.cloud, code="cloud",
                        cells=names, source=c.name)
        enc.effects = [*enc.effects, effect]
        events.append(CloudPlaced(name=effect.name, cells=areas.row_by_row(names), phases=w.cloud))
    caught = _caught(enc, grid, c, cells, centre, w, words, dice, forced, seen)
    if w.power and not any(isinstance(e, DgAttack) for e in caught):  # said, not left silent: the CP is spent
        caught.append(AreaEmpty(actor=c.name, weapon=w.name, at=centre.name))
    return events + caught


def _caught(enc: Encounter, grid: Grid, c: Combatant, cells: list[Cell], centre: Cell, w: Weapon,
            words: OptionValues, dice: Dice, forced: int = 0, seen: Sight | None = None) -> list[Event]:
    """Every model on ``cells`` attacked in turn, each with its own dice; the one on the targeted square with
    ``seen``, the sight and cover of that square (an area aimed at a hidden model is aimed at a hidden square)."""
    events: list[Event] = []
    if w.power == 0:  # "rolls as many D6 as the Power": a smoke grenade attacks nobody
        return []
    for m in [m for m in enc.combatants if m.on_board and m.cell in cells]:
        if m.status != "out":
            aimed = seen if m.cell == centre else None
            events += strike(enc, grid, c, m, w, words, dice, forced=forced, area=centre, seen=aimed)
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
        ring = unobstructed(enc, grid, centre, areas.pulse(centre, w.area[1], w.area[1] - e.left + 1), w)
        events += _caught(enc, grid, c, ring, centre, w, NO_ATTACK_WORDS, dice)
    return events


def drift_clouds(enc: Encounter, dice: Dice) -> list[Event]:
    """Each cloud as a phase begins (module text): one that lasts into this phase rolls its d10 (gone on a 0,
    else it drifts), then attacks every model under it with its weapon; one whose last phase has ended
    (``left`` 1: it is counted out with this phase's change) rolls nothing."""
    grid = enc.grid()
    if grid is None:
        return []
    events: list[Event] = []
    kept: list[Effect] = []
    for e in enc.effects:
        if e.code != "cloud" or e.left <= 1:
            kept.append(e)
            continue
        with dice.rolling_for(e.source or e.name):  # its thrower's d10: typed by its player or the GM, nobody else
            moved = areas.roll_drift(dice, [grid.parse(x) for x in e.cells], grid.width, grid.height, blocking(enc, grid))
        events.append(CloudDrifted(name=e.name, roll=moved.roll, direction=moved.direction,
                                   cells=areas.row_by_row(x.name for x in moved.cells), gone=moved.gone, blocked=moved.blocked))
        if moved.gone:
            continue
        kept.append(e.model_copy(update={"cells": [x.name for x in moved.cells]}))
        events += _under_cloud(enc, grid, e, list(moved.cells), dice)
    enc.effects = kept
    return events


def _under_cloud(enc: Encounter, grid: Grid, e: Effect, cells: list[Cell], dice: Dice) -> list[Event]:
    """"Some can stay in effect for multiple phases as Clouds": the models under a cloud are caught again in each
    phase it lasts, by the weapon that made it (none if its thrower has left the board), as an area on the square
    it was aimed at, moved with it (its first square)."""
    c = enc.find(e.source)
    w = weapon(c, e.name.removesuffix(CLOUD)) if c is not None else None
    if c is None or c.cell is None or w is None or not cells:
        return []
    return _caught(enc, grid, c, cells, cells[0], w, NO_ATTACK_WORDS, dice)
