"""War & Combat's COMBAT OPTIONS and Secondary Effects, row by row as shared/rules/war-and-combat.txt prints them."""
from __future__ import annotations

import pytest

from rules.errors import InputError
from rules.systems.war_and_combat.tables_options import (
    COMBAT_OPTIONS,
    MISS_TABLES,
    SecondaryEffect,
    combat_option,
    secondary,
    secondary_effect,
)

# COMBAT OPTIONS as the text prints it: Attack Type, Superficial, Light, Serious, Critical
OPTION_ROWS = [
    "Disarming Fumble-4 Fumble-10 Fumble-16 Break",
    "Grappling Restrict-4 Restrict-10 Restrict-16 Restrict-19",
    "Subdual Shock-4 Shock-10 Shock-16 Shock-19",
    "Tackling Stumble-7 Stumble-13 Stumble-16 Stumble-19",
    "Throwing Stumble-7 Stumble-13 Stumble-16 Stumble-19",
]


@pytest.mark.parametrize("row", OPTION_ROWS)
def test_combat_options_row(row):
    """The attack type's four columns, written as the text writes them, are the row."""
    kind = row.split()[0]
    codes = [combat_option(kind, s).code for s in ("Superficial", "Light", "Serious", "Critical")]
    assert " ".join([kind, *(c.title() for c in codes)]) == row


def test_combat_options_table_has_the_texts_five_rows():
    """Disarming, grappling, subdual, tackling, throwing."""
    assert list(COMBAT_OPTIONS) == [r.split()[0].lower() for r in OPTION_ROWS]


@pytest.mark.parametrize(
    "intent, row", [("disarm", "disarming"), ("grapple", "grappling"), ("subdue", "subdual"), ("tackle", "tackling"), ("throw", "throwing")]
)
def test_intentions_name_their_rows(intent, row):
    """A declared intention reads its row of the table."""
    assert combat_option(intent, "light") == combat_option(row, "light")


def test_mortal_reads_the_critical_column():
    """No column is worse than Critical: a mortal result reads it."""
    assert combat_option("subdue", "mortal") == SecondaryEffect("shock", 19)


def test_combat_option_refuses_unknown_names():
    """An attack type or severity the table does not know is an input error."""
    with pytest.raises(InputError, match="No attack type"):
        combat_option("kill", "light")
    with pytest.raises(InputError, match="superficial, light, serious, critical"):
        combat_option("grapple", "grievous")


@pytest.mark.parametrize(
    "code, effect, attribute",
    [("fumble-16", SecondaryEffect("fumble", 16), "dex"), ("Restrict-4", SecondaryEffect("restrict", 4), "str"),
     ("shock-19", SecondaryEffect("shock", 19), "str"), ("stumble-7", SecondaryEffect("stumble", 7), "agl"),
     ("break", SecondaryEffect("break", None), None)],
)
def test_secondary_effect_codes(code, effect, attribute):
    """Fumble rolls Dexterity, Restrict and Shock Strength, Stumble Agility; Break no roll."""
    assert secondary(code) == effect
    assert secondary(code).attribute == attribute


@pytest.mark.parametrize("code", ["fumble", "fumble-x", "fumble-123", "bleed-4"])
def test_bad_secondary_codes_are_refused(code):
    """A code without its target, or an effect the text does not have, is an input error."""
    with pytest.raises(InputError):
        secondary(code)


# Fumble-XX "Miss by: Effect" as the text prints it
FUMBLE_ROWS = [
    ("0", "Item slips, but is caught. Lose 1 action this round."),
    ("1-3", "Drop item at feet."),
    ("4+", "Item goes flying 1d6 hexes away in random direction."),
]
# Stumble-XX "Miss by: Effect" as the text prints it
STUMBLE_ROWS = [
    ("0", "You slip, but catch yourself. Lose 1 action this round."),
    ("1-3", "Fall to knees."),
    ("4-6", "Fall to your hands and knees."),
    ("7+", "Fall on back, side, or face."),
]


def _misses(text: str) -> range:
    if text.endswith("+"):
        return range(int(text[:-1]), int(text[:-1]) + 20)
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


@pytest.mark.parametrize("misses, text", FUMBLE_ROWS)
def test_fumble_miss_by_row(misses, text):
    """Every miss of the row (4+ checked to 23) gives the row's effect."""
    assert {secondary_effect("fumble-10", m).text for m in _misses(misses)} == {text}


@pytest.mark.parametrize("misses, text", STUMBLE_ROWS)
def test_stumble_miss_by_row(misses, text):
    """Every miss of the row (7+ checked to 26) gives the row's effect."""
    assert {secondary_effect("stumble-13", m).text for m in _misses(misses)} == {text}


def test_miss_by_details():
    """A miss by 0 loses an action; fumbling by 4 sends the item 1d6 hexes; stumbling by 5 lands on hands and knees."""
    assert secondary_effect("fumble-4", 0).actions_lost == 1
    assert secondary_effect("fumble-4", 4).drop == "1d6 hexes, random direction"
    assert secondary_effect("stumble-7", 5).falls == "hands and knees"
    assert secondary_effect("stumble-7", 2).actions_lost == 0


@pytest.mark.parametrize("code", ["fumble-4", "stumble-19", "shock-10"])
def test_a_successful_roll_has_no_effect(code):
    """Beating the target (miss by less than 0) leaves the victim unharmed."""
    assert secondary_effect(code, -1) is None


def test_restrict():
    """"If he fails, he loses an action, otherwise he may act at -1"."""
    assert secondary_effect("restrict-10", 0).actions_lost == 1
    assert secondary_effect("restrict-10", 6).actions_lost == 1
    assert secondary_effect("restrict-10", -3).penalty == -1


@pytest.mark.parametrize("miss, lost, stunned", [(0, 1, 0), (4, 1, 0), (5, 1, 1), (12, 1, 1)])
def test_shock(miss, lost, stunned):
    """README shock check: failure loses 1 action; failing by 5 or more also stuns for 1 round."""
    outcome = secondary_effect("shock-16", miss)
    assert (outcome.actions_lost, outcome.stunned_rounds) == (lost, stunned)


def test_break_needs_no_roll():
    """"Break: A weapon break." whatever the roll."""
    assert secondary_effect("break").breaks
    assert secondary_effect("break", 3).breaks


def test_a_rolled_effect_needs_the_miss():
    """Fumble without the roll's miss cannot be read: an input error says what is missing."""
    with pytest.raises(InputError, match="missed 10"):
        secondary_effect("fumble-10")


def test_miss_tables_start_at_zero_and_end_open():
    """Each miss-by table starts at 0 and its last row has no upper end, so every miss is covered."""
    for rows in MISS_TABLES.values():
        assert rows[0][0] == 0 and rows[-1][1] is None
        assert all(a[1] + 1 == b[0] for a, b in zip(rows, rows[1:]))
