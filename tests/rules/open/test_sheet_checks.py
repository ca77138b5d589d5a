"""The open system's sheet refusals (docs/systems/open.md, "Sheet": "Anything else is refused, saying what to write")."""
from __future__ import annotations

from pathlib import Path

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


def _page(*parts: str) -> str:
    root = Path(__file__).parents[3] / "docs"
    return " ".join(root.joinpath(*parts).read_text(encoding="utf-8").split())


@pytest.mark.parametrize(("weapon", "says"), [
    ("bow:+5:1d8:piercing:range=80/5005", "has long range `5005`, out of range: a long range is from 5 to 5000 ft"),
    ("bow:+5:1d8:piercing:range=80/10000", "has long range `10000`, out of range: a long range is from 5 to 5000 ft"),
    ("bow:+5:1d8:piercing:range=0", "has range `0`, out of range: a range is from 5 to 5000 ft"),
    ("pike:+5:1d8:piercing:reach=100000", "has reach `100000`, out of range: a reach is from 5 to 100 ft"),
    ("pike:+5:1d8:piercing:reach=1005", "has reach `1005`, out of range: a reach is from 5 to 100 ft"),
    ("nova:save=dex:15:1d8:fire:area=burst10000", "has area size `10000`, out of range: an area size is from 5 to 5000 ft"),
    ("bow:+5:1d8:piercing:range=82", "has range `82`, not in steps of 5: a range is from 5 to 5000 ft, in steps of 5"),
    ("nova:save=dex:100:1d8:fire", "has a DC out of range: a DC is a whole number from 0 to 99, like 15"),
    ("nova:save=dex:-5:1d8:fire", "has a DC out of range: a DC is a whole number from 0 to 99, like 15"),
    ("nova:save=dex:hard:1d8:fire", "needs a DC (a whole number from 0 to 99, such as 15) after the save"),
])
def test_a_weapons_number_out_of_range_is_refused_naming_its_range(weapon: str, says: str) -> None:
    """"Every number you type (in `options`, a sheet, or an encounter option) must be a whole number in its range, and a
    refusal names the range" (docs/commands.md): a weapon's feet and a save's DC are refused saying the range, and why."""
    assert "must be a whole number in its range, and a refusal names the range" in _page("commands.md")
    assert ("a weapon's `reach=` from 5 to 100 ft as the sheet's, `range=` and an area's size from 5 to 5000 ft, each in "
            "steps of 5; a save's DC from 0 to 99") in _page("systems", "open.md")
    assert says in Scenario("open").refused("add", error=SheetError, name="Pc", raw_sheet={"hp": "5", "weapons": weapon})


def test_a_weapons_reach_keeps_to_the_sheets_range() -> None:
    """"`reach` | melee reach in feet | 5–100" (docs/systems/open.md): a weapon's `reach=100` is taken, `reach=105` is not,
    and the sheet's `reach=7` is refused naming the range."""
    s = Scenario("open").add("Pc", "hp=5 weapons=pike:+5:1d8:piercing:reach=100", at="A1")
    assert "reach=100" in s.get("Pc").sheet["weapons"][0]
    assert "from 5 to 100 ft" in s.refused("add", name="Pd", raw_sheet={"hp": "5", "weapons": "pike:+5:1d8:piercing:reach=105"})
    assert "`reach=7`: a reach is from 5 to 100 ft, in steps of 5, like `reach=10`" in s.refused(
        "add", name="Pe", raw_sheet={"hp": "5", "reach": "7"})


@pytest.mark.parametrize(("weapon", "says", "not_says"), [
    ("sword:+5:1d8+3:slashing:reach=10:reach=15", "gives `reach=` twice: give it once", ""),
    ("bow:+5:1d8:piercing:range=80/320:range=30", "gives `range=` twice: give it once", ""),
    ("sword:+5:1d8+3:slashing:half", "`half` and `area=` belong to a save attack", "not `reach=`, `range=`, `area=` or `half`"),
    ("fb:save=dex:15:8d6:fire:half:reach=10", "`reach=` belongs to a weapon attack", "not `reach=`, `range=`, `area=` or `half`"),
])
def test_a_weapons_part_given_twice_or_of_the_other_kind_of_attack_is_refused_saying_why(
        weapon: str, says: str, not_says: str) -> None:
    """"an attack is `longsword:+5:1d8+3:slashing` with optional `:reach=10` and `:range=80/320` ...; a save attack is
    `fireball:save=dex:15:8d6:fire:half:area=burst20:range=150` ... Anything else is refused, saying what to write": a
    part given twice is refused, not read as the last one, and `half` on a weapon attack is not told it "is not `half`"."""
    s = Scenario("open")
    text = s.refused("add", error=SheetError, name="Pc", raw_sheet=parse_pairs(f"hp=5 weapons={weapon}"), at="A1")
    assert says in text and (not not_says or not_says not in text)


def test_weapons_none_is_an_empty_list() -> None:
    """docs/commands.md: "In an option whose value is a list (weapons, spells, squares), `none` (any case) is an empty
    list ... A sheet's list key reads `none` the same way": `weapons=none` adds a combatant with no weapon, and the
    GM's edit mid-fight takes the last weapon away."""
    s = Scenario("open").add("Alda", "hp=30 weapons=NONE", at="C4")
    assert s.get("Alda").sheet["weapons"] == []
    s.add("Orc", "hp=30 weapons=axe:+5:1d8+3:slashing", at="D4", owner=None, side="foes")
    s.run("init_roll", [1, 10])
    s.run("edit", actor="Orc", raw_sheet={"weapons": "none"})
    assert s.get("Orc").sheet["weapons"] == []
    assert "no weapon" in s.refused("attack", actor="Orc", target="Alda")
