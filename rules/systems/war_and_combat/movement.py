"""Movement on the hex grid: facing, costs, terrain, obstacles, zones and the pass-through.

- Moving into one of the three front hexes costs the terrain's cost and turns the mover to
  face that way for free (or, with `options:"keep"`, keeps the facing, as free); into a flank
  or rear hex costs double and keeps the facing; a pivot in place to any facing costs 1
  movement point. `to:` searches the same steps and pivots.
- Half the pace's movement points in the movement phase, half in the adjustment phase (a
  fighter who was in a flurry adjusts at most one hex). A last step that costs more than the
  points left is begun with them and finished from the next phase's points, by the next
  `/move` before anything else ("that movement action is carried over to the next phase or
  round"); being drawn into a flurry ends it.
- Terrain marked on the map: `rough` is the chart's rough ground (2, max pace run),
  `difficult` (or `water`) its water, mired or sandy ground (2, max jog), `climb` and `uphill`
  uphill on open ground (double, unless coming down from a higher hex); a step onto a higher
  hex (the map's heights) is uphill too, on whatever ground the hex is ("double that of
  dominant terrain": rough uphill 4, max pace rough's), `slick` (2, max
  walk), `treacherous` (as open ground, max "creep": only a crawl keeps within it; the GM is
  asked whether it collapses, option `collapse`); faster
  than the terrain's maximum pace calls for an Agility roll or the mover stumbles and falls
  (no pace penalty on it: it is no action "that require[s] skill rolls" but the balance the
  pace itself risks, whose difficulty is the GM's, option `check_target`).
  `obstacle` (tumble over a table) and `gap` (jump across a gap) are obstacle actions at +1
  movement point with their skill roll; a failure halts movement before the hex for the rest of
  the phase. The mover may choose another of the obstacles table's actions
  (`options:"via=dive-under"`: its skill and attribute roll instead).
- Entering an enemy's zone of threat (or the zone of danger of an engaged enemy), or bringing
  an enemy into one's own zone of threat by a step or a pivot, stops the move there. With `options:"pass"` the mover tries to pass through to a hex outside every
  zone: a Tactics roll modified by Agility; a failure means a blow from the zone's wielder
  (random location, impact with a low skew die).
- After a flurry, the manoeuvre tactics (press, retreat, circle) are the winner's one-hex
  adjustment; within a flurry, against an adjacent opponent out of actions, one action drives it
  a hex straight back (`drive`) or steps a hex straight away from it (`withdraw`).

Dice for `roll:`, step by step: a stumble roll, an obstacle roll; then the pass-through roll
and, if it fails, the blow's hit location and impact dice.
"""
from __future__ import annotations

from collections.abc import Collection, Iterator

from rules.actions import Move
from rules.dice import Dice
from rules.errors import IllegalAction, InputError
from rules.events import Checked, Event, Modifier, Moved, Term, Turned, mod
from rules.geometry import Cell, Grid, cheapest_path
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.systems.war_and_combat import sheet
from rules.systems.war_and_combat.attacks import damage, restrict_check
from rules.systems.war_and_combat.events import (
    CarriedOver,
    CollapsePrompt,
    EffectTaken,
    Engaged,
    StepGivenUp,
)
from rules.systems.war_and_combat.flurry import actionless, opponents
from rules.systems.war_and_combat.lengthy import refuse_if_busy
from rules.systems.war_and_combat.rounds import after_attack
from rules.systems.war_and_combat.state import WacCombatant, WacEncounter
from rules.systems.war_and_combat.tables_movement import (
    OBSTACLE_COST,
    Obstacle,
    entry_cost,
    exceeds_max_pace,
    obstacle,
    obstacle_named,
    obstacle_penalty,
    pace_penalty,
)
from rules.systems.war_and_combat.turns import (
    acting,
    add_effect,
    fall,
    task,
)
from rules.systems.war_and_combat.zones import (
    brought_into_threat,
    engaged_with,
    in_my_threat,
    wielded,
    zone_of,
)
from rules.targets import attack_target

