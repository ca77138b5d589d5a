"""Movement in Knights of Valour: steps, difficult terrain, vault, leap, climb, descend, the
cheapest path of `/move to:`, and Attacks of Opportunity.

Map. Walls block moves and line of sight, and their corners cannot be cut diagonally.
Diagonal steps cost 5 ft. Entering a ``difficult`` or ``rough`` square costs 10 ft (movement
halved). ``heights`` are elevations in feet. Vault: an ``obstacle`` square whose top (its
height, default ``obstacle_height``) is at most the mover's height above it is crossed
straight on for 5 ft without stopping on it; a higher one must be climbed. Leap: ``gap``
squares are crossed in a straight line, 5 ft each, when their total width (5 ft a square) is
at most twice the mover's height; nobody stops in a gap. Climb: rising costs 2 ft per foot
on top of the step (half speed); a rise above the mover's height needs a square marked
``climb`` (or an obstacle). Descend: a drop up to the mover's height is free, a deeper one
costs 2 ft per foot. Active enemies block squares; allies and downed combatants may be passed
but not stopped on.

Attacks of Opportunity. Text: "use a Move Action that takes you more than 5 ft away from an
adjacent enemy": every square left next to an active enemy for one more than 5 ft from it
provokes that enemy's free attack ("a free Combat Attack Action": its wielded melee weapon, else its best one;
with none, a shot from a ranged weapon that reaches 5 ft), once per enemy per turn, including squares passed in an ally's space or in a vault or leap. They are
resolved before the stride (the steps up to the next square where one may stop) begins, in
the order of the steps and then of initiative; a mover dropped by one stops where it was.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rules.actions import Move
from rules.dice import Dice
from rules.errors import IllegalAction, InputError
from rules.events import Event
from rules.geometry import Cell, Grid, cheapest_path
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.knights_of_valour import sheet
from rules.systems.knights_of_valour.attacks import (
    distance,
    end_if_down,
    ground,
    left,
    strike,
)
from rules.systems.knights_of_valour.events import Fell, KovMoved, PathProvokes, Step
from rules.systems.knights_of_valour.state import KovCombatant
from rules.systems.knights_of_valour.tables import (
    DIFFICULT,
    DIRECTIONS,
    SQUARE_FT,
    Weapon,
    effective_range,
)
from rules.systems.knights_of_valour.turns import acting, spend
from rules.targets import cell_of

__all__ = ["move"]


class _Pos(NamedTuple):
    """A search state while moving: where, how (stand, vault, leap), and at what elevation."""

    cell: Cell
    mode: str = "stand"
    heading: str | None = None
    run: int = 0
    level: int = 0


class _Step(NamedTuple):
    pos: _Pos
    cost: int
    how: str
    feet: int = 0


@dataclass(frozen=True)
class _Foe:
    name: str
    cell: Cell
    level: int
    weapon: Weapon
    #: its free attack is a shot (it has no melee weapon)
    ranged: bool = False


@dataclass(frozen=True)
class _Mover:
    name: str
    grid: Grid
    opts: OptionValues
    height: int
    blockers: frozenset[Cell]
    others: frozenset[Cell]
    #: enemies that may still make an Attack of Opportunity, in initiative order, by the squares
    #: next to them (so a step far from every enemy looks nothing up)
    near: dict[Cell, tuple[_Foe, ...]]
    #: the `ground` of the squares with a height or an obstacle (every other square's is 0)
    levels: dict[Cell, int]

    def ground(self, cell: Cell) -> int:
        return self.levels.get(cell, 0)

    def can_stop(self, pos: _Pos) -> bool:
        return pos.mode == "stand" and pos.cell not in self.others

    def provoked(self, here: _Pos, there: _Pos) -> list[_Foe]:
        """Foes next to ``here`` (5 ft, height counted) that ``there`` is more than 5 ft from."""
        return [
            f for f in self.near.get(here.cell, ())
            if distance(here.cell, here.level, f.cell, f.level) <= SQUARE_FT
            and distance(there.cell, there.level, f.cell, f.level) > SQUARE_FT
        ]


def _opportunity_weapon(opts: OptionValues, e: Combatant) -> tuple[Weapon, bool] | None:
    """What ``e`` makes "a free Combat Attack Action" with, and whether it is a shot: its melee weapon (`best_melee`),
    else a ranged one it is proficient in that reaches 5 ft (the wielded one, else the highest P.L.); None: it has
    none."""
    melee = sheet.best_melee(opts, e)
    if melee is not None:
        return melee, False
    levels, strength, held = sheet.levels(e), sheet.stat(e, "str"), sheet.wielded(opts, e)
    shots = [w for n in sheet.usable(e) if (w := sheet.weapon(opts, n)) and w.ranged
             and effective_range(w, strength)[1] >= SQUARE_FT]
    best = held if held in shots else max(shots, key=lambda w: levels[w.name], default=None)
    return None if best is None else (best, True)


def _mover(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant) -> _Mover:
    active = [e for e in enc.enemies_of(c) if e.status == "active" and e.cell is not None]
    foes: list[_Foe] = []
    if opts.aoo == "yes":
        rank = {n: i for i, n in enumerate(enc.order)}
        for e in sorted(active, key=lambda e: rank.get(e.name, len(rank))):
            armed = _opportunity_weapon(opts, e)
            if armed is not None and e.name not in KovCombatant.of(c).provoked:
                cell = e.cell
                assert cell is not None
                foes.append(_Foe(e.name, cell, ground(grid, opts, cell), *armed))
    return _Mover(
        name=c.name,
        grid=grid,
        opts=opts,
        height=sheet.height(opts, c),
        blockers=frozenset(e.cell for e in active if e.cell is not None),
        others=frozenset(enc.occupied(exclude=c)),
        near=_near(grid, foes),
        levels={cell: ground(grid, opts, cell)
                for cell in {*grid.heights, *(cell for cell, kind in grid.terrain.items() if kind == "obstacle")}},
    )


def _near(grid: Grid, foes: list[_Foe]) -> dict[Cell, tuple[_Foe, ...]]:
    near: dict[Cell, list[_Foe]] = {}
    for f in foes:
        for cell in (f.cell, *grid.neighbours(f.cell, diagonal=True)):
            near.setdefault(cell, []).append(f)
    return {cell: tuple(fs) for cell, fs in near.items()}


class _No(NamedTuple):
    """Why a step cannot be taken: the reason's code and the feet its words need (`_words`)."""

    why: str
    feet: int = 0


