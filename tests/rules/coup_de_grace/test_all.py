"""Coup-De-Grace: every rule of the newer text and the 2013-11-11 draft, with fixed dice."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.dice import Dice
from rules.errors import (
    IllegalAction,
    InputError,
    NotFound,
    NotYourTurn,
    RulesError,
    SheetError,
)
from rules.events import Event
from rules.models import Encounter, MapState, Settings
from rules.report import board_report
from rules.sheet import parse_pairs
from rules.actions import make_action
from rules.system import Action, Resolution
from rules.systems.coup_de_grace import DRAFT_VARIANT, CoupDeGrace
from rules.systems.coup_de_grace.events import Wounded

KEY = "coup-de-grace"
SYSTEM = CoupDeGrace()
# a mini: (name, side, sheet, at, facing)
Mini = tuple[str, str, str, str | None, str | None]


# -- builders -------------------------------------------------------------------------------------
def resolve(enc: Encounter, kind: str, dice: tuple[int, ...] | list[int] = (), **fields: Any) -> Resolution:
    return SYSTEM.resolve(enc, make_action(kind, **fields), Dice.fixed(dice))


def run(enc: Encounter, kind: str, dice: tuple[int, ...] | list[int] = (), **fields: Any) -> Encounter:
    return resolve(enc, kind, dice, **fields).encounter


def refused(
    enc: Encounter,
    kind: str,
    dice: tuple[int, ...] | list[int] = (),
    error: type[RulesError] = RulesError,
    **fields: Any,
) -> str:
    """Resolve an action that must be refused; check that the encounter is unchanged."""
    before = enc.model_dump()
    with pytest.raises(error) as caught:
        resolve(enc, kind, dice, **fields)
    assert enc.model_dump() == before
    return str(caught.value)


def encounter(
    *minis: Mini,
    size: tuple[int, int] = (12, 10),
    variant: str | None = None,
    blocked: tuple[str, ...] = (),
    **options: Any,
) -> Encounter:
    enc = Encounter(
        system=KEY,
        variant=variant,
        map=MapState(kind="square", width=size[0], height=size[1], blocked=list(blocked)),
        settings=Settings(options={k: str(v) for k, v in options.items()}),
    )
    for name, side, sheet, at, facing in minis:
        enc = run(
            enc, "add", name=name, raw_sheet=parse_pairs(sheet), at=at, facing=facing, side=side, owner_id="1"
        )
    return enc


def fight(*minis: Mini, first: str | None = "a", dice: tuple[int, ...] = (), **kw: Any) -> Encounter:
    """An encounter in round 1; ``first`` (a side) is given the first activation by the GM."""
    kw.setdefault("tie", "join")
    enc = run(encounter(*minis, **kw), "init_roll", dice)
    return run(enc, "init_order", name=first) if first else enc


def events_of(res: Resolution, kind: str) -> list[Event]:
    return [e for e in res.events if e.kind == kind]


def one(res: Resolution, kind: str) -> Event:
    found = events_of(res, kind)
    assert len(found) == 1, [e.kind for e in res.events]
    return found[0]


def mods(event: Event) -> dict[str, int]:
    return {m.name: m.value for m in event.roll.modifiers}


def text(res: Resolution) -> str:
    return "\n".join(SYSTEM.present.text(e) for e in res.events)


SWORD = "class=light weapons=sword"  # DV 4, MA 6, no special rule


def foes(*cells: str) -> list[Mini]:
    """Side b: a mini on each cell, facing N, plus one far away in the corner."""
    return [(f"O{i}", "b", SWORD, at, "N") for i, at in enumerate(cells)] + [("Far", "b", SWORD, "L10", "N")]


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


# -- movement ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("enemies", "cost"), [((), 1), (("F5",), 2), (("F5", "E4"), 4), (("F5", "E4", "E6"), 8)]
)
def test_each_adjacent_enemy_doubles_the_step(enemies: tuple[str, ...], cost: int) -> None:
    """Worked example: a step costs 1, 2 next to one enemy, 4 next to two, 8 next to three."""
    enc = fight(("M", "a", "class=unarmoured", "E5", "W"), *foes(*enemies))
    move = one(resolve(enc, "move", actor="M", path="W"), "move")
    assert (move.cost, move.left) == (cost, 8 - cost)


def test_only_the_step_that_starts_next_to_an_enemy_is_doubled() -> None:
    """Stepping away costs 2, the next step 1."""
    enc = fight(("M", "a", "class=unarmoured", "E5", "W"), ("O", "b", SWORD, "F5", "W"))
    assert one(resolve(enc, "move", actor="M", path="W W"), "move").cost == 3


@pytest.mark.parametrize(
    ("variant", "enemies", "cost"),
    [(None, ("F4",), 1), (DRAFT_VARIANT, ("F4",), 2), (DRAFT_VARIANT, ("F5", "E4", "E6"), 2)],
)
def test_adjacency_for_doubling_by_ruleset(variant: str | None, enemies: tuple[str, ...], cost: int) -> None:
    """Newer: diagonal enemies are not adjacent; draft: any adjacent enemy (diagonals too) doubles once."""
    enc = fight(("M", "a", "class=unarmoured", "E5", "W"), *foes(*enemies), variant=variant)
    assert one(resolve(enc, "move", actor="M", path="W"), "move").cost == cost


@pytest.mark.parametrize(("enemies", "cost"), [((), 1), (("F5",), 2), (("F5", "E4"), 4)])
def test_turning_in_place_costs_one_doubled_by_enemies(enemies: tuple[str, ...], cost: int) -> None:
    """Turning in place costs 1 MP, doubled like every MP cost."""
    res = resolve(
        fight(("M", "a", "class=unarmoured", "E5", "W"), *foes(*enemies)), "move", actor="M", facing="S"
    )
    face = one(res, "face")
    assert (face.cost, face.left, res.encounter.get("M").facing) == (cost, 8 - cost, "S")


def test_move_to_finds_the_cheapest_way_round_a_wall() -> None:
    """`to:` goes round walls along a cheapest path; without `facing:` the mini keeps its facing."""
    enc = fight(("M", "a", "class=unarmoured", "B2", "E"), ("O", "b", SWORD, "J9", "N"), blocked=("C2",))
    res = resolve(enc, "move", actor="M", to="D2")
    move, m = one(res, "move"), res.encounter.get("M")
    assert (move.cost, len(move.path or []), m.position) == (4, 5, "D2")
    assert m.facing == "E"


def test_move_to_avoids_squares_next_to_enemies_when_cheaper() -> None:
    """The cheapest path skirts round an enemy instead of paying double."""
    enc = fight(("M", "a", "class=unarmoured", "B3", "E"), *foes("D4", "E4", "F4"))
    move = one(resolve(enc, "move", actor="M", to="H3"), "move")
    assert (move.cost, len(move.path or [])) == (8, 9) and "D3" not in (move.path or [])


def test_move_to_refuses_an_occupied_or_walled_end() -> None:
    """The end square must be free: no moving into a mini or a wall."""
    enc = fight(("M", "a", "class=unarmoured", "B2", "E"), ("O", "b", SWORD, "D2", "N"), blocked=("C3",))
    assert "D2 is taken by O" in refused(enc, "move", actor="M", to="D2")
    assert "C3 is a wall" in refused(enc, "move", actor="M", to="C3")


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("E E", "C2 is taken by O"),
        ("S E", "B3 is a wall"),
        ("N N", "off the map"),
        ("NE", "no diagonal moves"),
        ("E X", "`X` is not a step here"),
    ],
)
def test_path_follows_the_steps_exactly_and_refuses_illegal_ones(path: str, message: str) -> None:
    """`path:` never moves into or through minis or walls, nor off the map, nor diagonally (newer)."""
    enc = fight(("M", "a", "class=unarmoured", "A2", "E"), ("O", "b", SWORD, "C2", "N"), blocked=("B3",))
    assert message in refused(enc, "move", actor="M", path=path)


def test_path_is_case_insensitive_and_takes_commas_and_facing() -> None:
    """`path:"e, s"` works; a given facing is taken with the last step for free."""
    enc = fight(("M", "a", "class=unarmoured", "A1", "E"), ("O", "b", SWORD, "J9", "N"))
    res = resolve(enc, "move", actor="M", path="e, s", facing="W")
    m = res.encounter.get("M")
    assert (m.position, m.facing, one(res, "move").cost) == ("B2", "W", 2)


def test_not_enough_movement_points_says_what_it_needs_and_has() -> None:
    """A heavy mini (MA 4) cannot walk 5 squares."""
    enc = fight(("M", "a", "class=heavy", "A1", "E"), ("O", "b", SWORD, "J9", "N"))
    assert "needs 5 MP to move A1 → F1 but has 4 left" in refused(enc, "move", actor="M", to="F1")


def test_draft_moves_diagonally_for_one_point() -> None:
    """Draft: a step in any of 8 directions costs 1 and may change facing."""
    enc = fight(
        ("M", "a", "class=unarmoured", "B2", "E"), ("O", "b", SWORD, "J9", "N"), variant=DRAFT_VARIANT
    )
    res = resolve(enc, "move", actor="M", to="E5")
    assert (one(res, "move").cost, res.encounter.get("M").position) == (3, "E5")


def test_draft_diagonal_step_cannot_squeeze_between_two_blocked_squares() -> None:
    """Draft: a diagonal step needs one of the two squares beside it open."""
    squeezed = fight(
        ("M", "a", "class=unarmoured", "B2", "E"),
        ("O", "b", SWORD, "J9", "N"),
        variant=DRAFT_VARIANT,
        blocked=("B1", "C2"),
    )
    assert "squeezes between two blocked squares" in refused(squeezed, "move", actor="M", path="NE")
    open_side = fight(
        ("M", "a", "class=unarmoured", "B2", "E"),
        ("O", "b", SWORD, "J9", "N"),
        variant=DRAFT_VARIANT,
        blocked=("B1",),
    )
    assert run(open_side, "move", actor="M", path="NE").get("M").position == "C1"


def test_draft_step_back_then_shoot_with_six_points() -> None:
    """Draft worked example: an unarmoured mini (MA 6) steps back from an enemy (2 MP), then shoots (4 MP)."""
    enc = fight(
        ("S", "a", "class=unarmoured weapons=bow", "C2", "E"),
        ("O", "b", SWORD, "D2", "W"),
        variant=DRAFT_VARIANT,
    )
    assert "needs 8 MP to shoot (4 MP ×2: next to O)" in refused(enc, "attack", [6], actor="S", target="O")
    enc = run(enc, "move", actor="S", path="W", facing="E")
    res = resolve(enc, "attack", [6], actor="S", target="O")
    assert (one(res, "attack").cost, res.encounter.get("S").state.mp) == (4, 0)


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


@pytest.mark.parametrize(
    ("blockers", "walls", "target", "options", "message"),
    [
        ((), (), "A1", {}, "not in S's front 90 degree arc (facing E): turn towards N"),
        (("C2",), (), "F2", {}, "no line of sight to T"),
        ((), ("D2",), "F2", {}, "no line of sight to T"),
        ((), (), "I2", {"max_increments": 1}, "T is 7 squares away: the bow reaches 6 at most"),
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
        ("E3", "A is not adjacent to T: melee needs an adjacent target in the front facing"),
        ("D4", "A is not adjacent to T"),
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
    """Attacking one's own side is refused."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "D3", "W"), ("T", "b", SWORD, "J9", "N"))
    assert "you can never attack your own minis" in refused(enc, "attack", [6], actor="A", target="B")


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
    """An unknown attack option, or a mode the weapon lacks, is refused."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert "Unknown option `adv`" in refused(enc, "attack", [6], actor="A", target="T", options={"adv": ""})
    assert "A sword is not a ranged weapon" in refused(
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


# -- downed, out of action, recovery, victory ---------------------------------------------------------------------
def downed_fight(variant: str | None = None, **options: Any) -> Encounter:
    """T (side b) is downed by A in round 1; it is now b's turn to activate T."""
    enc = fight(
        ("A", "a", "class=light weapons=sword,axe", "C3", "E"),
        ("T", "b", "class=light weapons=sword hp=1", "D3", "W"),
        ("U", "b", SWORD, "J9", "N"),
        variant=variant,
        **options,
    )
    enc = run(run(enc, "attack", [4], actor="A", target="T", weapon="sword"), "next")
    assert enc.get("T").status == "downed"
    return enc