__all__ = ["TERRAIN_MAP", "OBSTACLE_MAP", "move", "step_cost", "press", "retreat", "circle", "PINNED", "push_back",
           "drive", "withdraw"]

#: the effect code of a fighter pushed against something impassable
PINNED = "pinned"

#: the map's terrain marks -> the terrain chart's rows
TERRAIN_MAP = {"rough": "rough", "difficult": "water", "climb": "uphill", "treacherous": "treacherous",
               "uphill": "uphill", "slick": "slick", "water": "water"}
#: the map's obstacle marks -> the obstacle action crossing them
OBSTACLE_MAP = {"obstacle": "tumble over a table", "gap": "jump across a gap"}

Plan = list[tuple[str, str]]


def _ground(grid: Grid, cell: Cell, nxt: Cell) -> tuple[str, bool]:
    """The dominant terrain of ``nxt`` (a TERRAIN EFFECTS CHART row) and whether the step from ``cell`` onto it is
    uphill ("movement costs are double that of dominant terrain"): onto a higher hex (the map's heights), or onto a
    hex marked `uphill` or `climb` (open ground) unless coming down from a higher one."""
    mark = grid.terrain.get(nxt, "clear")
    rise = grid.heights.get(nxt, 0) - grid.heights.get(cell, 0)
    if TERRAIN_MAP.get(mark) == "uphill":
        return "open", rise >= 0
    return TERRAIN_MAP.get(mark, "open"), rise > 0


def step_cost(grid: Grid, cell: Cell, facing: str, direction: str, keep: bool = False) -> tuple[Cell | None, int, str]:
    """Where one step towards ``direction`` lands, its cost, and the facing after it: a front step
    turns that way for free, or with ``keep`` keeps the facing (as free: "changing face costs
    nothing if done whilst stepping into a front hex", and not changing it costs nothing either)."""
    nxt = grid.step(cell, direction)
    if nxt is None:
        return None, 0, facing
    dominant, up = _ground(grid, cell, nxt)
    mark = grid.terrain.get(nxt, "clear")
    cost = entry_cost("uphill" if up else dominant, dominant) + (OBSTACLE_COST if mark in OBSTACLE_MAP else 0)
    if grid.turn_steps(facing, direction) <= 1:
        return nxt, cost, facing if keep else direction
    return nxt, 2 * cost, facing


def _plan(enc: Encounter, grid: Grid, c: Combatant, action: Move, keep: bool, budget: int, carrying: bool = False) -> Plan:
    if c.cell is None or c.facing is None:
        raise IllegalAction(f"{c.name} is not on the map: the GM places it with `/combatant edit at:`.")
    plan: Plan = []
    step = "keep" if keep else "step"
    want = grid.parse_facing(action.facing) if action.facing else None
    st = WacCombatant.of(c)
    begun = _step_of(st.carry) if carrying and st.carry else None
    if action.path:
        for word in action.path.replace(",", " ").split():
            plan.append((step, grid.parse_facing(word)))
    elif action.to:
        goal = grid.parse(action.to)
        if goal == c.cell and want in (None, c.facing):
            finish = f" (a bare `/move` finishes the step it began into {st.carry_to})" if begun is not None else ""
            raise IllegalAction(f"{c.name} is at {goal.name} already{finish}: give `to` another hex, `path` (hex "
                                "directions like `N NE`) or `facing` (to pivot).")
        start: tuple[Cell, str] = (c.cell, c.facing)
        owed = ""
        if begun is not None:  # the way is found from where the step begun ends, with what its owed points leave
            nxt, _, after = step_cost(grid, c.cell, c.facing, begun[1], begun[0] == "keep")
            if nxt is not None:
                start, budget = (nxt, after), budget - st.owed
                owed = f" once the {st.owed} point(s) owed to the step it began into {nxt.name} are paid"
        plan = _find(enc, grid, c, goal, want, budget, start, owed)
    if want is not None:
        plan.append(("pivot", want))
    if begun is not None:  # the step begun in an earlier phase comes first
        plan.insert(0, begun)
    if not plan:
        raise InputError("Give `path` (hex directions like `N NE`), `to` (a hex) or `facing` (to pivot).")
    return plan