def _transition(m: _Mover, pos: _Pos, d: str) -> _Step | str:
    """One step from ``pos`` towards ``d``, or the reason it cannot be taken."""
    nxt = m.grid.step(pos.cell, d)
    step = _No("edge") if nxt is None else _advance(m, pos, d, nxt)
    return step if isinstance(step, _Step) else _words(m, pos, d, nxt, step)


def _words(m: _Mover, pos: _Pos, d: str, nxt: Cell | None, no: _No) -> str:
    """The words of a step's refusal (`_advance` says which)."""
    here, why = pos.cell, no.why
    if nxt is None or why == "edge":
        return f"going {d} from {here.name} leaves the map"
    if why == "wall":
        return f"{nxt.name} is a wall"
    if why == "enemy":
        return f"{nxt.name} is held by an enemy: go around"
    if why == "corner":
        return f"going {d} from {here.name} would cut the corner of a wall"
    if why == "straight":
        return f"a {pos.mode} goes straight on: keep going {pos.heading} from {here.name}"
    if why == "vault-leap":
        return f"{m.name} cannot leap the gap at {nxt.name} straight out of a vault"
    if why == "leap":
        return (
            f"the gap at {nxt.name} makes a leap of {no.feet} ft; {m.name} leaps at "
            f"most {2 * m.height} ft, twice its height: go around the gap (`/move to:` finds a way)"
        )
    if why == "land":
        return (f"{m.name} cannot land on the obstacle at {nxt.name}: a vault clears one square of an obstacle no "
                f"higher than {m.name} (a deeper one is climbed only where the GM marks its squares `climb`)")
    return (
        f"{nxt.name} is {no.feet} ft higher than {here.name}: higher than {m.name}'s "
        f"{m.height} ft only a square marked `climb` can be climbed"
    )


