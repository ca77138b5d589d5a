"""The sheet of Knights of Valour: its keys, and the readers of a combatant's numbers."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules.errors import SheetError
from rules.models import Combatant, Encounter
from rules.options import OptionValues
from rules.sheet import SheetKey, check_hp_within_most, per_tables, read_int
from rules.systems.knights_of_valour.state import KovCombatant
from rules.systems.knights_of_valour.tables import (
    MAX_ARMOUR,
    SHIELDS,
    SIZES,
    Weapon,
    norm,
)

__all__ = [
    "EFFECT_VALUES",
    "MAX_HP",
    "LEAST_HP",
    "sheet_keys",
    "check_hp",
    "stat",
    "size",
    "height",
    "movement",
    "is_pc",
    "armour",
    "shield",
    "levels",
    "usable",
    "weapon",
    "wielded",
    "best_melee",
]


#: the most hit points a combatant may have (and the least: 1)
MAX_HP = 999
#: the fewest hit points a combatant may have now (0 or less: downed)
LEAST_HP = -99


@per_tables
def sheet_keys(weapons: Mapping[str, Weapon], armours: Mapping[str, tuple[str, int]]) -> tuple[SheetKey, ...]:
    """The sheet keys, reading weapons and armour from the encounter's catalogue (made once for each)."""

    def read_armour(value: str) -> str | int:
        found = armours.get(norm(value))
        if found is None and any(ch.isdigit() for ch in value):
            return read_int(value, "armor", 0, MAX_ARMOUR, SheetError, "or give an armour name")
        if found is None:
            known = ", ".join(dict.fromkeys(n for n, _ in armours.values()))
            raise SheetError(f"`armor={value}` is not accepted: use a number or one of {known}.")
        return found[0]

    def read_weapons(value: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for item in (x.strip() for x in value.split(",") if x.strip()):
            name, _, level = item.partition(":")
            found = weapons.get(norm(name))
            if found is None:
                known = ", ".join(sorted(w.name for w in weapons.values()))
                raise SheetError(f"`weapons`: `{name}` is not a known weapon. Known: {known}.")
            if not re.fullmatch(r"\d{1,2}", level.strip()) or int(level) > 10:
                raise SheetError(
                    f"`weapons`: write each weapon as name:P.L. with a P.L. from 0 to 10, "
                    f"like `longsword:2,longbow:1`; `{item}` is not."
                )
            out[found.name] = int(level)
        return out

    return (
        SheetKey("str", "Strength stat", "int", 0, minimum=-3, maximum=3),
        SheetKey("agi", "Agility stat, also the initiative", "int", 0, minimum=-3, maximum=3),
        SheetKey("size", "stature", "choice", "average", choices=SIZES),
        SheetKey("height", "height in feet for vault, leap, climb and descend (default by size)",
                 "int", minimum=1, maximum=60),
        SheetKey("hp", "hit points: at add, and typed alone before the fight, the most and the current HP; in a "
                 "fight an edit sets the current HP only, as `/combatant hp` always does (0 or less: downed)", "int", required=True, minimum=LEAST_HP, maximum=MAX_HP),
        SheetKey("max_hp", "the most hit points (default: hp, so an `hp` alone at add or before the fight is 1–999); "
                 "never below `hp` given with it; an edit leaves the current HP as it is, or lowers it to a "
                 "new most below it (before the fight a raised most raises it by as much, unless it is 0 or less)",
                 "int", minimum=1, maximum=MAX_HP),
        SheetKey("armor", "armour name or Defence Modifier number", "custom", "none", parse=read_armour),
        SheetKey("shield", "shield", "choice", "none", choices=tuple(SHIELDS)),
        SheetKey("weapons", "name:P.L. list, e.g. longsword:2,longbow:1", "custom", parse=read_weapons),
        SheetKey("move", "Movement in feet", "int", 30, minimum=0, maximum=200),
        SheetKey("pc", "player character (wins initiative ties): yes/no, default yes when "
                 "owned by a non-GM", "bool"),
    )


def check_hp(raw: Mapping[str, str], sheet: Mapping[str, Any], *, alone_is_most: bool, most: int | None = None) -> None:
    """What the keys alone cannot check: an `hp` above the `max_hp` given with it, and an `hp` given
    alone where it is the most hit points too (``alone_is_most``: at add and before the fight)
    outside the most's range 1 to `MAX_HP`. ``most``: the most hit points now (an edit), for the example."""
    if "hp" not in raw:
        return
    check_hp_within_most(raw, sheet)
    hp = int(sheet["hp"])
    if "max_hp" not in raw and alone_is_most and not 1 <= hp <= MAX_HP:
        raise SheetError(
            f"`hp={hp}` given alone is also the most hit points (`max_hp`), which is 1 to {MAX_HP}: give an `hp` "
            f"from 1 to {MAX_HP}, or give the most with it to start the combatant downed, like `hp={hp} max_hp={most or 12}`."
        )


#: the values an effect may change (`/effect add mods:"attack+1 defence+1"`), each by -10 to +10
EFFECT_VALUES = (
    SheetKey("attack", "the attack roll (d20 + modifiers), melee and ranged", "int", minimum=-10, maximum=10),
    SheetKey("defence", "the Defence Value attacks must reach", "int", minimum=-10, maximum=10),
    SheetKey("damage", "the damage of a hit (never below the option `min_damage`)", "int", minimum=-10, maximum=10),
)


def stat(c: Combatant, key: str) -> int:
    return int(c.sheet.get(key, 0))


def size(c: Combatant) -> str:
    return str(c.sheet.get("size", "average"))


def height(opts: OptionValues, c: Combatant) -> int:
    return int(c.sheet.get("height") or opts[f"height_{size(c)}"])


def movement(c: Combatant) -> int:
    return int(c.sheet.get("move", 30))


def is_pc(enc: Encounter, c: Combatant) -> bool:
    pc = c.sheet.get("pc")
    if pc is None:
        return c.owner_id is not None and c.owner_id not in enc.gm_ids
    return bool(pc)


def armour(opts: OptionValues, c: Combatant) -> tuple[str | None, int]:
    """The armour worn, by name (None where the sheet gives its bonus as a number), and its bonus."""
    worn: Any = c.sheet.get("armor", "none")
    if isinstance(worn, int):
        return (None, worn)
    armors: dict[str, tuple[str, int]] = opts.armors
    return armors.get(norm(worn), (worn, 0))


def shield(opts: OptionValues, c: Combatant) -> tuple[str, int]:
    kind = str(c.sheet.get("shield", "none"))
    return (kind, 0) if kind == "none" else (kind, opts[f"{kind}_shield"])


def levels(c: Combatant) -> dict[str, int]:
    return dict(c.sheet.get("weapons") or {})


def usable(c: Combatant) -> list[str]:
    """The weapons it is proficient in (P.L. 1 or more)."""
    return [n for n, lv in levels(c).items() if lv > 0]


def weapon(opts: OptionValues, name: str) -> Weapon | None:
    weapons: dict[str, Weapon] = opts.weapons
    return weapons.get(norm(name))


def wielded(opts: OptionValues, c: Combatant) -> Weapon | None:
    name = KovCombatant.of(c).wield
    return weapon(opts, name) if name else None


def best_melee(opts: OptionValues, c: Combatant) -> Weapon | None:
    """The wielded weapon if it is a proficient melee weapon, else the highest-P.L. one."""
    held, lv = wielded(opts, c), levels(c)
    if held and held.melee and lv.get(held.name, 0) > 0:
        return held
    melee = [w for n in usable(c) if (w := weapon(opts, n)) and w.melee]
    return max(melee, key=lambda w: lv[w.name], default=None)