def test_worked_example_two_damage_to_a_one_hp_mini_is_out_of_action() -> None:
    """2 HP damage to a 1 HP mini takes it out of action without passing through downed; victory follows."""
    enc = fight(("A", "a", "class=light weapons=axe", "C3", "E"), ("T", "b", "class=light hp=1", "D3", "W"))
    res = resolve(enc, "attack", [6], actor="A", target="T")
    t = res.encounter.get("T")
    assert (t.hp, t.status, t.position, t.facing) == (-1, "out", None, None)
    assert [e.status for e in events_of(res, "status")] == ["out"]
    assert (res.encounter.winner, one(res, "victory").side) == ("a", "a")


def test_a_downed_mini_has_no_facing_and_attacks_once_at_minus_two() -> None:
    """A downed mini attacks an adjacent foe at -2, once, and its activation then ends."""
    enc = downed_fight()
    res = resolve(enc, "attack", [6], actor="T", target="A")
    attack = one(res, "attack")
    assert (mods(attack), attack.roll.total, attack.roll.success) == ({"downed": -2}, 4, True)
    assert res.encounter.current is None and res.encounter.get("T").state.done
    assert "already activated" in refused(res.encounter, "move", actor="T", to="D4")


def test_a_downed_mini_may_shoot_without_an_arc() -> None:
    """A downed shooter has no facing: range and sight suffice, at -2, for no MP."""
    enc = fight(
        ("A", "a", "class=light weapons=sword", "C3", "E"),
        ("Z", "a", SWORD, "D6", "N"),
        ("T", "b", "class=light weapons=bow hp=1", "D3", "W"),
        ("U", "b", SWORD, "J9", "N"),
    )
    enc = run(run(enc, "attack", [4], actor="A", target="T"), "next")
    attack = one(resolve(enc, "attack", [6], actor="T", target="Z"), "attack")
    assert (attack.mode, attack.range, attack.cost, mods(attack)) == (
        "ranged",
        3,
        0,
        {"downed": -2},
    )


