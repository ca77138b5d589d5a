"""Coup-De-Grace's literal data: classes, the two rulesets, the costs and the weapon catalogue."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

__all__ = [
    "ALL_DIRECTIONS",
    "CLASSES",
    "CLASS_ALIASES",
    "DEFAULT_HP",
    "LEAST_HP",
    "DEFENCE_VALUE",
    "DOWNED_PENALTY",
    "DRAFT",
    "DRAFT_CDG_COST",
    "DRAFT_VARIANT",
    "MAX_PATH_STEPS",
    "MAX_REACH",
    "NEWER",
    "ORTHOGONAL",
    "RANGED_COST",
    "STEP_COST",
    "TURN_COST",
    "Ruleset",
    "WEAPONS",
    "Weapon",
    "normalise_weapon",
]

DRAFT_VARIANT = "draft-2013-11-11"
CLASSES = ("unarmoured", "light", "heavy")
DEFENCE_VALUE = {"unarmoured": 3, "light": 4, "heavy": 5}
DEFAULT_HP = 3
#: "If a mini is reduced to -1HP or less it is considered to be ''out of action''": no HP below means more
LEAST_HP = -1
STEP_COST = 1
TURN_COST = 1
RANGED_COST = 4
#: "the base cost of 2 movement points is always doubled to 4 movement points" (draft)
DRAFT_CDG_COST = 4
#: the largest reach or range increment the `weapons` option takes: a map's longest side
MAX_REACH = 60
DOWNED_PENALTY = -2
MAX_PATH_STEPS = 60
ORTHOGONAL = ("N", "E", "S", "W")
ALL_DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: the words of `options:` an attack reads, and the mode each asks for
#: an attack's mode
Mode = Literal["melee", "ranged"]
ATTACK_OPTIONS: dict[str, Mode] = {"melee": "melee", "ranged": "ranged", "throw": "ranged", "shoot": "ranged"}


@dataclass(frozen=True)
class Ruleset:
    """What differs between the newer text and the draft."""

    name: str
    movement: dict[str, int]
    diagonal: bool  # steps, crawls and range count a diagonal as one square
    double_each: bool  # each adjacent enemy doubles (newer) / one doubling for any (draft)
    cdg_action: bool  # the coup-de-grace is its own melee action costing 4 MP (draft)

    @property
    def directions(self) -> tuple[str, ...]:
        return ALL_DIRECTIONS if self.diagonal else ORTHOGONAL


NEWER = Ruleset("newer", {"unarmoured": 8, "light": 6, "heavy": 4}, False, True, False)
DRAFT = Ruleset(DRAFT_VARIANT, {"unarmoured": 6, "light": 5, "heavy": 4}, True, False, True)


@dataclass(frozen=True)
class Weapon:
    """A catalogue weapon. ``reach``/``increment`` None mean the encounter's default."""

    name: str
    melee: bool = True
    ranged: bool = False
    reach: int | None = 1
    increment: int | None = None
    rule: str = ""

    @property
    def attacks(self) -> bool:
        return self.melee or self.ranged


WEAPONS: dict[str, Weapon] = {
    w.name: w
    for w in (
        Weapon(
            "hammer",
            rule="Bash Back: a hit pushes the target one square directly away; "
            "if it cannot go there, +1 damage instead",
        ),
        Weapon("shield", rule="Block: +1 defence against attacks from the front 90 degree arc"),
        Weapon("buckler", melee=False, rule="no attack; +2 defence against melee from the front arc"),
        Weapon("axe", rule="Dolorous Blow: +1 damage on a natural 6"),
        Weapon("assassin's knife", rule="Spine Stab: +1 damage on a backstab"),
        Weapon("curved sword", rule="Slice and Dice: a natural 1-3 gets +1"),
        Weapon("glaive", rule="Cut Down: +1 damage on a natural 3-4 that hits"),
        Weapon("fencing sword", rule="Finesse: +2 MP after a miss"),
        Weapon("throwing knife", ranged=True, rule="Versatile: ranged, and a one-handed melee weapon"),
        Weapon(
            "crossbow",
            melee=False,
            ranged=True,
            rule="Accuracy: a missing natural 2 is rerolled once per round",
        ),
        Weapon("pistol", melee=False, ranged=True, rule="Blastback: a hit pushes the target back one square"),
        Weapon("spear", reach=None, rule="Reach: melee up to 2 squares straight ahead"),
        Weapon("polearm", reach=None, rule="Reach: melee up to 2 squares straight ahead"),
        Weapon("sword"),
        Weapon("dagger"),
        Weapon("club"),
        Weapon("mace"),
        Weapon("staff"),
        Weapon("bow", melee=False, ranged=True),
        Weapon("sling", melee=False, ranged=True),
    )
}

CLASS_ALIASES = {
    "unarmoured": "unarmoured",
    "unarmored": "unarmoured",
    "none": "unarmoured",
    "light": "light",
    "lightly": "light",
    "heavy": "heavy",
    "heavily": "heavy",
}


@lru_cache(maxsize=1024)
def normalise_weapon(text: str) -> str:
    """``"Assassin’s-Knife"`` -> ``"assassins knife"``: the form weapon names are compared in
    (cached: every attack compares the same few names)."""
    text = text.lower().replace("’", "'").replace("'", "")
    return re.sub(r"[\s_-]+", " ", text).strip()
