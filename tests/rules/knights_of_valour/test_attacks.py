"""Knights of Valour: attacks, damage, downed, the coup de grâce and victory."""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.errors import IllegalAction, InputError
from rules.models import Encounter
from rules.sheet import parse_options
from tests.rules.knights_of_valour.build import (
    SYSTEM,
    add,
    defence,
    duel,
    encounter,
    of,
    one,
    run,
    step,
    text,
)


# -- attacks -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("d20", "hit"), [(9, True), (8, False)])
def test_melee_attack_formula(d20: int, hit: bool) -> None:
    """Melee: d20 + P.L. + Strength + stature vs 10 + melee P.L. + armour + shield + Agility; ties hit."""
    res = run(duel(), [d20, 5] if hit else [d20], kind="attack", actor="Borin", target="Grak", weapon="longsword")
    attack = one(res.events, "attack")
    assert [(SYSTEM.present.term(m), m.value) for m in attack.roll.modifiers] == [
        ("P.L. longsword", 2), ("strength", 1), ("stature average vs tall", 1)]
    assert defence(attack) == [["base", 10], ["P.L. greataxe", 2], ["leather", 1], ["agility", 0]]
    assert (attack.roll.total, attack.roll.against, attack.roll.success) == (d20 + 4, 13, hit)