def _find(enc: Encounter, grid: Grid, c: Combatant, goal: Cell, want: str | None, budget: int,
          start: tuple[Cell, str], owed: str = "") -> Plan:
    """The cheapest steps and pivots from ``start`` (a hex and a facing) to ``goal`` (facing ``want``, if given): a
    pivot to any facing costs 1, and a front step may turn or keep the facing, as `path:` allows. ``owed``: what
    the refusal says was paid before ``budget`` (a step begun)."""
    taken = enc.occupied(exclude=c)

    def successors(state: tuple[Cell, str]) -> Iterator[tuple[tuple[Cell, str], int, str]]:
        cell, facing = state
        for d in grid.facings:
            for kind in ("step", "keep"):
                nxt, cost, after = step_cost(grid, cell, facing, d, kind == "keep")
                if nxt is not None and nxt not in grid.blocked and nxt not in taken and (kind == "step" or after != d):
                    yield (nxt, after), cost, f"{kind} {d}"
        for turn in grid.facings:  # "pivot in the hex to face any direction at the cost of one movement point"
            if turn != facing:
                yield (cell, turn), 1, f"pivot {turn}"

    if (closed := _closed(enc, grid, goal, taken)) is not None:  # no number of points reaches it
        raise closed
    found = cheapest_path(start, lambda s: s[0] == goal and want in (None, s[1]), successors, budget,
                          heuristic=lambda s: grid.distance(s[0], goal))
    if found is None:
        facing = f" facing {want}" if want is not None else ""
        raise IllegalAction(f"{c.name} cannot reach {goal.name}{facing} with {budget} movement point(s) left "
                            f"{_this_phase(c)}{owed}.")
    return [_step_of(label) for _, label in found[1]]


def _closed(enc: Encounter, grid: Grid, cell: Cell, taken: Collection[Cell]) -> IllegalAction | None:
    """The refusal of a move into ``cell`` where it is a wall or ``taken`` (a step of `path:`, or the hex `to:`
    names), else None."""
    if cell in grid.blocked:
        return IllegalAction(f"{cell.name} is a wall: go around it.")
    there = enc.at(cell) if cell in taken else None
    return IllegalAction(f"{cell.name} is taken by {there.name}: go around.") if there is not None else None


def _given_up(enc: Encounter, grid: Grid, c: Combatant, action: Move) -> StepGivenUp | None:
    """The step ``c`` began in an earlier phase given up, where its hex has since been taken or walled: a `/move` with
    words goes elsewhere; one without them, which would finish that step, is refused as a step into it is, and told
    what to give instead. None where no step is begun or its hex is open."""
    st = WacCombatant.of(c)
    if not (st.carry and st.carry_to):
        return None
    to = grid.parse(st.carry_to)
    closed = _closed(enc, grid, to, enc.occupied(exclude=c))
    if closed is None:
        return None
    if not (action.path or action.to or action.facing):
        raise IllegalAction(f"{closed} {c.name} cannot finish the step it began into {to.name}: give `path` (hex "
                            f"directions like `N NE`), `to` (a hex) or `facing` to move from {c.position} instead "
                            "(the step begun is given up, and the points spent on it are lost).")
    there = enc.at(to)
    return StepGivenUp(actor=c.name, to=to.name, by=there.name if there is not None and to not in grid.blocked else None)


