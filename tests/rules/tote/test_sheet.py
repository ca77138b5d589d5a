"""TOTE: hero and enemy sheets, weapons, to-hit."""

from __future__ import annotations

import pytest

from rules.errors import SheetError
from rules.systems.tote import Weapon, parse_tohit
from tests.rules.tote.build import BORIN, SYSTEM, fight, resolve, setup, who


# -- sheets -------------------------------------------------------------------------------------------
def test_hero_sheet_defaults() -> None:
    """A sheet without `rating` is a hero: totems 1, skills 1, Block 8, fists and a 5-4-3-2-1-U track."""
    c = who(setup(("Ann", "", "heroes", None)), "Ann")
    assert not SYSTEM.is_enemy(c)
    assert c.sheet["hawk"] == 1 and c.sheet["strike"] == 1 and c.sheet["block"] == 8
    assert c.sheet["track"] == ["5", "4", "3", "2", "1", "U"] and c.hp == 6 and c.initiative is None


def test_a_sheet_with_rating_is_an_enemy() -> None:
    """A sheet with `rating` is an enemy with its own keys (tohit, resist, group)."""
    c = who(setup(("Grak", "rating=3 tohit=2d+1 resist=pierce:2,slash group=yes", "foes", None)), "Grak")
    assert SYSTEM.is_enemy(c)
    assert (c.sheet["tohit"], c.sheet["resist"], c.sheet["group"]) == ("2d+1", ["pierce:2", "slash:1"], True)
    assert "hawk" not in c.sheet


def test_rating_is_not_required_a_sheet_without_it_is_a_hero() -> None:
    """"A sheet with `rating` is an enemy; any other sheet is a hero." (docs/systems/tote.md): the sheet table says so
    (not "required"), and a sheet without `rating` is accepted as a hero."""
    rating = next(k for k in SYSTEM.sheet_keys() if k.name == "rating")
    assert rating.default_text() == "none" and rating.describe() == (
        "an enemy's level and base initiative: a sheet with rating is an enemy, one without it a hero"
    )
    assert not SYSTEM.is_enemy(who(setup(("Ann", "strike=2", "heroes", None)), "Ann"))


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        ("weapon=sword:11", "`weapon`: in `sword:11` the damage (boxes a hit marks) is a whole number from 0 to 10, not `11`"),
        ("weapon=fists:1,maul:3:12:bash", "`weapon`: in `maul:3:12:bash` the effect (added on a critical) is a whole number from 0 to 10, not `12`"),
    ],
)
def test_a_weapons_number_out_of_range_is_named_with_its_range(sheet: str, message: str) -> None:
    """"weapons as name:damage[:effect]..., damage and effect 0–10" (docs/systems/tote.md): `sword:11` is refused
    naming the damage and its range, not "`weapon` must be a whole number"."""
    with pytest.raises(SheetError) as err:
        setup(("X", sheet, "a", None))
    assert err.value.message.startswith(message)
    assert "damage and effect 0–10" in next(k for k in SYSTEM.sheet_keys() if k.name == "weapon").help


@pytest.mark.parametrize(
    ("sheet", "words"),
    [
        ("rating=2 hawk=3", ["`hawk`", "enemy"]),
        ("strike=2 tohit=3", ["`tohit`", "hero"]),
        ("strike=6", ["strike", "0 to 5"]),
        ("weapon=sword", ["name:damage"]),
        ("weapon=sword:2:slash:bash", ["two kinds"]),
        ("track=5,4,3", ["ending with one `U`"]),
        ("rating=2 tohit=9", ["skill dice (0-5)"]),
        ("rating=2 resist=fire", ["bash, pierce, slash or all"]),
        ("colour=red", ["Unknown sheet key", "colour"]),
    ],
)
def test_bad_sheet_values_are_named(sheet: str, words: list[str]) -> None:
    """A bad key or value gets a message that names it and says what is accepted."""
    with pytest.raises(SheetError) as err:
        setup(("X", sheet, "a", None))
    assert all(w in err.value.message for w in words)


def test_a_key_of_the_other_kind_of_sheet_lists_this_sheets_keys_in_their_order() -> None:
    """The refusal of a hero's key on an enemy's sheet names the enemy's keys in the order the sheet declares them."""
    with pytest.raises(SheetError) as err:
        setup(("X", "rating=2 hawk=3", "a", None))
    assert err.value.message.endswith("It takes rating, tohit, resist, group, block, weapon, track.")


def test_a_hero_cannot_be_turned_into_an_enemy_by_edit() -> None:
    """Editing `rating` onto a hero is refused: heroes and enemies have different sheets."""
    enc = setup(BORIN)
    with pytest.raises(SheetError, match="is a hero"):
        resolve(enc, "edit", actor="Borin", raw_sheet={"rating": "2"})


@pytest.mark.parametrize(
    ("given_text", "normal"),
    [("3", "3d"), ("3d6", "3d"), ("+2", "+2"), ("2d+1", "2d+1"), ("4-1", "4d-1"), ("+0", "+0")],
)
def test_tohit_normal_form(given_text: str, normal: str) -> None:
    """`tohit` takes skill dice and/or a bonus and is stored in one normal form."""
    assert parse_tohit(given_text) == normal


def test_weapons_parse_and_list() -> None:
    """Weapons are `name:damage[:effect][:kind]`; `weapons_of` lists their names."""
    assert Weapon.parse("maul:3:bash:1") == Weapon("maul", 3, 1, "bash")
    enc = setup(BORIN)
    assert SYSTEM.weapons_of(enc, who(enc, "Borin")) == ["axe", "bow"]


def test_enemy_to_hit_dice_default_to_rating_and_take_a_bonus() -> None:
    """An enemy rolls Rating dice (at most 5) to hit unless `tohit` says otherwise; a bonus is a named modifier."""
    enc = fight(BORIN, ("Grak", "rating=2 tohit=+1", "foes", 9))
    res = resolve(enc, "attack", [1, 2, 5], actor="Grak", target="Borin")
    attack = next(e for e in res.events if e.kind == "attack").test
    assert attack.dice == [1, 2] and attack.paragon == 5
    assert [(m.code, m.value) for m in attack.modifiers] == [("to-hit", 1)] and attack.total == 8


