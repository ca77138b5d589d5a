"""The encounter options of Knights of Valour, each declared once (`rules.options`).

The rules read them as ``system.option_values(enc).name``; ``weapons`` and ``armors`` read as
the whole catalogue (the SRD tables with the GM's entries over them).
"""
from __future__ import annotations

from collections.abc import Iterator

from rules.errors import InputError
from rules.options import (
    AUTO_END,
    AutoEndValues,
    Option,
    OptionSet,
    choice_option,
    int_option,
    listed_name,
    text_option,
)
from rules.sheet import read_int
from rules.systems.knights_of_valour.tables import (
    ARMOUR,
    ARMOUR_ALIASES,
    HEIGHTS,
    MAX_ARMOUR,
    SHIELDS,
    SIZES,
    WEAPON_INDEX,
    Weapon,
    norm,
    parse_weapon,
)

__all__ = ["OPTIONS", "KovValues", "DEFAULT_ARMOURS", "DEFAULT_WEAPONS"]


def _entries(key: str, text: str) -> Iterator[tuple[str, str]]:
    """``(name, value)`` for each ``name:value`` of a comma separated option."""
    for item in text.split(","):
        name, sep, value = item.partition(":")
        name = "-".join(name.lower().split())
        if not item.strip():
            continue
        if not (sep and norm(name) and value.strip()):
            raise InputError(
                f"Encounter option `{key}`: `{item.strip()}` is not `name:value`; "
                f"see `/encounter settings` for the form."
            )
        yield name, value.strip()


#: armour by look-up key: (name, Defence Modifier)
DEFAULT_ARMOURS: dict[str, tuple[str, int]] = {
    **{norm(k): (k, v) for k, v in ARMOUR.items()},
    **{norm(a): (k, ARMOUR[k]) for a, k in ARMOUR_ALIASES.items()},
}
#: weapons by look-up key
DEFAULT_WEAPONS: dict[str, Weapon] = dict(WEAPON_INDEX)


def _weapons(text: str) -> dict[str, Weapon]:
    table = dict(DEFAULT_WEAPONS)
    seen: set[str] = set()
    for name, spec in _entries("weapons", text):
        listed_name("weapons", f"{name}:{spec}", name, norm(name), seen)
        try:
            table[norm(name)] = parse_weapon(name, spec)
        except InputError as exc:
            raise InputError(f"Encounter option `weapons`: {exc.message}") from None
    return table


def _armours(text: str) -> dict[str, tuple[str, int]]:
    table = dict(DEFAULT_ARMOURS)
    seen: set[str] = set()
    for name, value in _entries("armors", text):
        listed_name("armors", f"{name}:{value}", name, norm(name), seen)
        hint = f"in the entry `{name}:{value[:20]}`"
        table[norm(name)] = (name, read_int(value, "armors", 0, MAX_ARMOUR, hint=hint))
    return table


class KovValues(AutoEndValues):
    """The options' values, typed (`rules.options`)."""

    delay: str
    split_move: str
    victory: str
    aoo: str
    ranged_stature: str
    min_damage: int
    obstacle_height: int
    height_short: int
    height_average: int
    height_tall: int
    small_shield: int
    large_shield: int
    armors: dict[str, tuple[str, int]]
    weapons: dict[str, Weapon]


OPTIONS = OptionSet(
    Option(
        "delay",
        "when initiative may be lowered for the round: `start`, the text's reading: players only, at the "
        "start of the round before anyone has acted; `round`: any combatant, until its own turn has begun",
        "choice",
        choices=("start", "round"),
    ),
    choice_option(
        "split_move",
        ("no", "yes"),
        "`no`: taking the Combat Action ends a Move Action under way; `yes`: the rest of the movement may "
        "follow the Combat Action",
    ),
    choice_option(
        "victory",
        ("downed", "out"),
        "`downed`: a side is beaten when all its combatants are downed or out; `out`: only when all are out",
    ),
    choice_option("aoo", ("yes", "no"), "whether leaving an engaged enemy provokes an Attack of Opportunity"),
    choice_option("ranged_stature", ("yes", "no"), "whether the size table applies to ranged attacks too"),
    int_option("min_damage", 0, 0, 100, "the least damage a hit does after Strength"),
    int_option("obstacle_height", 3, 0, 100, "height in feet of an obstacle square with no height marked"),
    *(int_option(f"height_{size}", HEIGHTS[size], 1, 60, f"height in feet of {size} combatants") for size in SIZES),
    int_option("small_shield", SHIELDS["small"], 0, 20, "Defence Modifier of a small shield"),
    int_option("large_shield", SHIELDS["large"], 0, 20, "Defence Modifier of a large shield"),
    text_option(
        "armors", _armours, DEFAULT_ARMOURS, "extra or changed armour, comma separated `name:Defence Modifier`",
        "e.g. `elven-chain:5`",
    ),
    text_option(
        "weapons",
        _weapons,
        DEFAULT_WEAPONS,
        "extra or changed weapons, comma separated `name:damage [melee] [close/maximum ft]`",
        "e.g. `elven-blade:1d10 melee, rock:1d4 10/20, javelin:1d6 melee 30/120`",
    ),
    AUTO_END,
    into=KovValues,
)
