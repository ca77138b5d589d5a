"""War & Combat's damage tables, row by row as shared/rules/war-and-combat.txt prints them."""
from __future__ import annotations

import pytest

from rules.errors import InputError
from rules.systems.war_and_combat.tables import (
    DAMAGE_THRESHOLDS,
    FALLEN,
    HELPLESS,
    HIT_LOCATIONS,
    IMPACT_CAP,
    SEVERITIES,
    STUNNED,
    WOUND_EFFECTS,
    Check,
    ImpactDice,
    Wound,
    action_penalty,
    death_check_target,
    hit_location,
    impact_dice,
    pick,
    severity,
    shock_value,
    thresholds,
    wound,
    wound_effect,
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


# HIT LOCATIONS as the text prints them: 3d6, Location
LOCATION_ROWS = [("3-5", "Head"), ("6-9", "Arm"), ("10-11", "Chest"), ("12-13", "Belly"), ("14-18", "Leg")]


@pytest.mark.parametrize("totals, location", LOCATION_ROWS)
def test_hit_location_row(totals, location):
    """Every 3d6 total of a HIT LOCATIONS row strikes that row's location."""
    low, high = _bounds(totals)
    for total in range(low, high + 1):
        assert hit_location(total) == location.lower()


def test_hit_location_table_is_the_texts():
    """The literal table is the text's five rows, covering 3 to 18 without a gap."""
    assert [(lo, hi, name) for lo, hi, name in HIT_LOCATIONS] == [(*_bounds(t), n.lower()) for t, n in LOCATION_ROWS]


@pytest.mark.parametrize("total, location", [(2, "head"), (-4, "head"), (19, "leg"), (30, "leg")])
def test_hit_location_beyond_3_to_18(total, location):
    """A modified total outside 3-18 reads the nearest end of the table (head or leg)."""
    assert hit_location(total) == location


@pytest.mark.parametrize(
    "impact, expected",
    [(-3, None), (0, None), (1, "light"), (5, "light"), (6, "serious"), (10, "serious"),
     (11, "critical"), (20, "critical"), (21, "mortal"), (60, "mortal")],
)
def test_severity_against_a_humans_thresholds(impact, expected):
    """Size 10 (5/10/20): light up to 5, serious over 5, critical over 10, mortal over 20; no wound at 0 or less."""
    assert severity(impact, 10) == expected


@pytest.mark.parametrize("size", range(0, 40))
def test_severity_changes_exactly_when_a_threshold_is_exceeded(size):
    """At every size, reaching a threshold keeps the lower severity; one more exceeds it."""
    impaired, disabled, destroyed = thresholds(size)
    for threshold, at, over in ((impaired, "light", "serious"), (disabled, "serious", "critical"), (destroyed, "critical", "mortal")):
        if threshold >= 1:
            assert severity(threshold, size) == at
        assert SEVERITIES.index(severity(threshold + 1, size)) >= SEVERITIES.index(over)
    assert severity(destroyed + 1, size) == "mortal"


def test_size_one_has_no_light_wound():
    """Size 1's Impaired threshold is 0 as printed, so its lightest wound is serious."""
    assert severity(1, 1) == "serious"
    assert severity(2, 1) == "critical"
    assert severity(3, 1) == "mortal"


def test_penetration_sets_the_nature_not_the_severity():
    """A serious blunt wound is "B16" with contusions; penetrating, "P16" with moderate bleeding."""
    blunt, cut = wound(7, 10, False), wound(7, 10, True)
    assert (blunt.severity, blunt.record, blunt.nature) == ("serious", "B16", "contusions, but no broken bones")
    assert (cut.severity, cut.record, cut.nature) == ("serious", "P16", "moderate bleeding")
    assert wound(0, 10, True) is None
    assert Wound("mortal", True).record == "P"


@pytest.mark.parametrize("name, penalty", [("light", -1), ("serious", -3), ("critical", -7), ("mortal", None)])
def test_action_penalty_row(name, penalty):
    """"Action Penalty —> -1 -3 -7"; a mortally wounded character can take no action at all."""
    assert action_penalty(name) == penalty


@pytest.mark.parametrize("name, value", [("superficial", 4), ("light", 10), ("serious", 16), ("critical", 19), ("mortal", None)])
def test_shock_value_row(name, value):
    """Shock values 4/10/16/19 (README default); a mortal wound has a death check instead."""
    assert shock_value(name) == value


def test_unknown_severity_is_refused():
    """A severity the text does not know is an input error naming the four."""
    with pytest.raises(InputError, match="light, serious, critical, mortal"):
        action_penalty("grievous")


@pytest.mark.parametrize("mortal, target", [(0, 10), (1, 13), (2, 16), (4, 22), (-1, 10)])
def test_death_check_target(mortal, target):
    """Death check: beat 10 + 3 per mortal wound (README default)."""
    assert death_check_target(mortal) == target


# Wound effects as the text prints them: location, then Light, Serious, Critical ("-" for none)
EFFECT_ROWS = [
    ("Head", "-", "Stun", "Knockout"),
    ("Arm", "Fumble?", "Fumble", "Disabled"),
    ("Chest", "-", "Stun", "Disabled"),
    ("Belly", "-", "Stun", "Disabled"),
    ("Leg", "Stumble?", "Stumble", "Disabled"),
]


@pytest.mark.parametrize("location, light, serious, critical", EFFECT_ROWS)
def test_wound_effect_row(location, light, serious, critical):
    """Each location's effects for light, serious and critical wounds are the text's row; mortal reads critical."""
    names = [getattr(wound_effect(location, s), "name", "-") for s in ("light", "serious", "critical", "mortal")]
    assert names == [light.lower(), serious.lower(), critical.lower(), critical.lower()]


def test_wound_effects_table_has_only_the_texts_entries():
    """Twelve entries: three for arm and leg, two for head, chest and belly."""
    assert len(WOUND_EFFECTS) == 12


def test_checks_call_for_their_rolls():
    """Fumble? rolls 3d6 + DEX vs 10, Stumble? 3d6 + AGL vs 10; the others need no roll."""
    assert wound_effect("arm", "light").check == Check("dex", 10)
    assert wound_effect("leg", "light").check == Check("agl", 10)
    assert all(e.check is None for e in WOUND_EFFECTS.values() if not e.name.endswith("?"))


def test_fumble_and_stumble_details():
    """A failed Fumble? drops the item 1d6-1 m and loses an action; Stumble leaves the leg impaired and the victim fallen."""
    fumble, stumble = wound_effect("arm", "light"), wound_effect("leg", "serious")
    assert (fumble.drops, fumble.actions_lost, fumble.limb) == ("1d6-1 m", 1, "unusable this round")
    assert (stumble.falls, stumble.actions_lost, stumble.limb, stumble.defense) == (True, 1, "impaired", FALLEN)
    assert wound_effect("arm", "serious").drops == "1d6-1 m"


def test_stun_knockout_and_disabled_details():
    """Stun: no action for 1d6 rounds; knockout: unconscious; a disabled chest is immobile, a disabled belly takes both legs."""
    assert wound_effect("chest", "serious").no_action_rounds == "1d6"
    assert wound_effect("head", "critical").unconscious
    chest = wound_effect("chest", "critical")
    assert (chest.immobile, chest.defense) == (True, HELPLESS)
    assert wound_effect("belly", "critical").limb == "both legs disabled"
    assert wound_effect("leg", "critical").limb == "disabled"


@pytest.mark.parametrize(
    "rule, rank, agility, value",
    [(STUNNED, 6, 1, 8), (STUNNED, 5, 0, 7), (FALLEN, 6, 1, 11), (HELPLESS, 10, 3, 3)],
)
def test_defense_after_a_wound_effect(rule, rank, agility, value):
    """"Base 5 + half Fighter rank", "a base Defense of 5, then adds Fighter rank", "a base Defense of 3, and gets
    no Fighter rank or Agility modifier": none adds the Agility modifier."""
    assert rule.value(rank, agility) == value


def test_wound_effect_refuses_unknown_names():
    """An unknown location is an input error listing the five."""
    with pytest.raises(InputError, match="head, arm, chest, belly, leg"):
        wound_effect("tail", "light")


@pytest.mark.parametrize("location", ["head", "chest", "belly"])
def test_every_wound_past_the_light_threshold_stuns_at_head_chest_and_belly(location):
    """"Stun: Attacks to the head, chest, or belly cause stun when the light threshold is exceeded": a critical or
    mortal wound exceeds it as a serious one does, so it stuns too, beside the Critical column's own effect (the
    table's "Head Stun Knockout", "Chest Stun Disabled", "Belly Stun Disabled" name what each column adds)."""
    assert wound_effect(location, "light") is None
    assert [wound_effect(location, s).no_action_rounds for s in ("serious", "critical", "mortal")] == ["1d6"] * 3
