"""Zones of threat, danger and marginal zones on the hex grid, per weapon.

- Zone of threat: the hexes in front of a fighter within his weapon's range. At range 1 the
  three front hexes; at range 2 the three hexes ahead at two hexes (the target hex and the
  one to either side closest to the fighter). A polearm leaves the gap: its hexes at range 1
  are obstructed, not threatened. A two-handed sword threatens those hexes too.
- Marginal zone: "the two hexes to either side of the zone of threat" at range 2 or more: the
  polearm diagram is lost in the text we have (flattened to its legend), so it is read as the
  hexes beside the zone of threat in its own ring (at the same range), next to its ends; a
  limited zone of threat takes its marginal zone with it (limited to the hex ahead, the two
  beside that hex, where the left and right threat hexes were).
- Zone of danger (only while the fighter is engaged, and of any fighter, allies included: "any
  hex that is in range of a weapon held by any fighter that is actively engaged"): the six hexes
  around a one-hex swung weapon; a polearm's is its zone of threat; a two-handed sword adds the
  three hexes behind.
- Missile weapons (range 0 in melee) have no zones.
- Obstructed hexes: a polearm's hexes at range 1 in front ("The space between the zone of
  threat and the fighter is considered obstructed, but not impassible"; the text gives
  obstruction no cost, so it is shown, not charged; the polearm's head strikes no foe there:
  option `polearm_gap`, in `attacks.py`). A polearm wielder may limit its zone of
  threat (`/act action:limit`) to the hex ahead, or to it and the one to its left or right:
  "the corresponding obstructed hex(es) is considered unobstructed" - by default those on the
  side of the hexes given up (option `polearm_limit=dropped`; `kept`: those before the hexes
  still threatened). Each obstructed hex corresponds to the threat hex on its side (left,
  ahead, right).
"""
from __future__ import annotations

from functools import lru_cache

from rules.geometry import Cell, Grid
from rules.models import Combatant, Encounter
from rules.systems.war_and_combat import sheet
from rules.systems.war_and_combat.catalogue import WEAPONS, Weapon
from rules.systems.war_and_combat.state import WacCombatant

__all__ = ["LIMITS", "wielded", "in_hand", "reach_of", "zones_of", "threat", "marginal", "engaging", "danger", "obstructed", "engaged_with", "actively_engaged", "zone_of", "brought_into_threat", "in_my_threat"]


#: a polearm's zone of threat limited to (`/act action:limit`) -> the sides it keeps
LIMITS: dict[str, frozenset[str]] = {"ahead": frozenset({"ahead"}), "left": frozenset({"ahead", "left"}),
                                     "right": frozenset({"ahead", "right"})}


def wielded(c: Combatant) -> Weapon:
    """The weapon in hand: the one wielded, else the sheet's first ("the first in hand", a bow as a sword)."""
    carried = sheet.weapons(c)
    name = WacCombatant.of(c).wield
    for w in carried:
        if w.name == name:
            return w
    return carried[0]


def in_hand(c: Combatant) -> Weapon | None:
    """The weapon in hand; None when it was dropped (a fumble, a disarm) or sheathed."""
    return _held(c, None)


def reach_of(w: Weapon, step_in: bool = False) -> int:
    """How far ``w`` strikes: its reach, one hex more with a step in ("The unengaged fighter must negotiate the space
    around the combatants": a swipe or free attack, and an interrupter's blows in the flurry it joined)."""
    return w.reach + (1 if step_in else 0)


def _held(c: Combatant, weapon: Weapon | None) -> Weapon | None:
    """``weapon``, or the one in hand; None when the one in hand was dropped (a fumble, a disarm) or sheathed."""
    if weapon is not None:
        return weapon
    w = wielded(c)
    return None if w.name in WacCombatant.of(c).dropped or WacCombatant.of(c).sheathed else w


def _signed(grid: Grid, origin: Cell, facing: str, cell: Cell) -> float:
    """The bearing of ``cell`` from ``origin`` off the facing, in degrees: negative to the left."""
    return (grid.bearing(origin, cell) - grid.facings.index(facing) * 60 + 180) % 360 - 180


