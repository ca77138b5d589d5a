"""The War & Combat sheet: its keys, and the readers of a combatant's numbers.

``str agl dex`` (3-18), ``fighter`` (Fighter rank: a number or untrained, soldier, veteran,
master), ``size`` (damage thresholds; 10 for a human), ``skills`` (``weapon:level`` and
``tactics``, ``acrobatics``, ``jumping``, ``climbing``, ``balance``), ``weapons`` (catalogue
names), ``armor`` (a catalogue name or ``absorb/threshold``), ``shield``, ``pace``.
"""
from __future__ import annotations

from rules.errors import SheetError
from rules.models import Combatant
from rules.sheet import SheetKey, read_int
from rules.systems.war_and_combat.catalogue import (
    FIGHTER_RANKS,
    SHIELDS,
    SKILLS,
    Armour,
    Weapon,
    armour,
    weapon,
)
from rules.systems.war_and_combat.state import WacCombatant
from rules.systems.war_and_combat.tables import action_penalty
from rules.systems.war_and_combat.tables_movement import PACES
from rules.systems.war_and_combat.task import attribute_modifier

__all__ = [
    "EFFECT_VALUES",
    "SHEET_KEYS",
    "PACE_CHOICES",
    "attr",
    "modifier",
    "fighter",
    "size",
    "skill",
    "weapons",
    "worn",
    "shield_bonus",
    "pace",
    "weapon_arm",
    "shield_arm",
    "wound_penalty",
]

#: the paces a sheet may set: the MOVEMENT RATE table's (swim for a fighter in deep water: the
#: GM sets it and back, the map marks only wading water) and the sprint of ACTION PENALTY BY PACE
PACE_CHOICES = (*PACES, "sprint")
MAX_RANK = 30
MAX_SKILL = 30


def _fighter(text: str) -> int:
    named = FIGHTER_RANKS.get(text.strip().lower())
    if named is not None:
        return named
    return read_int(text, "fighter", 0, MAX_RANK, SheetError, "or untrained, soldier, veteran, master")


