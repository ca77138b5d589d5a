"""Coup-De-Grace attacks: range, arc, sight, melee, shields, weapon rules, the draft's coup-de-grace."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction, NotFound, RulesError
from rules.systems.coup_de_grace import DRAFT_VARIANT
from rules.systems.coup_de_grace.events import Wounded
from tests.rules.coup_de_grace.build import (
    KEY,
    SWORD,
    events_of,
    fight,
    foes,
    mods,
    one,
    refused,
    resolve,
    run,
    text,
)
from tests.scenario import Scenario


# -- range, arc and line of sight ---------------------------------------------------------------------------
@pytest.mark.parametrize(("distance", "penalty"), [(1, 0), (5, 0), (6, -1), (11, -1), (12, -2), (17, -2)])
def test_worked_example_range_increment_six(distance: int, penalty: int) -> None:
    """Increment 6: no penalty at 1-5 squares, -1 at 6-11, -2 at 12-17."""
    target = f"{chr(ord('A') + distance)}2"
    enc = fight(
        ("S", "a", "class=unarmoured weapons=bow", "A2", "E"), ("T", "b", SWORD, target, "W"), size=(20, 3)
    )
    attack = one(resolve(enc, "attack", [6], actor="S", target="T"), "attack")
    assert (attack.range, sum(mods(attack).values()), attack.roll.total) == (
        distance,
        penalty,
        6 + penalty,
    )


@pytest.mark.parametrize(
    ("variant", "target", "distance"),
    [(None, "C2", 1), (None, "B2", 2), (None, "D2", 2), (None, "A1", 4), (DRAFT_VARIANT, "A1", 2)],
)
def test_worked_example_adjacent_is_range_one_and_nearest_diagonal_range_two(
    variant: str | None, target: str, distance: int
) -> None:
    """Range counts squares as if moving: adjacent 1, nearest diagonal 2 (draft moves diagonally: 1)."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=bow", "C3", "N"),
        ("T", "b", SWORD, target, "S"),
        variant=variant,
        range_increment=2,
    )
    attack = one(resolve(enc, "attack", [6], actor="S", target="T"), "attack")
    assert (attack.range, attack.roll.total) == (distance, 6 - distance // 2)


def test_worked_example_range_penalty_doubles_against_a_downed_target() -> None:
    """A -2 range penalty becomes -4 against a downed mini."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=crossbow,bow", "A2", "E"),
        ("T", "b", "class=unarmoured hp=1", "M2", "W"),
        size=(20, 3),
    )
    res = resolve(enc, "attack", [6], actor="S", target="T", weapon="crossbow")
    assert mods(one(res, "attack")) == {"range 12 (increment 6)": -2}
    assert res.encounter.get("T").status == "downed"
    res = resolve(res.encounter, "coupdegrace", [6], actor="S", target="T", weapon="bow")
    assert mods(one(res, "attack")) == {"range 12 (increment 6) ×2 vs downed": -4}
    assert [(m.code, m.args) for m in one(res, "attack").roll.modifiers] == [("range_downed", [12, 6])]


@pytest.mark.parametrize(
    ("blockers", "walls", "target", "options", "message"),
    [
        ((), (), "A1", {}, "not in S's front 90 degree arc (facing E): turn towards N"),
        (("C2",), (), "F2", {}, "no line of sight to T"),
        ((), ("D2",), "F2", {}, "no line of sight to T"),
        ((), (), "I2", {"max_increments": 1}, "T is 7 squares away: the bow reaches 6 at most: move closer with `/move` first"),
    ],
)
def test_ranged_attacks_need_arc_sight_and_range(
    blockers: tuple[str, ...], walls: tuple[str, ...], target: str, options: dict[str, int], message: str
) -> None:
    """Ranged attacks need the front 90 degree arc, a clear line between centres, and range."""
    extra = [(f"X{i}", "a", SWORD, at, "N") for i, at in enumerate(blockers)]
    enc = fight(
        ("S", "a", "class=unarmoured weapons=bow", "B2", "E"),
        ("T", "b", SWORD, target, "W"),
        *extra,
        size=(20, 3),
        blocked=walls,
        **options,
    )
    assert message in refused(enc, "attack", [6], actor="S", target="T")


def test_the_front_arc_is_three_then_five_squares_wide() -> None:
    """The arc holds the three squares in front, then five beyond, and nothing beside."""
    enc = fight(("S", "a", "class=unarmoured weapons=bow", "E5", "N"), ("T", "b", SWORD, "C3", "S"))
    assert one(resolve(enc, "attack", [6], actor="S", target="T"), "attack").range == 4
    beside = fight(("S", "a", "class=unarmoured weapons=bow", "E5", "N"), ("T", "b", SWORD, "B4", "S"))
    assert "front 90 degree arc" in refused(beside, "attack", [6], actor="S", target="T")


@pytest.mark.parametrize(("adjacent", "ok"), [(("A1",), True), (("A1", "A3"), False)])
def test_a_ranged_attack_costs_four_doubled_by_adjacent_enemies(adjacent: tuple[str, ...], ok: bool) -> None:
    """Shooting costs 4 MP; each adjacent enemy doubles it (8 is exactly an unarmoured mini's MA)."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=bow", "A2", "E"), ("T", "b", SWORD, "E2", "W"), *foes(*adjacent)
    )
    if ok:
        attack = one(resolve(enc, "attack", [6], actor="S", target="T"), "attack")
        assert (attack.cost, attack.left) == (8, 0)
    else:
        assert "needs 16 MP to shoot" in refused(enc, "attack", [6], actor="S", target="T")


def test_firing_into_melee_costs_one_per_ally_next_to_the_target() -> None:
    """-1 for each ally of the shooter adjacent to the target (downed ones too)."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=bow", "A2", "E"),
        ("T", "b", SWORD, "F2", "W"),
        ("X", "a", SWORD, "F1", "S"),
        ("Y", "a", SWORD, "F3", "N"),
        ("Z", "a", SWORD, "H2", "N"),
    )
    assert mods(one(resolve(enc, "attack", [6], actor="S", target="T"), "attack")) == {
        "firing into melee (X, Y)": -2
    }


# -- melee --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("roll", "hit"), [(3, False), (4, True), (6, True)])
def test_a_melee_attack_hits_on_the_defence_value_or_more(roll: int, hit: bool) -> None:
    """Roll 1d6: equal to or above the DV deals 1 HP (3 → 2)."""
    res = resolve(
        fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W")),
        "attack",
        [roll],
        actor="A",
        target="T",
    )
    attack = one(res, "attack")
    assert (attack.roll.total, attack.roll.against, attack.roll.success) == (roll, 4, hit)
    assert res.encounter.get("T").hp == (2 if hit else 3)
    assert events_of(res, "damage") == (
        [Wounded(actor="T", amount=1, before=3, after=2)] if hit else []
    )


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "C4",
            "T is next to A but not in A's front facing square (A faces E): turn with `/move facing:S` first",
        ),
        ("E3", "A is not adjacent to T: melee needs an adjacent target in the front facing: move next to it with "
               "`/move` first"),
        ("D4", "A is not adjacent to T: melee needs an adjacent target in the front facing: move next to it"),
    ],
)
def test_melee_needs_an_adjacent_target_in_the_front_facing(target: str, message: str) -> None:
    """Melee is only against the front facing square."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, target, "W"))
    assert message in refused(enc, "attack", [6], actor="A", target="T")


@pytest.mark.parametrize(
    ("target", "between", "walls", "options", "ok"),
    [
        ("E3", None, (), {}, True),
        ("E3", "D3", (), {}, True),
        ("E3", None, ("D3",), {}, False),
        ("F3", None, (), {}, False),
        ("F3", None, (), {"reach": 3}, True),
    ],
)
def test_spears_reach_two_squares_straight_ahead(
    target: str, between: str | None, walls: tuple[str, ...], options: dict[str, int], ok: bool
) -> None:
    """A spear reaches 2 squares ahead, over a mini but not through a wall; the GM can change the reach."""
    extra = [("X", "a", SWORD, between, "E")] if between else []
    enc = fight(
        ("A", "a", "class=light weapons=spear", "C3", "E"),
        ("T", "b", SWORD, target, "W"),
        *extra,
        blocked=walls,
        **options,
    )
    if ok:
        attack = one(resolve(enc, "attack", [6], actor="A", target="T"), "attack")
        assert (attack.mode, attack.cost) == ("melee", 0)
    else:
        assert "melee needs an adjacent target" in refused(enc, "attack", [6], actor="A", target="T")


def test_each_weapon_attacks_once_per_round() -> None:
    """A second attack needs another weapon; an omitted weapon is the one still ready."""
    enc = fight(("A", "a", "class=light weapons=sword,axe", "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert "Say which weapon A attacks with: `weapon:` sword, axe" in refused(
        enc, "attack", [1], actor="A", target="T"
    )
    enc = run(enc, "attack", [1], actor="A", target="T", weapon="sword")
    assert "already attacked with the sword this round" in refused(
        enc, "attack", [1], actor="A", target="T", weapon="sword"
    )
    res = resolve(enc, "attack", [1], actor="A", target="T")
    assert one(res, "attack").weapon == "axe"
    assert "no weapon ready" in refused(res.encounter, "attack", [1], actor="A", target="T")
    # the weapon named when none is left ready says what to do instead, as the weapon left out does
    assert refused(res.encounter, "attack", [1], actor="A", target="T", weapon="axe").endswith(
        "each weapon attacks once a round, and none is ready: end the activation with `/init next`.")


def test_two_of_the_same_weapon_attack_twice() -> None:
    """A mini with two axes attacks twice with them."""
    enc = fight(("A", "a", "class=light weapons=axe,axe", "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    enc = run(run(enc, "attack", [1], actor="A", target="T"), "attack", [1], actor="A", target="T")
    assert enc.get("A").state.used == {"axe": 2}


@pytest.mark.parametrize(
    ("weapon", "message", "error"),
    [("buckler", "A buckler cannot attack", IllegalAction), ("pistol", "A holds no pistol", NotFound)],
)
def test_weapons_that_cannot_attack_are_refused(weapon: str, message: str, error: type[RulesError]) -> None:
    """A buckler has NO ATTACK; a weapon not held cannot be used."""
    enc = fight(("A", "a", "class=light weapons=sword,buckler", "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert message in refused(enc, "attack", [6], error=error, actor="A", target="T", weapon=weapon)


def test_you_can_never_attack_your_own_minis() -> None:
    """"You can never choose to attack your own minis": attacking one's own side is refused."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "D3", "W"), ("T", "b", SWORD, "J9", "N"))
    assert "B is on A's side: pick an enemy" in refused(enc, "attack", [6], actor="A", target="B")


def test_co_ordinated_attack_adds_one_per_ally_facing_the_target() -> None:
    """+1 per ally adjacent to and facing the same target; an ally facing elsewhere adds nothing."""
    enc = fight(
        ("A", "a", SWORD, "C3", "E"),
        ("T", "b", SWORD, "D3", "W"),
        ("B1", "a", SWORD, "D2", "S"),
        ("B2", "a", SWORD, "D4", "N"),
        ("B3", "a", SWORD, "E3", "E"),
    )
    assert mods(one(resolve(enc, "attack", [1], actor="A", target="T"), "attack")) == {
        "co-ordinated attack (B1, B2)": 2
    }


def test_the_modifiers_name_the_minis_they_count() -> None:
    """"For each ally adjacent to and facing towards the same target, add a +1" and "For each opponent
    other than your target adjacent to and facing towards you, deduct 1": each modifier is a code
    with the minis it counts as its names."""
    enc = fight(
        ("A", "a", SWORD, "C3", "E"),
        ("T", "b", SWORD, "D3", "W"),
        ("B1", "a", SWORD, "D2", "S"),
        ("B2", "a", SWORD, "D4", "N"),
        ("E1", "b", SWORD, "C2", "S"),
    )
    attack = one(resolve(enc, "attack", [6], actor="A", target="T"), "attack")
    assert [(m.code, m.args, m.value) for m in attack.roll.modifiers] == [
        ("coordinated", ["B1", "B2"], 2), ("distraction", ["E1"], -1)]


@pytest.mark.parametrize(("facing", "bonus"), [("E", 1), ("W", 0), ("N", 0)])
def test_backstab_when_the_target_faces_directly_away(facing: str, bonus: int) -> None:
    """+1 when the target faces directly away from the attacker."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", facing))
    assert mods(one(resolve(enc, "attack", [1], actor="A", target="T"), "attack")).get("backstab", 0) == bonus


def test_distraction_costs_one_per_other_opponent_facing_the_attacker() -> None:
    """-1 per opponent other than the target adjacent to and facing the attacker."""
    enc = fight(
        ("A", "a", SWORD, "C3", "E"),
        ("T", "b", SWORD, "D3", "W"),
        ("E1", "b", SWORD, "C2", "S"),
        ("E2", "b", SWORD, "C4", "N"),
        ("E3", "b", SWORD, "B3", "W"),
    )
    assert mods(one(resolve(enc, "attack", [6], actor="A", target="T"), "attack")) == {
        "distraction (E1, E2)": -2
    }


def test_melee_coup_de_grace_bonus_against_a_downed_mini() -> None:
    """+1 to melee against a downed mini, by `/attack` or `/coupdegrace` alike (newer text)."""
    enc = fight(
        ("A", "a", "class=light weapons=sword,axe,dagger", "C3", "E"),
        ("T", "b", "class=light hp=2", "D3", "W"),
    )
    enc = run(enc, "attack", [4], actor="A", target="T", weapon="sword")
    enc = run(enc, "attack", [4], actor="A", target="T", weapon="axe")
    assert enc.get("T").status == "downed" and enc.get("T").facing is None
    for kind in ("attack", "coupdegrace"):
        attack = one(resolve(enc, kind, [3], actor="A", target="T", weapon="dagger"), "attack")
        assert (mods(attack), attack.roll.total, attack.roll.success) == ({"melee coup-de-grace": 1}, 4, True)


def test_coup_de_grace_on_a_standing_mini_is_refused() -> None:
    """`/coupdegrace` needs a downed target."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert "T is not downed: a coup-de-grace is an attack on a downed mini" in refused(
        enc, "coupdegrace", [6], actor="A", target="T"
    )


# -- defence: shield and buckler ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("weapons", "attacker", "facing", "ranged", "dv"),
    [
        ("shield", "C3", "E", False, 5),
        ("shield", "E3", "W", False, 4),
        ("shield", "A3", "E", True, 5),
        ("buckler", "C3", "E", False, 6),
        ("buckler", "A3", "E", True, 4),
        ("shield,buckler", "C3", "E", False, 7),
    ],
)
def test_shield_and_buckler_defend_against_attacks_from_the_front_arc(
    weapons: str, attacker: str, facing: str, ranged: bool, dv: int
) -> None:
    """Shield +1 against any attack from the front arc; buckler +2 against melee from it; none from behind."""
    sheet = "class=unarmoured weapons=bow" if ranged else SWORD
    enc = fight(
        ("A", "a", sheet, attacker, facing), ("T", "b", f"class=light weapons=sword,{weapons}", "D3", "W")
    )
    assert one(resolve(enc, "attack", [1], actor="A", target="T"), "attack").roll.against == dv


# -- weapon special rules -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("other", "walls", "target", "damage", "where"),
    [
        (None, (), "D3", 1, "E3"),
        ("E3", (), "D3", 2, "D3"),
        (None, ("E3",), "D3", 2, "D3"),
        (None, (), "L3", 2, "L3"),
    ],
)
def test_hammer_bash_back_pushes_or_deals_one_more(
    other: str | None, walls: tuple[str, ...], target: str, damage: int, where: str
) -> None:
    """Hammer: push one square directly away; if occupied, impassable or off the map, +1 damage instead."""
    attacker = "K3" if target == "L3" else "C3"
    extra = [("X", "b", SWORD, other, "N")] if other else []
    enc = fight(
        ("A", "a", "class=heavy weapons=hammer", attacker, "E"),
        ("T", "b", SWORD, target, "W"),
        *extra,
        blocked=walls,
    )
    res = resolve(enc, "attack", [5], actor="A", target="T")
    assert (one(res, "damage").amount, res.encounter.get("T").position) == (damage, where)
    assert len(events_of(res, "push")) == (damage == 1)


@pytest.mark.parametrize(("walls", "where", "cancelled"), [((), "E2", False), (("E2",), "D2", True)])
def test_pistol_pushes_the_target_back_unless_it_cannot_go(
    walls: tuple[str, ...], where: str, cancelled: bool
) -> None:
    """Pistol: a hit pushes the target back one square; a push into a wall is cancelled."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=pistol", "A2", "E"), ("T", "b", SWORD, "D2", "W"), blocked=walls
    )
    res = resolve(enc, "attack", [6], actor="S", target="T")
    assert (res.encounter.get("T").position, one(res, "damage").amount) == (where, 1)
    assert ("Blastback cancelled" in text(res)) == cancelled


@pytest.mark.parametrize(
    ("weapon", "roll", "facing", "damage"),
    [
        ("axe", 6, "W", 2),
        ("axe", 5, "W", 1),
        ("glaive", 3, "W", 2),
        ("glaive", 4, "W", 2),
        ("glaive", 5, "W", 1),
        ("assassin's knife", 4, "E", 2),
        ("assassin's knife", 4, "W", 1),
    ],
)
def test_damage_bonuses_of_axe_glaive_and_assassins_knife(
    weapon: str, roll: int, facing: str, damage: int
) -> None:
    """Axe +1 on a natural 6; glaive +1 on a natural 3-4 that hits; assassin's knife +1 on a backstab."""
    enc = fight(
        ("A", "a", f'class=light weapons="{weapon}"', "C3", "E"),
        ("T", "b", "class=unarmoured hp=3", "D3", facing),
    )
    res = resolve(enc, "attack", [roll], actor="A", target="T")
    assert one(res, "damage").amount == damage


@pytest.mark.parametrize(("roll", "total", "hit"), [(3, 4, True), (2, 3, False), (4, 4, True), (5, 5, True)])
def test_curved_sword_adds_one_to_a_roll_of_one_to_three(roll: int, total: int, hit: bool) -> None:
    """Curved sword: a natural 1-3 gets +1."""
    enc = fight(("A", "a", "class=light weapons=curved-sword", "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    attack = one(resolve(enc, "attack", [roll], actor="A", target="T"), "attack")
    assert (attack.roll.total, attack.roll.success) == (total, hit)


@pytest.mark.parametrize(("roll", "left"), [(1, 8), (6, 6)])
def test_fencing_sword_gives_two_movement_points_after_a_miss(roll: int, left: int) -> None:
    """Fencing sword: +2 MP after a miss, nothing after a hit."""
    enc = fight(("A", "a", 'class=light weapons="fencing sword"', "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert resolve(enc, "attack", [roll], actor="A", target="T").encounter.get("A").state.mp == left


@pytest.mark.parametrize(
    ("target", "options", "mode", "left"),
    [("D3", {}, "melee", 8), ("D3", {"ranged": ""}, "ranged", 0), ("F3", {}, "ranged", 4)],
)
def test_throwing_knife_is_ranged_and_a_melee_weapon(
    target: str, options: dict[str, str], mode: str, left: int
) -> None:
    """Throwing knife: melee (0 MP) against the front square, thrown (4 MP, 8 next to T) otherwise or when asked."""
    enc = fight(
        ("A", "a", "class=unarmoured weapons=throwing-knife", "C3", "E"), ("T", "b", SWORD, target, "W")
    )
    attack = one(resolve(enc, "attack", [6], actor="A", target="T", options=options), "attack")
    assert (attack.mode, attack.left) == (mode, left)


def test_attack_options_are_checked() -> None:
    """An unknown attack option, two modes, or a mode the weapon lacks, is refused, saying what to type."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert "`attack`: `adv` is not one of its `options` words. Type one of `melee|ranged|throw|shoot`, `push`." in refused(
        enc, "attack", [6], actor="A", target="T", options={"adv": ""}
    )
    assert "`attack`: `mode` is given twice in `options`. Type e.g. `options:\"melee\"`." in refused(
        enc, "attack", [6], actor="A", target="T", options={"melee": "", "ranged": ""}
    )
    assert "A sword is not a ranged weapon: leave `ranged` out, or name a ranged weapon with `weapon:`." in refused(
        enc, "attack", [6], actor="A", target="T", options={"ranged": ""}
    )


def test_crossbow_rerolls_a_missing_two_once_per_round() -> None:
    """Crossbow: a natural 2 that misses is rerolled, only once per round."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=crossbow,crossbow", "A2", "E"), ("T", "b", SWORD, "E2", "W")
    )
    res = resolve(enc, "attack", [2, 5], actor="S", target="T")
    first = one(res, "attack")
    assert (first.roll.dice, first.roll.total, first.roll.success) == ([2, 5], 5, True)
    second = one(resolve(res.encounter, "attack", [2], actor="S", target="T"), "attack")
    assert (second.roll.dice, second.roll.success) == ([2], False)


def test_crossbow_keeps_a_two_that_hits() -> None:
    """No reroll when the 2 already hits."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=crossbow", "A2", "E"), ("T", "b", "class=light dv=2", "E2", "W")
    )
    attack = one(resolve(enc, "attack", [2], actor="S", target="T"), "attack")
    assert (attack.roll.dice, attack.roll.success) == ([2], True)



# -- the draft's coup-de-grace ---------------------------------------------------------------------------------------
def test_draft_coup_de_grace_costs_two_doubled_to_four() -> None:
    """Draft worked example: the coup-de-grace costs 2 MP, always doubled to 4; it uses up that weapon."""
    enc = fight(
        ("A", "a", "class=heavy weapons=sword,axe,crossbow", "C3", "E"),
        ("T", "b", "class=light hp=1", "D3", "W"),
        ("U", "b", SWORD, "J9", "N"),
        variant=DRAFT_VARIANT,
    )
    enc = run(enc, "attack", [4], actor="A", target="T", weapon="sword")
    assert "use `/coupdegrace`" in refused(enc, "attack", [6], actor="A", target="T", weapon="axe")
    assert "Ranged weapons cannot make a coup-de-grace" in refused(
        enc, "coupdegrace", [6], actor="A", target="T", weapon="crossbow"
    )
    assert "already attacked with the sword" in refused(
        enc, "coupdegrace", [6], actor="A", target="T", weapon="sword"
    )
    res = resolve(enc, "coupdegrace", [3], actor="A", target="T", weapon="axe")
    attack = one(res, "attack")
    assert (attack.cost, attack.left, mods(attack), attack.roll.success) == (
        4,
        0,
        {"melee coup-de-grace": 1},
        True,
    )
    assert res.encounter.get("T").status == "out"


def test_draft_coup_de_grace_needs_four_points() -> None:
    """Draft: after a step (doubled by the diagonal enemy) a heavy mini (MA 4) lacks the 4 MP for a coup-de-grace."""
    enc = fight(
        ("A", "a", "class=heavy weapons=sword,axe", "B3", "S"),
        ("T", "b", "class=light hp=1", "C4", "W"),
        ("U", "b", SWORD, "J9", "N"),
        variant=DRAFT_VARIANT,
    )
    enc = run(enc, "move", actor="A", path="S", facing="E")
    enc = run(enc, "attack", [4], actor="A", target="T", weapon="sword")
    assert "needs 4 MP to make a coup-de-grace but has 2 left" in refused(
        enc, "coupdegrace", [6], actor="A", target="T", weapon="axe"
    )




# -- corrections: sight, range, shield, hammer, the draft's coup-de-grace ---------------------------------------------
def _shooter(s: Scenario, at: str = "A1", facing: str = "E", target: str = "D2") -> Scenario:
    s.add("S", "class=unarmoured weapons=bow", side="a", at=at, facing=facing)
    s.add("T", SWORD, side="b", at=target, facing="W")
    s.run("init_roll")
    s.run("init_order", order="a")
    return s


def test_an_obstacle_blocks_line_of_sight() -> None:
    """"without intersecting a square occupied by another model, or an obstacle that blocks line of sight"."""
    s = Scenario(KEY, map="8x6", tie="join")
    s.enc.map.terrain["C1"] = "obstacle"
    _shooter(s, target="E1")
    assert "no line of sight" in s.refused("attack", [6], actor="S", target="T")


@pytest.mark.parametrize(("corners", "seen"), [("open", True), ("blocked", False)])
def test_the_corner_rule_of_sight_is_an_option(corners: str, seen: bool) -> None:
    """"you can draw a line between the centre of your squares without intersecting a square ... or an obstacle":
    a line that only touches a wall's corner sees past it (`sight_corners=open`) or not (`blocked`)."""
    s = _shooter(Scenario(KEY, map="8x6", blocked=("B1",), tie="join", sight_corners=corners), facing="S", target="B2")
    if seen:
        assert s.run("attack", [6], actor="S", target="T").events[-2].roll.success
    else:
        assert "no line of sight" in s.refused("attack", [6], actor="S", target="T")


@pytest.mark.parametrize(("counting", "legal"), [("ignore", True), ("around", False)])
def test_range_round_walls_is_an_option(counting: str, legal: bool) -> None:
    """"an opponent that is within range": by default range ignores walls (they matter for sight only); with
    `range_walls=around` it is the way round them, and a target no way reaches is out of range."""
    s = _shooter(Scenario(KEY, map="8x6", blocked=("A2", "B2", "C1"), tie="join", range_walls=counting))
    if legal:
        assert one(s.run("attack", [6], actor="S", target="T"), "attack").range == 4
    else:
        assert "no way round the walls" in s.refused("attack", [6], actor="S", target="T")


def test_the_shield_attack_is_an_option() -> None:
    """"His shield ... gives him +1 Defence against frontal attacks": with `shield_attacks=no` it only defends."""
    for allowed in (True, False):
        s = Scenario(KEY, map="8x6", tie="join", shield_attacks="yes" if allowed else "no")
        s.add("A", "class=heavy weapons=shield", side="a", at="C3", facing="E").add("T", SWORD, side="b", at="D3", facing="W")
        s.run("init_roll")
        s.run("init_order", order="a")
        if allowed:
            assert one(s.run("attack", [6], actor="A", target="T"), "attack").weapon == "shield"
        else:
            assert "shield: it only defends" in s.refused("attack", [6], actor="A", target="T", weapon="shield")


@pytest.mark.parametrize(("rule", "options", "pushed"), [
    ("always", {}, True), ("optional", {}, False), ("optional", {"push": ""}, True),
])
def test_the_hammer_push_is_optional_as_an_option(rule: str, options: dict[str, str], pushed: bool) -> None:
    """"when he makes a successful melee attack with this, he can knockback an opponent one square":
    `hammer_push=optional` pushes only with `options:push`."""
    s = Scenario(KEY, map="8x6", tie="join", hammer_push=rule)
    s.add("A", "class=heavy weapons=hammer", side="a", at="C3", facing="E").add("T", SWORD, side="b", at="D3", facing="W")
    s.run("init_roll")
    s.run("init_order", order="a")
    s.run("attack", [6], actor="A", target="T", options=options)
    assert s.get("T").position == ("E3" if pushed else "D3")


def test_the_draft_coup_de_grace_always_costs_four() -> None:
    """Draft: "the base cost of 2 movement points is always doubled to 4 movement points", even when downed
    enemies do not double MP costs (`downed_adjacent=no`)."""
    s = Scenario(KEY, map="12x10", variant=DRAFT_VARIANT, tie="join", downed_adjacent="no")
    s.add("A", "class=light weapons=sword,axe", side="a", at="B3", facing="E")
    s.add("T", "class=light hp=1", side="b", at="C3", facing="W").add("U", SWORD, side="b", at="J9", facing="N")
    s.run("init_roll")
    s.run("init_order", order="a")
    s.run("attack", [4], actor="A", target="T", weapon="sword")
    attack = one(s.run("coupdegrace", [3], actor="A", target="T", weapon="axe"), "attack")
    assert (attack.cost, attack.left) == (4, 1)


@pytest.mark.parametrize(
    ("rule", "where"), [(None, "E2"), ("clockwise", "E2"), ("counter-clockwise", "D1"), ("diagonal", "E1")]
)
def test_a_push_straight_back_along_a_diagonal_follows_the_option(rule: str | None, where: str) -> None:
    """Pistol, "a hit pushes the target back one square": on an exact diagonal the text is silent; `diagonal_push` picks, `clockwise` by default."""
    options = {"diagonal_push": rule} if rule else {}
    enc = fight(
        ("S", "a", "class=unarmoured weapons=pistol", "B4", "E"), ("T", "b", SWORD, "D2", "W"), **options
    )
    res = resolve(enc, "attack", [6], actor="S", target="T")
    assert res.encounter.get("T").position == where


def test_a_target_off_the_board_is_refused_naming_it() -> None:
    """A mini the GM has not deployed cannot be attacked: the refusal names it and how it is placed."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W"), ("R", "b", SWORD, None, None))
    assert "R is not on the map: the GM places it" in refused(enc, "attack", [6], actor="A", target="R")


def test_an_out_of_action_minis_attack_says_it_is_out_of_action() -> None:
    """"Remove the mini from the board, and it takes no further part in the battle" (coup-de-grace.txt): the GM's
    attack with a mini put out of action is refused saying so (it said the mini was not on the map and that the GM
    places it with `/combatant edit at:`, an edit refused for an out mini)."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "C6", "E"), ("O", "b", SWORD, "D3", "W"),
                ("P", "b", SWORD, "H8", "W"), first="b")
    enc = run(enc, "edit", actor="P", hp_change=-4, is_gm=True)
    assert enc.get("P").status == "out"
    why = refused(enc, "attack", [6], actor="P", target="A", is_gm=True)
    assert "P is out of action" in why and "places it" not in why, why


def test_every_action_of_an_out_of_action_mini_says_it_is_out_of_action() -> None:
    """"Remove the mini from the board, and it takes no further part in the battle": a dramatic recovery and the GM's
    pass of a mini put out of action are refused saying so (they said it "is not downed", and that it had activated
    or was not on the board)."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "C6", "E"), ("O", "b", SWORD, "D3", "W"),
                ("P", "b", SWORD, "H8", "W"), first="a")
    enc = run(enc, "edit", actor="P", hp_change=-4, is_gm=True)
    enc = run(enc, "move", actor="A", path="N")  # A activates: the GM's /init next combatant:P would pass P
    for kind, fields in (("act", {"action": "recover"}), ("next", {})):
        why = refused(enc, kind, [6], actor="P", is_gm=True, **fields)
        assert "P is out of action and takes no further part in the battle" in why, (kind, why)


def test_an_out_of_action_minis_coup_de_grace_says_it_is_out_of_action() -> None:
    """As its other actions: a `/coupdegrace` by a mini put out of action, on a standing target, is refused saying the
    mini is out of action (it said the target was not downed, and to `/attack`, which is refused too)."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "C6", "E"), ("O", "b", SWORD, "D3", "W"),
                ("P", "b", SWORD, "H8", "W"), first="b")
    enc = run(enc, "edit", actor="P", hp_change=-4, is_gm=True)
    why = refused(enc, "coupdegrace", [6], actor="P", target="A", is_gm=True)
    assert "P is out of action" in why, why