def _advance(m: _Mover, pos: _Pos, d: str, nxt: Cell) -> _Step | _No:
    """The step from ``pos`` towards ``d`` into ``nxt`` (on the map), or why it cannot be taken
    (a code: the path search asks often and needs no words)."""
    g, here = m.grid, pos.cell
    walls = g.blocked
    if nxt in walls:
        return _No("wall")
    if nxt in m.blockers:
        return _No("enemy")
    if g.cuts_corner(here, nxt):
        return _No("corner")
    if pos.mode != "stand" and d != pos.heading:
        return _No("straight")
    kind = g.terrain.get(nxt)
    if kind == "gap":
        run = pos.run + 1 if pos.mode == "leap" else 1
        if pos.mode == "vault":
            return _No("vault-leap")
        if run * SQUARE_FT > 2 * m.height:
            return _No("leap", run * SQUARE_FT)
        return _Step(_Pos(nxt, "leap", d, run, pos.level), SQUARE_FT, "leap")
    ground_ft = m.levels.get(nxt, 0)
    if kind == "obstacle":
        if pos.mode != "stand":
            return _No("land")
        # vaulted "over" where it rises no higher than the mover; from its top (or above it) a step onto it is a step
        if 0 < ground_ft - pos.level <= m.height:
            return _Step(_Pos(nxt, "vault", d, 0, pos.level), SQUARE_FT, "vault")
    step = SQUARE_FT * (2 if kind in DIFFICULT else 1)
    rise = ground_ft - pos.level
    land = _Pos(nxt, "stand", None, 0, ground_ft)
    if rise > 0:
        if rise > m.height and kind not in ("climb", "obstacle"):
            return _No("climb", rise)
        return _Step(land, step + 2 * rise, "climb", rise)
    if rise < 0:
        drop = -rise
        return _Step(land, step + (2 * drop if drop > m.height else 0), "descend", drop)
    return _Step(land, step, "difficult" if kind in DIFFICULT else "")


def _walk(m: _Mover, start: _Pos, dirs: Sequence[str]) -> list[_Step]:
    steps: list[_Step] = []
    pos = start
    for d in dirs:
        step = _transition(m, pos, d.upper())
        if isinstance(step, str):
            raise IllegalAction(f"{m.name} cannot move that way: {step}.")
        steps.append(step)
        pos = step.pos
    if steps and not m.can_stop(pos):
        # a vault or leap goes straight on: where that next step cannot be taken, no added step helps
        beyond = _transition(m, pos, pos.heading) if pos.mode != "stand" and pos.heading else None
        if isinstance(beyond, str):
            raise IllegalAction(f"{_no_stop(m, pos)}, and {beyond}. Go another way (`/move to:` a square finds one).")
        raise IllegalAction(f"{_no_stop(m, pos)}. Add steps to a free square.")
    return steps


def _no_stop(m: _Mover, pos: _Pos) -> str:
    """Why ``m`` cannot stop where ``pos`` is (`_Mover.can_stop` says it cannot)."""
    why = (f"a {pos.mode} lands beyond it" if pos.mode != "stand" else
           "someone else stands there, and an occupied square can only be passed")
    return f"{m.name} cannot stop at {pos.cell.name}: {why}"


def _toward(grid: Grid, a: Cell, b: Cell) -> str | None:
    """The first step of the straight way from ``a`` to ``b`` (diagonal where the line goes across a row and a
    column at once); None: ``a`` is ``b``."""
    dx, dy = b.col - a.col, b.row - a.row
    n = max(abs(dx), abs(dy))
    return None if n == 0 else grid.direction(a, Cell(a.col + math.floor(dx / n + 0.5), a.row + math.floor(dy / n + 0.5)))


