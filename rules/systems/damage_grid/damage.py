"""Applying an attack's final faces to a target's damage grid.

"Group together all the attack faces to their location on the damage grid. ... When a model is
hit and all the faces are grouped by the target's damage grid, remove as many faces from all
grid squares as the value of the target's Shield, if Shield can be used.
 - If a model is attacked from any of the nine adjacent squares its Shield cannot be used to
   deflect the attack.
 - If a weapon with Blast attacks a model its Shield cannot be used to defect the attack.
Then remove as many faces from all grid squares the value of the target's Body. Effectively the
damage will be = faces - (Shield + Body). Shields and Body will always stop damage to other grid
squares until they are reduced to 0 themselves or cannot be used to block an attack."

Readings chosen where the text is open:

- Shield and Body each stop their value in hits **once per attack** ("Effectively the damage will
  be = faces - (Shield + Body)", the text's own summary), with their values as they were before
  this attack (the text removes the faces before it counts the damage: an attack that ruins Body
  still meets the Body it had); ``extra_body`` is what cover adds ("the difference is added to the
  Body of the target"). They "stop damage to *other* grid squares": Shield stops no hit on the
  Shield square and the target's own Body none on the Body square (those hits wear the protection
  itself down); the Body cover adds is not the target's square, so it stops hits there too (a wall
  beside the target is not worn down by them: "faces - (Shield + Body)").
  The text does not say which faces they take off; they are the target's protection, so together
  they stop as many hits as they can, spread over the locations for the least harm over the whole
  attack by :func:`harm`'s measure (death, then inertness, then Health lost, then Mind lost): every
  way is weighed, so Shield stops a hit on the Body square when that lets Body stop one elsewhere.
  At equal harm the most are stopped on the earliest locations in grid order. The reply tells
  Shield's on the Body square and Body's on the Shield square, then Shield's first in grid order.
  The encounter option ``protection=location`` reads "remove as many faces from all grid squares"
  as from *each* square instead: each location's hits lose the Shield, then the Body (the same
  values before the attack, and the same squares left out).
- What gets through lowers the location's hits. Hits beyond them, or on a location already
  ruined ("value is 0") "or ignored", follow the transfer arrow to the next location, and on
  along the arrows while hits are left; Shield and Body are not subtracted again on the way.
  A chain visits each location once: hits left when it comes back round, or at a location
  with no arrow, are lost (nothing is left to take them).
- Arsenal: "When this location is hit the attacker targets one Weapon or Equipment the model is
  carrying. Each weapon has its own Health value and takes damage like anything else." The
  attacker names the weapon (default: the first carried with Health left); it takes what it can
  and the rest follows Arsenal's arrow (not on to a second weapon). No weapon left: ruined.
- "When Mind reaches 0 the model can no longer perform Actions and becomes inert or falls over.
  When Health reaches 0 the model is killed or destroyed." (:attr:`Damage.inert`,
  :attr:`Damage.killed`; a grid without Mind is never inert.)
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict, Unpack

from rules.systems.damage_grid.events import LocationHit
from rules.systems.damage_grid.grid import (
    ARSENAL,
    BODY,
    HEALTH,
    MIND,
    SHIELD,
    DamageGrid,
)

__all__ = ["Transfer", "Damage", "Hit", "apply_faces", "harm"]


@dataclass(frozen=True)
class Transfer:
    """``hits`` went from a ruined location ``source`` along its arrow to ``to``."""

    source: str
    to: str
    hits: int


@dataclass
class Damage:
    """The result of an attack on a grid: per location (grid order, only those touched: the
    `GridDamage` event's rows as they are), the transfers, the new hits per location and the
    carried weapons' new Health."""

    faces: tuple[int, ...]
    locations: list[LocationHit]
    values: dict[str, int]
    weapons: dict[str, int]
    shield: int
    body: int
    weapon: str | None = None
    transfers: list[Transfer] = field(default_factory=list)
    #: hits nothing could take (every location on their way ruined)
    lost: int = 0
    inert: bool = False
    killed: bool = False

    def at(self, location: str) -> LocationHit | None:
        return next((row for row in self.locations if row.location == location), None)

    def lost_from(self, location: str) -> int:
        row = self.at(location)
        return max((row.before or 0) - (row.after or 0), 0) if row else 0

    @property
    def health_lost(self) -> int:
        return self.lost_from(HEALTH)

    @property
    def mind_lost(self) -> int:
        return self.lost_from(MIND)

    @property
    def taken(self) -> int:
        """Every hit the target took, weapons' included."""
        return sum(row.taken for row in self.locations)


#: the counts of a location's `LocationHit` row, tallied as the attack's hits go
_COUNTS = ("rolled", "shield", "body", "taken", "received", "passed")


def _weapon(weapons: Mapping[str, int], named: str | None) -> str | None:
    live = [w for w, hp in weapons.items() if hp > 0]
    return named if named in live else (live[0] if live else None)


def apply_faces(faces: Sequence[int], grid: DamageGrid, values: Mapping[str, int], **hit: Unpack[Hit]) -> Damage:
    """Apply the final ``faces`` to a target with hits ``values`` per location (module docstring);
    ``hit``: how the attack meets the target (`Hit`, its defaults `_target`'s)."""
    target = _target(grid, values, **hit)
    counts = _counts(faces, grid)
    counted = _flow(counts, _stops(counts, target), target)
    rows = []
    for name in grid.names:  # grid order, as the rows are shown
        row = counted.tally.get(name)
        if row is not None and (row["rolled"] or row["received"]):
            rows.append(LocationHit.model_validate({"location": name, **row, "before": target.before[name],
                                                    "after": counted.held(name)}))
    return Damage(tuple(int(f) for f in faces), rows, counted.values, counted.weapons, target.shield, target.body,
                  target.struck, counted.transfers, counted.lost, counted.inert, counted.killed)


@dataclass
class _Counted:
    """An attack's hits counted on the grid (`_count`), before they are made a `Damage` and its `LocationHit` rows:
    the hits and weapons' Health after it, the counts (`_COUNTS`) of each location it touched, the transfers and
    the hits lost."""

    target: _Target
    values: dict[str, int]
    weapons: dict[str, int]
    tally: dict[str, dict[str, int]] = field(default_factory=dict)
    transfers: list[Transfer] = field(default_factory=list)
    lost: int = 0
    #: the hits Shield and Body did not stop (taken, or lost)
    through: int = 0

    def row(self, name: str) -> dict[str, int]:
        """The counts of a location, made as the attack first touches it (one untouched has none: all 0)."""
        row = self.tally.get(name)
        if row is None:
            row = self.tally[name] = dict.fromkeys(_COUNTS, 0)
        return row

    def held(self, name: str) -> int | None:
        """The location's hits now (`_holds`)."""
        return _holds(name, self.values, self.weapons, self.target.struck)

    def lost_from(self, name: str) -> int:
        """`Damage.lost_from` read from the hits before and now (a location the attack did not reach lost none)."""
        return max((self.target.before.get(name) or 0) - (self.held(name) or 0), 0)

    @property
    def inert(self) -> bool:
        return self.target.grid.has(MIND) and self.values.get(MIND, 0) <= 0

    @property
    def killed(self) -> bool:
        return self.target.grid.has(HEALTH) and self.values.get(HEALTH, 0) <= 0


@dataclass(frozen=True)
class _Target:
    """What counting an attack's faces reads of its target, worked out once (:func:`harm` counts many faces)."""

    grid: DamageGrid
    values: dict[str, int]
    weapons: dict[str, int]
    shield: int
    body: int
    struck: str | None
    #: each location's hits before the attack (`_Counted.held` of the target as it is)
    before: dict[str, int | None]
    #: Shield and Body stop their value on each location's hits (option ``protection=location``), not once an attack
    per_location: bool = False
    #: the part of ``body`` that cover adds: it stops hits on the Body square too
    cover: int = 0
    #: the harm (`_measure`) of the hits that get through to each location (in grid order), as `_stops` weighs them
    weighed: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict, compare=False, repr=False)
    #: the least harm of each way the hits on the later locations meet a grid (`_least_harm`), and what it stops
    least: dict[tuple[object, ...], tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict,
                                                                                    compare=False, repr=False)
    #: what Shield and Body stop (`_stops`) of the dice on each location (in grid order)
    stopped: dict[tuple[int, ...], dict[str, tuple[int, int]]] = field(default_factory=dict, compare=False,
                                                                       repr=False)


