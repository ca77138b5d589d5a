"""The damage-grid sheet: weapon profiles, grid, location overrides, size."""
from __future__ import annotations

import pytest

from rules.errors import SheetError
from rules.systems.damage_grid.present import sheet_summary
from rules.systems.damage_grid.sheet import parse_weapons, weapons
from rules.systems.damage_grid.state import DgCombatant
from tests.rules.damage_grid.build import duel
from tests.scenario import Scenario


def test_weapon_profiles_read_back_as_written() -> None:
    """`name:reach:power:accuracy` with `melee`, `blast`, `area=`, `cloud=`, `health=`, stored as written."""
    stored = parse_weapons("Gravity-Saber:2:4:2:melee, grenade:4:3:0:blast:area=burst2:cloud=4:health=3")
    assert stored == ["gravity-saber:2:4:2:melee", "grenade:4:3:0:blast:area=burst2:cloud=4:health=3"]
    assert parse_weapons(",".join(stored)) == stored


@pytest.mark.parametrize("bad", ["saber:2:4", "saber:x:4:2", "saber:2:4:2:sharp", "g:4:3:0:area=blob2", "a:1:1:1,a:2:2:2"])
def test_bad_weapon_profiles_are_refused_with_the_form(bad: str) -> None:
    """A weapon the rules cannot read is refused, and the message says what to write."""
    with pytest.raises(SheetError) as caught:
        parse_weapons(bad)
    assert "weapons" in str(caught.value)


def test_the_sheet_sets_the_grid_values_and_weapon_health() -> None:
    """`mind health body shield speed` override the humanoid values; each weapon has its own Health."""
    s = Scenario("damage-grid").add("Xul", "body=3 speed=6 weapons=rifle:6:3:1:health=4", side="a", at="B2")
    st = DgCombatant.of(s.get("Xul"))
    assert st.values == {"mind": 2, "health": 3, "body": 3, "shield": 0, "speed": 6}
    assert st.weapon_health == {"rifle": 4} and weapons(s.get("Xul"))[0].reach == 6


def test_a_custom_grid_comes_from_the_sheet() -> None:
    """"Some models, Artifacts or objects will have different damage grids or contain just one square.\""""
    s = Scenario("damage-grid").add("Drone", "grid=1/2/3:health:4:none,4/5/6:body:2:health", side="a", at="B2")
    assert DgCombatant.of(s.get("Drone")).values == {"health": 4, "body": 2}


def test_an_edit_keeps_the_hits_taken() -> None:
    """A GM's edit of a value keeps the hits already taken on it."""
    s = Scenario("damage-grid").add("Xul", "health=3", side="a", at="B2")
    DgCombatant.of(s.get("Xul")).values["health"] = 1
    s.run("edit", actor="Xul", raw_sheet={"health": "5"})
    assert DgCombatant.of(s.get("Xul")).values["health"] == 3


def test_size_is_0_to_4() -> None:
    """`size` 0..4, default 2."""
    s = Scenario("damage-grid").add("Xul", "", side="a", at="B2")
    assert s.get("Xul").sheet["size"] == 2
    assert "size" in s.refused("add", name="Big", raw_sheet={"size": "5"})


def test_equipment_is_shown_on_the_sheet_as_written() -> None:
    """The sheet's `equipment` reads back as `name:health` items, comma separated."""
    s = duel(b_sheet="equipment=Scanner:3,medkit", start=False)
    assert "equipment=scanner:3,medkit:2" in sheet_summary(s.get("Hera"))


def test_weapons_and_equipment_none_are_the_empty_list_as_every_list_key_reads_it() -> None:
    """docs/commands.md: "A sheet's list key reads `none` the same way" (the empty list): a model carrying nothing,
    whose sheet reads back."""
    from rules.systems.damage_grid.sheet import parse_equipment

    assert parse_weapons("none") == [] and parse_weapons(" None ") == [] and parse_equipment("none") == []
    s = duel(b_sheet="weapons=none equipment=none")
    assert weapons(s.get("Hera")) == [] and s.get("Hera").sheet.get("weapons") == []
    assert "weapons=none equipment=none" in sheet_summary(s.get("Hera"))  # as typed: it reads back
    far = duel(a_sheet="weapons=none", b_at="E4")  # bare hands, as the replies name them
    assert "beyond bare hands' Reach 1" in far.refused("attack", [1, 1, 1], actor="Meena", target="Hera")