def _step_of(label: str) -> tuple[str, str]:
    """A plan's step from its label: ``"step N"`` -> ``("step", "N")``."""
    kind, _, arg = label.partition(" ")
    return kind, arg


def _cost(grid: Grid, cell: Cell, facing: str, plan: Plan) -> int:
    """The movement points the steps and pivots of ``plan`` cost from ``cell`` facing ``facing``."""
    total = 0
    for kind, arg in plan:
        if kind == "pivot":
            total, facing = total + (arg != facing), arg
            continue
        nxt, cost, facing = step_cost(grid, cell, facing, arg, kind == "keep")
        if nxt is None:
            break
        total, cell = total + cost, nxt
    return total


def _this_phase(c: Combatant) -> str:
    """"this phase", with why the points left are fewer after a quick action (option `quick_movement`)."""
    return "this phase (a quick action limits movement to half the phase's)" if WacCombatant.of(c).quick and WacCombatant.of(c).quick_mp is not None else "this phase"


def _too_dear(c: Combatant, cost: int, left: int) -> str:
    return f"That move costs {cost} movement point(s) and {c.name} has {left} left {_this_phase(c)}."


def move(enc: Encounter, opts: OptionValues, grid: Grid, action: Move, words: OptionValues, dice: Dice) -> list[Event]:
    c = acting(enc, action.actor)
    st = WacCombatant.of(c)
    if st.immobile or st.unconscious:
        raise IllegalAction(f"{c.name} cannot move.")
    refuse_if_busy(c, "move")
    if st.full:  # "Full Actions prohibit movement"
        raise IllegalAction(f"{c.name}'s {st.full} (a full action) ended its movement this phase: it moves again in "
                            "the next phase.")
    if st.halted:  # "a failed action halts movement"
        raise IllegalAction(f"{c.name}'s failed obstacle roll halted its movement this phase: it moves again in the "
                            "next phase.")
    if enc.phase == "movement" and engaged_with(enc, grid, c):
        raise IllegalAction(f"{c.name} is engaged: it fights in the flurry phase, and may adjust one hex after it.")
    if enc.phase == "movement" and c.cell is not None and (danger_by := zone_of(enc, grid, c, c.cell)) is not None:
        raise IllegalAction(f"{c.name} stands in {danger_by[0].name}'s zone of {danger_by[1]}: it cannot move this round "
                            "until the threat is resolved in the flurry, and may adjust one hex after it.")
    passing = words["pass"]
    via = obstacle_named(words.via) if words.via else None
    given_up = _given_up(enc, grid, c, action)
    carrying = bool(st.carry and st.carry_to) and given_up is None
    plan = _plan(enc, grid, c, action, words.keep, st.mp, carrying)
    st.carry, st.carry_to, st.owed = (st.carry, st.carry_to, st.owed) if carrying else (None, None, 0)
    taken = enc.occupied(exclude=c)
    cell, facing = c.cell, c.facing
    assert cell is not None and facing is not None
    path, spent, hexes, pivots = [cell.name], 0, 0, 0
    events: list[Event] = []
    begun: CarriedOver | None = None
    stop: tuple[Combatant, str] | None = None
    endangered: Combatant | None = None
    held = in_my_threat(enc, grid, c)
    for i, (kind, arg) in enumerate(plan):
        if kind == "pivot":
            if arg != facing:
                if spent + 1 > st.mp:  # "can spend up to half his movement points": a pivot is never carried over
                    raise IllegalAction(_too_dear(c, spent + 1 + _cost(grid, cell, arg, plan[i + 1:]), st.mp)
                                        + " Move fewer hexes, or pivot in the next phase.")
                spent, pivots = spent + 1, pivots + 1
                facing = arg
            if not passing and (caught := brought_into_threat(enc, grid, c, cell, facing, held)) is not None:
                stop = caught, "own threat"
                break
            continue
        nxt, cost, after = step_cost(grid, cell, facing, arg, kind == "keep")
        if i == 0 and carrying:
            cost = st.owed
        if nxt is None:
            raise IllegalAction(f"A step {arg} from {cell.name} leaves the map.")
        if (closed := _closed(enc, grid, nxt, taken)) is not None:
            raise closed
        if enc.phase == "adjustment" and c.name in WacEncounter.of(enc).tactics and (hexes >= 1 or st.moved):
            raise IllegalAction(f"After its flurry, {c.name} adjusts at most one hex this phase.")
        if spent + cost > st.mp:
            if passing:  # "reach a safety hex in one go": no step of a pass-through waits for the next phase's points
                raise IllegalAction(_too_dear(c, spent + cost + _cost(grid, nxt, after, plan[i + 1:]), st.mp)
                                    + " A pass-through reaches a hex outside every zone \"in one go\": none of its steps "
                                      "is carried over to the next phase. Pass with this phase's points, or move without "
                                      "`pass`.")
            if i < len(plan) - 1 or spent >= st.mp:
                raise IllegalAction(_too_dear(c, spent + cost + _cost(grid, nxt, after, plan[i + 1:]), st.mp)
                                    + " Give a shorter path (its last step may cost more than the points left: it is "
                                      "begun now and finished from the next phase's points).")
            # "If the character does not have enough movement points to negotiate an obstacle during a phase or
            # round, then that movement action is carried over to the next phase or round."
            st.carry, st.carry_to, st.owed = f"{kind} {arg}", nxt.name, cost - (st.mp - spent)
            begun = CarriedOver(actor=c.name, to=nxt.name, owed=st.owed)
            spent = st.mp
            break
        st.carry, st.carry_to, st.owed = None, None, 0
        mark = grid.terrain.get(nxt, "clear")
        if mark in OBSTACLE_MAP:
            ob = via or obstacle(OBSTACLE_MAP[mark])  # the action the mover chooses, else the mark's own
            # "Acrobatics and Jumping": the better of the two serves, and is named
            used, level = max(((s, sheet.skill(c, s)) for s in ob.skills), key=lambda sl: sl[1])
            roll = task(c, dice, [mod("named_skill", level, used), mod("attribute", sheet.modifier(c, ob.attribute), ob.attribute),
                                  _obstacle_penalty(ob, sheet.pace(c)), mod("wounds", sheet.wound_penalty(c))],
                        opts.check_target, Term(code="obstacle", args=[ob.action]))
            events.append(Checked(actor=c.name, what="obstacle", roll=roll))
            if not roll.success:  # "a failed action halts movement": for the rest of the phase
                st.halted = True
                break
        terrain = _ground(grid, cell, nxt)[0]  # uphill's "maximum pace is the same as dominant terrain"
        cell, facing, spent, hexes = nxt, after, spent + cost, hexes + 1
        path.append(cell.name)
        if mark == "treacherous" and opts.collapse:
            events.append(CollapsePrompt(actor=c.name, at=cell.name))
        if exceeds_max_pace(terrain, sheet.pace(c)):
            roll = task(c, dice, [mod("attribute", sheet.modifier(c, "agl"), "agl"), mod("wounds", sheet.wound_penalty(c))],
                        opts.check_target, Term(code="footing"))
            events.append(Checked(actor=c.name, what="stumble", roll=roll))
            if not roll.success:
                st.fallen = True
                events.append(EffectTaken(actor=c.name, effect="falls"))
                break
        zone = zone_of(enc, grid, c, cell)
        if zone is not None and not passing:
            stop = zone
            break
        if not passing and (caught := brought_into_threat(enc, grid, c, cell, facing, held)) is not None:
            stop = caught, "own threat"
            break
        if zone is not None:
            endangered = endangered or zone[0]
    if passing and zone_of(enc, grid, c, cell) is not None:
        raise IllegalAction("A pass-through must reach a hex outside every zone of threat and danger in one go.")
    c.position, c.facing = cell.name, facing
    st.spent += min(st.mp, spent)
    st.mp = 0 if st.halted else st.mp - min(st.mp, spent)
    if st.fallen:  # a fall on the way: it crawls from that moment
        fall(enc, opts, c)
    st.moved = st.moved or hexes > 0 or begun is not None
    if hexes:
        events.insert(0, Moved(actor=c.name, path=path, cost=spent, left=st.mp, facing=facing))
    elif pivots or (begun is None and not st.halted):
        events.insert(0, Turned(actor=c.name, facing=facing, cost=pivots))
    if given_up is not None:
        events.insert(0, given_up)
    if begun is not None:
        events.append(begun)
    if stop is not None:
        also = [e.name for e in engaged_with(enc, grid, c) if e is not stop[0]]
        events.append(Engaged(actor=c.name, by=stop[0].name, zone=stop[1], at=cell.name, also=also))
    if endangered is not None:
        events += _pass_through(enc, opts, c, endangered, dice)
    return events