def _target(grid: DamageGrid, values: Mapping[str, int], *, shield: bool = True, extra_body: int = 0,
            weapons: Mapping[str, int] | None = None, arsenal: str | None = None, per_location: bool = False) -> _Target:
    """What counting an attack's faces reads of the target (`Hit`'s keywords: ``shield``, False when
    the attacker is in one of the nine adjacent squares or the weapon has Blast; ``extra_body``, what
    cover adds to Body; ``weapons``, carried weapons' Health by name; ``arsenal``, the one the attacker
    names; ``per_location``, option ``protection=location``)."""
    now = {k: int(v) for k, v in values.items()}
    arms = {k: int(v) for k, v in (weapons or {}).items()}
    stop_shield = max(now.get(SHIELD, 0), 0) if shield and grid.has(SHIELD) else 0
    stop_body = max(now.get(BODY, 0), 0) + max(extra_body, 0) if grid.has(BODY) else max(extra_body, 0)
    struck = _weapon(arms, arsenal) if grid.has(ARSENAL) else None
    before = {name: _holds(name, now, arms, struck) for name in grid.names}
    return _Target(grid, now, arms, stop_shield, stop_body, struck, before, per_location, cover=max(extra_body, 0))


def _holds(name: str, values: Mapping[str, int], weapons: Mapping[str, int], struck: str | None) -> int | None:
    """A location's hits in ``values`` (Arsenal: the ``struck`` weapon's Health of ``weapons``; None without one)."""
    if name == ARSENAL:
        return weapons.get(struck) if struck is not None else None
    return values.get(name)


