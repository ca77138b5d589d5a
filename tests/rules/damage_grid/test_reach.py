"""Reach circles, the row behind, corner lines of sight, cover and the environment."""
from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.geometry import Cell, parse_cell
from rules.hidden import for_reader
from rules.systems.damage_grid.events import DgAttack
from rules.systems.damage_grid.reach import (
    FACING_VECTORS,
    in_front_rows,
    reach_to,
    sight,
    view,
)
from tests.rules.damage_grid.build import RING, SABER, duel, events
from tests.scenario import Scenario

#: the text's reach diagram, Meena (X) on E8 facing north: each square it labels and its label
#: ("--" left of her: the wall; "--" in the row behind: squares she cannot attack)
DIAGRAM = """
C6:3  D6:2  E6:2  F6:2  G6:3
C7:3  D7:2  E7:1  F7:2  G7:3
C8:-- D8:-- E8:X  F8:2  G8:3
C9:-- D9:-- E9:1  F9:-- G9:--
"""
LABELS = dict(item.split(":") for item in DIAGRAM.split())


@pytest.mark.parametrize("square", [k for k, v in LABELS.items() if v.isdigit()])
def test_the_reach_diagram_square_by_square(square: str) -> None:
    """"B is directly in front of Meena ... both A and C are at a range of 3": every number of the diagram, Meena on E8 facing N."""
    meena, here = parse_cell("E8"), parse_cell(square)
    s = duel(start=False)
    assert reach_to(meena, "N", here) == int(LABELS[square])
    assert in_front_rows(s.get("Meena"), here)


@pytest.mark.parametrize("square", ["C9", "D9", "F9", "G9"])
def test_the_diagrams_row_behind_cannot_be_attacked(square: str) -> None:
    """"If the target is not in any row behind the model except the square immediately behind": the diagram's -- behind her."""
    s = duel(start=False)
    assert LABELS[square] == "--" and not in_front_rows(s.get("Meena"), parse_cell(square))


def _diagram() -> Scenario:
    """The text's diagram on a 7x7 map: Meena (X) on D4 facing N, the wall (the -- left of her) on B4 and C4, A on
    B3 (two aside in B's row), B on D3 (directly in front), C on F2 (two aside, two rows ahead)."""
    s = Scenario("damage-grid", map="7x7", blocked=("B4", "C4"))
    s.add("Meena", f"weapons={SABER},{RING}", side="a", at="D4", facing="N")
    for name, at in (("A", "B3"), ("B", "D3"), ("C", "F2")):
        s.add(name, "health=20 body=0", side="b", at=at, facing="S")
    s.run("init_roll")
    return s


def test_the_texts_diagram_a_is_obstructed_b_has_cover_from_the_wall_beside_meena_c_is_in_the_open() -> None:
    """"A however is obstructed as two corner to corner lines either pass through the wall ... C is also in the open" and
    "Meena cannot see target A but can see B and attack her. However B will gain the benefits of cover as on
    corner-to-corner line passes through the Wall.\""""
    s = _diagram()
    grid = s.enc.grid()
    seen = {x: sight(s.enc, grid, parse_cell("D4"), parse_cell(at)) for x, at in (("A", "B3"), ("B", "D3"), ("C", "F2"))}
    assert {x: v.lines for x, v in seen.items()} == {"A": 2, "B": 1, "C": 0}
    assert (seen["B"].cover, seen["B"].cover_by) == (10, "C4")
    s.run("next", actor="A")  # side b, with more models, activates first
    attack = events(s.run("attack", [3, 3, 3], actor="Meena", target="B", weapon="pulse-ring"), DgAttack)[0]
    assert (attack.sight, attack.cover, attack.cover_by, attack.cover_added) == ("partial", 10, "C4", 7)


