"""War & Combat's ranged combat tables, row by row as shared/rules/war-and-combat.txt prints them."""
from __future__ import annotations

import pytest

from rules.errors import InputError
from rules.systems.war_and_combat.tables_missile import (
    FIRING_INTO_MELEE,
    MISSED_SHOT_SKILL,
    MOVING_TARGETS,
    RANGE_BANDS,
    called_shot,
    missile_hit_location,
    moving_target,
    range_band,
)

# MISSILE TARGETING BY RANGE as the text prints it, flattened: "RangeRange Mod."
RANGE_ROWS = [
    ("Point Blank (× 1/10)+0", 100, 10),
    ("Short (×1)+5", 100, 100),
    ("Medium (×2)+10", 100, 200),
    ("Long (×3)+15", 100, 300),
    ("Extreme (×5)+20", 100, 500),
]


@pytest.mark.parametrize("row, short_range, edge", RANGE_ROWS)
def test_range_band_row(row, short_range, edge):
    """With a 100-hex short range, the band's far edge reads the row's band and modifier; one hex more does not."""
    band, modifier = range_band(short_range, edge)
    assert row.lower().startswith(band) and row.endswith(f"{modifier:+d}")
    assert range_band(short_range, edge + 1) != (band, modifier)


def test_range_table_has_the_texts_five_bands():
    """Five bands, modifiers +0 to +20 in steps of 5."""
    assert [(b, m) for b, _, m in RANGE_BANDS] == [("point blank", 0), ("short", 5), ("medium", 10), ("long", 15), ("extreme", 20)]


@pytest.mark.parametrize(
    "short_range, hexes, expected",
    [(25, 0, ("point blank", 0)), (25, 2, ("point blank", 0)), (25, 3, ("short", 5)), (25, 25, ("short", 5)),
     (25, 26, ("medium", 10)), (25, 75, ("long", 15)), (25, 125, ("extreme", 20)), (25, 126, None),
     (5, 1, ("point blank", 0)), (5, 2, ("short", 5)), (15, 1, ("point blank", 0)), (35, 3, ("point blank", 0))],
)
def test_range_band_for_the_catalogue_missiles(short_range, hexes, expected):
    """A bow (25) is point blank to 2 hexes and out of range past 125; a javelin (5) point blank only when adjacent."""
    assert range_band(short_range, hexes) == expected


# MOVING TARGET MODIFIERS TO RANGED ATTACKS as the text prints it: "Target Is:" then "Target"
MOVING_ROWS = [
    ("Unaware and Unmoving", "10 + Range Modifier"),
    ("Unaware, Moving", "15 + Range Mod."),
    ("Unaware, Moving Erratically", "20 + Range Mod."),
    ("Aware, Evading", "15 + Target's Defense + Range Mod."),
]


@pytest.mark.parametrize("target, level", MOVING_ROWS)
def test_moving_target_row(target, level):
    """The target level is the row's base, plus the range modifier (+10 here), plus Defense 13 when evading."""
    base = int(level.split()[0])
    evading = "Defense" in level
    assert moving_target(target, 10, defense=13) == base + 10 + (13 if evading else 0)


def test_moving_target_table_has_four_rows():
    """Four kinds of target, as the text lists them."""
    assert len(MOVING_TARGETS) == 4


def test_unknown_moving_target_is_refused():
    """A kind of target the table does not know is an input error."""
    with pytest.raises(InputError, match="No target"):
        moving_target("asleep", 5)


def test_firing_into_melee_and_missed_shots():
    """"+5 to task target level" into a mêlée; a missed shot strikes "as if ... a skill level of -5"."""
    assert (FIRING_INTO_MELEE, MISSED_SHOT_SKILL) == (5, -5)


@pytest.mark.parametrize(
    "band, sub, modifier",
    [("point blank", False, 0), ("point blank", True, -3), ("short", False, -2), ("short", True, -5),
     ("medium", False, None), ("extreme", True, None)],
)
def test_called_shots(band, sub, modifier):
    """Point blank: general 0, sub-location -3; short: -2 and -5; farther: random, no called shot."""
    assert called_shot(band, sub) == modifier


# MISSILE HIT LOCATIONS as the text prints it, flattened: "3d6Location"
MISSILE_LOCATION_ROWS = ["3-5Head", "6-9Arm", "10-11Chest", "12-13Belly", "14-18Leg"]


@pytest.mark.parametrize("row", MISSILE_LOCATION_ROWS)
def test_missile_hit_location_row(row):
    """Every total of the row's range strikes the row's location."""
    totals, name = row.rstrip("abcdefghijklmnopqrstuvwxyzHACBL"), row.lstrip("0123456789-")
    low, high = (int(v) for v in totals.split("-"))
    assert {missile_hit_location(t) for t in range(low, high + 1)} == {name.lower()}
