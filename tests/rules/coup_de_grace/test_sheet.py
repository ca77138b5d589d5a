"""Coup-De-Grace sheets: classes, hit points, weapons and the GM's weapon list."""

from __future__ import annotations

import pytest

from rules.errors import InputError, SheetError
from rules.systems.coup_de_grace import DRAFT_VARIANT
from tests.rules.coup_de_grace.build import (
    SWORD,
    SYSTEM,
    encounter,
    fight,
    mods,
    one,
    refused,
    resolve,
    run,
)


# -- sheets and classes ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cls", "dv", "ma", "draft_ma"),
    [("unarmoured", 3, 8, 6), ("light", 4, 6, 5), ("heavy", 5, 4, 4)],
)
def test_class_sets_defence_and_movement(cls: str, dv: int, ma: int, draft_ma: int) -> None:
    """Each class has the text's DV and MA (draft MA 6/5/4) and 3 HP by default."""
    for variant, allowance in ((None, ma), (DRAFT_VARIANT, draft_ma)):
        enc = encounter(("M", "a", f"class={cls}", "C3", "E"), variant=variant)
        m = enc.get("M")
        assert (SYSTEM.defence(m), SYSTEM.movement(enc, m), m.hp) == (dv, allowance, 3)


def test_sheet_overrides_dv_ma_and_hp() -> None:
    """`dv`, `ma` and `hp` on the sheet override the class defaults."""
    enc = encounter(("M", "a", "class=light dv=6 ma=2 hp=5", "C3", "E"))
    m = enc.get("M")
    assert (SYSTEM.defence(m), SYSTEM.movement(enc, m), m.hp) == (6, 2, 5)


@pytest.mark.parametrize(
    ("written", "cls"),
    [
        ("Heavy", "heavy"),
        ("lightly-armoured", "light"),
        ("heavily armoured", "heavy"),
        ("unarmored", "unarmoured"),
    ],
)
def test_class_accepts_the_texts_wording(written: str, cls: str) -> None:
    """The class may be written as the text words it."""
    assert SYSTEM.read_sheet(encounter(), {"class": written})["class"] == cls


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"class": "medium"}, "use one of unarmoured, light, heavy"),
        ({"weapons": "sword"}, "needs `class=...`"),
        ({"class": "light", "weapons": "sword, lightsaber"}, "lightsaber is not known. Known: hammer"),
        ({"class": "light", "colour": "red"}, "Unknown sheet key `colour`"),
    ],
)
def test_bad_sheets_are_refused_with_what_is_accepted(raw: dict[str, str], message: str) -> None:
    """A missing class, an unknown class, weapon or key is refused, naming what is accepted."""
    with pytest.raises(SheetError, match=message):
        SYSTEM.read_sheet(encounter(), raw)


@pytest.mark.parametrize(
    "written", ["assassin's knife", "assassins-knife", "Assassin’s Knife", "assassins_knife"]
)
def test_weapon_names_accept_spaces_apostrophes_and_hyphens(written: str) -> None:
    """Weapon names are matched however the apostrophe and spaces are written."""
    sheet = SYSTEM.read_sheet(encounter(), {"class": "light", "weapons": f"{written},buckler"})
    assert sheet["weapons"] == ["assassin's knife", "buckler"]


def test_the_gm_adds_weapons_with_an_encounter_option() -> None:
    """The `weapons` option adds a weapon with its own range increment."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=longbow", "A2", "E"),
        ("T", "b", SWORD, "J2", "W"),
        size=(20, 3),
        weapons="longbow:ranged:8",
    )
    res = resolve(enc, "attack", [6], actor="S", target="T")
    assert mods(one(res, "attack")) == {"range 9 (increment 8)": -1}


def test_a_bad_weapons_option_is_refused() -> None:
    """A `weapons` option item that is not name:kind[:number] gets a clear message."""
    with pytest.raises(InputError, match="not `name:melee|ranged|versatile"):
        encounter(("S", "a", "class=light weapons=sword", "A2", "E"), weapons="longbow:laser")


def test_worked_example_dwarf_with_hammer_and_shield() -> None:
    """The text's dwarf in heavy plate with hammer and shield: DV 5, MA 4, 3 HP, knockback, +1 vs frontal."""
    enc = fight(
        ("Borin", "a", "class=heavy weapons=hammer,shield race=dwarf", "C3", "E"),
        ("Grak", "b", "class=light weapons=sword,axe", "D3", "W"),
    )
    borin = enc.get("Borin")
    assert (SYSTEM.defence(borin), SYSTEM.movement(enc, borin), borin.hp) == (5, 4, 3)
    res = resolve(enc, "attack", [4], actor="Borin", target="Grak", weapon="hammer")
    assert res.encounter.get("Grak").position == "E3"  # knocked back one square
    enc = run(run(res.encounter, "next"), "move", actor="Grak", path="W")
    res = resolve(enc, "attack", [5], actor="Grak", target="Borin", weapon="sword")
    attack = one(res, "attack")
    assert (attack.roll.against, attack.roll.success) == (6, False)  # DV 5 +1 shield against a frontal attack




