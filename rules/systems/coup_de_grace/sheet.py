"""Coup-De-Grace's sheet: its keys, their readers, and the numbers a sheet gives (DV, MA)."""
from __future__ import annotations

import re
from functools import partial

from rules.effects import total
from rules.errors import IllegalAction, NotFound, SheetError
from rules.geometry import Cell
from rules.models import Combatant, Encounter
from rules.sheet import SheetKey, per_tables
from rules.systems.coup_de_grace.options import values
from rules.systems.coup_de_grace.tables import (
    CLASS_ALIASES,
    CLASSES,
    DEFAULT_HP,
    DEFENCE_VALUE,
    DRAFT,
    DRAFT_VARIANT,
    NEWER,
    Ruleset,
    Weapon,
    normalise_weapon,
)

__all__ = [
    "EFFECT_VALUES",
    "catalogue",
    "defence",
    "facing_of",
    "keys",
    "movement",
    "parse_class",
    "ruleset",
    "square_of",
    "weapon",
    "weapons_held",
]


def ruleset(enc: Encounter) -> Ruleset:
    return DRAFT if enc.variant == DRAFT_VARIANT else NEWER


def parse_class(value: str) -> str:
    v = re.sub(r"[\s_-]+armou?red$", "", value.strip().lower())
    if v not in CLASS_ALIASES:
        raise SheetError(f"`class={value}` is not accepted: use one of {', '.join(CLASSES)}.")
    return CLASS_ALIASES[v]


def _parse_held(known_weapons: dict[str, Weapon], value: str) -> list[str]:
    known = {normalise_weapon(n): n for n in known_weapons}
    items = [x.strip() for x in value.split(",") if x.strip()]
    bad = [x for x in items if normalise_weapon(x) not in known]
    if bad:
        raise SheetError(
            f"`weapons`: {', '.join(bad)} {'is' if len(bad) == 1 else 'are'} not known. "
            f"Known: {', '.join(known_weapons)} (the GM adds more with the `weapons` encounter option)."
        )
    if len(items) > 6:
        raise SheetError("`weapons` lists at most 6 weapons.")
    return [known[normalise_weapon(x)] for x in items]


@per_tables
def keys(known_weapons: dict[str, Weapon]) -> tuple[SheetKey, ...]:
    """The sheet keys, reading the weapons from the encounter's catalogue (made once for each)."""
    return (
        SheetKey(
            "class",
            "armour class: unarmoured (DV 3, MA 8), light (DV 4, MA 6) or heavy (DV 5, MA 4); draft MA 6/5/4",
            kind="choice",
            choices=CLASSES,
            required=True,
            parse=parse_class,
        ),
        SheetKey("hp", "hit points", kind="int", default=DEFAULT_HP, minimum=1, maximum=20),
        SheetKey(
            "weapons",
            "weapons in hand, comma separated (`none`: no weapon, and no attack)",
            kind="list",
            choices=tuple(known_weapons),
            parse=partial(_parse_held, known_weapons),
        ),
        SheetKey("race", "race, free text (shown on the board)", cosmetic=True),
        SheetKey("dv", "defence value, overrides the class", kind="int", minimum=1, maximum=12),
        SheetKey("ma", "movement allowance, overrides the class", kind="int", minimum=0, maximum=30),
    )


#: the values an effect may change (`/effect add mods:"attack+1 defence+1"`)
EFFECT_VALUES = (
    SheetKey("attack", "the attack roll (1d6 + modifiers), melee and ranged", "int", minimum=-3, maximum=3),
    SheetKey("defence", "the defence value attacks must reach", "int", minimum=-3, maximum=3),
    SheetKey("ma", "the movement allowance of each activation (never below 0)", "int", minimum=-8, maximum=8),
)


def catalogue(enc: Encounter) -> dict[str, Weapon]:
    """The weapons of this encounter: the text's catalogue with the GM's `weapons` option
    (a shield that may not attack when `shield_attacks=no`)."""
    opts = values(enc)
    known: dict[str, Weapon] = opts.weapons
    if not opts.shield_attacks and known["shield"].melee:
        known = {**known, "shield": Weapon("shield", melee=False, rule=known["shield"].rule)}
    return known


def weapon(enc: Encounter, name: str) -> Weapon:
    known = catalogue(enc)
    if name not in known:
        raise NotFound(f"`{name}` is no longer a known weapon here: the GM edits the sheet or the `weapons` option.")
    return known[name]


def weapons_held(enc: Encounter, c: Combatant) -> list[str]:
    """The weapons in ``c``'s hands that can attack."""
    known = catalogue(enc)
    held = dict.fromkeys(c.sheet.get("weapons") or [])
    return [w for w in held if w in known and known[w].attacks]


def defence(c: Combatant) -> int:
    return int(c.sheet.get("dv") or DEFENCE_VALUE[c.sheet.get("class", "unarmoured")])


def movement(enc: Encounter, c: Combatant) -> int:
    """The movement allowance: the sheet's `ma` or the class's, changed by the running effects."""
    ma = c.sheet.get("ma")
    base = int(ma) if ma is not None else ruleset(enc).movement[c.sheet.get("class", "unarmoured")]
    return max(0, base + total(enc.effects, c.name, "ma"))


def square_of(c: Combatant) -> Cell:
    """The square of a mini on the board (its position read once: an attack asks a dozen)."""
    cell = c.cell
    if cell is None:
        raise IllegalAction(
            f"{c.name} is not on the board: the GM places it with `/combatant edit name:{c.name} at:CELL`."
        )
    return cell


def facing_of(c: Combatant) -> str:
    """The facing of a standing mini."""
    if c.facing is None:
        raise IllegalAction(
            f"{c.name} has no facing: the GM gives it one with `/combatant edit name:{c.name} facing:N`."
        )
    return c.facing