def _angle(grid: Grid, origin: Cell, facing: str, cell: Cell) -> float:
    return abs(_signed(grid, origin, facing, cell))


def _side(grid: Grid, origin: Cell, facing: str, cell: Cell) -> str:
    a = _signed(grid, origin, facing, cell)
    return "left" if a < -15 else "right" if a > 15 else "ahead"


def _ring(grid: Grid, origin: Cell, distance: int) -> list[Cell]:
    out = []
    for col in range(origin.col - distance, origin.col + distance + 1):
        for row in range(origin.row - distance - 1, origin.row + distance + 2):
            cell = Cell(col, row)
            if grid.contains(cell) and grid.distance(origin, cell) == distance:
                out.append(cell)
    return out


@lru_cache(maxsize=8192)
def _zones(grid: Grid, origin: Cell, facing: str, w: Weapon, limit: str | None = None) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """(zone of threat, marginal zone) of ``w`` held at ``origin`` facing ``facing`` (a polearm's
    limited to ``limit``, a key of LIMITS); cached (grids are shared read-only, so one is the same
    object for every encounter on that map)."""
    threat: set[Cell] = set()
    if not w.polearm:
        threat |= {x for x in _ring(grid, origin, 1) if _angle(grid, origin, facing, x) <= 61}
    for d in range(2, w.reach + 1):
        threat |= {x for x in _ring(grid, origin, d) if _angle(grid, origin, facing, x) < 45}
    if w.polearm and limit in LIMITS:
        threat = {x for x in threat if _side(grid, origin, facing, x) in LIMITS[limit]}
    edge = set()
    for d in range(2, w.reach + 1):  # the hexes beside the zone of threat in its own ring, as limited
        ring = _ring(grid, origin, d)
        held = [x for x in ring if x in threat]
        edge |= {x for x in ring if x not in threat and any(grid.distance(x, y) == 1 for y in held)}
    return frozenset(threat), frozenset(edge)


def zones_of(grid: Grid, c: Combatant, weapon: Weapon | None = None, *, at: Cell | None = None,
             facing: str | None = None) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """(zone of threat, marginal zone) of ``c`` with ``weapon`` (the one in hand by default), standing
    at ``at`` facing ``facing`` (where and as it stands by default); none without a melee weapon."""
    w = _held(c, weapon)
    origin = at if at is not None else c.cell
    facing = facing if facing is not None else c.facing
    if w is None or origin is None or facing is None or w.ranged or w.reach < 1:
        return frozenset(), frozenset()
    return _zones(grid, origin, facing, w, _limit(c, w))


def threat(grid: Grid, c: Combatant, weapon: Weapon | None = None) -> frozenset[Cell]:
    """The fighter's zone of threat with ``weapon`` (the one in hand by default)."""
    return zones_of(grid, c, weapon)[0]


def marginal(grid: Grid, c: Combatant, weapon: Weapon | None = None) -> frozenset[Cell]:
    """The two hexes to either side of the zone of threat (range-2 and range-3 weapons)."""
    return zones_of(grid, c, weapon)[1]


def engaging(grid: Grid, c: Combatant) -> frozenset[Cell]:
    """The hexes in which ``c`` engages an enemy: its zone of threat, and its marginal zone (the
    wielder may attack one who ends movement there)."""
    mine, beside = zones_of(grid, c)
    return mine | beside


def _limit(c: Combatant, w: Weapon) -> str | None:
    """The limit its wielder set on a polearm's zone of threat (None: the full zone, or not a polearm)."""
    return WacCombatant.of(c).limit if w.polearm else None


def obstructed(grid: Grid, c: Combatant, reading: str = "dropped") -> frozenset[Cell]:
    """A polearm's obstructed hexes: its front hexes at range 1, less those a limited zone of threat
    frees ("the corresponding obstructed hex(es) is considered unobstructed"): with ``reading``
    ``dropped`` those on the sides given up, with ``kept`` those on the sides still threatened."""
    w = _held(c, None)
    origin, facing = c.cell, c.facing
    if w is None or not w.polearm or origin is None or facing is None:
        return frozenset()
    front = {x for x in _ring(grid, origin, 1) if _angle(grid, origin, facing, x) <= 61}
    limit = _limit(c, w)
    if limit is None:
        return frozenset(front)
    kept = LIMITS[limit]
    return frozenset(x for x in front if (_side(grid, origin, facing, x) in kept) == (reading == "dropped"))


