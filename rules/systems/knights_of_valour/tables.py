"""The literal data of Knights of Valour: sizes, heights, shields, armour and weapons (SRD 5.1,
as shared/rules/README.md sets), and the two small formulas that read them."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rules.errors import InputError

__all__ = [
    "SQUARE_FT",
    "SIZES",
    "HEIGHTS",
    "SHIELDS",
    "MAX_ARMOUR",
    "ARMOUR",
    "ARMOUR_ALIASES",
    "DIFFICULT",
    "NARRATIVE",
    "DIRECTIONS",
    "DICE_RE",
    "Weapon",
    "WEAPONS",
    "WEAPON_INDEX",
    "norm",
    "parse_weapon",
    "stature_modifier",
    "effective_range",
]

SQUARE_FT = 5
SIZES = ("short", "average", "tall")
HEIGHTS = {"short": 4, "average": 6, "tall": 7}
SHIELDS = {"none": 0, "small": 1, "large": 2}
#: the largest Defence Modifier an armour gives (a number on a sheet, or the `armors` option)
MAX_ARMOUR = 20
#: Defence Modifier = SRD 5.1 armour class - 10
ARMOUR = {
    "none": 0,
    "padded": 1,
    "leather": 1,
    "studded-leather": 2,
    "hide": 2,
    "chain-shirt": 3,
    "scale-mail": 4,
    "breastplate": 4,
    "ring-mail": 4,
    "half-plate": 5,
    "chain-mail": 6,
    "splint": 7,
    "plate": 8,
}
ARMOUR_ALIASES = {"scale": "scale-mail", "studded": "studded-leather"}
DIFFICULT = ("difficult", "rough")
#: the text's other Combat Actions, which it gives no procedure for: action -> what it does
NARRATIVE = {
    "shove": "shove",
    "grapple": "grapple",
    "throw": "throw",
    "release": "release",
    "cast": "cast a spell",
    "search": "search",
    "use": "use an object",
}
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
DICE_RE = re.compile(r"^(?:([1-9]\d?)d([1-9]\d{0,2})([+-]\d{1,2})?|(\d{1,2}))$")
_RANGE_RE = re.compile(r"^(\d{1,4})/(\d{1,4})$")


@lru_cache(maxsize=1024)
def norm(text: str) -> str:
    """Catalogue look-up key: ``"Chain Mail"``, ``"chain_mail"`` and ``"chain-mail"`` are one
    (cached: every attack looks its weapons and armour up by the same few names)."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@dataclass(frozen=True)
class Weapon:
    """A weapon type: damage dice, whether it strikes in melee, and its ranges in feet."""

    name: str
    damage: str
    melee: bool = True
    close: int | None = None
    far: int | None = None

    @property
    def ranged(self) -> bool:
        return self.far is not None


def parse_weapon(name: str, spec: str) -> Weapon:
    """Read ``"1d8 melee"``, ``"1d8 150/600"`` or ``"1d6 melee 20/60"`` (thrown) into a weapon."""
    damage: str | None = None
    melee, ranges = False, (0, 0)
    for token in spec.lower().split():
        if token == "melee":
            melee = True
        elif m := _RANGE_RE.match(token):
            ranges = (int(m.group(1)), int(m.group(2)))
        elif DICE_RE.match(token) and damage is None:
            damage = token
        else:
            damage = None
            break
    close, far = ranges
    if damage is None or not (melee or far) or close > far:
        raise InputError(
            f"`{name}:{spec}` is not a weapon: write its damage dice, `melee` and/or "
            f"close/maximum range in feet, like `1d8 melee`, `1d8 150/600` or `1d6 melee 20/60`."
        )
    return Weapon(name, damage, melee, close if far else None, far or None)


_WEAPON_TABLE = """
club 1d4 melee; dagger 1d4 melee 20/60; greatclub 1d8 melee; handaxe 1d6 melee 20/60;
javelin 1d6 melee 30/120; light-hammer 1d4 melee 20/60; mace 1d6 melee; quarterstaff 1d6 melee;
sickle 1d4 melee; spear 1d6 melee 20/60; throwing-spear 1d6 melee 20/60; unarmed 1 melee;
light-crossbow 1d8 80/320; dart 1d4 20/60; shortbow 1d6 80/320; sling 1d4 30/120;
battleaxe 1d8 melee; flail 1d8 melee; glaive 1d10 melee; greataxe 1d12 melee;
greatsword 2d6 melee; halberd 1d10 melee; lance 1d12 melee; longsword 1d8 melee;
maul 2d6 melee; morningstar 1d8 melee; pike 1d10 melee; rapier 1d8 melee; scimitar 1d6 melee;
shortsword 1d6 melee; trident 1d6 melee 20/60; war-pick 1d8 melee; warhammer 1d8 melee;
whip 1d4 melee; blowgun 1 25/100; hand-crossbow 1d6 30/120; heavy-crossbow 1d10 100/400;
longbow 1d8 150/600
"""
#: SRD 5.1 weapons (one-handed damage; thrown weapons are melee weapons with a range)
WEAPONS: dict[str, Weapon] = {
    w.name: w
    for w in (
        parse_weapon(entry.split()[0], entry.split(None, 1)[1])
        for entry in (e.strip() for e in _WEAPON_TABLE.split(";"))
    )
}
WEAPON_INDEX = {norm(w.name): w for w in WEAPONS.values()}


def stature_modifier(attacker: str, defender: str) -> int:
    """The text's Relative-Size table: +1 per size step the defender is taller than the attacker."""
    return SIZES.index(defender) - SIZES.index(attacker)


def effective_range(weapon: Weapon, strength: int) -> tuple[int, int]:
    """Effective close and maximum range: weapon range + Strength x 5 ft, never below 0."""
    if not weapon.ranged:
        return (0, 0)
    bonus = strength * SQUARE_FT
    return (max(0, (weapon.close or 0) + bonus), max(0, (weapon.far or 0) + bonus))
