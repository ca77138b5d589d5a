"""Face flips: how Accuracy turns the rolled faces before they strike the damage grid.

"The model may then perform as many face flips with the total Accuracy of its attack. A flip is
changing the face of the die to any one of the 4 connected faces. A flip cannot turn to the
opposite face. To flip to the opposite side would cost 2 flips, one for each face change."
Opposite faces sum to 7 (shared/rules/README.md), so a face's four neighbours cost 1 and its
opposite 2.

**Aimed flips** (:func:`best_flips`): the attacker names a location; the bot flips the dice that
are not on it, cheapest first, while the Accuracy lasts: that puts the most dice on the location
with the fewest flips. Ties: among dice of equal cost the earliest rolled first, and each die
turns to the lowest face of the location it reaches at that cost. The text's example: "Meena
rolls 4D6 and gets 3, 3, 5 and 4. She is allowed 2 flips and uses one to flip 5 to a 3" (the 4 is
opposite the 3, so aimed at Body the bot makes the same single flip).

**Explicit flips** (:func:`parse_flips`): ``5>3,4>1`` turns a die showing 5 into a 3 and one
showing 4 into a 1; each names a different die (the earliest rolled not yet named), and they
cost at most the Accuracy; ``none`` makes no flips.

**A negative Accuracy** "allows the target to flip that many faces": the target's owner chooses,
by a standing preference on its sheet (:func:`preferred_flips`, sheet key ``flips``): a location
to turn the dice onto, as the attacker's ``aim=`` (``flips=body``), or ``from>to`` faces in order
of preference, each turning one die showing ``from`` while the points last (``flips=1>3,2>3``).
Without one (``least-harm``, the default, and always for the GM's models unless the GM sets it)
the bot flips for the target (:func:`target_flips`), choosing the flips that leave the least harm by the ``harm`` measure it
is given (:func:`rules.systems.damage_grid.damage.harm` ranks death, then inertness, then Health,
Mind and all hits taken); at equal harm the fewest flips, then the first found trying faces from
low to high. The search runs over the multiset of faces (the order of the dice does not matter to
the damage) one flip at a time, going on from the :data:`BEAM` least harmful positions after each
flip and weighing at most :data:`SEARCH_LIMIT` positions in all: every position for small pools
and few points, and a bounded cost for any pool.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.errors import InputError
from rules.systems.damage_grid.grid import FACES, DamageGrid

__all__ = [
    "NEIGHBOURS",
    "SEARCH_LIMIT",
    "BEAM",
    "Flip",
    "flip_cost",
    "apply_flips",
    "aim_location",
    "best_flips",
    "parse_flips",
    "example",
    "target_flips",
    "LEAST_HARM",
    "NO_FLIPS",
    "read_preference",
    "preferred_flips",
]

#: a face's four connected faces (all but itself and its opposite, which sums to 7)
NEIGHBOURS: dict[int, tuple[int, ...]] = {f: tuple(g for g in FACES if g != f and f + g != 7) for f in FACES}
#: the most face multisets the target's search weighs, and how many it goes on from after each flip
SEARCH_LIMIT = 600
BEAM = 12
_FLIP_RE = re.compile(r"^([1-6])>([1-6])$")


def flip_cost(a: int, b: int) -> int:
    """Flips to turn face ``a`` into ``b``: 0 the same face, 2 the opposite one, else 1."""
    return 0 if a == b else 2 if a + b == 7 else 1


@dataclass(frozen=True)
class Flip:
    """The die at ``index`` (in the order rolled) turned from ``before`` to ``after`` for ``cost``."""

    index: int
    before: int
    after: int
    cost: int
    by: str = "attacker"  # "attacker" | "target"


def apply_flips(dice: Sequence[int], flips: Sequence[Flip]) -> list[int]:
    """The final faces: ``dice`` with each flip applied."""
    out = [int(d) for d in dice]
    for f in flips:
        out[f.index] = f.after
    return out


def aim_location(grid: DamageGrid, aim: str) -> str:
    """The location named by ``aim=`` (any case), or a refusal listing the grid's locations."""
    name = (aim or "").strip().lower()
    if not grid.has(name):
        raise InputError(f"`aim={aim[:20]}` is not a location of the target: aim at one of {', '.join(grid.names)}.")
    return name