def _obstacle_in_way(m: _Mover, start: _Pos, goal: Cell, budget: int) -> str | None:
    """Where no way to ``goal`` within ``budget`` ft was found, the reason an obstacle gives, in the words of
    `path:`: every step onto ``goal`` vaults it, or the straight way (a vault or leap on it goes straight on) lands
    on an obstacle past a vault; None: no obstacle is the reason."""
    if m.grid.terrain.get(goal) == "obstacle" and all(
        0 < m.ground(goal) - m.ground(n) <= m.height
        for n in m.grid.neighbours(goal, diagonal=True) if n not in m.grid.blocked
    ):
        return f"{_no_stop(m, _Pos(goal, 'vault'))}. Pick a free square."
    pos = start
    while (d := pos.heading if pos.mode != "stand" else _toward(m.grid, pos.cell, goal)) is not None:
        nxt = m.grid.step(pos.cell, d)
        step = _No("edge") if nxt is None else _advance(m, pos, d, nxt)
        if isinstance(step, _No):
            if step.why != "land":
                return None
            return f"{_words(m, pos, d, nxt, step)}; no other way to {goal.name} is within {budget} ft. Pick another square."
        pos = step.pos
    return None


def _route(m: _Mover, start: _Pos, goal: Cell, budget: int) -> list[str]:
    """The cheapest directions from ``start`` to ``goal`` within ``budget`` feet; at equal cost,
    the one that provokes the fewest Attacks of Opportunity."""
    if goal == start.cell:
        raise InputError(f"{m.name} is already at {goal.name}.")
    other = "an enemy" if goal in m.blockers else "someone" if goal in m.others else None
    if other or goal in m.grid.blocked:
        raise IllegalAction(f"{goal.name} is {'taken by ' + other if other else 'a wall'}: pick a free square.")

    blockers, terrain, levels = m.blockers, m.grid.terrain, m.levels
    #: the state of standing on each plain level square, made once a search
    standing: dict[Cell, _Pos] = {}

    def successors(pos: _Pos) -> Iterator[tuple[_Pos, float, str]]:
        level = pos.mode == "stand" and pos.level == 0
        for d, nxt in m.grid.ways(pos.cell, diagonal=True):  # no wall entered, no wall's corner cut
            if nxt in blockers:
                continue
            if level and nxt not in terrain and nxt not in levels:
                there = standing.get(nxt)
                if there is None:
                    there = standing[nxt] = _Pos(nxt, "stand", None, 0, 0)
                yield there, SQUARE_FT, d  # `_advance` on plain level ground, in short
                continue
            step = _advance(m, pos, d, nxt)
            if isinstance(step, _Step):
                yield step.pos, step.cost, d

    def provokes(pos: _Pos, nxt: _Pos, _d: str) -> float:
        return len(m.provoked(pos, nxt)) if pos.cell in m.near else 0

    def heuristic(pos: _Pos) -> float:  # every square costs at least 5 ft, diagonals too
        return m.grid.distance(pos.cell, goal, diagonal=True) * SQUARE_FT

    def is_goal(pos: _Pos) -> bool:
        return pos.cell == goal and pos.mode == "stand"

    assert m.grid.directions(diagonal=True) == DIRECTIONS  # the search steps as `_walk` names them
    if m.grid.region(start.cell) != m.grid.region(goal):
        raise IllegalAction(f"{m.name} cannot reach {goal.name}: walls are in the way.")
    found = cheapest_path(start, is_goal, successors, budget=budget, heuristic=heuristic, tie=provokes)
    if found is None:
        # past the movement left, within twice as much, to say what the move would cost
        anyway = cheapest_path(start, is_goal, successors, budget=2 * budget, heuristic=heuristic)
        if anyway is None:
            obstacle = _obstacle_in_way(m, start, goal, budget)
            if obstacle is not None:
                raise IllegalAction(obstacle)
            raise IllegalAction(
                f"{m.name} cannot reach {goal.name} with {budget} ft of movement: walls, enemies, gaps, "
                f"obstacles or heights are in the way, or it is too far. Pick a nearer square."
            )
        raise IllegalAction(
            f"{goal.name} is {int(anyway[0])} ft of movement away but {m.name} has {budget} ft: pick a nearer square."
        )
    return [d for _, d in found[1]]


def _strides(m: _Mover, start: _Pos, steps: list[_Step]) -> Iterator[tuple[_Pos, list[_Step], list[_Foe]]]:
    """Each stride (steps up to a square where one may stop) with the foes it provokes, each once."""
    pos, stride, foes, seen = start, [], [], set()
    for step in steps:
        for f in m.provoked(pos, step.pos):
            if f.name not in seen:
                seen.add(f.name)
                foes.append(f)
        stride.append(step)
        pos = step.pos
        if m.can_stop(pos):
            yield pos, stride, foes
            stride, foes = [], []