def test_the_texts_diagram_c_in_the_open_as_b_is_and_behind_b_on_one_corner_line() -> None:
    """"B is directly in front of Meena. C is also in the open and can be seen easily": "also", as B, who "will gain
    the benefits of cover" from the wall: in the open is unobstructed (no corner line touches a wall), which both are.
    Cover is apart: "Other models can be in the way of a model's target just like an obstructing providing cover",
    and one of C's corner lines (Meena's corner to C's, D4's top left to F2's) runs through B's square corner to
    corner, so B is in C's way as Xul is in the text's "Xul is standing between Meena and her target"."""
    s = _diagram()
    seen = sight(s.enc, s.enc.grid(), parse_cell("D4"), parse_cell("F2"))
    assert (seen.lines, seen.cover_by, seen.cover) == (0, "B", 2)  # B: size 2, Body 0


@pytest.mark.parametrize(("walls", "lines", "cover_by"), [
    (("C6",), 1, "C6"),  # beside the attacker
    (("C3",), 1, "C3"),  # beside the target
    (("E5",), 1, "E5"),  # beside a square between
    (("C5", "E5"), 2, "C5"),  # both sides: the middle line is clear
    (("D5",), 3, None),  # in the column: no line of sight
])
def test_in_one_column_a_wall_touching_an_edge_line_obstructs_one_line_and_gives_cover(
    walls: tuple[str, ...], lines: int, cover_by: str | None
) -> None:
    """"A target benefits from cover if any one line from the model's corner touches the obstruction and is still in Line Of Sight.\""""
    s = Scenario("damage-grid", map="7x7", blocked=walls)
    s.add("Meena", f"weapons={RING}", side="a", at="D6", facing="N")
    s.add("Hera", "health=20 body=0", side="b", at="D3", facing="S")
    seen = sight(s.enc, s.enc.grid(), parse_cell("D6"), parse_cell("D3"))
    assert seen.lines == lines
    if lines < 3:
        assert (seen.cover, seen.cover_by) == (10, cover_by)


@pytest.mark.parametrize(("other", "reach"), [("E4", 4), ("H8", 4), ("H5", 4), ("E5", 3), ("G5", 3), ("I2", 6)])
def test_reach_circles_beyond_the_diagram(other: str, reach: int) -> None:
    """"Increase the reach by 1 for every square beyond 3. So the next 'circle' of squares would require Reach 4"."""
    assert reach_to(parse_cell("E8"), "N", parse_cell(other)) == reach


@pytest.mark.parametrize("facing", ["N", "E", "S", "W"])
def test_the_diagram_turns_with_the_model(facing: str) -> None:
    """"B is directly in front of Meena": the square in front is Reach 1 whichever way she faces, beside her Reach 2."""
    dx, dy = FACING_VECTORS[facing]
    e8 = parse_cell("E8")
    front, beside = Cell(e8.col + dx, e8.row + dy), Cell(e8.col - dy, e8.row + dx)
    assert (reach_to(e8, facing, front), reach_to(e8, facing, beside)) == (1, 2)


def _meena_facing_abc() -> Scenario:
    s = Scenario("damage-grid", map="12x10", blocked=("C8", "D8"))
    s.add("Meena", f"weapons={SABER},{RING}", side="a", at="E8", facing="N")
    for name, at in (("A", "C7"), ("B", "E7"), ("C", "G6")):
        s.add(name, "health=20 body=9", side="b", at=at, facing="S")
    s.run("init_roll")
    s.run("next", actor="B")
    return s


@pytest.mark.parametrize("target", ["A", "C"])
def test_meena_reaches_b_with_the_saber_but_a_and_c_only_with_the_ring(target: str) -> None:
    """"Only B is within the reach of the Gravity Saber, both A and C are at a range of 3 ... A, B and C are within the range of the Pulse Laser Ring.\""""
    s = _meena_facing_abc()
    message = s.refused("attack", [1, 1, 1, 1], actor="Meena", target=target, weapon="gravity-saber", error=IllegalAction)
    assert "Reach 3" in message
    res = s.run("attack", [1, 1, 1], actor="Meena", target=target, weapon="pulse-ring")
    assert events(res, DgAttack)[0].distance == 3