def _skills(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in (x.strip() for x in text.split(",") if x.strip()):
        name, sep, level = item.partition(":")
        if not sep:
            raise SheetError(f"`skills`: write each skill as name:level, like `broadsword:3,tactics:2`; `{item[:30]}` is not.")
        key = name.strip().lower()
        key = key if key in SKILLS else weapon(key).name
        out[key] = read_int(level.strip(), f"skills {key}", -10, MAX_SKILL, SheetError)
    if len(out) > 30:
        raise SheetError("`skills` takes at most 30 skills.")
    return out


def _weapons(text: str) -> list[str]:
    names = [weapon(x).name for x in text.split(",") if x.strip()]
    if not names or len(names) > 10:
        raise SheetError("`weapons` lists 1 to 10 catalogue weapons, comma separated, like `broadsword,bow`.")
    return list(dict.fromkeys(names))


def _armour(text: str) -> str:
    return armour(text).name


#: the general hit locations an armour may cover on its own
LOCATIONS = ("head", "arm", "chest", "belly", "leg")


def _armour_at(text: str) -> dict[str, str]:
    """``head:plate,arm:leather``: the armour of some hit locations, overriding `armor` there."""
    out: dict[str, str] = {}
    for item in (x.strip() for x in text.split(",") if x.strip()):
        where, sep, name = item.partition(":")
        where = where.strip().lower()
        if not sep or where not in LOCATIONS:
            raise SheetError(f"`armor_at`: write each as location:armour, like `head:plate,arm:leather`, the locations "
                             f"being {', '.join(LOCATIONS)}; `{item[:30]}` is not.")
        out[where] = _armour(name.strip())
    return out


SHEET_KEYS: tuple[SheetKey, ...] = (
    SheetKey("str", "Strength (Impact Cap, shock and death checks)", "int", 10, minimum=3, maximum=18),
    SheetKey("agl", "Agility (attack, Defense, stumbles)", "int", 10, minimum=3, maximum=18),
    SheetKey("dex", "Dexterity (missiles, fumbles)", "int", 10, minimum=3, maximum=18),
    SheetKey("fighter", "Fighter rank (initiative, Defense, actions per flurry)", "custom", 0, parse=_fighter,
             accepts="0–30, or `untrained` 0, `soldier` 3, `veteran` 6, `master` 10"),
    SheetKey("size", "size for the damage thresholds (10: a human)", "int", 10, minimum=0, maximum=100),
    SheetKey("skills", "name:level list: weapon skills and tactics, acrobatics, jumping, climbing, balance",
             "custom", parse=_skills, accepts="a comma list of `name:level` (-10–30)"),
    SheetKey("weapons", "catalogue weapons carried, the first in hand", "custom", ("dagger",), parse=_weapons,
             accepts="a comma list of catalogue weapons"),
    SheetKey("armor", "catalogue armour, or absorption/penetration threshold like `3/8`", "custom", "none",
             parse=_armour, accepts="none, padded, leather, scale, mail, plate, or `absorb/threshold`"),
    SheetKey("armor_at", "armour of single hit locations, where it differs from `armor` (\"determine the location "
             "struck so that the defender's armor can be considered\")", "custom", parse=_armour_at,
             accepts="a comma list of `location:armour` (head, arm, chest, belly, leg)"),
    SheetKey("shield", "shield (Defense +1 small, +2 large, from the front)", "choice", "none", choices=tuple(SHIELDS)),
    SheetKey("pace", "pace (movement points a round)", "choice", "walk", choices=PACE_CHOICES),
    SheetKey("hand", "the weapon hand (the shield is on the other arm)", "choice", "right", choices=("right", "left")),
)


def attr(c: Combatant, key: str) -> int:
    return int(c.sheet.get(key, 10))


def modifier(c: Combatant, key: str) -> int:
    return attribute_modifier(attr(c, key))


def fighter(c: Combatant) -> int:
    return int(c.sheet.get("fighter", 0))


def size(c: Combatant) -> int:
    return int(c.sheet.get("size", 10))


def skill(c: Combatant, name: str) -> int:
    return int((c.sheet.get("skills") or {}).get(name, 0))


def weapons(c: Combatant) -> list[Weapon]:
    return [weapon(n) for n in c.sheet.get("weapons") or ["dagger"]]


def worn(c: Combatant, location: str | None = None) -> Armour:
    """The armour worn (at ``location``, a general hit location, if given): the sheet's `armor_at`
    there, else its `armor`; once a lengthy action (don, shed) changed it, that one all over."""
    if changed := WacCombatant.of(c).armor:
        return armour(changed)
    pieces = c.sheet.get("armor_at") or {}
    return armour(str(pieces.get(location) or c.sheet.get("armor", "none")))


def shield_bonus(c: Combatant) -> int:
    return SHIELDS.get(str(c.sheet.get("shield", "none")), 0)


def pace(c: Combatant) -> str:
    return str(c.sheet.get("pace", "walk"))


def weapon_arm(c: Combatant) -> str:
    """The arm the weapon is in: the sheet's `hand` (right by default), or the hand switched to in the fight."""
    return f"{WacCombatant.of(c).hand or c.sheet.get('hand') or 'right'} arm"


def shield_arm(c: Combatant) -> str:
    """The arm the shield is on: the other one."""
    return "left arm" if weapon_arm(c) == "right arm" else "right arm"


def wound_penalty(c: Combatant) -> int:
    """Action penalties: "Action penalties are applied against any task roll the character attempts"; the
    worst wound of each location, summed over locations ("Multiple injuries to the same hit location do not
    accumulate penalties"; mortal: none left to apply)."""
    worst: dict[str, int] = {}
    for w in WacCombatant.of(c).wounds:
        p = action_penalty(w.severity)
        if p is not None:
            worst[w.location] = min(worst.get(w.location, 0), p)
    return sum(worst.values())


#: the values an effect may change (`/effect add mods:"attack+1 defense+1"`)
EFFECT_VALUES = (
    SheetKey("attack", "every attack roll (3d6 + skill + modifiers), melee and missile", "int", minimum=-6, maximum=6),
    SheetKey("defense", "the Defense an attack must exceed, where the defender defends (front or flank)", "int",
             minimum=-6, maximum=6),
)
