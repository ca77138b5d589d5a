"""The damage-grid arithmetic the attacks use: the humanoid grid, face flips, applying the faces,
and the knock-down (Mode) test.

(Written here while the fuller arithmetic modules `grid`, `flips`, `damage`, `mode` are not in
this branch; the attacks call only the functions below, so they can be swapped for those.)

**The humanoid grid** as the text draws it: face 1 Mind (arrow down to Health), 2 Health (arrow
up to Mind), 3 Body (arrow up to Health), 4 Shield (arrow right to Body), 5 Arsenal (arrow left
to Body), 6 Speed (arrow up to Body).

**Flips.** "A flip is changing the face of the die to any one of the 4 connected faces. A flip
cannot turn to the opposite face. To flip to the opposite side would cost 2 flips": faces that
sum to 7 are opposite. Aiming at a location, the dice not already on it are flipped cheapest
first (ties: in the order rolled) while Accuracy lasts.

**Damage.** "remove as many faces from all grid squares as the value of the target's Shield, if
Shield can be used ... Then remove as many faces from all grid squares the value of the target's
Body": each location's hits minus Shield (not from the nine adjacent squares, not against Blast)
minus Body (with any cover added), both as they were before the attack. What gets through
lowers the location's value; hits beyond its value, or on a ruined location (value 0), follow
its transfer arrow to the next location that is not ruined, once round the grid at most.
Arsenal hits land on the carried weapon the attacker names (default: the first with Health
left), and what that weapon cannot take follows the arrow. Mind 0: inert; Health 0: killed.

**Mode test** (shared/rules/README.md): by the share of Health lost to this attack: 1/4 or less
no test; 1/2 or less difficulty 1; 3/4 or less 2; more 3. One d6 per point of Mind left (at
least 1); passed when the largest group of equal faces is at least the difficulty.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rules.errors import InputError
from rules.systems.damage_grid.events import LocationHit

__all__ = [
    "HUMANOID",
    "LOCATIONS",
    "DEFAULTS",
    "location_of",
    "flip_cost",
    "aim_flips",
    "parse_flips",
    "defend_flips",
    "Applied",
    "apply",
    "mode_difficulty",
    "largest_group",
]

#: face -> (location, transfer arrow target)
HUMANOID: dict[int, tuple[str, str]] = {
    1: ("mind", "health"),
    2: ("health", "mind"),
    3: ("body", "health"),
    4: ("shield", "body"),
    5: ("arsenal", "body"),
    6: ("speed", "body"),
}
LOCATIONS = tuple(loc for loc, _ in HUMANOID.values())
#: a humanoid's values where the sheet gives none (the text gives none: project defaults; Speed 4 is
#: shared/rules/README.md's)
DEFAULTS = {"mind": 2, "health": 3, "body": 1, "shield": 0, "speed": 4}
ARROWS = {loc: to for loc, to in HUMANOID.values()}


def location_of(face: int) -> str:
    return HUMANOID[face][0]


def faces_of(location: str) -> list[int]:
    return [f for f, (loc, _) in HUMANOID.items() if loc == location]


def flip_cost(a: int, b: int) -> int:
    """Flips to turn face ``a`` into ``b``: 0 (same), 2 (opposite), else 1."""
    return 0 if a == b else 2 if a + b == 7 else 1


@dataclass(frozen=True)
class Turn:
    index: int
    before: int
    after: int
    cost: int


def aim_flips(dice: list[int], accuracy: int, location: str) -> list[Turn]:
    """The flips that put the most dice on ``location`` within ``accuracy`` (cheapest first, in order)."""
    goal = faces_of(location)
    if not goal:
        raise InputError(f"`aim={location}` is not a location: aim at one of {', '.join(LOCATIONS)}.")
    options = []
    for i, d in enumerate(dice):
        if d in goal:
            continue
        to = min(goal, key=lambda g: (flip_cost(d, g), g))
        options.append(Turn(i, d, to, flip_cost(d, to)))
    out, left = [], accuracy
    for t in sorted(options, key=lambda t: (t.cost, t.index)):
        if t.cost <= left:
            out.append(t)
            left -= t.cost
    return sorted(out, key=lambda t: t.index)


def parse_flips(text: str, dice: list[int], accuracy: int) -> list[Turn]:
    """``"5>3,4>1"``: turn a die showing 5 into 3 and one showing 4 into 1, within ``accuracy``."""
    out: list[Turn] = []
    used: set[int] = set()
    for item in (x.strip() for x in text.replace(" ", ",").split(",") if x.strip()):
        a, sep, b = item.partition(">")
        if not (sep and a.strip().isdigit() and b.strip().isdigit() and 1 <= int(a) <= 6 and 1 <= int(b) <= 6):
            raise InputError(f"`flips`: `{item[:10]}` is not a flip: write `from>to` faces, like `flips=5>3,4>1`.")
        x, y = int(a), int(b)
        i = next((j for j, d in enumerate(dice) if d == x and j not in used), None)
        if i is None:
            raise InputError(f"`flips`: no die shows {x} to flip (the dice are {', '.join(map(str, dice))}).")
        used.add(i)
        out.append(Turn(i, x, y, flip_cost(x, y)))
    spent = sum(t.cost for t in out)
    if spent > max(accuracy, 0):
        raise InputError(
            f"`flips` cost {spent} flips (a neighbouring face 1, the opposite face 2) and the attack's Accuracy is "
            f"{accuracy}: flip less."
        )
    return out


def defend_flips(dice: list[int], points: int, values: dict[str, int]) -> list[Turn]:
    """A negative Accuracy lets the target flip ``points``: it turns the dice of its most-hit live
    location onto a neighbouring face whose location holds the fewest dice (ties: the lower face)."""
    dice = list(dice)
    out: list[Turn] = []
    for _ in range(points):
        counts = Counter(location_of(d) for d in dice)
        live = [i for i, d in enumerate(dice) if values.get(location_of(d), 0) > 0] or list(range(len(dice)))
        if not live:
            break
        i = max(live, key=lambda j: (counts[location_of(dice[j])], -j))
        d = dice[i]
        to = min((f for f in range(1, 7) if flip_cost(d, f) == 1), key=lambda f: (counts[location_of(f)], f))
        out.append(Turn(i, d, to, 1))
        dice[i] = to
    return out


@dataclass
class Applied:
    """The result of applying faces: per location, the weapons hit, the new values."""

    hits: list[LocationHit] = field(default_factory=list)
    values: dict[str, int] = field(default_factory=dict)
    weapons: dict[str, int] = field(default_factory=dict)
    weapon_hits: dict[str, int] = field(default_factory=dict)

    @property
    def inert(self) -> bool:
        return self.values.get("mind", 1) <= 0

    @property
    def killed(self) -> bool:
        return self.values.get("health", 1) <= 0


def apply(
    faces: list[int],
    values: dict[str, int],
    weapons: dict[str, int],
    *,
    shield: bool = True,
    extra_body: int = 0,
    arsenal: str | None = None,
) -> Applied:
    """Apply ``faces`` to a grid with ``values`` (and carried ``weapons``' Health); see the module text."""
    now = dict(values)
    arms = dict(weapons)
    stop_shield = max(values.get("shield", 0), 0) if shield else 0
    stop_body = max(values.get("body", 0), 0) + extra_body
    counts = Counter(location_of(f) for f in faces)
    result = Applied()
    incoming: dict[str, int] = {}
    for loc in LOCATIONS:
        n = counts.get(loc, 0)
        if not n:
            continue
        s = min(n, stop_shield)
        b = min(n - s, stop_body)
        hit = LocationHit(location=loc, hits=n, shield=s, body=b, before=values.get(loc))
        result.hits.append(hit)
        incoming[loc] = n - s - b
    order = [h.location for h in result.hits]
    for loc in order:
        left, here, seen = incoming[loc], loc, set()
        hit = next(h for h in result.hits if h.location == loc)
        while left > 0 and here not in seen:
            seen.add(here)
            if here == "arsenal":
                live = [w for w, hp in arms.items() if hp > 0]
                name = arsenal if arsenal in live else (live[0] if live else None)
                room = arms.get(name, 0) if name else 0
                take = min(left, room)
                if name and take:
                    arms[name] -= take
                    result.weapon_hits[name] = result.weapon_hits.get(name, 0) + take
            else:
                take = min(left, max(now.get(here, 0), 0))
                now[here] = now.get(here, 0) - take
            if here == loc:
                hit.taken += take
            else:
                hit.transferred += take
            left -= take
            here = ARROWS[here]
    for hit in result.hits:
        hit.after = now.get(hit.location)
    result.values = now
    result.weapons = arms
    return result


def mode_difficulty(health_before: int, health_lost: int) -> int:
    """The knock-down test's difficulty by the share of Health lost (0: no test)."""
    if health_before <= 0 or health_lost <= 0:
        return 0
    share = health_lost / health_before
    return 0 if share <= 0.25 else 1 if share <= 0.5 else 2 if share <= 0.75 else 3


def largest_group(dice: list[int]) -> int:
    return max(Counter(dice).values(), default=0)
