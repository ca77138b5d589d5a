"""The sheet of the damage-grid game: its keys, the weapon profile, and readers of a model's numbers.

A weapon is written ``name:reach:power:accuracy`` followed by any of the words ``melee``,
``blast``, ``area=SHAPE`` (``burst2``, ``corridor1``, ``fan2``, ``star2``, ``pulse3``), ``penetrate``
(the area goes through obstructions),
``cloud=N`` (the area stays N phases), ``health=N`` (the weapon's own Health, hit through
the Arsenal location; default 2) and ``cp=N`` (Combat Points an attack with it costs; default 1), e.g. ``gravity-saber:2:4:2:melee,pulse-ring:4:3:1``.
"""
from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rules.errors import InputError, SheetError
from rules.models import Combatant, Encounter
from rules.sheet import NONE, SheetKey, read_int
from rules.systems.damage_grid.flips import LEAST_HARM, read_preference
from rules.systems.damage_grid.grid import HUMANOID_DEFAULTS, DamageGrid, parse_grid
from rules.systems.damage_grid.state import DgCombatant

__all__ = [
    "WEAPON_WORDS",
    "weapon_said",
    "EFFECT_VALUES",
    "Weapon",
    "AREA_SHAPES",
    "DEFAULT_WEAPON_HEALTH",
    "LOCATION_KEYS",
    "MAX_WEAPONS",
    "parse_weapons",
    "sheet_keys",
    "weapons",
    "weapon",
    "size",
    "grid_of",
    "release",
    "check_flips",
    "parse_equipment",
    "equipment",
    "carried",
]

#: the area shapes a weapon may have, as written before their number
AREA_SHAPES = ("burst", "corridor", "fan", "star", "pulse")
#: a weapon's Health when the sheet does not give one (the text gives none: a project default)
DEFAULT_WEAPON_HEALTH = 2
#: the location values a sheet may override
LOCATION_KEYS = ("mind", "health", "body", "shield", "speed")
MAX_WEAPONS = 8
_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,29}")


#: the weapons the replies name otherwise: ``bare``, the Reach 1 attack with Health as its Power, is bare hands
WEAPON_WORDS = {"bare": "bare hands"}


def weapon_said(name: str, the: bool = False) -> str:
    """A weapon as the replies name it (`WEAPON_WORDS`); ``the``: the others with the article (``the saber``)."""
    return WEAPON_WORDS.get(name) or (f"the {name}" if the else name)


