"""Every number a player types is bounded where it is read, and the refusal names the range."""
from __future__ import annotations

import pytest

from rules.errors import InputError
from rules.report import plural
from rules.sheet import read_int
from tests.rules.knights_of_valour.build import run, three_way


@pytest.mark.parametrize(("text", "expected"), [("0", 0), ("-20", -20), ("40", 40), (" +7 ", 7)])
def test_read_int_accepts_whole_numbers_in_range(text: str, expected: int) -> None:
    """A whole number inside the range reads as itself, signs and spaces allowed."""
    assert read_int(text, "to", -20, 40) == expected


@pytest.mark.parametrize("text", ["-21", "41", "-999999", "9" * 5000, "two", "", "1.5", "1e3", "0x10", "٣"])
def test_read_int_refuses_out_of_range_or_not_a_number(text: str) -> None:
    """Below, above, huge or not a whole number: refused with the key and the range."""
    with pytest.raises(InputError, match=r"^`to` must be a whole number from -20 to 40"):
        read_int(text, "to", -20, 40)


# the Knights of Valour options a player types: each below, above, and not a number
KOV_DELAY = [
    ({"to": "-999999"}, "`to` must be a whole number from -99 to 999"),
    ({"to": "1000"}, "`to` must be a whole number from -99 to 999"),
    ({"to": "soon"}, "`to` must be a whole number from -99 to 999"),
    ({"by": "0"}, "`by` must be a whole number from 1 to 99"),
    ({"by": "100"}, "`by` must be a whole number from 1 to 99"),
    ({"by": "lots"}, "`by` must be a whole number from 1 to 99"),
    ({"999999": ""}, "must be a whole number from 1 to 99"),
]


@pytest.mark.parametrize(("options", "message"), KOV_DELAY)
def test_knights_of_valour_delay_numbers_are_bounded(options: dict[str, str], message: str) -> None:
    """A KoV delay by or to a number outside initiative's range is refused, naming the range."""
    with pytest.raises(InputError, match=message):
        run(three_way(), kind="act", actor="Borin", action="delay", options=options)


@pytest.mark.parametrize("key", ["atk", "def", "dmg"])
@pytest.mark.parametrize("value", ["-21", "21", "x"])
def test_knights_of_valour_attack_modifiers_are_bounded(key: str, value: str) -> None:
    """The buff modifiers atk= def= dmg= are whole numbers from -20 to 20, and the error says so."""
    with pytest.raises(InputError, match=f"`{key}` must be a whole number from -20 to 20"):
        run(three_way(), kind="attack", actor="Borin", target="Grak", options={key: value})


# -- TOTE: the numbers a player types in `options` ------------------------------------------------
TOTE_OPTIONS = [
    ("keep", "0", "`keep` must be a whole number from 1 to 6"),
    ("keep", "7", "`keep` must be a whole number from 1 to 6"),
    ("keep", "six", "`keep` must be a whole number from 1 to 6"),
    ("keep", "1_0", "`keep` must be a whole number from 1 to 6"),
    ("bonus", "-11", "`bonus` must be a whole number from -10 to 10"),
    ("bonus", "11", "`bonus` must be a whole number from -10 to 10"),
    ("bonus", "٣", "`bonus` must be a whole number from -10 to 10"),
]


@pytest.mark.parametrize(("key", "value", "message"), TOTE_OPTIONS)
def test_tote_option_numbers_are_bounded(key: str, value: str, message: str) -> None:
    """TOTE's keep= and bonus= refuse a value below, above or not a number, naming the range."""
    from tests.rules.tote.build import fight, resolve

    with pytest.raises(InputError, match=message):
        resolve(fight(), "attack", [6, 6, 6], actor="Borin", target="Grak", options=f"{key}={value}")


# -- sheets and GM options: numbers inside a written item -----------------------------------------
SHEET_ITEMS = [
    ("tote", "weapon=axe:²", r"`weapon`: in `axe:²` the damage \(boxes a hit marks\) is a whole number from 0 to 10"),
    ("tote", "weapon=axe:11", r"`weapon`: in `axe:11` the damage \(boxes a hit marks\) is a whole number from 0 to 10"),
    ("tote", "weapon=axe:2:٣٣", r"`weapon`: in `axe:2:٣٣` the effect \(added on a critical\) is a whole number from 0 to 10"),
    ("tote", "rating=2 resist=pierce:²", "`resist` must be a whole number from 1 to 10"),
    ("tote", "rating=2 resist=pierce:0", "`resist` must be a whole number from 1 to 10"),
    ("tote", "rating=2 resist=pierce:11", "`resist` must be a whole number from 1 to 10"),
    ("knights-of-valour", "hp=5 armor=٣٣", "`armor` must be a whole number from 0 to 20"),
    ("knights-of-valour", "hp=5 armor=21", "`armor` must be a whole number from 0 to 20"),
]