@pytest.mark.parametrize(
    ("variant", "to", "ok"),
    [(None, "D4", True), (None, "D5", False), (None, "E4", False), (DRAFT_VARIANT, "E4", True)],
)
def test_a_downed_mini_crawls_one_square_as_its_activation(variant: str | None, to: str, ok: bool) -> None:
    """Crawl one square (newer: N E S W; draft: any direction), which ends the activation."""
    enc = downed_fight(variant)
    if ok:
        res = resolve(enc, "move", actor="T", to=to)
        assert (res.encounter.get("T").position, res.encounter.get("T").facing) == (to, None)
        assert res.encounter.current is None and "crawls" in text(res)
    else:
        assert "can only crawl one square" in refused(enc, "move", actor="T", to=to)


def test_a_downed_mini_cannot_turn() -> None:
    """A downed mini has no facing to change."""
    assert "has no facing" in refused(downed_fight(), "move", actor="T", facing="N")


@pytest.mark.parametrize(
    ("roll", "facing", "options", "status", "hp", "after"),
    [
        (5, "S", {}, "active", 1, "S"),
        (6, None, {}, "active", 1, "W"),
        (4, None, {}, "downed", 0, None),
        (5, None, {"recover_on": 6}, "downed", 0, None),
    ],
)
def test_dramatic_recovery_stands_up_on_five_or_more(
    roll: int, facing: str | None, options: dict[str, int], status: str, hp: int, after: str | None
) -> None:
    """Roll a d6: 5+ stands up with 1 HP facing as chosen (default: as before); 4 or less nothing."""
    res = resolve(downed_fight(**options), "act", [roll], actor="T", name="recover", facing=facing)
    t = res.encounter.get("T")
    assert (t.status, t.hp, t.facing) == (status, hp, after)
    assert one(res, "check").roll.success == (status == "active") and res.encounter.current is None