def test_meena_reaches_b_with_the_saber() -> None:
    """"Only B is within the reach of the Gravity Saber ... B is directly in front of Meena.\""""
    s = _meena_facing_abc()
    res = s.run("attack", [1, 1, 1, 1], actor="Meena", target="B", weapon="gravity-saber")
    assert events(res, DgAttack)[0].distance == 1


def test_only_the_square_immediately_behind_can_be_attacked_from_the_rows_behind() -> None:
    """"If the target is not in any row behind the model except the square immediately behind.\""""
    behind = duel(a_sheet=f"weapons={RING}", b_at="F9")
    assert "row behind" in behind.refused("attack", [1, 1, 1], actor="Meena", target="Hera", error=IllegalAction)
    straight = duel(a_sheet=f"weapons={SABER}", b_sheet="health=20", b_at="E9")
    straight.run("attack", [6, 6, 6, 6, 6], actor="Meena", target="Hera")
    assert straight.get("Hera").status == "active"


def test_reach_1_or_2_weapons_without_melee_cannot_attack() -> None:
    """"If the Reach is 1 or 2 and the weapon does not have melee it cannot be used in the attack.\""""
    s = duel(a_sheet="weapons=stub:2:3:0")
    assert "no melee" in s.refused("attack", [1, 1, 1], actor="Meena", target="Hera", error=IllegalAction)


def test_the_reach_1_fallback_uses_health_as_power() -> None:
    """"a model can always attack at Reach 1, even if they do not have any weapons using the current Health attribute ... as its Power.\""""
    s = duel(a_sheet="health=3", b_sheet="health=20 body=9")
    res = s.run("attack", [1, 1, 1], actor="Meena", target="Hera")
    assert events(res, DgAttack)[0].weapon == "bare" and len(events(res, DgAttack)[0].roll.dice) == 3


def test_melee_weapons_in_mutual_reach_exclude_the_others() -> None:
    """"Weapons without melee cannot be used in this situation" (both have melee weapons in reach of each other)."""
    s = duel(a_sheet=f"weapons={SABER},{RING}", b_sheet=f"weapons={SABER}")
    message = s.refused("attack", [1, 1, 1], actor="Meena", target="Hera", weapon="pulse-ring", error=IllegalAction)
    assert "melee" in message


def _walled() -> Scenario:
    s = Scenario("damage-grid", map="12x10", blocked=("C6", "D6"))
    s.add("Meena", f"weapons={RING}", side="a", at="D8", facing="N")
    s.add("B", "health=20 body=1", side="b", at="F5", facing="S")
    s.add("A", "health=20", side="b", at="C4", facing="S")
    s.run("init_roll")
    return s


def test_a_target_past_the_walls_corner_gains_cover() -> None:
    """"A target benefits from cover if any one line from the model's corner touches the obstruction": one line crosses the wall's corner."""
    s = _walled()
    seen = sight(s.enc, s.enc.grid(), parse_cell("D8"), parse_cell("F5"))
    assert seen.lines == 1 and seen.cover == 10
    s.run("next", actor="A")
    res = s.run("attack", [3, 3, 3], actor="Meena", target="B")
    attack = events(res, DgAttack)[0]
    assert attack.sight == "partial" and attack.cover_added == 7
    assert any(m.code == "obstructed" and m.value == -2 for m in attack.accuracy)


def test_a_target_with_all_three_lines_through_the_wall_cannot_be_seen() -> None:
    """"If all 3 lines pass through then there is no LOS.\""""
    s = _walled()
    s.run("next", actor="B")
    assert "line of sight" in s.refused("attack", [1, 1, 1], actor="Meena", target="A", error=IllegalAction)


def test_xul_as_cover_has_body_5() -> None:
    """"Xul is a humanoid of size 2 and has a Body of 3. Adding 2 and 3 give a cover Body total of 5.\""""
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", f"weapons={RING}", side="a", at="E8", facing="N")
    s.add("Xul", "body=3", side="a", at="F7", facing="N")
    s.add("Target", "health=20 body=0", side="b", at="F5", facing="S")
    s.run("init_roll")
    res = s.run("attack", [6, 6, 6], actor="Meena", target="Target")
    attack = events(res, DgAttack)[0]
    assert (attack.cover, attack.cover_by, attack.cover_added, attack.sight) == (5, "Xul", 2, "none")