@pytest.mark.parametrize(("system", "sheet", "message"), SHEET_ITEMS)
def test_numbers_inside_sheet_items_are_bounded(system: str, sheet: str, message: str) -> None:
    """A number inside a sheet item (weapon damage, resist boxes, armour) is refused out of range or not a number."""
    from rules.errors import SheetError
    from rules.models import Encounter
    from rules.registry import get_system
    from rules.sheet import parse_pairs

    enc = Encounter(system=system, gm_ids=["gm"])
    with pytest.raises(SheetError, match=message):
        get_system(system).read_sheet(enc, parse_pairs(sheet))


OPTION_ITEMS = [
    ("coup-de-grace", "weapons", "bow:ranged:²", "`weapons` must be a whole number from 1 to 60"),
    ("coup-de-grace", "weapons", "bow:ranged:61", "`weapons` must be a whole number from 1 to 60"),
    ("coup-de-grace", "weapons", "bow:ranged:0", "`weapons` must be a whole number from 1 to 60"),
    ("coup-de-grace", "reach", "1_0", "`reach` must be a whole number from 1 to 99"),
    ("coup-de-grace", "reach", "100", "`reach` must be a whole number from 1 to 99"),
    ("knights-of-valour", "armors", "mithril:٣", "`armors` must be a whole number from 0 to 20"),
    ("knights-of-valour", "min_damage", "101", "`min_damage` must be a whole number from 0 to 100"),
    ("knights-of-valour", "min_damage", "1_0", "`min_damage` must be a whole number from 0 to 100"),
    ("tote", "init_target", "100", "`init_target` must be a whole number from 0 to 99"),
    ("tote", "init_target", "-1", "`init_target` must be a whole number from 0 to 99"),
    ("tote", "init_target", "٣", "`init_target` must be a whole number from 0 to 99"),
]


@pytest.mark.parametrize(("system", "key", "value", "message"), OPTION_ITEMS)
def test_encounter_option_numbers_are_bounded_by_the_shared_reader(system: str, key: str, value: str, message: str) -> None:
    """An encounter option's number (alone or inside an item) is read by read_int: its range is in the error."""
    from rules.models import Encounter, Settings
    from rules.registry import get_system

    enc = Encounter(system=system, gm_ids=["gm"], settings=Settings(options={key: value}))
    with pytest.raises(InputError, match=message):
        get_system(system).check_options(enc)


def _int_keys():
    from rules.registry import all_systems

    for system in all_systems():
        for variant in (None, *system.variants):
            for key in system.sheet_keys(variant):
                if key.kind == "int":
                    yield pytest.param(key, id=f"{system.key}-{variant}-{key.name}")


@pytest.mark.parametrize("key", list(_int_keys()))
def test_every_whole_number_sheet_key_is_bounded(key) -> None:
    """Every whole-number sheet key has both limits and refuses below, above, and not a number."""
    from rules.errors import SheetError

    assert key.minimum is not None and key.maximum is not None
    assert key.read(str(key.minimum)) == key.minimum and key.read(str(key.maximum)) == key.maximum
    for bad in (str(key.minimum - 1), str(key.maximum + 1), "x", "1_0", "٣", "9" * 5000):
        with pytest.raises(SheetError, match=f"{key.name} is a whole number from {key.minimum} to {key.maximum}"):
            key.read(bad)


@pytest.mark.parametrize("height", [-1001, 1001, 10**15])
def test_a_stored_map_height_is_bounded(height: int) -> None:
    """A map cell's height outside -1000..1000 ft does not validate, so it can never be stored."""
    from pydantic import ValidationError

    from rules.models import MapState

    with pytest.raises(ValidationError):
        MapState(kind="square", width=8, height=6, heights={"D4": height})
    assert MapState(kind="square", width=8, height=6, heights={"D4": 1000, "D5": -1000}).heights["D4"] == 1000


def _whole_number_options():
    from tests.rules.test_options import GOOD

    for system, options in sorted(GOOD.items()):
        for key, value in sorted(options.items()):
            if value.lstrip("-").isdigit():
                yield pytest.param(system, key, id=f"{system}-{key}")


@pytest.mark.parametrize(("system", "key"), list(_whole_number_options()))
def test_every_whole_number_encounter_option_is_bounded(system: str, key: str) -> None:
    """check_options refuses each whole-number option below, above, or not a number, naming its range."""
    from rules.models import Encounter, Settings
    from rules.registry import get_system

    for bad in ("-100000", "100000", "x", "1_0", "٣"):
        enc = Encounter(system=system, gm_ids=["gm"], settings=Settings(options={key: bad}))
        with pytest.raises(InputError, match=rf"^`{key}` must be a whole number from -?\d+ to \d+"):
            get_system(system).check_options(enc)


def test_counts_read_right_in_the_singular_and_the_plural() -> None:
    """`plural` is the one way a count is written: "1 square", "2 squares", "3 successes", big numbers whole."""
    assert [plural(1, "square"), plural(2, "square"), plural(0, "combatant")] == ["1 square", "2 squares", "0 combatants"]
    assert plural(3, "success", "successes") == "3 successes" and plural(1_000_000, "cell") == "1000000 cells"
    assert plural(1.5, "hour") == "1.5 hours"