def test_a_mini_without_weapons_is_written_weapons_none() -> None:
    """"a mini with a melee weapon can make a melee attack ...", "a mini with a ranged weapon can make a ranged
    attack ...", "a mini with any weapon can make a melee coup-de-grace": the text speaks of minis with weapons and
    names no unarmed attack, so a mini may hold none. `weapons=none` (as `none` empties a list elsewhere) adds it
    with an empty list, which `/combatant edit` also writes to take its weapons away; the board says "no weapons"."""
    sheet = SYSTEM.read_sheet(encounter(), {"class": "unarmoured", "weapons": "None"})
    assert sheet["weapons"] == []
    enc = fight(("Bare", "a", "class=unarmoured weapons=none", "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert enc.get("Bare").sheet["weapons"] == []
    assert "no weapons" in SYSTEM.present.status_line(enc, enc.get("Bare"), SYSTEM.facts(enc))
    armed = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert run(armed, "edit", actor="A", raw_sheet={"weapons": "none"}, deltas={}).get("A").sheet["weapons"] == []


def test_a_mini_without_weapons_is_told_it_cannot_attack_and_what_to_do() -> None:
    """"For ZERO movement points, a mini with a melee weapon can make a melee attack against an adjacent opponent in
    his front facing" and "a mini with any weapon can make a melee coup-de-grace": one holding no weapon is refused
    an attack and a coup-de-grace, the refusal saying why and what to type; nothing changes."""
    enc = fight(("Bare", "a", "class=unarmoured weapons=none", "C3", "E"), ("T", "b", "class=light hp=1", "D3", "W"))
    said = refused(enc, "attack", [6], actor="Bare", target="T")
    assert "Bare holds no weapon" in said and "a mini with a melee weapon" in said
    assert "`/combatant edit name:Bare sheet:\"weapons=" in said and "`/init next`" in said
    armed = run(fight(("A", "a", SWORD, "C3", "E"), ("T", "b", "class=light hp=1", "D3", "W")), "attack", [6],
                actor="A", target="T")
    bare = run(armed, "edit", actor="A", raw_sheet={"weapons": "none"}, deltas={})
    assert bare.get("T").status == "downed"
    said = refused(bare, "coupdegrace", [6], actor="A", target="T")
    assert "A holds no weapon" in said


def test_a_mini_holding_only_what_defends_is_told_it_holds_no_weapon_that_attacks() -> None:
    """A mini whose weapons only defend (a buckler; a shield where the option `shield_attacks` is `no`) can never
    attack: it is told so and how the GM gives it a weapon, not that its weapons are used this round."""
    enc = fight(("Buck", "a", "class=light weapons=buckler", "C3", "E"), ("T", "b", "class=light", "D3", "W"))
    said = refused(enc, "attack", [6], actor="Buck", target="T")
    assert "Buck holds no weapon that attacks (buckler: it only defends)" in said
    assert "`/combatant edit name:Buck sheet:\"weapons=" in said and "this round" not in said
    shield = fight(("Sh", "a", "class=light weapons=shield", "C3", "E"), ("T", "b", "class=light", "D3", "W"),
                   shield_attacks="no")
    assert "Sh holds no weapon that attacks (shield: it only defends)" in refused(shield, "attack", [6], actor="Sh",
                                                                                   target="T")


def test_a_mini_without_weapons_shows_its_sheet_as_typed() -> None:
    """A mini holding no weapon (`weapons=none`) shows its sheet line as it is typed, `weapons=none`, which reads back."""
    enc = encounter(("Bare", "a", "class=unarmoured weapons=none", "C3", "E"))
    line = SYSTEM.sheet_summary(enc.get("Bare"))
    assert "weapons=none" in line.split()
    assert SYSTEM.read_sheet(enc, dict(p.split("=", 1) for p in line.split()))["weapons"] == []