def best_flips(dice: Sequence[int], accuracy: int, aim: str, grid: DamageGrid) -> list[Flip]:
    """The flips (in roll order) that put the most dice on location ``aim`` within ``accuracy``."""
    goal = grid.faces_of(aim_location(grid, aim))
    options: list[Flip] = []
    for i, d in enumerate(dice):
        if d in goal:
            continue
        to = min(goal, key=lambda g: (flip_cost(d, g), g))
        options.append(Flip(i, int(d), to, flip_cost(d, to)))
    chosen, left = [], max(accuracy, 0)
    for f in sorted(options, key=lambda f: (f.cost, f.index)):
        if f.cost <= left:
            chosen.append(f)
            left -= f.cost
    return sorted(chosen, key=lambda f: f.index)


def parse_flips(text: str, dice: Sequence[int], accuracy: int, who: str | None = None, hidden: bool = False) -> list[Flip]:
    """Read ``flips=5>3,4>1`` (or ``none``) against the rolled ``dice`` and the attack's ``accuracy``
    (``who``: the target, ``accuracy`` being the flips it may make). ``hidden``: the Accuracy is a hidden target's
    to keep (its size and cover count in it), so a refusal would tell it: the flips are made in the order typed
    while the Accuracy lasts, and none at an Accuracy of 0 or less."""
    if (text or "").strip().lower() == NO_FLIPS or (hidden and accuracy <= 0):
        return []
    if accuracy <= 0:
        raise InputError(
            f"The attack's Accuracy is {accuracy}, so {'the target flips' if accuracy < 0 else 'there are no flips'}: "
            f"leave `flips` out."
        )
    items = [x for x in re.split(r"[,\s]+", (text or "").strip()) if x]
    if not items:
        raise InputError(f"`flips` is empty: write `from>to` faces, like `flips={example(dice)}`, or leave it out.")
    if len(items) > len(dice):
        raise InputError(f"`flips` names {len(items)} flips but the attack rolled {len(dice)} dice: one flip per die.")
    out: list[Flip] = []
    used: set[int] = set()
    shown = ", ".join(str(int(d)) for d in dice)
    for item in items:
        m = _FLIP_RE.match(item)
        if not m:
            raise InputError(f"`flips`: `{item[:10]}` is not a flip: write `from>to` faces 1 to 6, like "
                             f"`flips={example(dice)}`.")
        a, b = int(m.group(1)), int(m.group(2))
        if a == b:
            raise InputError(f"`flips`: `{item}` turns a face into itself: leave it out.")
        i = next((j for j, d in enumerate(dice) if d == a and j not in used), None)
        if i is None:
            raise InputError(f"`flips`: no die left showing {a} to flip (the dice are {shown}).")
        used.add(i)
        out.append(Flip(i, a, b, flip_cost(a, b)))
    spent = sum(f.cost for f in out)
    if spent > accuracy and hidden:
        left, kept = accuracy, []
        for f in out:
            if f.cost > left:
                break
            kept.append(f)
            left -= f.cost
        out, spent = kept, accuracy - left
    if spent > accuracy:
        budget = f"{who} may make {accuracy}" if who else f"the attack's Accuracy is {accuracy}"
        each = ", ".join(f"{f.before}>{f.after}: {f.cost}" for f in out)
        raise InputError(f"`{','.join(items)[:40]}` costs {spent} flips ({each}; a connected face costs 1, the opposite "
                         f"face 2) but {budget}: flip less, like `{example(dice)}`.")
    return sorted(out, key=lambda f: f.index)


def example(dice: Sequence[int]) -> str:
    """A flip that fits any Accuracy of 1 or more: the first die turned to its lowest connected face."""
    a = int(dice[0]) if dice else 1
    return f"{a}>{NEIGHBOURS[a][0]}"


