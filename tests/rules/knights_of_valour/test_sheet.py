"""Knights of Valour: the text's tables, the sheet and the GM's options."""
from __future__ import annotations

import pytest

from rules.errors import IllegalAction, InputError, SheetError
from rules.registry import get_system
from rules.systems.knights_of_valour import (
    WEAPONS,
    KnightsOfValourSystem,
    effective_range,
    parse_weapon,
    stature_modifier,
)
from tests.rules.knights_of_valour.build import (
    SYSTEM,
    add,
    defence,
    duel,
    encounter,
    one,
    run,
)

# -- the tables of the text -----------------------------------------------------------------------
STATURE_TABLE = [  # (defender, attacker, modifier) exactly as the text's table
    ("short", "short", 0), ("short", "average", -1), ("short", "tall", -2),
    ("average", "short", 1), ("average", "average", 0), ("average", "tall", -1),
    ("tall", "short", 2), ("tall", "average", 1), ("tall", "tall", 0),
]


@pytest.mark.parametrize(("defender", "attacker", "expected"), STATURE_TABLE)
def test_stature_table(defender: str, attacker: str, expected: int) -> None:
    """The Attacker/Defender Relative-Size modifier matches every cell of the text's table."""
    assert stature_modifier(attacker, defender) == expected


def test_stature_example_tall_attacker_short_defender() -> None:
    """Text example: a Tall attacker against a Short defender applies -2 to the attack roll."""
    enc = duel(knight="agi=1 hp=10 size=tall weapons=longsword:1", orc="hp=9 size=short weapons=club:1")
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert ("stature tall vs short", -2) in [(SYSTEM.present.term(m), m.value) for m in attack.roll.modifiers]


def test_throwing_spear_example() -> None:
    """Text example: Throwing Spear 20/60 ft with Strength +2 has effective ranges 30 and 70 ft."""
    assert effective_range(WEAPONS["throwing-spear"], 2) == (30, 70)


@pytest.mark.parametrize(("target_at", "dice", "disadvantage"), [
    ("I4", [1], False),   # 30 ft: within effective close range
    ("J4", [12, 1], True),  # 35 ft: past close range, Disadvantage
    ("Q4", [12, 1], True),  # 70 ft: at effective maximum range
])
def test_throwing_spear_example_in_play(target_at: str, dice: list[int], disadvantage: bool) -> None:
    """The Throwing Spear example decides Disadvantage by the effective ranges in play."""
    enc = encounter()
    enc.map.width = 20
    enc = duel("C4", target_at, knight="str=2 agi=1 hp=10 weapons=throwing-spear:1", enc=enc)
    attack = one(run(enc, dice, kind="attack", actor="Borin", target="Grak").events, "attack")
    assert attack.mode == "ranged"
    assert len(attack.roll.dice) == (2 if disadvantage else 1)
    assert attack.roll.kept == (1 if disadvantage else None)


def test_throwing_spear_past_maximum_range_is_refused() -> None:
    """No attack past the effective maximum range (75 ft > 70 ft)."""
    enc = encounter()
    enc.map.width = 20
    enc = duel("C4", "R4", knight="str=2 agi=1 hp=10 weapons=throwing-spear:1", enc=enc)
    with pytest.raises(IllegalAction, match="past the effective maximum range of throwing-spear \\(70 ft\\)"):
        run(enc, [12], kind="attack", actor="Borin", target="Grak")


@pytest.mark.parametrize(("strength", "expected"), [(-3, (0, 5)), (-2, (0, 10)), (0, (10, 20)), (3, (25, 35))])
def test_effective_range_never_below_zero(strength: int, expected: tuple[int, int]) -> None:
    """Effective range = range + Strength x 5 ft, and a negative result counts as zero."""
    assert effective_range(parse_weapon("rock", "1d4 10/20"), strength) == expected