def test_the_focus_ring_at_reach_9_loses_2_accuracy_with_extended_reach() -> None:
    """"Meena's Focus Ring has Reach 4. Her target Xul is at Reach 9 ... suffering -2 Accuracy.\""""
    s = duel(a_sheet="weapons=focus-ring:4:2:3", b_sheet="health=20", a_at="A10", b_at="A1", extended_reach="yes")
    res = s.run("attack", [6, 6], actor="Meena", target="Hera")
    attack = events(res, DgAttack)[0]
    assert attack.distance == 9 and any(m.code == "extended" and m.value == -2 for m in attack.accuracy)
    plain = duel(a_sheet="weapons=focus-ring:4:2:3", a_at="A10", b_at="A1")
    assert "beyond" in plain.refused("attack", [6, 6], actor="Meena", target="Hera", error=IllegalAction)


def test_melee_weapons_keep_their_base_reach_with_extended_reach() -> None:
    """"Melee weapons can still only attack to their base Reach.\""""
    s = duel(a_sheet=f"weapons={SABER}", b_at="E4", extended_reach="yes")
    assert "beyond" in s.refused("attack", [1, 1, 1, 1], actor="Meena", target="Hera", error=IllegalAction)


def test_darkness_doubles_and_poor_visibility_adds_half_cumulatively() -> None:
    """"Factors are cumulative": darkness doubles the Reach to the target, poor visibility adds 50 % rounded up."""
    s = duel(a_sheet="weapons=gun:5:2:0", b_sheet="health=20", b_at="E6", environment="darkness", haze="poor-visibility")
    message = s.refused("attack", [1, 1], actor="Meena", target="Hera", error=IllegalAction)
    assert "make it 6" in message or "beyond" in message
    lit = duel(a_sheet="weapons=gun:5:2:0 see-in-dark=yes", b_sheet="health=20", b_at="E6", environment="darkness",
               haze="poor-visibility")
    res = lit.run("attack", [1, 1], actor="Meena", target="Hera")
    assert events(res, DgAttack)[0].reach == 3


def test_extreme_brightness_allows_only_reach_1_without_accuracy() -> None:
    """"Extreme Brightness. Models with out Sightless can only attack at Reach 1 without any Accuracy.\""""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=20", environment="extreme-brightness")
    res = s.run("attack", [6, 6, 6, 6], actor="Meena", target="Hera")
    assert sum(m.value for m in events(res, DgAttack)[0].accuracy) == 0 and not events(res, DgAttack)[0].flips


def test_in_one_column_a_wall_between_blocks_and_a_wall_beside_obstructs() -> None:
    """"If the target is in the same row or column as the model then the model can pick which is the f corner": lines touching the wall count."""
    s = duel(blocked=("E6",), b_at="E4", start=False)
    grid = s.enc.grid()
    assert sight(s.enc, grid, parse_cell("E8"), parse_cell("E4")).lines == 3
    beside = duel(blocked=("F6",), b_at="E4", start=False)
    assert sight(beside.enc, beside.enc.grid(), parse_cell("E8"), parse_cell("E4")).lines == 1


def test_a_model_between_in_one_column_gives_cover() -> None:
    """"Xul is standing between Meena and her target": a model in the same column between them is cover."""
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", f"weapons={RING}", side="a", at="E8", facing="N")
    s.add("Xul", "body=3", side="a", at="E7", facing="N")
    s.add("Target", "health=20 body=0", side="b", at="E5", facing="S")
    seen = sight(s.enc, s.enc.grid(), parse_cell("E8"), parse_cell("E5"))
    assert (seen.lines, seen.cover, seen.cover_by) == (0, 5, "Xul")


