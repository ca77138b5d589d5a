"""War & Combat's damage tables, row by row as shared/rules/war-and-combat.txt prints them."""
from __future__ import annotations

import pytest

from rules.errors import InputError
from rules.systems.war_and_combat.tables import (
    DAMAGE_THRESHOLDS,
    IMPACT_CAP,
    ImpactDice,
    impact_dice,
    pick,
    thresholds,
)

# IMPACT CAP rows as the text prints them: "Impact Cap" then "Damage Dice"
IMPACT_ROWS = [
    ("-7 to -3", "1 point"),
    ("-2 to 2", "1d3"),
    ("3-7", "1d6"),
    ("8-12", "2d6-1"),
    ("13-17", "3d6-2"),
    ("18-22", "4d6-3"),
    ("23-27", "5d6-4"),
    ("28-32", "6d6-5"),
    ("33-37", "7d6-6"),
    ("38-42", "8d6-7"),
    ("43-47", "9d6-8"),
]


def _bounds(text: str) -> tuple[int, int]:
    if " to " in text:
        low, high = text.split(" to ")
    else:
        low, high = text.split("-")
    return int(low), int(high)


@pytest.mark.parametrize("caps, dice", IMPACT_ROWS)
def test_impact_cap_row(caps, dice):
    """Every cap of an IMPACT CAP row, its first, last and middle, rolls the row's dice."""
    low, high = _bounds(caps)
    for cap in range(low, high + 1):
        assert impact_dice(cap).expression == dice


def test_impact_cap_table_has_the_texts_rows_in_order():
    """The literal table holds exactly the text's eleven rows, contiguous from -7 to 47."""
    assert [(lo, hi, d.expression) for lo, hi, d in IMPACT_CAP] == [(*_bounds(c), d) for c, d in IMPACT_ROWS]


def test_impact_dice_fields():
    """4d6-3 is four d6 less 3; 1d3 is one d3; "1 point" is no dice and +1."""
    assert impact_dice(20) == ImpactDice(4, 6, -3)
    assert impact_dice(0) == ImpactDice(1, 3, 0)
    assert impact_dice(-5) == ImpactDice(0, 6, 1)


@pytest.mark.parametrize("cap", [-8, -20, -1000])
def test_impact_cap_below_the_table_is_one_point(cap):
    """Below -7 the blow still does 1 point: "Actual impact will range from 1"."""
    assert impact_dice(cap).expression == "1 point"


@pytest.mark.parametrize("cap, dice", [(48, "10d6-9"), (52, "10d6-9"), (53, "11d6-10"), (60, "12d6-11")])
def test_impact_cap_above_the_table_goes_on_with_its_pattern(cap, dice):
    """Above 47 each 5 more adds a d6 and takes 1 more off, as every row of the table does."""
    assert impact_dice(cap).expression == dice


# DAMAGE THRESHOLDS rows as the text prints them, flattened: Size, Impaired, Disabled, Destroyed
THRESHOLD_ROWS = (
    "1012 2124 3236 4248 53510 63612 74714 84816 95918 1051020 1161122 1261224 1371326 1471428 "
    "1581530 1681632 1791734 1891836 19101938 20102040 21112142 22112244 23122346 24122448 "
    "25132550 26132652 27142754 28142856 29152958 30153060 31163162 32163264 33173366 "
    "34173468 35183570 36183672"
).split()


@pytest.mark.parametrize("size, row", list(enumerate(THRESHOLD_ROWS, start=1)))
def test_damage_threshold_row(size, row):
    """Size, then (Impaired, Disabled, Destroyed), written together, is the text's row."""
    assert str(size) + "".join(str(v) for v in thresholds(size)) == row


def test_damage_thresholds_cover_every_size_of_the_text():
    """The literal table holds the "< 1" row and every size from 1 to 36, nothing else."""
    assert sorted(DAMAGE_THRESHOLDS) == list(range(0, 37))
    assert len(THRESHOLD_ROWS) == 36


@pytest.mark.parametrize("size", [0, -1, -10])
def test_damage_thresholds_below_size_one(size):
    """"< 1 | 0 | 0 | 1": any size under 1 reads that row."""
    assert thresholds(size) == (0, 0, 1)


def test_damage_thresholds_of_a_human():
    """A human (size 10 by default) is impaired over 5, disabled over 10, destroyed over 20."""
    assert thresholds(10) == (5, 10, 20)


@pytest.mark.parametrize("size, expected", [(37, (19, 37, 74)), (38, (19, 38, 76)), (50, (25, 50, 100))])
def test_damage_thresholds_beyond_size_36(size, expected):
    """Above the text's last row (36) the pattern goes on: half rounded up, the size, twice it."""
    assert thresholds(size) == expected


def test_pick_reads_names_as_players_type_them():
    """A table name is found whatever its case and spacing; an unknown one lists the names."""
    assert pick({"two words": 1}, "  Two_Words ", "thing") == 1
    with pytest.raises(InputError, match="choose from two words"):
        pick({"two words": 1}, "three", "thing")
