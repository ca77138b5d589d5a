"""The sheet of the open system: its keys, the one form of a weapon or a save attack, and the
readers of a combatant's numbers.

A weapon is ``name:+5:1d8+3:slashing`` with optional ``:reach=10`` (feet) and ``:range=80/320``
(normal / long range in feet); a save attack is ``name:save=dex:15:8d6:fire[:half][:area=burst20]
[:range=150]`` (the ability saved with, the DC, the damage, its type, whether a save halves it,
the area: ``burst``, ``cone`` or ``line`` and its size in feet). Weapons are comma separated.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rules.dice import MAX_DICE, Dice, roll_expression
from rules.errors import DiceError, SheetError
from rules.models import Combatant, Encounter
from rules.sheet import NONE, SheetKey, check_hp_within_most

__all__ = [
    "ABILITIES", "SIZES", "AREAS", "DAMAGE_TYPES", "Weapon", "parse_weapon", "SHEET_KEYS", "EFFECT_VALUES", "weapons", "weapon",
    "init_expression", "ability", "speed", "size", "reach", "DEFAULT_REACH", "ac", "max_hp", "is_player", "damage_types",
]

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
AREAS = ("burst", "cone", "line")
#: the damage types a weapon deals and a sheet resists
DAMAGE_TYPES = ("acid", "bludgeoning", "cold", "fire", "force", "lightning", "necrotic", "piercing", "poison",
                "psychic", "radiant", "slashing", "thunder")
#: feet a cell stands for
CELL_FT = 5
#: a melee reach no sheet or weapon changes
DEFAULT_REACH = 5
#: the longest reach a sheet or a weapon gives, in feet
MOST_REACH = 100
#: the longest range, long range or area size of a weapon, in feet
MOST_FEET = 5000
#: a save's DC: two digits
MOST_DC = 99

_DICE = re.compile(r"^[0-9]{1,3}d[0-9]{1,3}([+-][0-9]{1,3})?$|^[0-9]{1,3}$")
#: the most a weapon's damage takes: flat damage, sides and the dice's modifier each (``_DICE``: three digits)
_MOST = 999
#: the most dice a weapon rolls: a critical hit rolls them twice, and with the attack's two d20s (advantage) they
#: stay within what one roll (and one `roll:`) takes
_MOST_DICE = (MAX_DICE - 2) // 2
_NAME = re.compile(r"^[a-z][a-z0-9'-]{0,29}$")
_TYPE = re.compile(r"^[a-z]{1,20}$")


@dataclass(frozen=True)
class Weapon:
    """One attack of a sheet: an attack roll (``bonus``) or a save (``save``, ``dc``)."""

    name: str
    damage: str
    kind: str
    bonus: int | None = None
    reach: int | None = None
    normal: int | None = None
    long: int | None = None
    save: str | None = None
    dc: int | None = None
    half: bool = False
    area: str | None = None
    size: int = 0

    @property
    def ranged(self) -> bool:
        """It may be thrown or shot (a `range=`)."""
        return self.normal is not None

    @property
    def melee(self) -> bool:
        """It strikes in melee: an attack roll without a `range=`, or a thrown weapon (a `reach=` and a `range=`:
        a melee attack within its reach, thrown beyond it)."""
        return self.save is None and (self.normal is None or self.reach is not None)

    def text(self) -> str:
        """The weapon in the sheet's form."""
        if self.save is not None:
            parts = [self.name, f"save={self.save}", str(self.dc), self.damage, self.kind]
            parts += ["half"] if self.half else []
        else:
            parts = [self.name, f"{self.bonus:+d}", self.damage, self.kind]
            parts += [f"reach={self.reach}"] if self.reach is not None else []
        parts += [f"area={self.area}{self.size}"] if self.area else []
        parts += [f"range={self.normal}/{self.long}"] if self.normal is not None else []
        return ":".join(parts)


def _bad(item: str, why: str) -> SheetError:
    return SheetError(
        f"`weapons`: `{item[:60]}` {why}. Write a weapon as `longsword:+5:1d8+3:slashing` (add `:reach=10` or "
        f"`:range=80/320`) and a save attack as `fireball:save=dex:15:8d6:fire:half:area=burst20`."
    )


def _feet(item: str, text: str, what: str, most: int = MOST_FEET) -> int:
    """``text`` as feet from 5 to ``most`` in steps of 5; refused saying the range, and why."""
    wanted = f"{'an' if what[0] in 'aeiou' else 'a'} {what} is from {CELL_FT} to {most} ft, in steps of 5, like 10"
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise _bad(item, f"has {what} `{text[:12]}`: {wanted}")
    if not CELL_FT <= int(text) <= most:
        raise _bad(item, f"has {what} `{text}`, out of range: {wanted}")
    if int(text) % CELL_FT:
        raise _bad(item, f"has {what} `{text}`, not in steps of 5: {wanted}")
    return int(text)