class Weapon(BaseModel):
    """One weapon's profile: Reach, Power, Accuracy and its attributes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    reach: int = Field(ge=1, le=99)
    power: int = Field(ge=0, le=30)
    accuracy: int = Field(ge=-10, le=20)
    melee: bool = False
    blast: bool = False
    #: Combat Points an attack with it costs ("Some special attacks cost more Combat points")
    cp: int = Field(default=1, ge=1, le=5)
    #: its area goes through obstructions ("Obstructions that the Area Affect cannot penetrate")
    penetrate: bool = False
    #: ``(shape, size)`` of an area weapon, e.g. ``("burst", 2)``
    area: tuple[str, int] | None = None
    #: phases the area stays as a cloud (0: it ends with the phase)
    cloud: int = Field(default=0, ge=0, le=50)
    health: int = Field(default=DEFAULT_WEAPON_HEALTH, ge=1, le=99)

    def profile(self) -> str:
        """``gravity-saber:2:4:2:melee``: the weapon as the sheet writes it."""
        bits = [self.name, str(self.reach), str(self.power), str(self.accuracy)]
        bits += [w for w, on in (("melee", self.melee), ("blast", self.blast), ("penetrate", self.penetrate)) if on]
        if self.area:
            bits.append(f"area={self.area[0]}{self.area[1]}")
        if self.cloud:
            bits.append(f"cloud={self.cloud}")
        if self.health != DEFAULT_WEAPON_HEALTH:
            bits.append(f"health={self.health}")
        if self.cp != 1:
            bits.append(f"cp={self.cp}")
        return ":".join(bits)


_HOW = (
    "write each weapon as `name:reach:power:accuracy` plus any of `melee`, `blast`, `area=burst2`, `penetrate`, "
    "`cloud=4`, `health=3`, `cp=2`, comma separated, like `weapons=gravity-saber:2:4:2:melee,pulse-ring:4:3:1`"
)


_HINT = "in `weapons`, each weapon is `name:reach:power:accuracy`"


def _area(text: str, item: str) -> tuple[str, int]:
    m = re.fullmatch(r"([a-z]+)(\d{1,2})", text)
    if not m or m.group(1) not in AREA_SHAPES or not 1 <= int(m.group(2)) <= 20:
        shapes = ", ".join(f"`{s}N`" for s in AREA_SHAPES)
        raise SheetError(f"`weapons`: `area={text[:20]}` in `{item}` is not an area: use {shapes} with N from 1 to 20.")
    return m.group(1), int(m.group(2))


@lru_cache(maxsize=1024)
def _weapon(item: str) -> Weapon:
    parts = [p.strip().lower() for p in item.split(":")]
    if len(parts) < 4 or not _NAME.fullmatch(parts[0]):
        raise SheetError(f"`weapons`: `{item[:40]}` is not a weapon: {_HOW}.")
    name = parts[0]
    fields: dict[str, Any] = {
        "name": name,
        "reach": read_int(parts[1], f"{name} reach", 1, 99, SheetError, _HINT),
        "power": read_int(parts[2], f"{name} power", 0, 30, SheetError, _HINT),
        "accuracy": read_int(parts[3], f"{name} accuracy", -10, 20, SheetError, _HINT),
    }
    for word in parts[4:]:
        key, _, value = word.partition("=")
        if key in ("melee", "blast", "penetrate") and not value:
            fields[key] = True
        elif key == "area" and value:
            fields["area"] = _area(value, item)
        elif key == "cloud" and value:
            fields["cloud"] = read_int(value, f"{name} cloud", 0, 50, SheetError, _HINT)
        elif key == "health" and value:
            fields["health"] = read_int(value, f"{name} health", 1, 99, SheetError, _HINT)
        elif key == "cp" and value:
            fields["cp"] = read_int(value, f"{name} cp", 1, 5, SheetError, _HINT)
        else:
            raise SheetError(f"`weapons`: `{word[:20]}` in `{item[:40]}` is not a weapon attribute: {_HOW}.")
    return Weapon(**fields)


def _listed(text: str, key: str, things: str) -> list[str]:
    """The comma-separated items of the sheet's list ``key``: at most :data:`MAX_WEAPONS` ``things``; ``none``: none,
    as every list key reads it."""
    if text.strip().lower() == NONE:
        return []
    items = [x.strip() for x in text.split(",") if x.strip()]
    if len(items) > MAX_WEAPONS:
        raise SheetError(f"`{key}`: a model carries at most {MAX_WEAPONS} {things}.")
    return items


def parse_weapons(text: str) -> list[str]:
    """The sheet's ``weapons`` value: the weapon profiles, each as :meth:`Weapon.profile` writes it
    (so a stored sheet reads back the same)."""
    out: dict[str, Weapon] = {}
    for item in _listed(text, "weapons", "weapons"):
        w = _weapon(item)
        if w.name in out:
            raise SheetError(f"`weapons`: `{w.name}` is listed twice: give each weapon once.")
        out[w.name] = w
    return [w.profile() for w in out.values()]


def parse_equipment(text: str) -> list[str]:
    """The sheet's ``equipment``: ``name[:health]`` items carried beside the weapons ("the attacker targets one
    Weapon or Equipment the model is carrying"), stored as ``name:health``."""
    out: dict[str, int] = {}
    for item in (x.lower() for x in _listed(text, "equipment", "pieces of equipment")):
        name, _, hp = item.partition(":")
        if not _NAME.fullmatch(name) or name == "bare":
            raise SheetError(f"`equipment`: `{item[:40]}` is not a piece of equipment: write `name` or `name:health`, "
                             f"comma separated, like `equipment=scanner:2,medkit`.")
        if name in out:
            raise SheetError(f"`equipment`: `{name}` is listed twice: give each piece once.")
        out[name] = read_int(hp, f"{name} health", 1, 99, SheetError, "in `equipment`, `name:health`") if hp else DEFAULT_WEAPON_HEALTH
    return [f"{k}:{v}" for k, v in out.items()]


def equipment(c: Combatant) -> dict[str, int]:
    """The equipment the model carries: Health by name."""
    return {n: int(h) for n, _, h in (x.partition(":") for x in c.sheet.get("equipment") or [])}