def test_only_a_downed_mini_recovers() -> None:
    """`/act action:recover` is refused for a standing mini; unknown actions list the known ones."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    assert "A is not downed" in refused(enc, "act", [6], actor="A", name="recover")
    assert "Actions: recover" in refused(enc, "act", actor="A", name="dance")


def test_a_downed_mini_at_minus_one_is_out() -> None:
    """A downed mini hit again goes to -1 HP: out of action and off the board."""
    enc = fight(
        ("A", "a", "class=light weapons=sword,axe", "C3", "E"),
        ("T", "b", "class=light hp=1", "D3", "W"),
        ("U", "b", SWORD, "J9", "N"),
    )
    enc = run(enc, "attack", [4], actor="A", target="T", weapon="sword")
    res = resolve(enc, "attack", [3], actor="A", target="T", weapon="axe")
    assert (res.encounter.get("T").status, res.encounter.get("T").position) == ("out", None)
    assert "T" not in res.encounter.order
    assert "already out of action" in refused(res.encounter, "attack", [6], actor="A", target="T")


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


# -- initiative and activation ----------------------------------------------------------------------------------------
def test_init_roll_gives_the_first_activation_to_the_side_with_most_minis() -> None:
    """The larger side activates first; the order alternates sides; there are no initiative numbers."""
    enc = fight(
        ("Borin", "dwarves", SWORD, "B2", "E"),
        ("Grak", "orcs", SWORD, "H2", "W"),
        ("Snaga", "orcs", SWORD, "H4", "W"),
        first=None,
    )
    turn = SYSTEM.turn(enc)
    assert (enc.round, turn.side, turn.actors, enc.current) == (1, "orcs", ("Grak", "Snaga"), None)
    assert enc.order == ["Grak", "Borin", "Snaga"]
    assert all(c.initiative is None for c in enc.combatants)


def test_undeployed_minis_count_for_initiative_but_do_not_activate() -> None:
    """Minis not yet on the board count for the initiative; only deployed ones activate."""
    enc = fight(
        ("Grak", "orcs", SWORD, "H2", "W"),
        ("Snaga", "orcs", SWORD, "H4", "W"),
        ("Borin", "dwarves", SWORD, "B2", "E"),
        ("Dwalin", "dwarves", SWORD, None, None),
        ("Balin", "dwarves", SWORD, None, None),
        first=None,
    )
    assert SYSTEM.turn(enc).actors == ("Borin",)
    assert "not on the board" in refused(enc, "next", actor="Dwalin")


@pytest.mark.parametrize(("dice", "first"), [((2, 5), "orcs"), ((6, 1), "dwarves"), ((3, 3, 1, 4), "orcs")])
def test_a_tie_is_rolled_off_with_a_d6_per_side(dice: tuple[int, ...], first: str) -> None:
    """Tied sides each roll a d6, highest first, re-rolling ties (the default)."""
    enc = encounter(("Borin", "dwarves", SWORD, "B2", "E"), ("Grak", "orcs", SWORD, "H2", "W"))
    res = resolve(enc, "init_roll", dice)
    assert SYSTEM.turn(res.encounter).side == first
    assert [e.roll.dice[0] for e in events_of(res, "check")] == list(dice)


def test_a_tie_can_go_to_the_side_that_joined_first() -> None:
    """`tie=join` gives a tie to the side that joined first, without dice; other values are refused."""
    enc = encounter(("Borin", "dwarves", SWORD, "B2", "E"), ("Grak", "orcs", SWORD, "H2", "W"), tie="join")
    assert SYSTEM.turn(run(enc, "init_roll")).side == "dwarves"
    enc.settings.options["tie"] = "coin"
    assert "`tie=coin` is not accepted" in refused(enc, "init_roll")


def test_initiative_over_two_rounds_with_uneven_sides() -> None:
    """3 dwarves v 2 orcs: sides alternate, orcs pass; round 2 is worked out afresh (downed count, out do not)."""
    enc = fight(
        ("Borin", "dwarves", "class=heavy weapons=hammer", "B2", "E"),
        ("Thrain", "dwarves", "class=light weapons=axe hp=1", "C6", "E"),
        ("Dwalin", "dwarves", "class=unarmoured weapons=axe hp=1", "C8", "E"),
        ("Snaga", "orcs", "class=light weapons=axe", "D6", "W"),
        ("Grak", "orcs", "class=light weapons=axe", "D8", "W"),
        first=None,
        tie="roll",
    )
    turn = SYSTEM.turn(enc)
    assert (turn.side, turn.actors) == ("dwarves", ("Borin", "Thrain", "Dwalin"))
    assert enc.order == ["Borin", "Snaga", "Thrain", "Grak", "Dwalin"]
    keys = [turn.key]
    enc = run(enc, "next", actor="Borin")  # activates Borin and does nothing
    keys.append(SYSTEM.turn(enc).key)
    assert SYSTEM.turn(enc).actors == ("Snaga", "Grak")
    enc = run(enc, "attack", [6], actor="Grak", target="Dwalin")  # axe natural 6: 2 damage, out
    assert SYSTEM.turn(enc).key == keys[-1] and SYSTEM.turn(enc).actors == ("Grak",)
    enc = run(enc, "next")
    keys.append(SYSTEM.turn(enc).key)
    assert SYSTEM.turn(enc).actors == ("Thrain",)
    enc = run(enc, "next", actor="Thrain")
    keys.append(SYSTEM.turn(enc).key)
    res = resolve(run(enc, "attack", [4], actor="Snaga", target="Thrain"), "next", [2, 5])
    assert res.encounter.get("Thrain").status == "downed"
    notes = text(res)
    assert "dwarves have no minis left to activate and pass" in notes and "round 1 is over" in notes
    enc = res.encounter
    turn = SYSTEM.turn(enc)
    keys.append(turn.key)
    # round 2: dwarves 2 (Thrain downed counts, Dwalin out does not) v orcs 2: rolled off 2 v 5
    assert (enc.round, turn.side, turn.actors) == (2, "orcs", ("Snaga", "Grak"))
    assert enc.order == ["Snaga", "Borin", "Grak", "Thrain"]
    assert len(set(keys)) == len(keys)
    assert not any(c.state.done for c in enc.combatants if c.in_fight)


def test_the_turn_key_changes_only_when_priority_passes() -> None:
    """Activating a mini keeps the key (no new ping); ending the activation changes it."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "H3", "W"))
    before = SYSTEM.turn(enc)
    enc = run(enc, "move", actor="A", path="E")
    during = SYSTEM.turn(enc)
    after = SYSTEM.turn(run(enc, "next"))
    assert before.key == during.key != after.key
    assert (during.actors, during.label) == (("A",), "Round 1 · A (a) activating: 5/6 MP left")
    assert (after.actors, after.label) == (("T",), "Round 1 · b to activate: T")