def _dice_out_of_range(item: str) -> SheetError:
    return _bad(item, f"has dice out of range: dice are at most {_MOST_DICE} dice, so that a critical hit's doubled dice "
                      f"can be rolled, of at most {_MOST} sides, and a modifier from -{_MOST} to +{_MOST}, like `1d8+3`")


@lru_cache(maxsize=1024)
def parse_weapon(item: str) -> Weapon:
    """One weapon or save attack in the sheet's form (see the module)."""
    parts = [p.strip().lower() for p in item.split(":")]
    if len(parts) < 4:
        raise _bad(item, "has too few parts")
    parts += [""] * (5 - len(parts))
    name, second, third, damage, kind, *rest = parts
    if not _NAME.match(name):
        raise _bad(item, "needs a name of letters, digits and hyphens first")
    fields: dict[str, Any] = {}
    if second.startswith("save="):
        save = second.removeprefix("save=")
        if save not in ABILITIES:
            raise _bad(item, f"saves with `{save}`: use one of {', '.join(ABILITIES)}")
        if re.fullmatch(r"[+-]?[0-9]+", third) and not 0 <= int(third) <= MOST_DC:
            raise _bad(item, f"has a DC out of range: a DC is a whole number from 0 to {MOST_DC}, like 15")
        if not re.fullmatch(r"[0-9]{1,2}", third):
            raise _bad(item, f"needs a DC (a whole number from 0 to {MOST_DC}, such as 15) after the save")
        fields.update(save=save, dc=int(third))
    else:
        if re.fullmatch(r"[+-]?[0-9]+", second) and not re.fullmatch(r"[+-]?[0-9]{1,2}", second):
            raise _bad(item, "has an attack bonus out of range: an attack bonus is a whole number from -99 to +99, "
                             "like `+5`")
        if not re.fullmatch(r"[+-]?[0-9]{1,2}", second):
            raise _bad(item, "needs an attack bonus such as `+5` after the name")
        damage, kind, rest = third, damage, ([kind] if kind else []) + rest
        fields.update(bonus=int(second))
    if re.fullmatch(r"-?[0-9]+", damage) and not _DICE.match(damage):
        raise _bad(item, f"has a flat damage out of range: a flat damage is a whole number from 1 to {_MOST}, like "
                         "`club:+4:3:bludgeoning`; for more, give dice such as `20d10`")
    if re.fullmatch(r"[0-9]+d[0-9]+([+-][0-9]+)?", damage) and not _DICE.match(damage):
        raise _dice_out_of_range(item)
    if not _DICE.match(damage):
        raise _bad(item, f"has damage `{damage}`: write dice like `1d8+3` or `8d6`")
    if not _TYPE.match(kind):
        raise _bad(item, "needs a damage type such as `slashing` or `fire` after the damage")
    given: set[str] = set()
    for extra in (r for r in rest if r):
        key, _, value = extra.partition("=")
        if key in given:
            raise _bad(item, f"gives `{key}{'' if key == 'half' else '='}` twice: give it once")
        given.add(key)
        if key == "half" and not value and "save" in fields:
            fields["half"] = True
        elif key == "reach" and "bonus" in fields:
            fields["reach"] = _feet(item, value, "reach", MOST_REACH)
        elif key == "range":
            normal, _, long = value.partition("/")
            fields["normal"] = _feet(item, normal, "range")
            fields["long"] = _feet(item, long or normal, "long range")
            if fields["long"] < fields["normal"]:
                raise _bad(item, "has a long range shorter than its normal range")
        elif key == "area" and "save" in fields:
            shape = next((a for a in AREAS if value.startswith(a)), None)
            if shape is None:
                raise _bad(item, f"has area `{value}`: use burst, cone or line and feet, like `burst20`")
            fields.update(area=shape, size=_feet(item, value.removeprefix(shape), "area size"))
        elif key in ("half", "area") and "bonus" in fields:
            raise _bad(item, f"has `{extra}`: `half` and `area=` belong to a save attack (`save=dex:15` after the "
                             "name, not an attack bonus); a weapon attack takes `reach=` or `range=`")
        elif key == "reach" and "save" in fields:
            raise _bad(item, f"has `{extra}`: `reach=` belongs to a weapon attack; a save attack takes `half`, "
                             "`area=` or `range=`")
        else:
            raise _bad(item, f"has `{extra}`, which is not `reach=`, `range=`, `area=` or `half` here")
    return Weapon(name=name, damage=damage, kind=kind, **fields)