def _obstacle_penalty(ob: Obstacle, pace: str) -> Modifier:
    """ACTION PENALTY BY PACE for an obstacle action: the pace's row, or the movement type's
    (``jump``, ``dive``, ``swing``) named."""
    row, penalty = obstacle_penalty(ob, pace)
    return mod("pace", penalty) if row == "pace" else mod("movement_type", penalty, row)


def _pass_through(enc: Encounter, opts: OptionValues, c: Combatant, wielder: Combatant, dice: Dice) -> list[Event]:
    """The pass-through: Tactics modified by Agility; a failure is a blow struck by accident."""
    roll = task(c, dice, [mod("named_skill", sheet.skill(c, "tactics"), "tactics"),
                          mod("attribute", sheet.modifier(c, "agl"), "agl"), mod("pace", pace_penalty(sheet.pace(c))),
                          mod("wounds", sheet.wound_penalty(c))],
                opts.check_target, Term(code="pass_through"))
    events: list[Event] = [Checked(actor=c.name, what="pass", roll=roll)]
    if roll.success:
        return events
    return events + damage(enc, opts, wielder, c, wielded(wielder), "kill", {}, dice, 0, low_skew=True)


def press(enc: Encounter, c: Combatant, name: str | None) -> list[Event]:
    """The press tactic, applied in the adjustment phase: "forcing the defender backwards ... (though
    the winner must also maintain relative position)". "If a character is forced to move in a
    direction that is blocked by an impassible obstacle, then the attacker receives one extra
    action (for that flurry only) and the defender is penalized -1 to defense": the pinned
    fighter's next flurry with the presser (this round's is over)."""
    _unmoved(c)
    grid, t = _tactic_opponent(enc, c, name, "press")
    events = push_back(enc, grid, c, t)
    st = WacCombatant.of(c)
    st.moved, st.mp = True, 0  # the one-hex adjustment, whether it moved or pinned
    return events