@pytest.mark.parametrize(
    ("steps", "kind", "fields", "message", "error"),
    [
        (
            [],
            "move",
            {"actor": "T", "path": "W"},
            "Priority is with a, who activate one of A, B; T waits",
            NotYourTurn,
        ),
        (
            [("move", {"actor": "A", "path": "E"})],
            "move",
            {"actor": "B", "path": "E"},
            "A is activating now: its activation ends with `/init next`",
            NotYourTurn,
        ),
        (
            [("next", {"actor": "A"}), ("next", {"actor": "T"})],
            "move",
            {"actor": "A", "path": "E"},
            "A has already activated in round 1",
            NotYourTurn,
        ),
        ([], "next", {}, "a must activate a mini before priority passes", NotYourTurn),
    ],
)
def test_activation_order_is_enforced(
    steps: list[tuple[str, dict[str, str]]],
    kind: str,
    fields: dict[str, str],
    message: str,
    error: type[RulesError],
) -> None:
    """Only the side with priority acts, one mini at a time, once a round; a side cannot pass."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "C5", "E"), ("T", "b", SWORD, "H3", "W"))
    for step_kind, step_fields in steps:
        enc = run(enc, step_kind, **step_fields)
    assert message in refused(enc, kind, error=error, **fields)


@pytest.mark.parametrize(
    ("setup", "fields", "message"),
    [
        (False, {}, "Combat has not started"),
        (True, {}, "The fight is under way (round 1)"),
        (True, {"actor": "A"}, "no initiative for a single mini"),
    ],
)
def test_init_roll_is_refused_when_it_cannot_start_the_fight(
    setup: bool, fields: dict[str, str], message: str
) -> None:
    """`/init roll` starts the fight once, for every side."""
    enc = (
        fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "H3", "W"))
        if setup
        else encounter(("A", "a", SWORD, "C3", "E"))
    )
    kind = "init_roll" if setup else "next"
    assert message in refused(enc, kind, **fields)
    if not setup:
        assert "needs minis on at least two sides" in refused(enc, "init_roll")


def test_there_are_no_initiative_numbers_to_set() -> None:
    """`/init set` explains how the order is decided."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "H3", "W"))
    assert "no initiative numbers" in refused(enc, "init_set", actor="A", value=5)


