"""War & Combat's damage tables, as the text (shared/rules/war-and-combat.txt) gives them:
IMPACT CAP, DAMAGE THRESHOLDS, HIT LOCATIONS, wound severity, the wound effects table, the
action penalties, and the shock values and death check of shared/rules/README.md. One small
pure lookup per table; the mechanics that use them live elsewhere in the package.

Sibling modules: ``tables_movement`` (pace, terrain, obstacles), ``tables_missile`` (range
bands, moving targets, called shots), ``tables_options`` (combat options, secondary effects).

Where the text is ambiguous, the reading chosen:

- IMPACT CAP stops at 43-47; a higher cap goes on with the table's pattern (each 5 more adds
  a d6 and takes 1 more off). A cap below -7 still does the first row's 1 point: "Actual
  impact will range from 1 to a number close to the Impact Cap".
- DAMAGE THRESHOLDS stops at size 36; a larger size goes on with the table's pattern
  (Impaired half the size rounded up, Disabled the size, Destroyed twice the size). Size 1's
  Impaired is 0 as printed, although the pattern would give 1. Sizes below 1 read the "< 1" row.
- Severity: effective impact of 0 or less is no wound ("blows with an impact less than this
  value is ignored"). Penetration does not change the severity, only its nature (blunt or
  penetrating) and the shock record ("B16").
- The wound effects table prints two effects for the head, chest and belly under three
  columns; "Stun: ... cause stun when the light threshold is exceeded" puts them under Serious
  and Critical, so a light wound there has no effect beyond its action penalty. A mortal wound
  (no column) takes the Critical column's effect; the wounded is also incapable of any action.
- Defense after a wound effect: the text names what it takes away ("no Fighter rank or
  Agility modifier"); where it does not, the Agility modifier stays. Stun's "lose half their
  Defense (i.e., Base 5 + half Fighter rank)" is read as base 5, half the Fighter rank
  rounded down, plus the Agility modifier.
- Shock values (README: 4/10/16/19) follow the combat options columns (Superficial, Light,
  Serious, Critical), which the text's own example confirms ("a serious blunt wound to the
  head could be written as B16"). A mortal wound has no shock value: it calls for a death check.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, TypeVar

from rules.errors import InputError

__all__ = [
    "ImpactDice",
    "IMPACT_CAP",
    "impact_dice",
    "DAMAGE_THRESHOLDS",
    "thresholds",
    "pick",
]

T = TypeVar("T")


def pick(table: Mapping[str, T], key: str, what: str) -> T:
    """``table[key]`` for a name as players type it (case, spaces, ``_``), or an InputError
    that lists the names the table knows."""
    found = table.get(" ".join(str(key).strip().lower().replace("_", " ").split()))
    if found is None:
        raise InputError(f"No {what} `{str(key)[:40]}`: choose from {', '.join(table)}.")
    return found


# --- IMPACT CAP ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ImpactDice:
    """Impact dice: ``count`` dice of ``sides`` plus ``modifier`` (the "1 point" row is no
    dice and +1)."""

    count: int
    sides: int
    modifier: int

    @property
    def expression(self) -> str:
        """The dice as the text writes them: "1 point", "1d3", "4d6-3"."""
        if not self.count:
            return f"{self.modifier} point"
        tail = f"{self.modifier:+d}" if self.modifier else ""
        return f"{self.count}d{self.sides}{tail}"


#: IMPACT CAP: (lowest cap, highest cap, damage dice)
IMPACT_CAP: tuple[tuple[int, int, ImpactDice], ...] = (
    (-7, -3, ImpactDice(0, 6, 1)),
    (-2, 2, ImpactDice(1, 3, 0)),
    (3, 7, ImpactDice(1, 6, 0)),
    (8, 12, ImpactDice(2, 6, -1)),
    (13, 17, ImpactDice(3, 6, -2)),
    (18, 22, ImpactDice(4, 6, -3)),
    (23, 27, ImpactDice(5, 6, -4)),
    (28, 32, ImpactDice(6, 6, -5)),
    (33, 37, ImpactDice(7, 6, -6)),
    (38, 42, ImpactDice(8, 6, -7)),
    (43, 47, ImpactDice(9, 6, -8)),
)


def impact_dice(cap: int) -> ImpactDice:
    """IMPACT CAP: "Actual impact will range from 1 to a number close to the Impact Cap and is
    determined by rolling dice according to the table below" (-7 to -3: 1 point; -2 to 2: 1d3;
    3-7: 1d6; 8-12: 2d6-1; ... 43-47: 9d6-8). Below -7: 1 point; above 47: one more d6 and
    one more off for every 5 (48-52: 10d6-9)."""
    for low, high, dice in IMPACT_CAP:
        if low <= cap <= high:
            return dice
    if cap < IMPACT_CAP[0][0]:
        return IMPACT_CAP[0][2]
    count = (cap - 3) // 5 + 1
    return ImpactDice(count, 6, 1 - count)


# --- DAMAGE THRESHOLDS --------------------------------------------------------------------

#: DAMAGE THRESHOLDS: size -> (Impaired, Disabled, Destroyed); size 0 is the text's "< 1" row
DAMAGE_THRESHOLDS: dict[int, tuple[int, int, int]] = {
    0: (0, 0, 1),
    1: (0, 1, 2),
    2: (1, 2, 4),
    3: (2, 3, 6),
    4: (2, 4, 8),
    5: (3, 5, 10),
    6: (3, 6, 12),
    7: (4, 7, 14),
    8: (4, 8, 16),
    9: (5, 9, 18),
    10: (5, 10, 20),
    11: (6, 11, 22),
    12: (6, 12, 24),
    13: (7, 13, 26),
    14: (7, 14, 28),
    15: (8, 15, 30),
    16: (8, 16, 32),
    17: (9, 17, 34),
    18: (9, 18, 36),
    19: (10, 19, 38),
    20: (10, 20, 40),
    21: (11, 21, 42),
    22: (11, 22, 44),
    23: (12, 23, 46),
    24: (12, 24, 48),
    25: (13, 25, 50),
    26: (13, 26, 52),
    27: (14, 27, 54),
    28: (14, 28, 56),
    29: (15, 29, 58),
    30: (15, 30, 60),
    31: (16, 31, 62),
    32: (16, 32, 64),
    33: (17, 33, 66),
    34: (17, 34, 68),
    35: (18, 35, 70),
    36: (18, 36, 72),
}


def thresholds(size: int) -> tuple[int, int, int]:
    """DAMAGE THRESHOLDS: "Damage thresholds are based on the mass of the target": (Impaired,
    Disabled, Destroyed) for a size. Below 1: the "< 1" row (0, 0, 1); above 36, the last
    printed row, the table's pattern goes on: (size rounded up by half, size, twice size)."""
    if size < 1:
        return DAMAGE_THRESHOLDS[0]
    if size in DAMAGE_THRESHOLDS:
        return DAMAGE_THRESHOLDS[size]
    return ((size + 1) // 2, size, 2 * size)