def _tactic_opponent(enc: Encounter, c: Combatant, name: str | None, tactic: str) -> tuple[Grid, Combatant]:
    """The map and the adjacent opponent of this round's flurries that ``c``, who declared
    ``tactic``, applies it against; refused otherwise."""
    grid = enc.grid()
    est = WacEncounter.of(enc)
    if est.tactics.get(c.name) != tactic:
        raise IllegalAction(f"{c.name} did not declare the {tactic} tactic in a flurry this round.")
    if not name:
        raise InputError(f"Name the opponent of your flurry in `target` ({tactic}).")
    t = enc.get(name, "target")
    if grid is None or c.cell is None or t.cell is None or t.side == c.side or grid.distance(c.cell, t.cell) != 1:
        raise IllegalAction(f"The {tactic} tactic is made against an adjacent opponent of your flurry, and {t.name} is not one.")
    if t.name not in est.tactics:
        raise IllegalAction(f"{t.name} was not in a flurry this round.")
    if c.name not in est.won:  # "The character winning the most and best successes determines the net movement"
        raise IllegalAction(f"{c.name} did not win its flurry's exchanges: \"the character winning the most and best "
                            f"successes determines the net movement\" (option `net_movement=each` lets each apply its own). "
                            "`/move` makes its one-hex adjustment.")
    return grid, t


