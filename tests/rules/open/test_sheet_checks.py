"""The open system's sheet refusals (docs/systems/open.md, "Sheet": "Anything else is refused, saying what to write")."""
from __future__ import annotations

import pytest

from rules.errors import SheetError
from rules.sheet import parse_pairs
from tests.scenario import Scenario


@pytest.mark.parametrize(("sheet", "says"), [
    ("hp=-5", "0 HP or more"),
    ("hp=10 reach=7", "steps of 5"),
    ("hp=10 resist=fire,fire", "listed twice"),
])
def test_bad_values_are_refused_saying_what_to_write(sheet: str, says: str) -> None:
    """"`hp` (the starting and ... the most hit points)" is 0 or more at add; "`reach` (default 5 ft)" in 5 ft steps as a
    weapon's; a damage type listed once."""
    s = Scenario("open")
    assert says in s.refused("add", error=SheetError, name="Pc", raw_sheet=parse_pairs(sheet), at="A1")


def test_a_key_given_twice_is_refused() -> None:
    """A sheet naming `init` twice is refused rather than read as the last one."""
    with pytest.raises(SheetError, match="`init` is given twice"):
        parse_pairs("init=+2 init=+4")


def test_an_edit_below_0_hp_still_stops_at_0() -> None:
    """"in a fight an edit sets the current HP": an edit's `hp-30` on 5 HP stops at 0, not refused."""
    s = Scenario("open").add("Pc", "hp=5", at="A1").add("Orc", "hp=5", at="C1", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    s.run("edit", actor="Pc", raw_sheet={"hp": "-25"})
    assert s.get("Pc").hp == 0


@pytest.mark.parametrize(("options", "status"), [({}, "out"), ({"gm_at_zero": "down"}, "downed")])
def test_a_gms_combatant_added_at_0_hp_follows_gm_at_zero(options: dict[str, str], status: str) -> None:
    """"The GM's combatants are out at 0 HP (option `gm_at_zero=down`: down and helpless ...)", also when added so."""
    s = Scenario("open", **options).add("Zero", "hp=0", at="B2", owner=None, side="foes")
    assert s.get("Zero").status == status


def test_an_empty_damage_type_is_refused() -> None:
    """`resist=fire,` and `resist=,` leave a type out between commas: refused, saying how the list is written."""
    for value in ("fire,", ",", "fire,,cold"):
        s = Scenario("open")
        with pytest.raises(SheetError, match="separated by commas"):
            s.add("Ann", f"hp=10 resist={value}", at="B2")


def test_resist_none_clears_the_list() -> None:
    """"`none` clears them": an edit `resist=none` takes the resistances away."""
    s = Scenario("open").add("Ann", "hp=10 resist=fire", at="B2")
    s.run("edit", actor="Ann", raw_sheet={"resist": "none"})
    assert s.get("Ann").sheet.get("resist") in ([], None)