def _moved(state: tuple[int, ...], a: int, b: int) -> tuple[int, ...]:
    faces = list(state)
    faces.remove(a)
    faces.append(b)
    return tuple(sorted(faces))


def target_flips(dice: Sequence[int], points: int, harm: Callable[[Sequence[int]], Any]) -> list[Flip]:
    """The target's flips for a negative Accuracy of ``-points``: the fewest flips that leave the
    least ``harm(faces)`` (any comparable value; lower is better for the target) the search finds."""
    start = tuple(sorted(int(d) for d in dice))
    best_path: tuple[tuple[int, int], ...] = ()
    best_harm = harm(start)
    frontier: list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = [(start, ())]
    seen = {start}
    for _ in range(max(points, 0)):
        found = []
        for state, path in frontier:
            for a in sorted(set(state)):
                for b in NEIGHBOURS[a]:
                    new = _moved(state, a, b)
                    if new in seen or len(seen) >= SEARCH_LIMIT:
                        continue
                    seen.add(new)
                    found.append((harm(new), new, (*path, (a, b))))
        if not found:
            break
        found.sort(key=lambda x: x[0])  # stable: ties keep the order found
        if found[0][0] < best_harm:
            best_harm, best_path = found[0][0], found[0][2]
        frontier = [(state, path) for _, state, path in found[:BEAM]]
    return _as_flips(dice, best_path)


#: the sheet's ``flips`` when the target leaves the choice to the bot
LEAST_HARM = "least-harm"
#: the answer that makes no flips (the attacker's `flips=none`, the target's too)
NO_FLIPS = "none"


def read_preference(text: str) -> str:
    """The sheet's ``flips``: ``least-harm``, a location's name, or ``from>to`` faces (stored as written back)."""
    v = (text or "").strip().lower()
    if v in ("", LEAST_HARM):
        return LEAST_HARM
    if re.fullmatch(r"[a-z][a-z-]{0,19}", v):
        return v
    items = [x for x in re.split(r"[,\s]+", v) if x]
    if items and len(items) <= 12 and all((m := _FLIP_RE.match(x)) and m.group(1) != m.group(2) for x in items):
        return ",".join(items)
    raise InputError(
        f"`flips={text[:20]}` is not a preference: write `least-harm`, a location to turn the attacker's dice onto "
        f"(like `flips=body`), or `from>to` faces in order of preference (like `flips=1>3,2>3`)."
    )


def preferred_flips(pref: str | None, dice: Sequence[int], points: int, grid: DamageGrid,
                    harm: Callable[[Sequence[int]], Any]) -> list[Flip]:
    """The target's flips for a negative Accuracy of ``-points`` by its sheet's preference (module text)."""
    pref = pref or LEAST_HARM
    if ">" not in pref and not grid.has(pref):  # least-harm (a location the grid lacks is refused on the sheet)
        return target_flips(dice, points, harm)
    if ">" not in pref:
        return [Flip(f.index, f.before, f.after, f.cost, by="target") for f in best_flips(dice, points, pref, grid)]
    out: list[Flip] = []
    left, used = points, set()
    for item in pref.split(","):
        a, b = (int(x) for x in item.split(">"))
        i = next((j for j, d in enumerate(dice) if d == a and j not in used), None)
        if i is not None and flip_cost(a, b) <= left:
            used.add(i)
            left -= flip_cost(a, b)
            out.append(Flip(i, a, b, flip_cost(a, b), by="target"))
    return sorted(out, key=lambda f: f.index)


def _as_flips(dice: Sequence[int], moves: Sequence[tuple[int, int]]) -> list[Flip]:
    """Face moves ``a -> b`` laid on the dice: a die already moved goes on, else the earliest showing ``a``."""
    now = [int(d) for d in dice]
    moved: list[int] = []
    for a, b in moves:
        i = next((j for j in moved if now[j] == a), None)
        if i is None:
            i = next(j for j, d in enumerate(now) if d == a and j not in moved)
            moved.append(i)
        now[i] = b
    return [Flip(i, int(dice[i]), now[i], flip_cost(dice[i], now[i]), by="target")
            for i in sorted(moved) if now[i] != dice[i]]