def test_the_gm_sets_the_order_of_sides_before_the_first_activation() -> None:
    """`/init order` takes side or mini names, only before anyone has activated this round."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "H3", "W"), first=None)
    assert SYSTEM.turn(run(enc, "init_order", name="T")).side == "b"
    assert "neither a side nor a mini" in refused(enc, "init_order", name="elves")
    moved = run(enc, "move", actor="A", path="E")
    assert "before the round's first activation" in refused(moved, "init_order", name="b")


def test_removing_the_activating_mini_passes_priority() -> None:
    """When the GM removes the mini that is activating, the other side gets priority."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("B", "a", SWORD, "C5", "E"), ("T", "b", SWORD, "H3", "W"))
    enc = run(run(enc, "move", actor="A", path="E"), "remove", actor="A")
    assert (enc.current, SYSTEM.turn(enc).actors) == (None, ("T",))


def test_an_edit_of_hp_mid_fight_shifts_current_hp() -> None:
    """Raising or lowering the sheet's hp moves current HP by the same amount, with the status it means."""
    enc = fight(("A", "a", SWORD, "C3", "E"), ("T", "b", SWORD, "D3", "W"))
    enc = run(enc, "attack", [6], actor="A", target="T")
    res = resolve(enc, "edit", actor="T", raw_sheet={"hp": "1"})
    assert (res.encounter.get("T").hp, res.encounter.get("T").status) == (0, "downed")