def test_the_map_shades_the_acting_models_reach_ahead_of_it() -> None:
    """The map's shading for the acting model: the squares within its longest Reach, none in the rows behind."""
    from rules.registry import get_system
    from tests.scenario import Scenario

    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", "weapons=gravity-saber:2:4:3:melee", side="crew", at="E5", facing="N")
    s.add("Hera", "mind=2", side="boarders", at="K9", facing="S")
    s.run("init_roll")
    shaded = {h.cell.name for h in get_system("damage-grid").highlights(s.enc)}
    assert "E4" in shaded and "F5" in shaded and "E3" in shaded  # ahead and beside, reach 2
    assert "E6" in shaded and "E7" not in shaded and "D7" not in shaded  # only the square right behind
    assert "E2" not in shaded and "E5" not in shaded


@pytest.mark.parametrize("environment", ["darkness", "total-darkness", "brightness", "extreme-brightness",
                                         "poor-visibility", "abysmal-visibility"])
def test_a_model_can_always_attack_at_reach_1(environment: str) -> None:
    """"Factors are cumulative. However a model can always attack at Reach 1, even if they do not have any weapons"."""
    s = duel(a_sheet="health=3", b_sheet="health=20 body=9", environment=environment, haze="abysmal-visibility")
    res = s.run("attack", [1, 1, 1], actor="Meena", target="Hera", weapon="bare")
    attack = events(res, DgAttack)[0]
    assert (attack.distance, attack.reach) == (1, 1)


def test_a_wall_beside_a_line_in_one_column_gives_cover_as_well_as_minus_2() -> None:
    """"A target benefits from cover if any one line from the model's corner touches the obstruction and is still in Line Of Sight.\""""
    s = duel(a_sheet=f"weapons={RING}", b_sheet="health=20 body=0", blocked=("F6",), b_at="E4")
    seen = sight(s.enc, s.enc.grid(), parse_cell("E8"), parse_cell("E4"))
    assert (seen.lines, seen.cover, seen.cover_by) == (1, 10, "F6")
    attack = events(s.run("attack", [3, 3, 3], actor="Meena", target="Hera"), DgAttack)[0]
    assert attack.sight == "partial" and attack.cover_added == 7


def test_darkness_does_not_double_the_reach_to_a_lit_target() -> None:
    """"Darkness. If a model cannot see in the dark or the target is not illuminated, the Reach to the target is doubled": `lit=yes` on the target's sheet."""
    dark = duel(a_sheet="weapons=gun:4:2:0", b_sheet="health=20", b_at="E5", environment="darkness")
    assert "darkness makes it 6" in dark.refused("attack", [1, 1], actor="Meena", target="Hera", error=IllegalAction)
    lit = duel(a_sheet="weapons=gun:4:2:0", b_sheet="health=20 lit=yes", b_at="E5", environment="darkness")
    assert events(lit.run("attack", [1, 1], actor="Meena", target="Hera"), DgAttack)[0].reach == 3


def test_each_cover_square_has_its_own_body() -> None:
    """"Cover is categorized into three groups ... Impenetrable. The Body of the cover is 13 or more": a square's own Body (`cover_body`) replaces the wall's."""
    s = Scenario("damage-grid", map="12x10", blocked=("C6", "D6"), cover_body="C6/14,D6/14")
    s.add("Meena", f"weapons={RING}", side="a", at="D8", facing="N")
    s.add("B", "health=20 body=1", side="b", at="F5", facing="S")
    s.run("init_roll")
    seen = sight(s.enc, s.enc.grid(), parse_cell("D8"), parse_cell("F5"))
    assert (seen.cover, seen.cover_by) == (14, "D6")
    attack = events(s.run("attack", [3, 3, 3], actor="Meena", target="B"), DgAttack)[0]
    assert attack.cover_added == 11