def test_the_terms_are_codes_naming_weapon_stature_armour_and_shield() -> None:
    """"Target Defence Value = 10 + Target Weapon P.L. + Target Armor Defence Modifier(s) + Target Agility
    Stat": each term is a code, the weapon, the statures, the armour and the shield named in its args."""
    enc = step(duel(), kind="next", actor="Borin")
    attack = one(run(enc, [1], kind="attack", actor="Grak", target="Borin").events, "attack")
    assert [(m.code, m.args) for m in attack.roll.modifiers] == [
        ("pl", ["greataxe"]), ("strength", []), ("stature", ["tall", "average"])]
    assert [(m.code, m.args) for m in attack.defence] == [
        ("base", []), ("pl", ["longsword"]), ("armour", ["chain-mail"]), ("shield", ["small"]), ("agility", [])]
    plain = duel(orc="hp=9 armor=3 weapons=club:1")
    attack = one(run(plain, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert [(m.code, m.args, m.value) for m in attack.defence if m.code.startswith("armour")] == [("armour_value", [], 3)]


def test_melee_defence_counts_armour_shield_and_agility() -> None:
    """The defender's wielded melee P.L., armour, shield and Agility all raise its Defence Value."""
    enc = step(duel(), kind="next", actor="Borin")
    attack = one(run(enc, [1], kind="attack", actor="Grak", target="Borin").events, "attack")
    assert defence(attack) == [["base", 10], ["P.L. longsword", 2], ["chain-mail", 6],
                                      ["small shield", 1], ["agility", 1]]
    assert (attack.roll.against, attack.roll.total) == (20, 1 + 2 + 2 - 1)


def test_defender_wielding_a_ranged_weapon_gets_no_pl() -> None:
    """The target's Weapon P.L. counts only when the weapon it wields is a melee weapon."""
    enc = duel(orc="hp=9 weapons=longbow:3,club:1")
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert defence(attack) == [["base", 10], ["agility", 0]]


def test_wield_switches_the_defending_weapon() -> None:
    """`/act action:wield` takes up another weapon from the sheet for free."""
    enc = step(duel(), kind="act", actor="Borin", action="wield", options={"longbow": ""})
    enc = step(enc, kind="next", actor="Borin")
    attack = one(run(enc, [1], kind="attack", actor="Grak", target="Borin").events, "attack")
    assert ["P.L. longsword", 2] not in defence(attack)
    with pytest.raises(InputError, match="Name a weapon from the sheet"):
        run(duel(), kind="act", actor="Borin", action="wield", options={"maul": ""})
    with pytest.raises(IllegalAction, match="Borin already wields the longbow: nothing to change"):
        run(step(duel(), kind="act", actor="Borin", action="wield", options={"longbow": ""}),
            kind="act", actor="Borin", action="wield", options={"longbow": ""})  # a log row and undo step for nothing


def test_ranged_attack_formula() -> None:
    """Ranged: d20 + P.L. + Agility + stature vs 10 + Defence Modifier + Agility (no weapon P.L.)."""
    res = run(duel("C4", "K4"), [10, 4], kind="attack", actor="Borin", target="Grak", weapon="longbow")
    attack = one(res.events, "attack")
    assert attack.mode == "ranged" and attack.range == 40
    assert [(SYSTEM.present.term(m), m.value) for m in attack.roll.modifiers] == [
        ("P.L. longbow", 1), ("agility", 1), ("stature average vs tall", 1)]
    assert (attack.roll.total, attack.roll.against, attack.roll.success) == (13, 11, True)


def test_ranged_stature_option() -> None:
    """`ranged_stature=no` keeps the size table to melee attacks."""
    enc = duel("C4", "K4")
    enc.settings.options["ranged_stature"] = "no"
    attack = one(run(enc, [1], kind="attack", actor="Borin", target="Grak", weapon="longbow").events, "attack")
    assert [SYSTEM.present.term(m) for m in attack.roll.modifiers] == ["P.L. longbow", "agility"]


def test_thrown_weapon_strikes_in_melee_unless_thrown() -> None:
    """A thrown weapon next to its target strikes in melee; `options:"throw"` throws it."""
    enc = duel(knight="agi=1 hp=9 weapons=spear:1")
    assert one(run(enc, [1], kind="attack", actor="Borin", target="Grak").events, "attack").mode == "melee"
    thrown = run(enc, [1], kind="attack", actor="Borin", target="Grak", options={"throw": ""})
    assert one(thrown.events, "attack").mode == "ranged"


def test_throw_is_refused_for_a_weapon_that_shoots_and_said_for_a_thrown_one_too_weak_to_throw() -> None:
    """A thrown weapon is one with melee and ranges ("1d6 melee 20/60"): a longbow shoots and is not thrown, so
    `throw` is refused (it was taken as a plain shot); a shiv whose effective range is 0 at Strength -2 is told to
    strike in melee without `throw` (it was told no weapon of the attacker reaches)."""
    enc = duel()
    with pytest.raises(IllegalAction, match="longbow shoots: it is not thrown. Leave out `throw`"):
        run(enc, [10], kind="attack", actor="Borin", target="Grak", weapon="longbow", options={"throw": ""})
    enc = encounter(weapons="shiv:1d4 melee 5/10")
    weak = duel(knight="str=-2 agi=1 hp=9 weapons=shiv:1", enc=enc)
    with pytest.raises(IllegalAction, match="leave out `throw` to strike with it in melee"):
        run(weak, [10], kind="attack", actor="Borin", target="Grak", options={"throw": ""})


def test_a_combatant_proficient_in_no_weapon_is_told_it_cannot_attack() -> None:
    """"In Combat you may only make Attacks with Weapons that you are Proficient in": with no weapon at P.L. 1 or more
    the refusal says it cannot attack and what is left, not to name a weapon."""
    enc = duel(knight="agi=1 hp=9 weapons=longsword:0")
    with pytest.raises(IllegalAction, match="Borin is proficient in no weapon .P.L. 1 or more., so it cannot attack"):
        run(enc, [10], kind="attack", actor="Borin", target="Grak")


def test_ranged_attack_needs_line_of_sight() -> None:
    """A wall between attacker and target blocks a ranged attack."""
    enc = duel("C4", "K4", enc=encounter(blocked=("F4",)))
    with pytest.raises(IllegalAction, match="no line of sight to Grak: the wall at F4"):
        run(enc, [10], kind="attack", actor="Borin", target="Grak", weapon="longbow")


def test_a_shot_between_two_walls_meeting_at_a_corner_has_line_of_sight() -> None:
    """"you must have Line-of-sight to the target" (knights-of-valour.txt) is silent on corners; the page: "only a wall
    whose square the line crosses blocks: a line through the point where two walls meet diagonally passes, though a
    step may not cut that corner". Borin at B2 shoots Grak at E5 between C2 and B3, and may not step to C3."""
    page = " ".join((Path(__file__).parents[3] / "docs" / "systems" / "knights-of-valour.md").read_text(encoding="utf-8").split())
    assert ("only a wall whose square the line crosses blocks: a line through the point where two walls meet "
            "diagonally passes, though a step may not cut that corner") in page
    enc = duel("B2", "E5", enc=encounter(blocked=("C2", "B3")))
    assert one(run(enc, [1], kind="attack", actor="Borin", target="Grak", weapon="longbow").events, "attack").range == 15
    with pytest.raises(IllegalAction, match="cut the corner of a wall"):
        run(enc, kind="move", actor="Borin", path="SE")


def test_melee_reach_is_five_feet() -> None:
    """A melee weapon needs a target within 5 ft (diagonals count as 5 ft)."""
    with pytest.raises(IllegalAction, match="Grak is 10 ft away: longsword reaches 5 ft.*longbow"):
        run(duel("C4", "E4"), [10], kind="attack", actor="Borin", target="Grak", weapon="longsword")
    diagonal = run(duel("C4", "D5"), [1], kind="attack", actor="Borin", target="Grak", weapon="longsword")
    assert one(diagonal.events, "attack").range == 5


@pytest.mark.parametrize(("weapon", "message", "error"), [
    ("longbow", "not proficient in longbow \\(P.L. 0\\)", IllegalAction),
    ("maul", "has no `maul`", IllegalAction),
])
def test_only_proficient_weapons_attack(weapon: str, message: str, error: type[Exception]) -> None:
    """Only weapons with P.L. greater than 0 can attack."""
    enc = duel(knight="agi=1 hp=9 weapons=longsword:2,longbow:0")
    with pytest.raises(error, match=message):
        run(enc, [10], kind="attack", actor="Borin", target="Grak", weapon=weapon)


@pytest.mark.parametrize(("options", "dice", "d20s", "kept", "label", "edge", "words"), [
    ("adv", [4, 17, 1], [4, 17], 17, "2d20", "advantage", "2d20 Advantage"),
    ("dis", [4, 17], [4, 17], 4, "2d20", "disadvantage", "2d20 Disadvantage"),
    ("adv dis", [4], [4], 4, "d20", None, "d20"),
])
def test_advantage_and_disadvantage(
    options: str, dice: list[int], d20s: list[int], kept: int, label: str, edge: str | None, words: str
) -> None:
    """Advantage keeps the higher of 2d20, Disadvantage the lower; together they cancel. The roll's
    label is its dice, the attack says which was kept, and the reply words both."""
    attack = one(run(duel(), dice, kind="attack", actor="Borin", target="Grak",
                     options=parse_options(options)).events, "attack")
    assert (attack.roll.dice, attack.roll.label, attack.edge, attack.roll.total - 4) == (d20s, label, edge, kept)
    assert f"({words}: " in text(attack)


def test_advantage_cancels_imposed_disadvantage() -> None:
    """Advantage asked cancels the Disadvantage of a long-range shot."""
    enc = duel("C4", "L10", knight="str=1 agi=1 hp=9 weapons=sling:1")  # 45 ft, close range 35 ft
    attack = one(run(enc, [7], kind="attack", actor="Borin", target="Grak", options={"adv": ""}).events, "attack")
    assert attack.roll.dice == [7] and attack.reasons == ["adv_asked", "past_close", "cancel"]
    assert "(d20: Advantage asked; 45 ft is past close range 35 ft; they cancel)" in SYSTEM.present.text(attack)


@pytest.mark.parametrize(("options", "message"), [({"flank": ""}, "`attack`: `flank` is not one of its `options` words. Type one of `adv`, `dis`, `throw`, `atk=N`"),
                                                  ({"atk": "x"}, "must be a whole number from -20 to 20")])
def test_unknown_attack_option_is_refused(options: dict[str, str], message: str) -> None:
    """Attack options are checked and listed."""
    with pytest.raises(InputError, match=message):
        run(duel(), [1], kind="attack", actor="Borin", target="Grak", options=options)


def test_buff_options_modify_attack_defence_and_damage() -> None:
    """`atk=`, `def=` and `dmg=` add the text's bracketed buff modifiers."""
    res = run(duel(), [9, 3], kind="attack", actor="Borin", target="Grak",
              options=parse_options("atk=2 def=1 dmg=3"))
    attack, damage = one(res.events, "attack"), one(res.events, "damage")
    assert (attack.roll.total, attack.roll.against) == (15, 14)
    assert damage.amount == 3 + 1 + 3


@pytest.mark.parametrize(("roll", "floor", "amount"), [(5, None, 6), (1, None, 2)])
def test_damage_is_weapon_dice_plus_strength(roll: int, floor: str | None, amount: int) -> None:
    """Damage on a hit = the weapon's dice + Strength."""
    res = run(duel(), [20, roll], kind="attack", actor="Borin", target="Grak", weapon="longsword")
    damage = one(res.events, "damage")
    assert (damage.roll.dice, damage.roll.label, damage.amount) == ([roll], "1d8", amount)
    assert (damage.before, damage.after, res.encounter.get("Grak").hp) == (9, 9 - amount, 9 - amount)


@pytest.mark.parametrize(("option", "amount"), [(None, 0), ("1", 1)])
def test_damage_floor(option: str | None, amount: int) -> None:
    """Strength cannot make damage negative; `min_damage` raises the floor."""
    enc = duel(knight="str=-3 agi=1 hp=9 weapons=dagger:1")
    if option:
        enc.settings.options["min_damage"] = option
    assert one(run(enc, [20, 1], kind="attack", actor="Borin", target="Grak").events, "damage").amount == amount


def test_two_dice_weapon() -> None:
    """A 2d6 weapon rolls two damage dice."""
    enc = duel(knight="str=0 agi=1 hp=9 weapons=greatsword:1")
    assert one(run(enc, [20, 2, 6], kind="attack", actor="Borin", target="Grak").events, "damage").amount == 8


def test_attack_errors() -> None:
    """Attacks need a target other than oneself that is still in the fight."""
    enc = duel()
    with pytest.raises(InputError, match="Name the combatant"):
        run(enc, [1], kind="attack", actor="Borin")
    with pytest.raises(IllegalAction, match="cannot attack itself"):
        run(enc, [1], kind="attack", actor="Borin", target="Borin")


def test_weapon_must_be_named_when_unclear() -> None:
    """With no weapon wielded and several to choose from, the attacker must name one."""
    enc = duel()
    enc.get("Borin").state.wield = None
    with pytest.raises(InputError, match="proficient in longsword, longbow"):
        run(enc, [1], kind="attack", actor="Borin", target="Grak")


# -- downed, coup de grace, victory ---------------------------------------------------------------------
def downed_grak(**options: str) -> Encounter:
    """Grak drops to 0 HP in round 1 while a second orc keeps the fight going."""
    enc = add(encounter(**options), "Snaga", "agi=-2 hp=5 weapons=club:1", "J9", "orcs", owner=None)
    enc = duel(enc=enc)
    return step(enc, [20, 8], kind="attack", actor="Borin", target="Grak")  # 8 + 1 = 9 damage


def test_zero_hp_is_downed() -> None:
    """At 0 HP or less a combatant is downed and its turns are skipped."""
    enc = downed_grak()
    assert (enc.get("Grak").hp, enc.get("Grak").status, enc.winner) == (0, "downed", None)
    enc = step(enc, kind="next", actor="Borin")
    assert enc.current == "Snaga"


def test_coup_de_grace_takes_a_downed_adjacent_target_out() -> None:
    """A coup de grâce on an adjacent downed combatant hits automatically and takes it out."""
    enc = step(step(downed_grak(), kind="next", actor="Borin"), kind="next", actor="Snaga")
    res = run(enc, kind="coupdegrace", actor="Borin", target="Grak")
    assert "an automatic hit on a downed target" in text(one(res.events, "coupdegrace"))
    assert one(res.events, "status").status == "out"
    assert res.encounter.get("Grak").status == "out" and "Grak" not in res.encounter.order
    assert res.encounter.get("Borin").state.combat_actions == 0


def test_coup_de_grace_errors() -> None:
    """A coup de grâce needs a downed target within 5 ft and the Combat Action."""
    with pytest.raises(IllegalAction, match="Grak is not downed"):
        run(duel(), kind="coupdegrace", actor="Borin", target="Grak")
    with pytest.raises(IllegalAction, match="used the Combat Action"):
        run(downed_grak(), kind="coupdegrace", actor="Borin", target="Grak")
    enc = step(step(downed_grak(), kind="next", actor="Borin"), kind="next", actor="Snaga")
    enc = step(enc, kind="move", actor="Borin", path="W")
    with pytest.raises(IllegalAction, match="not adjacent to Grak"):
        run(enc, kind="coupdegrace", actor="Borin", target="Grak")


@pytest.mark.parametrize(("option", "winner"), [(None, "dwarves"), ("out", None)])
def test_victory_when_every_enemy_is_down(option: str | None, winner: str | None) -> None:
    """A side whose combatants are all downed or out is beaten (`victory=out`: only out)."""
    enc = duel()
    if option:
        enc.settings.options["victory"] = option
    res = run(enc, [20, 8], kind="attack", actor="Borin", target="Grak")
    assert res.encounter.winner == winner
    assert bool(of(res.events, "victory")) == bool(winner)


def test_gm_edit_of_hp_sets_current_hp_and_revives() -> None:
    """Editing `hp` sets the current HP; a downed combatant above 0 HP is active again."""
    enc = step(downed_grak(), kind="edit", actor="Grak", raw_sheet={"hp": "4"})
    assert (enc.get("Grak").hp, enc.get("Grak").status) == (4, "active")
    assert step(enc, kind="edit", actor="Grak", raw_sheet={"str": "1"}).get("Grak").hp == 4


def test_gm_dropping_the_acting_combatant_passes_the_turn() -> None:
    """A combatant downed during its own turn (here by the GM setting its HP) ends that turn."""
    enc = add(encounter(), "Thrain", "agi=-3 hp=9", "J9", "dwarves", owner="2")
    res = run(duel(enc=enc), kind="edit", actor="Borin", raw_sheet={"hp": "0"}, gm=True)
    assert res.encounter.get("Borin").status == "downed" and res.encounter.current == "Grak"
    assert [e.kind for e in res.events][-3:] == ["status", "turn_end", "turn"]


def test_removing_the_acting_combatant_passes_the_turn() -> None:
    """When the acting combatant is removed the next one acts."""
    enc = add(add(encounter(), "Snaga", "agi=-2 hp=5", "J9", "orcs", owner=None), "Thrain", "agi=-3 hp=5", "A9", "dwarves")
    enc = step(duel(enc=enc), kind="remove", actor="Borin")
    assert enc.current == "Grak" and enc.order == ["Grak", "Snaga", "Thrain"]


# -- corrections: height and reach, zero close range ------------------------------------------------------
def test_height_counts_for_melee_reach() -> None:
    """Melee needs a target within 5 ft: one standing 10 ft higher on the next square is out of reach, and the refusal
    says it is the height (not to move next to Grak, whom Borin stands beside)."""
    enc = encounter(heights={"D4": 10})
    with pytest.raises(IllegalAction, match="Grak is beside Borin but 10 ft higher or lower: longsword reaches 5 ft. "
                                            "Climb or descend to within 5 ft of its height"):
        run(duel("C4", "D4", enc=enc), [10], kind="attack", actor="Borin", target="Grak", weapon="longsword")
    low = encounter(heights={"D4": 5})
    assert one(run(duel("C4", "D4", enc=low), [1], kind="attack", actor="Borin", target="Grak").events, "attack").range == 5


def test_zero_close_range_gives_disadvantage_in_melee_too() -> None:
    """Text: "If the Effective Close Range is 0 feet, then all Attacks made with this Weapon Type are
    made with Disadvantage": a thrown weapon struck in melee too."""
    enc = encounter(weapons="rock:1d4 melee 10/20")
    enc = duel("C4", "D4", knight="str=-2 agi=1 hp=10 weapons=rock:1", enc=enc)
    attack = one(run(enc, [15, 2], kind="attack", actor="Borin", target="Grak").events, "attack")
    assert (attack.mode, attack.roll.dice, attack.roll.kept, attack.reasons) == ("melee", [15, 2], 2, ["close_zero"])


def test_no_line_of_sight_says_what_to_do_instead() -> None:
    """A refusal says what to do instead: another target, or a move to where the wall is not in the way."""
    enc = duel("C4", "K4", enc=encounter(blocked=("F4",)))
    with pytest.raises(IllegalAction) as refused:
        run(enc, [10], kind="attack", actor="Borin", target="Grak", weapon="longbow")
    assert "the wall at F4 is in the way: move where it is not between Borin and Grak, or attack another target" in str(refused.value)


def test_a_weapon_with_no_range_names_the_weapons_that_could_be_used() -> None:
    """Text: the effective range is the weapon's range + Strength × 5 ft; at 0 ft the ranged attack is refused, and
    the refusal names Borin's other weapons that reach Grak (the longbow), or says none does."""
    enc = duel("C4", "G4", knight="str=-2 agi=1 hp=9 weapons=pebble:1,longbow:1,longsword:1",
               enc=encounter(weapons="pebble:1d4 5/10"))
    with pytest.raises(IllegalAction) as refused:
        run(enc, [10], kind="attack", actor="Borin", target="Grak", weapon="pebble")
    assert "effective maximum range of pebble is 0 ft" in str(refused.value)
    assert "use longbow instead" in str(refused.value)
    enc = duel("C4", "G4", knight="str=-2 agi=1 hp=9 weapons=pebble:1,longsword:1", enc=encounter(weapons="pebble:1d4 5/10"))
    with pytest.raises(IllegalAction) as refused:
        run(enc, [10], kind="attack", actor="Borin", target="Grak", weapon="pebble")
    assert "none of Borin's other weapons reaches Grak from 20 ft: move next to it for the longsword" in str(refused.value)