# -- presentation ---------------------------------------------------------------------------------------------------
def test_the_attack_reply_shows_dice_modifiers_total_defence_and_result() -> None:
    """The reply names every die, modifier, the total, the DV with its bonuses, the result and the HP change."""
    enc = fight(
        ("A", "a", "class=light weapons=sword", "C3", "E"),
        ("T", "b", "class=light weapons=sword,shield", "D3", "W"),
        ("B", "a", SWORD, "D2", "S"),
    )
    lines = text(resolve(enc, "attack", [4], actor="A", target="T"))
    assert (
        "**A** attacks **T** with sword: 🎲 4✍ (d6) +1 co-ordinated attack (B) = **5** vs DV 4 +1 shield (Block) "
        "= **5**: **hit**"
    ) in lines
    assert "**T** takes 1 damage (3 → 2)" in lines


def test_the_move_reply_shows_cost_and_points_left() -> None:
    """A move reply shows the path, the cost with doubled steps, the facing and the MP left."""
    enc = fight(("M", "a", "class=unarmoured", "E5", "W"), ("O", "b", SWORD, "F5", "W"))
    assert text(resolve(enc, "move", actor="M", path="W W")) == (
        "M activates with 8 MP\n**M** moves E5 → D5 → C5 for 3 MP (2+1), facing W · 5 MP left"
    )