def test_a_cover_square_is_debris_at_its_own_body() -> None:
    """"Treat the Body of the cover as the Body damage square with a Health of the same value": a soft square of Body 4 falls after 4 hits."""
    s = duel(a_sheet="weapons=cannon:4:4:0", b_at="J2", cover_body="E6/4")
    s.enc.map.blocked = ["E6"]
    s.run("attack", [1, 2, 3, 4], actor="Meena", target="E6")
    assert "E6" in s.enc.state.debris


def test_darkness_does_not_double_the_reach_to_a_target_on_a_lit_square() -> None:
    """"If a model cannot see in the dark or the target is not illuminated, the Reach to the target is doubled": lighting per square (`lit_squares`)."""
    lit = duel(a_sheet="weapons=gun:4:2:0", b_sheet="health=20", b_at="E5", environment="darkness", lit_squares="D4:F5")
    assert events(lit.run("attack", [1, 1], actor="Meena", target="Hera"), DgAttack)[0].reach == 3
    dark = duel(a_sheet="weapons=gun:4:2:0", b_sheet="health=20", b_at="E5", environment="darkness", lit_squares="D2:F3")
    assert "darkness makes it 6" in dark.refused("attack", [1, 1], actor="Meena", target="Hera", error=IllegalAction)


def test_a_target_beside_in_darkness_is_reached_by_turning_to_face_it() -> None:
    """"However a model can always attack at Reach 1": a model beside is at Reach 2 (the diagram), so the refusal says to face it, not to get closer."""
    s = duel(a_sheet="health=3", b_sheet="health=20", b_at="F8", environment="darkness")
    message = s.refused("attack", [1, 1, 1], actor="Meena", target="Hera", weapon="bare", error=IllegalAction)
    assert "turn to face it" in message and "get closer" not in message


def _smoke_between(**options: str) -> Scenario:
    """Meena on E8 throws the text's Smoke grenade (Power 0, here Burst 1) onto E6, between her and Hera on E5; the
    next phase begins with the cloud where it is (a 9)."""
    s = duel(a_sheet="weapons=smoke-grenade:4:0:0:area=burst1:cloud=4,gun:5:2:0", b_sheet="health=20", b_at="E5",
             **options)
    s.run("attack", actor="Meena", target="E6", weapon="smoke-grenade")
    s.run("next", actor="Meena")
    s.run("next", [9], actor="Hera")
    return s


def test_smoke_between_is_poor_visibility_not_an_obstruction() -> None:
    """"Poor Visibility: Rain, smoke or some kind of interference. The Reach to the target is increased by 50% rounded up.\""""
    s = _smoke_between()
    attack = events(s.run("attack", [1, 1], actor="Meena", target="Hera", weapon="gun"), DgAttack)[0]
    assert (attack.sight, attack.distance, attack.reach) == ("none", 3, 5)


def test_smoke_on_the_target_is_poor_visibility_and_smoke_beside_the_line_too() -> None:
    """"Poor Visibility: Rain, smoke or some kind of interference": a cloud on the target's square, or touching a corner line, counts."""
    s = _smoke_between()
    for cells, smoky in ((["E5"], True), (["F7"], True), (["G6"], False)):
        s.enc.effects = [s.enc.effects[0].model_copy(update={"cells": cells})]
        assert view(s.enc, s.get("Meena"), 3, parse_cell("E5")).distance == (5 if smoky else 3)


def test_smoke_and_rain_are_one_poor_visibility_factor() -> None:
    """"Poor Visibility: Rain, smoke or some kind of interference": rain (`haze`) and smoke together are still Reach +50 %."""
    s = _smoke_between(haze="poor-visibility")
    attack = events(s.run("attack", [1, 1], actor="Meena", target="Hera", weapon="gun"), DgAttack)[0]
    assert attack.reach == 5


def test_smoke_blocks_sight_as_an_option() -> None:
    """`smoke=blocks`: a GM's reading where a cloud's squares obstruct the corner lines as a wall does."""
    s = _smoke_between(smoke="blocks")
    assert "line of sight" in s.refused("attack", [1, 1], actor="Meena", target="Hera", weapon="gun", error=IllegalAction)