def _unmoved(c: Combatant) -> None:
    st = WacCombatant.of(c)
    if st.moved or st.mp <= 0:
        raise IllegalAction(f"{c.name} has made its one hex of adjustment this phase: `/init next` ends the step.")


def _tactic_step(enc: Encounter, grid: Grid, c: Combatant, t: Combatant, to: Cell | None, why: str,
                 tactic: list[str | int]) -> list[Event]:
    """``c`` steps to ``to`` as its ``tactic`` (the one-hex adjustment after a flurry: its code, way and
    opponent), facing ``t``; ``why``: the step in words, for a refusal."""
    st = WacCombatant.of(c)
    if to is None or to in grid.blocked or to in enc.occupied(exclude=c):
        raise IllegalAction(f"{c.name} cannot {why}: the hex is {'off the map' if to is None else 'a wall or taken'}. "
                            "`/init next` ends the step where it stands.")
    start = c.cell
    assert start is not None and t.cell is not None
    c.position, c.facing = to.name, grid.facing_towards(to, t.cell)
    st.moved, st.mp = True, 0
    return [Moved(actor=c.name, path=[start.name, to.name], facing=c.facing),
            EffectTaken(actor=c.name, effect="tactic", args=tactic)]


def retreat(enc: Encounter, c: Combatant, name: str | None) -> list[Event]:
    """The retreat tactic: one hex straight away from the opponent, still facing him."""
    _unmoved(c)
    grid, t = _tactic_opponent(enc, c, name, "retreat")
    assert c.cell is not None and t.cell is not None
    way = grid.direction(t.cell, c.cell)
    assert way is not None
    return _tactic_step(enc, grid, c, t, grid.step(c.cell, way), f"retreat {way} from {t.name}", ["retreat", way, t.name])


def circle(enc: Encounter, c: Combatant, name: str | None, way: str | None) -> list[Event]:
    """The circle tactic: to the next hex round the opponent (clockwise, or ``way=ccw``), still
    beside him and facing him."""
    _unmoved(c)
    grid, t = _tactic_opponent(enc, c, name, "circle")
    turn = {"cw": 1, "clockwise": 1, "ccw": -1, "counterclockwise": -1, "anticlockwise": -1}.get((way or "cw").lower())
    if turn is None:
        raise InputError("`way` is `cw` (clockwise, the default) or `ccw`.")
    assert c.cell is not None and t.cell is not None
    side = grid.direction(t.cell, c.cell)
    assert side is not None
    facings = list(grid.facings)
    to = grid.step(t.cell, facings[(facings.index(side) + turn) % len(facings)])
    return _tactic_step(enc, grid, c, t, to, f"circle {'clockwise' if turn == 1 else 'counter-clockwise'} round {t.name}",
                        ["circle", "cw" if turn == 1 else "ccw", t.name])


def push_back(enc: Encounter, grid: Grid, c: Combatant, t: Combatant) -> list[Event]:
    """Push the adjacent ``t`` one hex straight away from ``c``, who follows; into a wall or a taken hex it is pinned."""
    assert c.cell is not None and t.cell is not None
    way = grid.direction(c.cell, t.cell)
    assert way is not None
    behind = grid.step(t.cell, way)
    if behind is None or behind in grid.blocked or behind in enc.occupied(exclude=t):
        effect = add_effect(enc, t, PINNED, 2)
        enc.effects = [e.model_copy(update={"source": c.name}) if e.code == PINNED and e.target == t.name else e
                       for e in enc.effects]
        return [EffectTaken(actor=t.name, effect=PINNED, detail=c.name), effect]
    start, old = c.cell, t.cell
    t.position, c.position = behind.name, old.name
    return [Moved(actor=t.name, path=[old.name, behind.name]), Moved(actor=c.name, path=[start.name, old.name])]


