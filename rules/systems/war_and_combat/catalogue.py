"""The War & Combat defaults for weapons, missiles, armour and shields (shared/rules/README.md:
the text's own tables are in pages we do not have). Every entry can be overridden on a sheet."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.errors import SheetError

__all__ = [
    "Weapon",
    "Armour",
    "WEAPONS",
    "ARMOUR",
    "SHIELDS",
    "FIGHTER_RANKS",
    "SKILLS",
    "weapon",
    "armour",
]


@dataclass(frozen=True)
class Weapon:
    """A weapon: impact modifier (added to Strength for the Impact Cap), penetration value
    (taken from the target's penetration threshold), reach in hexes; a missile weapon has its
    short range in hexes instead (``missile``); ``polearm`` leaves a gap before its head;
    ``two_handed_sword`` threatens its obstructed hexes and endangers the three behind."""

    name: str
    impact: int
    penetration: int
    reach: int = 1
    missile: int | None = None
    polearm: bool = False
    two_handed_sword: bool = False

    @property
    def ranged(self) -> bool:
        return self.missile is not None


@dataclass(frozen=True)
class Armour:
    """Armour: absorption (taken from every impact) and penetration threshold."""

    name: str
    absorb: int
    threshold: int


#: impact modifier / penetration value / reach in hexes
WEAPONS: dict[str, Weapon] = {
    w.name: w
    for w in (
        Weapon("dagger", 0, 2, 1),
        Weapon("short sword", 1, 2, 1),
        Weapon("broadsword", 2, 1, 1),
        Weapon("axe", 3, 1, 1),
        Weapon("mace", 3, 0, 1),
        Weapon("spear", 2, 3, 2),
        Weapon("polearm", 4, 2, 2, polearm=True),
        Weapon("two-handed sword", 5, 1, 2, two_handed_sword=True),
        # missiles: short range in hexes (README); impact and penetration are the project's
        # defaults for a thrown or shot missile of that kind
        Weapon("javelin", 2, 2, 0, missile=5),
        Weapon("sling", 1, 0, 0, missile=15),
        Weapon("bow", 2, 2, 0, missile=25),
        Weapon("longbow", 3, 3, 0, missile=35),
        Weapon("crossbow", 4, 4, 0, missile=30),
    )
}

#: absorption / penetration threshold
ARMOUR: dict[str, Armour] = {
    a.name: a
    for a in (
        Armour("none", 0, 0),
        Armour("padded", 1, 2),
        Armour("leather", 2, 3),
        Armour("scale", 3, 5),
        Armour("mail", 3, 8),
        Armour("plate", 5, 12),
    )
}

#: shield -> Defense bonus
SHIELDS: dict[str, int] = {"none": 0, "small": 1, "large": 2}

#: the README's named Fighter ranks
FIGHTER_RANKS: dict[str, int] = {"untrained": 0, "soldier": 3, "veteran": 6, "master": 10}

#: the non-weapon skills the rules read
SKILLS: tuple[str, ...] = ("tactics", "acrobatics", "jumping", "climbing", "balance")


def norm(name: str) -> str:
    return " ".join(name.strip().lower().replace("_", " ").split())


@lru_cache(maxsize=1024)
def weapon(name: str) -> Weapon:
    """The catalogue weapon called ``name`` (case and spacing as players type them)."""
    key = norm(name).replace("-", " ")
    found = next((w for n, w in WEAPONS.items() if n.replace("-", " ") == key), None)
    if found is None:
        raise SheetError(f"No weapon `{name[:40]}`: choose from {', '.join(WEAPONS)}.")
    return found


def armour(text: str) -> Armour:
    """A catalogue armour by name, or ``absorb/threshold`` (e.g. ``3/8``)."""
    key = norm(text)
    if key in ARMOUR:
        return ARMOUR[key]
    parts = key.split("/")
    if len(parts) == 2 and all(p.isdigit() and len(p) <= 2 for p in parts):
        return Armour(key, int(parts[0]), int(parts[1]))
    raise SheetError(
        f"No armour `{text[:40]}`: choose from {', '.join(ARMOUR)}, or give absorption/threshold such as `3/8`."
    )
