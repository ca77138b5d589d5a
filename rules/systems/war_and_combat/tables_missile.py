"""War & Combat's ranged combat tables (shared/rules/war-and-combat.txt): MISSILE TARGETING BY
RANGE, MOVING TARGET MODIFIERS TO RANGED ATTACKS, called shots, firing into a melee and missed
shots, with one pure lookup each. MISSILE HIT LOCATIONS is printed exactly as HIT LOCATIONS:
:func:`missile_hit_location` reads that one table.

Where the text is ambiguous, the reading chosen:

- A band reaches out to its multiple of the weapon's short range ("Base ranges for missile
  weapons correspond to short range"), counted in whole hexes, the far edge included. Point
  blank (× 1/10) reaches at least the adjacent hex, since no hex is nearer: a bow (short 25)
  is point blank to 2 hexes, a javelin (short 5) to 1. Beyond extreme (× 5) no shot is
  possible (None).
- The range modifier is added to the task's target level, as the moving target table writes
  it ("10 + Range Modifier").
- Called shots elsewhere than point blank or short range are not possible: "Otherwise hit
  locations are random".
"""
from __future__ import annotations

from fractions import Fraction

from rules.systems.war_and_combat.tables import hit_location, norm, pick

__all__ = [
    "RANGE_BANDS",
    "range_band",
    "MOVING_TARGETS",
    "moving_target",
    "FIRING_INTO_MELEE",
    "MISSED_SHOT_SKILL",
    "CALLED_SHOTS",
    "called_shot",
    "GENERAL_LOCATIONS",
    "SUB_LOCATIONS",
    "missile_hit_location",
]

#: MISSILE TARGETING BY RANGE: (band, multiple of the short range, range modifier)
RANGE_BANDS: tuple[tuple[str, Fraction, int], ...] = (
    ("point blank", Fraction(1, 10), 0),
    ("short", Fraction(1), 5),
    ("medium", Fraction(2), 10),
    ("long", Fraction(3), 15),
    ("extreme", Fraction(5), 20),
)


def range_band(short_range: int, hexes: int) -> tuple[str, int] | None:
    """MISSILE TARGETING BY RANGE: Point Blank (× 1/10) +0, Short (×1) +5, Medium (×2) +10,
    Long (×3) +15, Extreme (×5) +20: (band, range modifier) of a target ``hexes`` away from a
    weapon of ``short_range`` hexes; None beyond extreme range."""
    for band, multiple, modifier in RANGE_BANDS:
        reach = max(Fraction(1), short_range * multiple) if band == "point blank" else short_range * multiple
        if hexes <= reach:
            return band, modifier
    return None


#: MOVING TARGET MODIFIERS TO RANGED ATTACKS: target -> base target level (before the range
#: modifier and, for an evading target, its Defense)
MOVING_TARGETS: dict[str, int] = {
    "unaware and unmoving": 10,
    "unaware, moving": 15,
    "unaware, moving erratically": 20,
    "aware, evading": 15,
}


def moving_target(target: str, range_modifier: int, defense: int = 0) -> int:
    """MOVING TARGET MODIFIERS TO RANGED ATTACKS: the target level to beat. "Unaware and
    Unmoving 10 + Range Modifier; Unaware, Moving 15 + Range Mod.; Unaware, Moving Erratically
    20 + Range Mod.; Aware, Evading 15 + Target's Defense + Range Mod." ``defense`` counts only
    for an evading target."""
    key = norm(target)
    base = pick(MOVING_TARGETS, key, "target")
    return base + range_modifier + (defense if key == "aware, evading" else 0)


#: "Firing Into a Mêlée: Add +5 to task target level if the target is obstructed by moving bodies."
FIRING_INTO_MELEE = 5
#: "Missed Shots: Treat accidental attacks against random targets in the missile's flight path as
#: if the attacker had a skill level of -5."
MISSED_SHOT_SKILL = -5

#: called shots: band -> (general location, sub-location) modifiers
CALLED_SHOTS: dict[str, tuple[int, int]] = {"point blank": (0, -3), "short": (-2, -5)}


def called_shot(band: str, sub_location: bool = False) -> int | None:
    """"At point blank range, the archer may aim at any general hit location (head, chest,
    belly, arm, leg) without penalty, but suffers a -3 to hit for a sub-location (hand, item
    carried, eye, etc). At short range, general hit locations are -2 to call, or -5 for
    sub-locations. Otherwise hit locations are random": the modifier, or None when no called
    shot is possible."""
    found = CALLED_SHOTS.get(band)
    return None if found is None else found[1 if sub_location else 0]


#: the general hit locations a shot may call
GENERAL_LOCATIONS = ("head", "arm", "chest", "belly", "leg")
#: sub-locations ("hand, item carried, eye, etc") -> the general location whose wound they take; an item
#: carried is struck in the hand that carries it (the project's reading)
SUB_LOCATIONS: dict[str, str] = {"hand": "arm", "item": "arm", "eye": "head", "foot": "leg"}


def missile_hit_location(total: int) -> str:
    """MISSILE HIT LOCATIONS, 3d6: 3-5 Head, 6-9 Arm, 10-11 Chest, 12-13 Belly, 14-18 Leg (the
    same rows as HIT LOCATIONS)."""
    return hit_location(total)