def _counts(faces: Sequence[int], grid: DamageGrid) -> dict[str, int]:
    """The dice on each location the ``faces`` strike."""
    counts: dict[str, int] = {}
    for f in faces:
        at = grid.location_of(int(f))
        counts[at] = counts.get(at, 0) + 1
    return counts


def _stops(counts: Mapping[str, int], target: _Target) -> dict[str, tuple[int, int]]:
    """What Shield and Body stop of each location's ``counts`` (module docstring): ``(shield, body)`` by name."""
    if target.per_location:
        shield = dict.fromkeys(counts, 0)
        body = dict.fromkeys(counts, 0)
        for stop, out, own in ((target.shield, shield, SHIELD), (target.body, body, BODY)):
            for n in counts:  # "damage to other grid squares" (cover's Body: every square)
                out[n] = min(counts[n] - shield[n] - body[n], stop if n != own else target.cover if own == BODY else 0)
        return {n: (shield[n], body[n]) for n in counts}
    key = tuple(counts.get(n, 0) for n in target.grid.names)
    found = target.stopped.get(key)
    if found is None:
        found = target.stopped[key] = _split(_least_harm(counts, target), counts, target)
    return found


def _least_harm(counts: Mapping[str, int], target: _Target) -> dict[str, int]:
    """The hits Shield and Body stop together on each location (by name): as many as they can (their values; Shield
    none on the Shield square, Body none on the Body square), spread over the locations for the least harm (death,
    then inertness, Health lost, Mind lost: the same number of hits gets through whichever way they are spread); at
    equal harm the most on the earliest locations in grid order. Every spread is weighed, location by location as
    `_flow` pours their hits, each grid left by the earlier locations weighed once."""
    names = [n for n in target.grid.names if counts.get(n, 0) > 0]
    # the most each location's hits can lose: Shield and cover alone stop the Body square's, Body the Shield square's
    cap = {n: min(counts[n], target.shield + target.cover if n == BODY else target.body if n == SHIELD else counts[n])
           for n in names}
    total = min(target.shield + target.body, sum(cap.values()))
    if total == sum(cap.values()):
        return cap
    # the most the later locations can still stop, for each position in ``names``
    room = [sum(cap[n] for n in names[i:]) for i in range(len(names) + 1)]
    least = target.least

    def spread(i: int, left: int, now: dict[str, int], arms: dict[str, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The least harm stopping ``left`` hits on ``names[i:]`` of a grid at ``now`` (weapons ``arms``), and the
        hits stopped on each."""
        if i == len(names):
            return _grid_harm(now, target), ()
        key = (*((n, counts[n]) for n in names[i:]), left, *now.values(), *arms.values())
        found = least.get(key)
        if found is None:
            n = names[i]
            for k in range(min(cap[n], left), max(left - room[i + 1], 0) - 1, -1):  # the most on the earliest first
                after, arms_after = dict(now), dict(arms)
                _pour(n, counts[n] - k, after, arms_after, target)
                harm, rest = spread(i + 1, left - k, after, arms_after)
                if found is None or harm < found[0]:
                    found = harm, (k, *rest)
                if not any(harm):  # nothing can do better
                    break
            assert found is not None  # total is at most room[0]: some spread fits
            least[key] = found
        return found

    return dict(zip(names, spread(0, total, dict(target.values), dict(target.weapons))[1], strict=True))


def _grid_harm(now: Mapping[str, int], target: _Target) -> tuple[int, ...]:
    """`_measure` of a target's hits ``now`` without the hits through: killed, inert, Health lost, Mind lost."""
    grid, before = target.grid, target.before
    return (int(grid.has(HEALTH) and now.get(HEALTH, 0) <= 0), int(grid.has(MIND) and now.get(MIND, 0) <= 0),
            max((before.get(HEALTH) or 0) - now.get(HEALTH, 0), 0) if grid.has(HEALTH) else 0,
            max((before.get(MIND) or 0) - now.get(MIND, 0), 0) if grid.has(MIND) else 0)


def _split(stopped: Mapping[str, int], counts: Mapping[str, int], target: _Target) -> dict[str, tuple[int, int]]:
    """The hits ``stopped`` on each location told as Shield's and Body's ``(shield, body)`` by name: Shield's on the
    Body square (then cover's, as Body), Body's on the Shield square, then Shield first over the rest in grid order,
    Body after it."""
    on_body = min(stopped.get(BODY, 0), target.shield)
    shield_left = target.shield - on_body
    out = {}
    for n in (n for n in target.grid.names if n in counts):
        k = stopped.get(n, 0)
        if n == BODY:
            out[n] = (on_body, k - on_body)
        elif n == SHIELD:
            out[n] = (0, k)
        else:
            by_shield = min(k, shield_left)
            shield_left -= by_shield
            out[n] = (by_shield, k - by_shield)
    return out


def _through_harm(through: Mapping[str, int], target: _Target) -> tuple[int, ...]:
    """The harm of ``through`` hits getting through to each location (weighed once a target)."""
    key = tuple(through.get(n, 0) for n in target.grid.names)
    found = target.weighed.get(key)
    if found is None:
        found = target.weighed[key] = _measure(_flow(through, {}, target, record=False))
    return found


def _measure(counted: _Counted) -> tuple[int, ...]:
    """:func:`harm`'s measure of counted hits (lower is better for the target)."""
    return int(counted.killed), int(counted.inert), counted.lost_from(HEALTH), counted.lost_from(MIND), counted.through


def _flow(counts: Mapping[str, int], stops: Mapping[str, tuple[int, int]], target: _Target,
          record: bool = True) -> _Counted:
    """The hits of each location's ``counts`` less what Shield and Body ``stops`` (by name; none when left out),
    taken and passed on along the arrows (`_pour`); ``record``: tally each location's counts and the transfers
    (`_measure` reads neither)."""
    counted = _Counted(target, dict(target.values), dict(target.weapons))
    for name in target.grid.names:
        rolled = counts.get(name, 0)
        if not rolled:  # nothing struck it: a location's hits come from its own dice, or along an arrow below
            continue
        shield, body = stops.get(name, (0, 0))
        if record:
            row = counted.row(name)
            row["rolled"], row["shield"], row["body"] = rolled, shield, body
        left = rolled - shield - body
        counted.through += left
        counted.lost += _pour(name, left, counted.values, counted.weapons, target, counted if record else None)
    return counted


def _pour(name: str, left: int, now: dict[str, int], arms: dict[str, int], target: _Target,
          counted: _Counted | None = None) -> int:
    """Lower the hits ``now`` (and the weapons' Health ``arms``) by ``left`` hits that got through on location
    ``name``, passing what it cannot take on along the arrows (module docstring); ``counted``: tally the locations'
    counts and the transfers there. The hits lost."""
    grid, struck = target.grid, target.struck
    here, visited = name, set()
    while left > 0 and here not in visited:
        visited.add(here)
        if here != ARSENAL:
            hits = min(left, max(now.get(here, 0), 0))
            now[here] -= hits
        elif struck is not None:  # without a weapon Arsenal has no room: it takes nothing
            hits = min(left, max(arms.get(struck, 0), 0))
            arms[struck] -= hits
        else:
            hits = 0
        if hits and counted is not None:
            counted.row(here)["taken"] += hits
        left -= hits
        to = grid.arrow(here)
        if not left or to is None or to in visited:
            break
        if counted is not None:
            counted.transfers.append(Transfer(here, to, left))
            counted.row(here)["passed"] += left
            counted.row(to)["received"] += left
        here = to
    return left


class Hit(TypedDict, total=False):
    """How an attack meets the target (:func:`apply_faces`'s keywords, which :func:`harm` passes on)."""

    shield: bool
    extra_body: int
    weapons: Mapping[str, int] | None
    arsenal: str | None
    per_location: bool


def harm(grid: DamageGrid, values: Mapping[str, int], **kwargs: Unpack[Hit]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """How bad final ``faces`` are for the target (lower is better), for the target's own flips
    (:func:`rules.systems.damage_grid.flips.target_flips`): killed, then inert, then Health lost,
    Mind lost, and all hits that got through (taken, or lost for want of a location to take them,
    so that the measure still falls while the worst cannot be helped). ``kwargs`` are
    :func:`apply_faces`'s."""

    target = _target(grid, values, **kwargs)

    def measure(faces: Sequence[int]) -> tuple[int, ...]:  # `apply_faces` read from its counts: no `Damage` is made
        counts = _counts(faces, grid)
        stops = _stops(counts, target)
        return _through_harm({n: c - sum(stops[n]) for n, c in counts.items()}, target)

    return measure