def carried(c: Combatant) -> dict[str, int]:
    """Everything the Arsenal location stands for, weapons first: full Health by name."""
    arms = {w.name: w.health for w in weapons(c)}
    clash = sorted(set(arms) & set(equipment(c)))
    if clash:
        raise SheetError(f"`equipment`: `{clash[0]}` is also a weapon's name: name each thing carried once.")
    return arms | equipment(c)


def _read_grid(text: str) -> str:
    """The sheet's ``grid`` value, read by the grid's parser and stored as it writes it back."""
    return parse_grid(text).text


def _read_flips(text: str) -> str:
    try:
        return read_preference(text)
    except InputError as e:
        raise SheetError(str(e)) from None


@cache
def sheet_keys() -> tuple[SheetKey, ...]:
    """The sheet keys (made once: every sheet read asks them)."""
    locations = tuple(
        SheetKey(key, f"{key.title()} value: hits it can take (humanoid default {HUMANOID_DEFAULTS[key]})", "int",
                 minimum=0, maximum=99)
        for key in LOCATION_KEYS
    )
    return (
        SheetKey(
            "grid", "the damage grid: `humanoid`, or `face:location:hits:arrow` per location (faces joined by `/`)", "custom",
            "humanoid", parse=_read_grid, accepts="`humanoid` or a custom grid",
        ),
        *locations,
        SheetKey("size", "size: 0 tiny to 4 huge (changes the attacker's Accuracy, and Body as cover)", "int", 2,
                 minimum=0, maximum=4),
        SheetKey("weapons", "weapon profiles `name:reach:power:accuracy[:melee][:blast][:area=burst2][:penetrate][:cloud=4]"
                 "[:health=2][:cp=2]`, comma separated", "custom", parse=parse_weapons, accepts="weapon profiles"),
        SheetKey("equipment", "equipment carried beside the weapons, hit through the Arsenal location: `name[:health]`, "
                 "comma separated (Health default 2)", "custom", parse=parse_equipment, accepts="`scanner:2,medkit`"),
        SheetKey("flips", "the flips this model makes when an attack on it has a negative Accuracy: `least-harm` (the "
                 "bot's choice), a location to turn the dice onto, or `from>to` faces in order of preference", "custom",
                 LEAST_HARM, parse=_read_flips, accepts="`least-harm`, a location (`body`) or faces (`1>3,2>3`)"),
        SheetKey("see-in-dark", "sees in the dark", "bool", False),
        SheetKey("lit", "illuminated (it carries a light or stands in one; everyone sees it, a hidden model's too): "
                 "darkness does not double the Reach to it", "bool", False),
        SheetKey("sightless", "sightless: not blinded by brightness", "bool", False),
    )


def release(enc: Encounter, c: Combatant) -> None:
    """``c`` lets go of every model it holds in a grapple (it moved away, or it is inert or destroyed)."""
    for other in enc.combatants:
        held = DgCombatant.of(other).grappled_by
        if c.name in held:
            DgCombatant.of(other).grappled_by = [n for n in held if n != c.name]


def weapons(c: Combatant) -> list[Weapon]:
    return [_weapon(w) for w in c.sheet.get("weapons") or []]


def weapon(c: Combatant, name: str) -> Weapon | None:
    key = name.strip().lower()
    return next((w for w in weapons(c) if w.name == key), None)


def grid_of(c: Combatant) -> DamageGrid:
    """The model's damage grid (read from its sheet; the humanoid one by default)."""
    return parse_grid(c.sheet.get("grid"))


def check_flips(c: Combatant) -> None:
    """A ``flips`` preference naming a location names one of the model's grid."""
    pref = c.sheet.get("flips")
    grid = grid_of(c)
    if pref and pref != LEAST_HARM and ">" not in pref and not grid.has(pref):
        raise SheetError(f"`flips={pref}` names no location of {c.name}'s grid: use one of {', '.join(grid.names)}, "
                         f"`from>to` faces or `least-harm`.")


def size(c: Combatant) -> int:
    return int(c.sheet.get("size", 2))


#: the values an effect may change (`/effect add mods:"power+1 accuracy+2"`)
EFFECT_VALUES = (
    SheetKey("power", "the Power of every attack: how many d6 it rolls (at least 1)", "int", minimum=-5, maximum=5),
    SheetKey("accuracy", "the Accuracy of every attack: face flips", "int", minimum=-6, maximum=6),
)