def _known_type(kind: str, where: str) -> None:
    if kind not in DAMAGE_TYPES:
        raise SheetError(f"{where}: `{kind[:20]}` is not a damage type. The damage types: {', '.join(DAMAGE_TYPES)}.")


def _read_weapons(value: str) -> list[str]:
    """The weapons in the sheet's form, one text each: known damage types, dice that roll something
    (or a flat damage of 1 or more), one weapon to a name; ``none`` is no weapon (as every sheet's list reads it)."""
    if value.strip().lower() == NONE:
        return []
    out: dict[str, str] = {}
    for item in (x.strip() for x in value.split(",") if x.strip()):
        w = parse_weapon(item)
        _known_type(w.kind, f"`weapons`: `{w.name}`")
        if re.match(r"0+d|[0-9]+d0+(?![0-9])", w.damage) or w.damage.strip("0") == "":
            raise _bad(item, f"has damage `{w.damage}`, which rolls nothing: give at least one die of at least one side, or a flat damage of 1 or more")
        if "d" in w.damage and int(w.damage.partition("d")[0]) > _MOST_DICE:
            raise _dice_out_of_range(item)
        if w.name in out:
            raise SheetError(f"`weapons`: two weapons are called `{w.name}`: give each its own name.")
        out[w.name] = w.text()
    if len(out) > 20:
        raise SheetError("`weapons`: at most 20 weapons and save attacks on one sheet.")
    return list(out.values())


def _read_init(value: str) -> str:
    """``+3`` or ``-1`` (a d20 plus it) or a dice expression such as ``1d20+3``."""
    text = "".join(value.split()).lower()
    if re.fullmatch(r"[+-][0-9]{1,2}", text):
        return text
    if re.fullmatch(r"[0-9]{0,2}d[0-9]{1,3}(?:[+-][0-9]{1,3})*", text):
        try:
            roll_expression(text, Dice.fixed([1] * 200))
        except DiceError:
            pass
        else:
            return text
    raise SheetError(f"`init={value[:20]}` is not accepted: give a modifier such as `+3` or dice such as `1d20+3`.")


def _read_types(value: str) -> list[str]:
    if value.strip().lower() == NONE:  # clears the list
        return []
    items = [x.strip().lower() for x in value.split(",")]
    if not all(items):
        raise SheetError("Damage types are words separated by commas, such as `fire,poison`: one is missing "
                         "between two commas or at an end.")
    if any(not _TYPE.match(x) for x in items) or len(items) > 15:
        raise SheetError("Damage types are words such as `fire,poison` (at most 15).")
    for x in items:
        _known_type(x, "Resistances")
    twice = sorted({x for x in items if items.count(x) > 1})
    if twice:
        raise SheetError(f"Damage type `{twice[0]}` is listed twice: list each type once, e.g. `fire,poison`.")
    return items


def check_sheet(raw: dict[str, str], sheet: dict[str, Any]) -> None:
    """What no single key can check: a `reach` not in steps of 5 ft, an `hp` above the `max_hp` given
    with it, a damage type both taken double and not at all (or halved)."""
    if "reach" in raw and int(sheet["reach"]) % CELL_FT:
        raise SheetError(f"`reach={sheet['reach']}`: a reach is from {CELL_FT} to {MOST_REACH} ft, in steps of 5, like "
                         "`reach=10`.")
    check_hp_within_most(raw, sheet)
    kinds = {k: set(sheet.get(k) or ()) for k in ("resist", "immune", "vulnerable")}
    for a, b in (("immune", "vulnerable"), ("immune", "resist"), ("resist", "vulnerable")):
        both = sorted(kinds[a] & kinds[b])
        if both:
            raise SheetError(f"`{', '.join(both)}` is both in `{a}` and in `{b}`: keep it in one of them.")