def danger(grid: Grid, c: Combatant, weapon: Weapon | None = None) -> frozenset[Cell]:
    """The fighter's zone of danger while engaged."""
    w = _held(c, weapon)
    origin = c.cell
    if w is None or origin is None or w.ranged or w.reach < 1:
        return frozenset()
    if w.polearm:
        return threat(grid, c, w)
    return threat(grid, c, w) | frozenset(grid.neighbours(origin))


def engaged_with(enc: Encounter, grid: Grid, c: Combatant) -> list[Combatant]:
    """The active enemies ``c`` is engaged with: each holds the other in a zone of threat (or a
    marginal zone, where the wielder may attack one who ends movement there)."""
    out: list[Combatant] = []
    if c.cell is None:
        return out
    mine = engaging(grid, c)
    for e in enc.enemies_of(c):
        if e.status != "active" or e.cell is None:
            continue
        if e.cell in mine or c.cell in engaging(grid, e):
            out.append(e)
    return out


def actively_engaged(enc: Encounter, grid: Grid) -> set[str]:
    """The names of the fighters "actively engaged": those engaged with an enemy, and those stopped
    in an engaged fighter's zone of danger (they "resolve the threat during the flurry phase"),
    and so on: each holds a zone of danger of its own."""
    placed = [(c, c.cell) for c in enc.combatants if c.status == "active" and c.cell is not None]
    at = {cell: c for c, cell in placed}
    engaged: set[str] = set()
    for c, _ in placed:  # each fighter's zones once, and only the hexes in them looked at
        for e in (at.get(x) for x in engaging(grid, c)):
            if e is not None and e.side != c.side:
                engaged |= {c.name, e.name}
    covered: set[Cell] = set()
    counted: set[str] = set()
    while True:
        for e, _ in placed:
            if e.name in engaged and e.name not in counted:
                covered |= danger(grid, e)
                counted.add(e.name)
        new = {c.name for c, cell in placed if c.name not in engaged and cell in covered}
        if not new:
            return engaged
        engaged |= new


#: the farthest hex any fighter's zones reach from it: its weapon's reach, and the hexes beside it
FARTHEST = max(1, *(w.reach for w in WEAPONS.values()))


def zone_of(enc: Encounter, grid: Grid, c: Combatant, cell: Cell) -> tuple[Combatant, str] | None:
    """The first active enemy whose zone of threat covers ``cell``, else the first engaged fighter,
    of either side, whose zone of danger covers it: "A zone of danger is any hex that is in range
    of a weapon held by any fighter that is actively engaged" (an ally's swing can strike by accident)."""
    near = [e for e in enc.combatants if e is not c and e.status == "active" and e.cell is not None
            and grid.distance(e.cell, cell) <= FARTHEST]  # no zone reaches farther
    for e in near:
        if e.side != c.side and cell in threat(grid, e):
            return e, "threat"
    if not near:
        return None
    engaged = actively_engaged(enc, grid)
    for e in near:
        if cell in danger(grid, e) and e.name in engaged:
            return e, "danger"
    return None


def brought_into_threat(enc: Encounter, grid: Grid, c: Combatant, cell: Cell, facing: str,
                        before: frozenset[str]) -> Combatant | None:
    """The first active enemy (not in ``before``, the names already there) that ``c`` standing at
    ``cell`` facing ``facing`` holds in its zone of threat: "causing another character to enter
    your zone of threat engages the two figures"."""
    zone = zones_of(grid, c, at=cell, facing=facing)[0]
    for e in enc.enemies_of(c):
        if e.status == "active" and e.cell is not None and e.name not in before and e.cell in zone:
            return e
    return None


def in_my_threat(enc: Encounter, grid: Grid, c: Combatant) -> frozenset[str]:
    """The names of the active enemies in ``c``'s zone of threat as it stands."""
    zone = threat(grid, c)
    return frozenset(e.name for e in enc.enemies_of(c) if e.status == "active" and e.cell in zone)
