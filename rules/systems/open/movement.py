"""Movement in the open system, and opportunity attacks.

A turn's movement is its speed in feet (`turns.speed_now`), spent over any number of `/move`s.
A step costs 5 ft; a diagonal step on a square map as the option ``diagonals`` says (``alternate``
counts the turn's diagonals: every second costs 10 ft). Entering ``difficult`` or ``rough`` ground
costs 5 ft more a step, and so does crawling while prone. Walls block, and a diagonal step may not
cut a wall's corner; cells of hostiles not down or out block (stunned ones too), unless the mover is at least two sizes
larger or smaller (``size``); allies and the fallen may be passed but not stopped on (one struck down on
such a cell lies on the last cell of its path it could stop on: `fall`). `/move to:` finds, among the paths the movement left allows (`rules.geometry.paths`),
one provoking the fewest opportunity attacks, and of those the cheapest; `path:` takes steps such as
``E E NE``.

Opportunity attacks (option ``opportunity``). A step out of the reach of a hostile able to act
that has its reaction provokes one melee attack from it with its first melee weapon, before the
step. The bot takes the GM's at once; a player's is offered to its owner as a private question
(`prompt`): the mover waits on the cell before the step until the answer (`/act action:opportunity`,
which the buttons send), then goes on along the rest of its path. Each hostile is asked once a step: one
that let the mover go is not asked again about the same step. The turn's deadline answers no, for every
player the rest of the move would ask, so the move ends and the deadline's policy applies to the turn.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Collection, Iterator

from rules.dice import Dice
from rules.errors import IllegalAction, InputError, SheetError
from rules.events import Event, Moved
from rules.geometry import Cell, Grid, cheapest_path
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.open import sheet
from rules.systems.open.attacks import strike
from rules.systems.open.conditions import has
from rules.systems.open.events import FellBack, OpportunityDeclined, OpportunityOffered
from rules.systems.open.space import feet
from rules.systems.open.state import OpenCombatant, OpenEncounter, Waiting
from rules.systems.open.turns import DISENGAGE, acting, feet_left, saving, taken
from rules.targets import cell_of

__all__ = ["move", "walk", "fall", "step_cost", "provokers", "passes"]

#: ground that costs 5 ft more a step
DIFFICULT = ("difficult", "rough")


def step_cost(grid: Grid, opts: OptionValues, here: Cell, nxt: Cell, diagonals: int, crawl: bool) -> int:
    """The feet a step costs, ``diagonals`` being the diagonal steps already taken this turn."""
    diagonal = grid.kind == "square" and here.col != nxt.col and here.row != nxt.row
    return _feet(grid, opts.diagonals, nxt, diagonal, diagonals, crawl)


def _feet(grid: Grid, rule: str, nxt: Cell, diagonal: bool, diagonals: int, crawl: bool) -> int:
    """`step_cost` with the option ``diagonals`` (``rule``) read and whether the step is diagonal known."""
    base = 5
    if diagonal and (rule == "10" or (rule == "alternate" and diagonals % 2 == 1)):
        base = 10
    return base * (1 + (grid.terrain.get(nxt) in DIFFICULT) + crawl)


def _refusal(enc: Encounter, grid: Grid, c: Combatant, here: Cell, nxt: Cell) -> str | None:
    why = _obstacle(grid, c, here, nxt, enc.at)
    if why == "wall":
        return f"{nxt.name} is a wall"
    if why == "corner":
        return f"the step from {here.name} to {nxt.name} would cut the corner of a wall"
    if isinstance(why, Combatant):
        return f"{nxt.name} is held by {why.name}: go around (only a creature two sizes larger or smaller passes through)"
    return None


def _obstacle(grid: Grid, c: Combatant, here: Cell, nxt: Cell,
              at: Callable[[Cell], Combatant | None]) -> str | Combatant | None:
    """What keeps ``c`` from stepping from ``here`` to ``nxt``: ``"wall"``, ``"corner"`` (a square
    step cutting a wall's corner), the hostile holding ``nxt`` (``at`` says who stands on a cell), or None."""
    walls = grid.blocked
    if nxt in walls:
        return "wall"
    # a straight step's squares beside it are ``nxt`` and ``here``
    if grid.cuts_corner(here, nxt) or (grid.kind == "square" and (here.col == nxt.col or here.row == nxt.row)
                                       and here in walls):
        return "corner"
    other = at(nxt)
    return other if other is not None and _held(c, other) else None


def _held(c: Combatant, other: Combatant) -> bool:
    """Does ``other``, standing on a cell, keep ``c`` out of it? A hostile able to act unless it passes."""
    return other.side != c.side and other.status == "active" and not passes(c, other)


def passes(c: Combatant, other: Combatant) -> bool:
    """May ``c`` move through the hostile ``other``'s space: is it at least two sizes larger or smaller?"""
    return abs(sheet.size(c) - sheet.size(other)) >= 2


def provokers(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, here: Cell, nxt: Cell, *,
              planning: bool = False) -> list[Combatant]:
    """The hostiles whose reach ``c`` leaves by stepping from ``here`` to ``nxt``, in initiative order.
    ``planning`` (`/move to:` choosing its path): a hidden hostile is taken to hold any weapon at the
    default 5 ft reach, so the path chosen tells nothing of its real reach."""
    return [h for h, cell, reach in _threats(enc, opts, c, planning)
            if feet(grid, opts, cell, here) <= reach < feet(grid, opts, cell, nxt)]


def _threats(enc: Encounter, opts: OptionValues, c: Combatant, planning: bool) -> list[tuple[Combatant, Cell, int]]:
    """The hostiles ``c`` may provoke by leaving their reach, with their cells and reach, in initiative order."""
    if not opts.opportunity or taken(enc.effects, c, DISENGAGE):
        return []
    rank = {n: i for i, n in enumerate(enc.order)}
    found = []
    for h in enc.enemies_of(c):
        cell = h.cell
        if h.status != "active" or cell is None or OpenCombatant.of(h).reacted or has(enc, h, "incapacitated"):
            continue
        if planning and enc.hidden(h):
            reach = sheet.DEFAULT_REACH
        else:
            try:
                w = sheet.weapon(h, None, melee_only=True)
            except SheetError:
                continue
            reach = sheet.reach(h, w)
        found.append((h, cell, reach))
    return sorted(found, key=lambda t: rank.get(t[0].name, len(rank)))


#: a step of the search for a path: the cell, the diagonals taken (odd or even), the hostiles it provoked
_State = tuple[Cell, int, frozenset[str]]


def _route(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, goal: Cell, budget: int) -> list[Cell]:
    """The path `/move to:` takes: of those within ``budget`` feet, one leaving the reach of the fewest
    hostiles (each provokes at most once: its reaction), and of those the cheapest, then the straightest."""
    st, crawl = OpenCombatant.of(c), has(enc, c, "crawl")
    start = c.cell
    assert start is not None
    if goal == start:
        raise InputError(f"{c.name} is already at {goal.name}.")

    holders, square, rule, walls = enc.holders(), grid.kind == "square", opts.diagonals, grid.blocked
    #: whether a step's cost reads the diagonals taken: else the search keeps them at 0, and a cell is one state, not two
    alternate = rule == "alternate"
    threats = _threats(enc, opts, c, True)
    #: the threats whose reach holds a cell, by cell (each looked up once a search)
    inside: dict[Cell, list[tuple[Combatant, Cell, int]]] = {}
    capped = False  # did the search drop a step for provoking too many?

    def provoking_at_most(most: int) -> Callable[[_State], Iterator[tuple[_State, float, str]]]:
        def successors(state: _State) -> Iterator[tuple[_State, float, str]]:
            nonlocal capped
            here, diag, provoked = state
            near = inside.get(here)
            if near is None:
                near = inside[here] = [t for t in threats if feet(grid, opts, t[1], here) <= t[2]]
            free = here not in walls  # then `Grid.ways` are the steps the walls leave: only who holds a cell is asked
            for _, nxt in grid.ways(here, diagonal=True) if free else grid.exits(here, diagonal=True):
                if free:
                    other = holders.get(nxt)
                    if other is not None and _held(c, other):
                        continue
                elif _obstacle(grid, c, here, nxt, holders.get) is not None:
                    continue
                now = provoked
                if near:
                    now = provoked | {h.name for h, cell, reach in near if reach < feet(grid, opts, cell, nxt)}
                if len(now) > most:
                    capped = True
                    continue
                diagonal = square and here.col != nxt.col and here.row != nxt.row
                yield (nxt, (diag + diagonal) % 2 if alternate else 0, now), _feet(grid, rule, nxt, diagonal, diag, crawl), ""
        return successors

    def straighter(a: _State, b: _State, _label: str) -> float:
        """At equal cost, the fewest diagonal steps."""
        return float(square and a[0].col != b[0].col and a[0].row != b[0].row)

    region = grid.region(start)
    if grid.region(goal) >= 0 and (region < 0 or region == grid.region(goal)):  # else walled off: no path
        first: _State = (start, st.diagonals % 2 if alternate else 0, frozenset())
        for most in range(len(enc.enemies_of(c)) + 1):  # the fewest provoked first
            capped = False
            found = cheapest_path(first, lambda s: s[0] == goal, provoking_at_most(most), budget=budget,
                                  heuristic=lambda s: 5 * grid.distance(s[0], goal, diagonal=True), tie=straighter)
            if found is not None:
                return [state[0] for state, _ in found[1]]
            if not capped:  # no step was dropped for what it provoked: allowing more finds nothing more
                break
    raise IllegalAction(
        f"{c.name} cannot reach {goal.name} with {budget} ft of movement left: walls or hostiles are in the way, "
        "or it is too far. Pick a nearer cell."
    )


def _path(grid: Grid, start: Cell, text: str) -> list[Cell]:
    cells, here = [], start
    for word in re.split(r"[\s,]+", text.strip()):
        if not word:
            continue
        nxt = grid.step(here, word.upper())
        if nxt is None:
            raise IllegalAction(f"Going {word} from {here.name} leaves the map.")
        cells.append(nxt)
        here = nxt
    return cells


def move(enc: Encounter, opts: OptionValues, grid: Grid, action: object, dice: Dice) -> list[Event]:
    c = acting(enc, getattr(action, "actor", None))
    to, path = getattr(action, "to", None), getattr(action, "path", None)
    if getattr(action, "facing", None):
        raise InputError("The open system has no facings: leave `facing` out.")
    if bool(to) == bool(path):
        raise InputError("Give either `to` (a cell) or `path` (steps such as `E E NE`).")
    here = cell_of(c)
    if saving(enc, c):
        raise IllegalAction(f"{c.name} is dying: it cannot move. `/act action:death-save` rolls its death save, or end the "
                            "turn with `/init next` and the bot rolls it.")
    if feet_left(enc, c) <= 0 or has(enc, c, "speed_zero"):
        why = "a condition holds it (speed 0)" if has(enc, c, "speed_zero") else "it has no movement left this turn"
        can_act = not OpenCombatant.of(c).acted and not has(enc, c, "incapacitated")
        then = "Attack, or end the turn" if can_act else "End the turn"
        raise IllegalAction(f"{c.name} cannot move: {why}. {then} with `/init next`.")
    if not to:
        return walk(enc, opts, grid, c, _path(grid, here, path or ""), dice, check=True)
    # the search's steps are the ones `walk`'s check allows (no wall, no wall's corner, no hostile
    # that holds its cell, the cost within the movement left): only where it stops is still to check
    goal = grid.parse(to)
    if goal in grid.blocked:
        raise IllegalAction(f"{goal.name} is a wall: {c.name} cannot stand there. Pick an open cell.")
    _check_stop(enc, c, goal)  # whose cell it is, said before a search that could only fail
    cells = _route(enc, opts, grid, c, goal, feet_left(enc, c))
    return walk(enc, opts, grid, c, cells, dice)


def _check_stop(enc: Encounter, c: Combatant, at: Cell) -> None:
    """Refuse a path that ends on a cell someone else holds (one passes an ally's, never stops there)."""
    other = enc.at(at)
    if other is not None and other is not c:
        raise IllegalAction(f"{c.name} cannot stop on {at.name}: {other.name} is there. Pick a free cell.")


def walk(enc: Encounter, opts: OptionValues, grid: Grid, c: Combatant, cells: list[Cell], dice: Dice,
         check: bool = False, skip: Collection[str] = (), lapsed: bool = False, stand: Cell | None = None) -> list[Event]:
    """``c`` steps along ``cells``, the opportunity attacks each step provokes first; it stops where it
    falls (on the last cell it could stop on, if it falls on someone else's: `fall`), or waits where a
    player is asked. ``check``: refuse a path it cannot take, before any step; ``skip``: the hostiles whose
    questions about the first step have been answered; ``lapsed``: the turn's deadline has passed, and
    answers no for every player instead of asking; ``stand``: the last cell it could stop on, if not its own."""
    st, crawl = OpenCombatant.of(c), has(enc, c, "crawl")
    start = c.cell
    assert start is not None
    here: Cell = start
    stand = stand or start
    if check:
        cost, diag, at = 0, st.diagonals, here
        for nxt in cells:
            why = _refusal(enc, grid, c, at, nxt) if grid.adjacent(at, nxt, diagonal=True) else f"{nxt.name} is not next to {at.name}"
            if why:
                raise IllegalAction(f"{c.name} cannot move that way: {why}.")
            cost += step_cost(grid, opts, at, nxt, diag, crawl)
            diag += grid.kind == "square" and at.col != nxt.col and at.row != nxt.row
            at = nxt
        if cost > feet_left(enc, c):
            raise IllegalAction(f"That path costs {cost} ft but {c.name} has {feet_left(enc, c)} ft of movement left.")
        _check_stop(enc, c, at)
    events: list[Event] = []
    trail, spent = [here.name], 0

    def flush() -> None:
        nonlocal trail, spent
        if len(trail) > 1:
            events.append(Moved(actor=c.name, path=trail, cost=spent, unit="ft", left=feet_left(enc, c)))
        trail, spent = [here.name], 0

    for i, nxt in enumerate(cells):
        for h in provokers(enc, opts, grid, c, here, nxt):
            if i == 0 and h.name in skip:
                continue
            flush()
            if sheet.is_player(enc, h) and lapsed:
                events.append(OpportunityDeclined(actor=h.name, mover=c.name, lapsed=True))
                continue
            if sheet.is_player(enc, h):
                return events + _ask(enc, h, c, here, cells[i:], sorted(skip) if i == 0 else [], stand)
            OpenCombatant.of(h).reacted = True
            events += strike(enc, opts, grid, h, c, sheet.weapon(h, None, melee_only=True), dice, [], [],
                             opportunity=True)
            if c.status != "active":
                return events + fall(enc, c, stand)
        cost = step_cost(grid, opts, here, nxt, st.diagonals, crawl)
        st.diagonals += grid.kind == "square" and here.col != nxt.col and here.row != nxt.row
        st.feet_spent += cost
        spent += cost
        here = nxt
        c.position = here.name
        trail.append(here.name)
        if _holder(enc, c, here) is None:
            stand = here
    flush()
    return events


def _holder(enc: Encounter, c: Combatant, cell: Cell) -> Combatant | None:
    """Who else holds ``cell`` (one not out), where ``c`` may pass but not stop."""
    return next((o for o in enc.combatants if o is not c and o.position == cell.name and o.status != "out"), None)


def fall(enc: Encounter, c: Combatant, stand: Cell) -> list[Event]:
    """``c``, struck down mid-move on someone else's cell, lies on ``stand``, the last cell of its path it could
    stop on (a project default): it never shares a cell."""
    here = c.cell
    other = _holder(enc, c, here) if here is not None else None
    if here is None or other is None or stand == here:
        return []
    c.position = stand.name
    return [FellBack(actor=c.name, at=here.name, to=stand.name, holder=other.name)]


def _ask(enc: Encounter, h: Combatant, c: Combatant, here: Cell, rest: list[Cell], answered: list[str],
         stand: Cell) -> list[Event]:
    """Offer ``h``'s owner an opportunity attack at ``c``, which waits on ``here`` (``answered``: the hostiles
    asked about the same step before; ``stand``: the last cell it could stop on)."""
    st = OpenEncounter.of(enc)
    st.asked += 1
    assert h.owner_id is not None
    tag = hashlib.sha256(f"{st.asked}:{h.name}:{c.name}:{here.name}".encode()).hexdigest()[:8]
    st.waiting = Waiting(attacker=h.name, mover=c.name, owner=h.owner_id, tag=tag, at=here.name,
                         rest=[x.name for x in rest], answered=answered, stand="" if stand == here else stand.name)
    return [OpportunityOffered(actor=h.name, mover=c.name, owner=h.owner_id, at=here.name,
                               deadline=enc.settings.deadline_hours > 0)]