# -- out of actions in a flurry ----------------------------------------------------------------------
def _spent_foe(enc: Encounter, c: Combatant, name: str | None, verb: str, gm: bool) -> Combatant:
    """The opponent out of actions that ``c`` may drive back or withdraw from (``verb``): an enemy in this
    flurry (refused in the words of `attack_target`), adjacent, with no action left. Refused while it has some: with
    their count to the GM (``gm``) or where players see its numbers, else in words that do not depend on the count
    (it follows the hidden Fighter rank: "2, +1 every fifth Fighter rank")."""
    t = attack_target(enc, c, name, verb=verb, foe=True)
    if t.name not in {o.name for o in opponents(enc, c)}:
        raise IllegalAction(f"{t.name} is not {c.name}'s opponent in this flurry.")
    left = WacCombatant.of(t).actions
    if left > 0:
        has = f"still has {left} action(s)" if gm or enc.shown_to_players(t.name) else "is not out of actions"
        raise IllegalAction(f"{t.name} {has}: attack it or hold; drive and withdraw are for an opponent out of actions.")
    if t.name not in {o.name for o in actionless(enc, c)}:
        raise IllegalAction(f"{t.name} is not next to {c.name}: drive and withdraw are against an adjacent opponent.")
    return t


def _spend_action(enc: Encounter, c: Combatant, dice: Dice) -> tuple[list[Event], bool]:
    """A held fighter's Restrict check "before attempting any action" (a failure loses the action),
    else the action spent: the check's events, and whether ``c`` acts."""
    events, free = restrict_check(enc, c, dice)
    if free is not False:
        WacCombatant.of(c).actions -= 1
    return events, free is not False


def drive(enc: Encounter, opts: OptionValues, c: Combatant, name: str | None, dice: Dice, gm: bool) -> list[Event]:
    """"Running Out of Actions: ... he must retreat one step for every action his opponent wishes to
    press": one action, one hex straight back (``c`` follows; into a wall or a taken hex it is pinned)."""
    t = _spent_foe(enc, c, name, "drive back", gm)
    grid = enc.grid()
    assert grid is not None
    events, acts = _spend_action(enc, c, dice)
    if acts:
        events += push_back(enc, grid, c, t)
        if not any(isinstance(e, Moved) for e in events):  # pinned: "one extra action (for that flurry only)"
            WacCombatant.of(c).actions += 1
            enc.effects = [e.model_copy(update={"left": 1}) if e.code == PINNED and e.target == t.name else e
                           for e in enc.effects]
    return events + after_attack(enc, opts, dice, c, t, True)


def withdraw(enc: Encounter, opts: OptionValues, c: Combatant, name: str | None, dice: Dice,
             gm: bool) -> list[Event]:
    """"Alternatively, the opponent may wish to withdraw as many steps as he has actions and the
    actionless fighter must hold": one action, one hex straight away from it."""
    t = _spent_foe(enc, c, name, "withdraw from", gm)
    grid = enc.grid()
    assert grid is not None and c.cell is not None and t.cell is not None
    way = grid.direction(t.cell, c.cell)
    dest = grid.step(c.cell, way) if way is not None else None
    if dest is None or dest in grid.blocked or dest in enc.occupied(exclude=c):
        raise IllegalAction(f"{c.name} has no room to withdraw straight away from {t.name}: attack, drive it back or hold.")
    events, acts = _spend_action(enc, c, dice)
    if acts:
        events.append(Moved(actor=c.name, path=[c.cell.name, dest.name]))
        c.position = dest.name
    return events + after_attack(enc, opts, dice, c, t, True)