def test_a_model_beside_the_lines_is_not_in_the_way() -> None:
    """"Other models can be in the way of a model's target just like an obstructing providing cover": a model beside
    the line of an attack straight ahead (a corner line runs along its side) is not in the way; one on it is. (A wall
    there gives cover: "any one line from the model's corner touches the obstruction".)"""
    for beside, cover_by in (("C5", None), ("D5", "Xul")):
        s = Scenario("damage-grid", map="7x7")
        s.add("Meena", f"weapons={SABER},{RING}", side="a", at="D6", facing="N")
        s.add("T", "health=20 body=0", side="b", at="D3", facing="S")
        s.add("Xul", "health=20 body=3", side="b", at=beside, facing="S")
        assert sight(s.enc, s.enc.grid(), parse_cell("D6"), parse_cell("D3")).cover_by == cover_by, beside


def test_the_melee_rule_refuses_a_shot_at_a_hidden_model_without_telling_its_weapon() -> None:
    """"When both models have melee weapons in reach of each other, only melee weapons may be used"
    (docs/systems/damage-grid.md), and "No other number of a hidden combatant reaches players either, on any path"
    (docs/commands.md): the shot at the GM's hidden Hera (a Reach 3 whip) is still refused, and the refusal says what
    to use instead, not that Hera has a melee weapon in reach; a shown model's refusal keeps the reason."""
    def refusal(hera_owner: str | None) -> str:
        s = Scenario("damage-grid", map="12x10")
        s.add("Meena", "body=1 weapons=saber:2:4:3:melee,pistol:6:3:1", side="a", at="E8", facing="N")
        s.add("Hera", "health=6 weapons=whip:3:3:1:melee", side="b", at="E6", facing="S", owner=hera_owner)
        s.run("init_roll")
        return s.refused("attack", [1, 2, 3], actor="Meena", target="Hera", weapon="pistol", error=IllegalAction)

    hidden = refusal(None)
    assert hidden == "Only a melee weapon can be used against Hera from here: attack with the saber.", hidden
    assert "Meena and Hera both have melee weapons in reach of each other" in refusal("900000000000000003")


def test_whether_a_hidden_model_is_lit_is_everyones_to_see() -> None:
    """"Whether a model is lit is everyone's to see, a hidden model's too (a light shows in the dark): the Reach
    counted to a hidden model ... and the refusal of one beyond a weapon's Reach ... tell players whether it is lit"
    (docs/systems/damage-grid.md; the sheet's `lit`: "everyone sees it, a hidden model's too"): in darkness a player's shot at the GM's hidden Hera counts the Reach to her doubled
    unless her sheet has `lit=yes`, and the players' line and refusal say so, as for a shown model."""
    def hera(lit: str) -> Scenario:
        s = Scenario("damage-grid", map="12x10", environment="darkness")
        s.add("Meena", "body=1 weapons=pistol:6:3:3,dart:3:2:1", side="crew", at="E8", facing="N")
        s.add("Hera", f"body=0 lit={lit} weapons=claw:1:3:1:melee", side="boarders", at="E5", facing="S", owner=None)
        s.run("init_roll")
        assert s.enc.hidden(s.get("Hera"))
        return s

    def public(s: Scenario, dice: list[int], weapon: str) -> str:
        (attack,) = events(s.run("attack", dice, actor="Meena", target="Hera", weapon=weapon), DgAttack)
        return for_reader(s.system.present.view(s.enc, frozenset({"Hera"})).marked(attack), lambda name: name != "Hera")

    assert public(hera("yes"), [1, 2, 2, 5], "dart").startswith("**Meena** attacks **Hera** with dart (Reach 3)")
    dark = hera("no")
    refusal = dark.refused("attack", [1, 2], actor="Meena", target="Hera", weapon="dart", error=IllegalAction)
    assert "The target is at Reach 3 (darkness makes it 6), beyond the dart's Reach 3" in refusal, refusal
    assert public(dark, [1, 2, 6], "pistol").startswith("**Meena** attacks **Hera** with pistol (Reach 3, counted 6)")