def _shorter(m: _Mover, steps: list[_Step], budget: int) -> str:
    """What to do instead of a path past the movement left: `/move to:` the last square of it one may stop on
    within ``budget`` ft, or a shorter path."""
    spent, reach = 0, None
    for step in steps:
        spent += step.cost
        if spent > budget:
            break
        if m.can_stop(step.pos):
            reach = step.pos.cell
    there = f"`/move to:{reach.name}` (the farthest square of it within {budget} ft), or " if reach is not None else ""
    return f"{there}give a shorter path"


def move(enc: Encounter, opts: OptionValues, grid: Grid, action: Move, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor)
    if action.facing:
        raise InputError("Knights of Valour has no facings: leave `facing` out.")
    if action.to and action.path:
        raise InputError("Give either `to` (a square) or `path` (steps like `N NE E`), not both.")
    if not action.to and not action.path:
        raise InputError("Give `to` (a square) or `path` (steps like `N NE E`).")
    here = cell_of(c)
    st = KovCombatant.of(c)
    # a move past what is left of the Move Action under way goes on into the next ("sub-actions that the player can
    # string together"; an extra one granted "can be used in any order")
    budget = st.feet_left + sheet.movement(c) * st.move_actions
    if budget <= 0:
        instead = "use the Combat Action or end" if st.combat_actions > 0 else "end"
        raise IllegalAction(f"{c.name} has no movement left this turn: {instead} the turn with `/init next`.")
    m = _mover(enc, opts, grid, c)
    start = _Pos(here, level=m.ground(here))
    if action.to:
        goal = grid.parse(action.to)
        dirs = _route(m, start, goal, budget)
    else:
        dirs = re.split(r"[\s,]+", (action.path or "").strip())
    steps = _walk(m, start, dirs)
    cost = sum(s.cost for s in steps)
    if cost > budget:
        raise IllegalAction(f"That path costs {cost} ft but {c.name} has {budget} ft of movement left: {_shorter(m, steps, budget)}.")
    while cost > st.feet_left:
        st.move_actions -= 1
        st.feet_left += sheet.movement(c)
    available = st.feet_left
    st.feet_left -= cost
    st.moves_told = 0
    spend(enc, c)
    events: list[Event] = []
    strides = list(_strides(m, start, steps))
    if action.to:
        foes = [f.name for _, _, fs in strides for f in fs]
        if foes:
            events.append(PathProvokes(actor=c.name, goal=goal.name, foes=foes))
    events += _travel(enc, m, c, start, strides, available, dice)
    if c.status == "active":
        events.append(left(c))
    return events + end_if_down(enc, opts)


def _travel(
    enc: Encounter, m: _Mover, c: Combatant, start: _Pos, strides: list[tuple[_Pos, list[_Step], list[_Foe]]],
    available: int, dice: Dice
) -> list[Event]:
    """Walk the steps stride by stride (`_strides`), resolving the Attacks of Opportunity of each stride first."""
    events: list[Event] = []
    here = start.cell
    shown: list[Step] = []
    spent = seg_cost = 0

    origin = here

    def flush() -> None:
        nonlocal seg_cost, origin
        if shown:
            events.append(
                KovMoved(actor=c.name, path=[origin.name, *(s.cell for s in shown)], steps=list(shown),
                         cost=seg_cost, unit="ft", left=available - spent)
            )
        shown.clear()
        seg_cost, origin = 0, here

    for dest, stride, foes in strides:
        if foes:
            flush()
        for foe in foes:
            KovCombatant.of(c).provoked.append(foe.name)
            attacker = enc.get(foe.name)
            events += strike(enc, m.opts, attacker, c, foe.weapon, foe.ranged, SQUARE_FT, dice, {}, opportunity=True)
            if c.status != "active":
                return events + [Fell(actor=c.name, at=here.name)]
        for s in stride:
            shown.append(Step(cell=s.pos.cell.name, how=s.how, feet=s.feet))
            spent += s.cost
            seg_cost += s.cost
        here = dest.cell
        c.position = here.name
    flush()
    return events
