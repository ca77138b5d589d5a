"""Coup-De-Grace's encounter options, declared once (`rules.options`).

Every default the text leaves open is an option whose default is today's reading; the rules
read them as ``values(enc).name`` (the same read as ``system.option_values(enc)``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from rules.errors import SheetError
from rules.models import Encounter
from rules.options import (
    OptionSet,
    OptionValues,
    choice_option,
    int_option,
    listed_name,
    text_option,
    yes_no_option,
)
from rules.sheet import read_int
from rules.systems.coup_de_grace.tables import (
    MAX_REACH,
    WEAPONS,
    Weapon,
    normalise_weapon,
)

__all__ = ["OPTIONS", "CdgValues", "Spell", "parse_spells", "parse_weapons", "values"]

#: the most spells the `spells` option lists, and the longest range or cost it takes
MAX_SPELLS = 20
MAX_SPELL_NUMBER = 60


def parse_weapons(text: str) -> dict[str, Weapon]:
    """The weapon list: the catalogue plus the GM's ``weapons`` items ``name:kind[:number]``."""
    out = dict(WEAPONS)
    known = {normalise_weapon(n): n for n in out}
    seen: set[str] = set()
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        parts = [p.strip() for p in item.split(":")]
        name = known.get(normalise_weapon(parts[0]), parts[0].lower())
        kind = parts[1].lower() if len(parts) > 1 else ""
        number = parts[2] if len(parts) > 2 else None
        if not name or len(name) > 30 or len(parts) > 3 or kind not in ("melee", "ranged", "versatile"):
            raise SheetError(
                f"`weapons` item `{item}` is not `name:melee|ranged|versatile[:number]`, "
                f"like `longbow:ranged:8` or `halberd:melee:2`."
            )
        listed_name("weapons", item, parts[0], normalise_weapon(parts[0]), seen)
        hint = f"in `{item}`, the reach or range increment in squares"
        n = read_int(number, "weapons", 1, MAX_REACH, SheetError, hint) if number is not None else None
        base = out.get(name, Weapon(name))
        out[name] = replace(
            base,
            melee=kind != "ranged",
            ranged=kind != "melee",
            reach=n if (n and kind == "melee") else base.reach,
            increment=n if (n and kind != "melee") else base.increment,
        )
        known[normalise_weapon(name)] = name
    return out


@dataclass(frozen=True)
class Spell:
    """A spell cast from a Mage Focus: its MP cost (0 where the GM gives none) and range (None: any)."""

    name: str
    cost: int = 0
    range: int | None = None


def parse_spells(text: str) -> dict[str, Spell]:
    """``"fireball:2:6, blink, heal:1"`` -> spells by their compared name (``name[:MP[:range]]``)."""
    out: dict[str, Spell] = {}
    seen: set[str] = set()
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        parts = [p.strip() for p in item.split(":")]
        name = normalise_weapon(parts[0])
        if not name or len(name) > 30 or len(parts) > 3 or any(ch in name for ch in "`=\n"):
            raise SheetError(f"`spells` item `{item}` is not `name[:MP cost[:range]]`, like `fireball:2:6`.")
        listed_name("spells", item, parts[0], name, seen)  # as typed: the settings show the option as typed
        hint = f"in `{item}`"
        cost = read_int(parts[1], "spells", 0, MAX_SPELL_NUMBER, SheetError, hint) if len(parts) > 1 else 0
        reach = read_int(parts[2], "spells", 1, MAX_SPELL_NUMBER, SheetError, hint) if len(parts) > 2 else None
        out[name] = Spell(name, cost, reach)
    if len(out) > MAX_SPELLS:
        raise SheetError(f"`spells` lists at most {MAX_SPELLS} spells.")
    return out


class CdgValues(OptionValues):
    """The options' values, typed (`rules.options`)."""

    tie: str
    range_increment: int
    max_increments: int
    reach: int
    recover_on: int
    downed_adjacent: bool
    weapons: dict[str, Weapon]
    spells: dict[str, Spell]
    sight_corners: str
    range_walls: str
    shield_attacks: bool
    hammer_push: str
    diagonal_push: str
    diagonal_squeeze: bool
    turn_in_place: bool
    crawl: str


OPTIONS = OptionSet(
    choice_option(
        "tie",
        ("roll", "join"),
        "who activates first when sides have as many minis: `roll` (a d6 per tied side, highest "
        "first, ties re-roll) or `join` (the side that joined first)",
    ),
    int_option("range_increment", 6, 1, 99, "squares per range increment for ranged weapons that state none"),
    int_option("max_increments", 5, 1, 99, "maximum range, in range increments"),
    int_option("reach", 2, 1, 99, "squares straight ahead that spears and polearms reach"),
    int_option("recover_on", 5, 1, 6, "the d6 result a dramatic recovery needs (5: 5+)"),
    yes_no_option("downed_adjacent", True, "downed enemies next to a mini double its MP costs too"),
    text_option(
        "weapons",
        parse_weapons,
        WEAPONS,
        "extra or changed weapons, comma separated, e.g. `longbow:ranged:8, halberd:melee:2`",
        "`name:melee|ranged|versatile[:reach or increment]`, comma separated",
    ),
    text_option(
        "spells",
        parse_spells,
        {},
        "spells cast from Mage Foci with `/act action:cast`, comma separated, e.g. `fireball:2:6, blink`; "
        "no MP cost means ZERO MP (as the text says), no range means any range in sight",
        "`name[:MP cost[:range]]`, comma separated",
    ),
    choice_option(
        "sight_corners",
        ("open", "blocked"),
        "a line of sight that only touches the corner of a mini's or an obstacle's square: `open` "
        "(it sees past) or `blocked`",
    ),
    choice_option(
        "range_walls",
        ("ignore", "around"),
        "how range is counted: `ignore` (squares straight to the target; walls matter for sight "
        "only) or `around` (the shortest way round walls and obstacles)",
    ),
    yes_no_option("shield_attacks", True, "a shield is also a melee weapon (its attack); `no`: it only blocks"),
    choice_option(
        "hammer_push",
        ("always", "optional"),
        "the hammer's knockback: `always` on a hit, or `optional` (only with `options:push`)",
    ),
    choice_option(
        "diagonal_push",
        ("clockwise", "counter-clockwise", "diagonal"),
        "a push (hammer, pistol) whose straight-back line is an exact diagonal: `clockwise` (to the next side "
        "clockwise: pushed north-east, the target goes east), `counter-clockwise` (north), or `diagonal` "
        "(one square north-east, corner to corner)",
    ),
    yes_no_option(
        "diagonal_squeeze",
        False,
        "draft: a diagonal step may pass between two blocked squares (`no`: it may not)",
    ),
    yes_no_option("turn_in_place", True, "draft: a mini may turn in place for 1 MP, as in the newer text"),
    choice_option(
        "crawl",
        ("ruleset", "orthogonal", "any"),
        "a downed mini's crawl: `ruleset` (N, E, S or W; the draft any of 8 directions), "
        "`orthogonal` or `any`",
    ),
    into=CdgValues,
)


def values(enc: Encounter) -> CdgValues:
    """The encounter's options as the rules use them (read once per distinct set of values)."""
    return OPTIONS.read(enc.settings.options)