def test_the_board_shows_points_and_sides() -> None:
    """The board shows HP, DV, MA, the MP left of the activating mini and the order of sides."""
    enc = run(
        fight(("A", "a", "class=heavy weapons=hammer race=dwarf", "C3", "E"), ("T", "b", SWORD, "H3", "W")),
        "move",
        actor="A",
        path="E",
    )
    board = board_report(SYSTEM, enc).text()
    assert "**A** · D3 E · 3/3 HP · DV 5 · MA 4 · ▶ 3 MP left · hammer · dwarf" in board
    assert "Order of sides this round: a → b" in board


def test_bad_encounter_options_are_refused() -> None:
    """A numeric option that is not a positive whole number is refused with a clear message."""
    enc = fight(("S", "a", "class=unarmoured weapons=bow", "A2", "E"), ("T", "b", SWORD, "E2", "W"))
    enc.settings.options["range_increment"] = "six"
    assert "`range_increment=six` is not accepted: range_increment is a whole number from 1 to 99" in refused(
        enc, "attack", [6], actor="S", target="T"
    )


# -- property: any action either applies cleanly or changes nothing -------------------------------------------------------
NAMES = ("A", "B", "T", "U")
action_st = st.tuples(
    st.sampled_from(["move", "attack", "coupdegrace", "next", "act"]),
    st.sampled_from(NAMES),
    st.sampled_from(NAMES),
    st.sampled_from([None, "C3", "D4", "E5", "A1", "F6", "B2"]),
    st.sampled_from([None, "N", "E S", "W W", "NE", "S"]),
    st.sampled_from([None, "N", "E", "S", "W"]),
    st.sampled_from([None, "sword", "spear", "crossbow", "hammer"]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(action_st, min_size=1, max_size=25),
    st.integers(0, 2**32 - 1),
    st.sampled_from([None, DRAFT_VARIANT]),
)
def test_any_action_sequence_keeps_the_encounter_consistent(
    actions: list[tuple[Any, ...]], seed: int, variant: str | None
) -> None:
    """Every action applies consistently or is refused without changing anything."""
    enc = fight(
        ("A", "a", "class=heavy weapons=hammer,sword hp=2", "C3", "E"),
        ("B", "a", "class=unarmoured weapons=crossbow", "B5", "E"),
        ("T", "b", "class=light weapons=spear hp=1", "D3", "W"),
        ("U", "b", "class=light weapons=sword,crossbow", "E5", "W"),
        variant=variant,
        blocked=("D5",),
    )
    rng = random.Random(seed)
    for kind, actor, target, to, path, facing, weapon in actions:
        action = make_action(
            kind,
            lenient=True,
            actor=actor,
            target=target,
            to=to if path is None else None,
            path=path,
            facing=facing,
            weapon=weapon,
            name="recover",
        )
        before = enc.model_dump()
        try:
            enc = SYSTEM.resolve(enc, action, Dice(rng=rng)).encounter
        except RulesError:
            assert enc.model_dump() == before
            continue
        cells = [c.position for c in enc.combatants if c.position]
        assert len(cells) == len(set(cells)) and "D5" not in cells
        for c in enc.combatants:
            expected = "out" if c.hp <= -1 else "downed" if c.hp == 0 else "active"
            assert c.status == expected and c.hp <= c.state.hp_max
            assert (c.position is None) == (c.status == "out")
            assert (c.facing is None) == (c.status != "active")
            assert c.state.mp is None or c.state.mp >= 0
        if enc.winner:
            break
        if enc.current:
            assert enc.get(enc.current).side == enc.state.priority