def test_zero_close_range_always_has_disadvantage() -> None:
    """An effective close range of 0 ft makes every attack with the weapon a Disadvantage roll."""
    enc = encounter(weapons="rock:1d4 10/20")
    enc = duel("C4", "D4", knight="str=-2 agi=1 hp=10 weapons=rock:1", enc=enc)
    attack = one(run(enc, [15, 2], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert (attack.roll.dice, attack.roll.kept) == ([15, 2], 2)
    assert "close_zero" in attack.reasons


def test_zero_maximum_range_cannot_attack() -> None:
    """An effective maximum range of 0 ft forbids ranged attacks with the weapon."""
    enc = encounter(weapons="rock:1d4 10/15")
    enc = duel("C4", "D4", knight="str=-3 agi=1 hp=10 weapons=rock:1", enc=enc)
    with pytest.raises(IllegalAction, match="effective maximum range of rock is 0 ft"):
        run(enc, [15], kind="attack", actor="Borin", target="Grak")


# -- sheets ----------------------------------------------------------------------------------------
def test_sheet_defaults_and_weapons() -> None:
    """A sheet fills its defaults and reads `name:P.L.` weapon lists in any spelling."""
    enc = add(encounter(), "Borin", "hp=10 weapons=\"Long Sword:2, light_crossbow:1\" armor=\"Chain Mail\"", "C4", "d")
    c = enc.get("Borin")
    assert c.sheet["weapons"] == {"longsword": 2, "light-crossbow": 1}
    assert (c.sheet["str"], c.sheet["agi"], c.sheet["size"], c.sheet["move"]) == (0, 0, "average", 30)
    assert (c.sheet["armor"], c.sheet["shield"], c.hp) == ("chain-mail", "none", 10)


@pytest.mark.parametrize(("sheet", "message"), [
    ("agi=1", "needs `hp=...`"),
    ("hp=5 str=4", "str is a whole number from -3 to 3"),
    ("hp=5 weapons=lightsaber:2", "`lightsaber` is not a known weapon"),
    ("hp=5 weapons=longsword", "name:P.L. with a P.L. from 0 to 10"),
    ("hp=5 weapons=longsword:11", "name:P.L. with a P.L. from 0 to 10"),
    ("hp=5 armor=mithril", "use a number or one of none, padded"),
    ("hp=5 size=huge", "use one of short, average, tall"),
    ("hp=5 shield=tower", "use one of none, small, large"),
    ("hp=5 class=knight", "Unknown sheet key `class`"),
])
def test_sheet_errors_name_the_bad_value(sheet: str, message: str) -> None:
    """A bad sheet key or value gets a message that names it and what is accepted."""
    with pytest.raises(SheetError, match=message):
        add(encounter(), "Borin", sheet, "C4", "d")


def test_gm_options_add_weapons_and_armour() -> None:
    """The `weapons` and `armors` encounter options extend the SRD tables."""
    enc = encounter(weapons="elven-blade:1d10 melee, rock:1d4 10/20", armors="Elven Chain:5")
    enc = duel(knight="agi=1 hp=10 weapons=elven-blade:1", orc="hp=9 armor=elven-chain weapons=club:1", enc=enc)
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert ["elven-chain", 5] in defence(attack)


@pytest.mark.parametrize("spec", ["2d6 fast", "melee", "1d6 60/20", "1d6"])
def test_bad_weapon_option_is_refused(spec: str) -> None:
    """A malformed weapon in the `weapons` option explains the accepted form."""
    with pytest.raises(InputError, match="is not a weapon"):
        parse_weapon("odd", spec)


@pytest.mark.parametrize(("option", "value", "fields", "message"), [
    ("weapons", "junk", {"kind": "attack"}, "`junk` is not `name:value`"),
    ("weapons", "rock:1d4 far", {"kind": "attack"}, "`rock:1d4 far` is not a weapon"),
    ("armors", "mithril:lots", {"kind": "attack"}, "`armors` must be a whole number from 0 to 20, not `lots`; in the entry `mithril:lots`"),
    ("height_short", "tall", {"kind": "move", "path": "E"}, "`height_short` must be a whole number from 1 to 60, not `tall`"),
    ("victory", "maybe", {"kind": "attack"}, "use one of downed, out"),
])
def test_bad_encounter_options_are_named(option: str, value: str, fields: dict[str, str], message: str) -> None:
    """A bad encounter option is refused with its name and the accepted form."""
    enc = duel("C4", "D4", knight="hp=9 agi=1 size=short weapons=club:1")
    enc.settings.options[option] = value
    with pytest.raises(InputError, match=message):
        run(enc, [20, 1], actor="Borin", **({"target": "Grak"} if fields["kind"] == "attack" else {}), **fields)


def test_options_help_names_every_option() -> None:
    """Every encounter option the system reads is documented for `/encounter settings`."""
    assert set(SYSTEM.options_help) == {
        "delay", "split_move", "victory", "aoo", "ranged_stature", "min_damage", "obstacle_height",
        "height_short", "height_average", "height_tall", "small_shield", "large_shield", "armors", "weapons", "auto_end",
    }


def test_shield_option_changes_its_defence_modifier() -> None:
    """`large_shield` sets the Defence Modifier of a large shield."""
    enc = duel(orc="hp=9 shield=large weapons=club:1")
    enc.settings.options["large_shield"] = "3"
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert ["large shield", 3] in defence(attack)


def test_registered_under_its_key() -> None:
    """The registry serves this system under `knights-of-valour`."""
    assert isinstance(get_system("knights-of-valour"), KnightsOfValourSystem)


def test_numeric_armour_is_its_defence_modifier() -> None:
    """`armor=N` gives a Defence Modifier of N."""
    enc = duel(orc="hp=9 armor=3 weapons=club:1")
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert ["armour", 3] in defence(attack)