SHEET_KEYS: tuple[SheetKey, ...] = (
    SheetKey("hp", "hit points: at add (0 or more) the most and the starting HP; in a fight an edit sets the current "
             "HP (`hp-30` stops at 0)",
             "int", required=True, minimum=-99, maximum=9999),
    SheetKey("max_hp", "the most hit points (default: hp, and at least 1)", "int", minimum=1, maximum=9999),
    SheetKey("temp_hp", "temporary hit points, lost before hit points", "int", 0, minimum=0, maximum=999),
    SheetKey("ac", "armour class: an attack roll must reach it to hit", "int", 10, minimum=0, maximum=50),
    SheetKey("speed", "walking speed in feet a turn", "int", 30, minimum=0, maximum=500),
    SheetKey("init", "initiative: a modifier such as `+3` (a d20 plus it) or dice such as `1d20+3` "
             "(default: a d20 plus `dex`)", "custom", parse=_read_init, accepts="`+3` or `1d20+3`"),
    *(SheetKey(a, f"{a} modifier, added to {a} saves", "int", 0, minimum=-10, maximum=20) for a in ABILITIES),
    *(SheetKey(k, f"damage types it {what}, comma separated (e.g. `fire,poison`; `none` clears them)", "custom",
               parse=_read_types,
               accepts="damage types")
      for k, what in (("resist", "takes half of"), ("immune", "takes none of"), ("vulnerable", "takes double of"))),
    SheetKey("size", "size: a creature moves through a hostile's space only if two or more sizes apart from it",
             "choice", "medium", choices=SIZES),
    SheetKey("reach", "melee reach in feet", "int", DEFAULT_REACH, minimum=CELL_FT, maximum=MOST_REACH),
    SheetKey("weapons", "attacks, comma separated: `longsword:+5:1d8+3:slashing[:reach=10][:range=80/320]` or "
             "`fireball:save=dex:15:8d6:fire:half[:area=burst20][:range=150]`; `none`: no weapon", "custom", parse=_read_weapons,
             accepts="weapons and save attacks"),
)

#: the values an effect may change (`/effect add mods:"attack+1 ac+2"`)
EFFECT_VALUES = (
    SheetKey("attack", "attack rolls", "int", minimum=-10, maximum=10),
    SheetKey("ac", "armour class", "int", minimum=-10, maximum=10),
    SheetKey("damage", "the damage of a hit or a save attack", "int", minimum=-10, maximum=10),
    SheetKey("save", "saving throws", "int", minimum=-10, maximum=10),
    SheetKey("speed", "speed in feet", "int", minimum=-60, maximum=60),
)


def weapons(c: Combatant) -> dict[str, Weapon]:
    return {(w := parse_weapon(t)).name: w for t in c.sheet.get("weapons") or ()}


def weapon(c: Combatant, name: str | None, melee_only: bool = False) -> Weapon:
    """The named weapon of ``c``'s sheet (none named: its first, or first melee one)."""
    found = weapons(c)
    if name:
        w = found.get(name.strip().lower())
        if w is None:
            raise SheetError(f"{c.name} has no weapon `{name[:30]}`: its weapons are {', '.join(found) or 'none'}.")
        return w
    usable = [w for w in found.values() if not melee_only or w.melee]
    if not usable:
        raise SheetError(f"{c.name}'s sheet has no {'melee ' if melee_only else ''}weapon: the GM gives it one with "
                         f"`/combatant edit name:{c.name} sheet:\"weapons=longsword:+5:1d8+3:slashing\"` (before the "
                         "fight its owner can too).")
    return usable[0]


def init_expression(c: Combatant) -> tuple[str, int]:
    """The initiative expression and its modifier (ties go to the higher)."""
    given = c.sheet.get("init")
    if given is None:
        given = f"{ability(c, 'dex'):+d}"
    if given[0] in "+-":
        return f"1d20{given}", int(given)
    terms = re.findall(r"([+-]?)([0-9]*d[0-9]+|[0-9]+)", given)
    mod = sum(int(n) * (-1 if sign == "-" else 1) for sign, n in terms if "d" not in n)
    return given, mod


def ability(c: Combatant, key: str) -> int:
    return int(c.sheet.get(key, 0))


def speed(c: Combatant) -> int:
    return int(c.sheet.get("speed", 30))


def size(c: Combatant) -> int:
    """Its size as a step on the scale `SIZES` (tiny 0 ... gargantuan 5)."""
    return SIZES.index(str(c.sheet.get("size", "medium")))


def reach(c: Combatant, w: Weapon | None = None) -> int:
    if w is not None and w.reach is not None:
        return w.reach
    return int(c.sheet.get("reach", DEFAULT_REACH))


def ac(c: Combatant) -> int:
    return int(c.sheet.get("ac", 10))


def max_hp(c: Combatant) -> int:
    return int(c.sheet.get("max_hp") or c.sheet.get("hp") or 1)


def damage_types(c: Combatant, key: str) -> list[str]:
    return list(c.sheet.get(key) or [])


def is_player(enc: Encounter, c: Combatant) -> bool:
    return c.owner_id is not None and c.owner_id not in enc.gm_ids
