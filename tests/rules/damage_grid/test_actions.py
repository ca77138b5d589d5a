"""`/act`: Lunge, Grapple and breaking free; attacks on cover squares."""
from __future__ import annotations

from typing import Any

import pytest

from rules.errors import IllegalAction
from rules.systems.damage_grid.events import (
    CloudDrifted,
    CoverHit,
    DgAttack,
    DgMoved,
    GrappleTest,
    ProneChanged,
)
from rules.systems.damage_grid.state import DgCombatant
from tests.rules.damage_grid.build import SABER, duel, events
from tests.scenario import Scenario


def test_a_lunge_moves_next_to_the_target_and_attacks_with_one_cp() -> None:
    """"A model can make a Lunge activation that combines movement and combat into one ... costs 1 Combat Point\""""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=9 body=0", b_at="E5")
    res = s.run("act", [2, 2, 2, 6], actor="Meena", action="lunge", target="Hera", options={"aim": "speed"})
    assert events(res, DgMoved)[0].path[-1] == "E6"
    assert events(res, DgAttack)[0].special == "lunge"
    assert DgCombatant.of(s.get("Meena")).cp == 1 and not DgCombatant.of(s.get("Meena")).prone
    assert "Lunge" in s.refused("attack", [1, 1, 1, 1], actor="Meena", target="Hera", error=IllegalAction)


def test_a_lunge_that_does_no_damage_leaves_the_lunger_prone() -> None:
    """"If the model fails to damage the target they have fallen to the ground.\""""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="body=9", b_at="E5")
    res = s.run("act", [2, 2, 2, 2], actor="Meena", action="lunge", target="Hera")
    assert events(res, ProneChanged)[0].cause == "lunge" and DgCombatant.of(s.get("Meena")).prone


def _xul_and_h(xul_at: str, xul_sheet: str = "weapons=club:1:2:0:melee", facing: str = "S",
               blocked: tuple[str, ...] = ()) -> Scenario:
    """Xul (side a) with a Reach 1 club on ``xul_at``, H (side b) on E4 facing S; the fight begun."""
    s = Scenario("damage-grid", map="12x12", blocked=blocked)
    s.add("Xul", xul_sheet, side="a", at=xul_at, facing=facing)
    s.add("H", "body=1 health=4 mind=3", side="b", at="E4", facing="S")
    s.run("init_roll")
    return s


def test_a_lunge_turns_to_face_a_target_beside_it() -> None:
    """"A model can make a Lunge activation that combines movement and combat into one ... The model must be able to
    move to an adjacent square from the target": Xul beside H, facing away from it, turns to face it and strikes at
    Reach 1 with the club."""
    s = _xul_and_h("D4", "body=3 weapons=club:1:2:0:melee")
    res = s.run("act", [6, 6], actor="Xul", action="lunge", target="H")
    (moved,) = events(res, DgMoved)
    assert moved.path == ["D4"] and moved.facing == "E" and s.get("Xul").facing == "E"
    assert events(res, DgAttack)[0].distance == 1
    assert s.system.present.text(moved) == "**Xul** turns to face E"


def test_a_lunge_at_the_target_directly_behind_turns_to_face_it() -> None:
    """The Lunge "combines movement and combat into one" and the lunger ends facing its target: Xul facing N with H in
    the square directly behind (Reach 1 either way) turns to face it, as it does beside it."""
    s = _xul_and_h("E3", "body=3 weapons=club:1:2:0:melee", facing="N")
    res = s.run("act", [6, 6, 6], actor="Xul", action="lunge", target="H")  # from behind H: Power +1
    (moved,) = events(res, DgMoved)
    assert moved.path == ["E3"] and moved.facing == "S" and s.get("Xul").facing == "S"
    assert s.system.present.text(moved) == "**Xul** turns to face S"


def test_a_lunge_to_a_square_diagonal_to_the_target_says_so() -> None:
    """"The model must be able to move to an adjacent square from the target": `to=D3`, diagonal to H, is Reach 2,
    beyond the club's Reach 1; the refusal names the square and says that leaving out `to=` steps beside H."""
    s = _xul_and_h("D6", facing="N")
    message = s.refused("act", [6, 6], actor="Xul", action="lunge", target="H", options={"to": "D3"}, error=IllegalAction)
    assert "D3 is diagonal to H (Reach 2)" in message and "the club's Reach 1" in message
    assert "leave out `to=`" in message and s.get("Xul").cell.name == "D6"


def test_a_prone_lunger_beside_its_target_stands_up_where_it_is() -> None:
    """A Lunge "combines movement and combat into one": a prone model already beside its target stands up (1 Speed
    point) and strikes; the reply says it stood up, not that it moved."""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=9 body=0", b_at="E7")
    DgCombatant.of(s.get("Meena")).prone = True
    res = s.run("act", [2, 2, 2, 6], actor="Meena", action="lunge", target="Hera", options={"aim": "speed"})
    (moved,) = events(res, DgMoved)
    assert s.system.present.text(moved) == "**Meena** stands up (1 Speed point, 3 left)"
    assert not DgCombatant.of(s.get("Meena")).prone


def test_a_lunge_leaves_a_diagonal_square_for_one_its_weapon_reaches_from() -> None:
    """A square diagonal to the target is Reach 2 ("The model must be able to move to an adjacent square from the
    target"): Xul on a diagonal with a Reach 1 club steps beside H, facing it; with nowhere to go the refusal says why."""
    s = _xul_and_h("D5", facing="N")
    res = s.run("act", [6, 6], actor="Xul", action="lunge", target="H")
    (moved,) = events(res, DgMoved)
    assert moved.path[-1] in ("D4", "E5") and events(res, DgAttack)[0].distance == 1
    walled = _xul_and_h("D5", "weapons=club:1:2:0:melee speed=0", "N", ("D4", "E5", "C5", "D6", "C4", "C6", "E6"))
    message = walled.refused("act", [6, 6], actor="Xul", action="lunge", target="H", error=IllegalAction)
    assert "Reach 1" in message and "longer Reach" in message and "/move facing:" not in message
    far = _xul_and_h("D8", "weapons=club:1:2:0:melee speed=1", "N")
    message = far.refused("act", [6, 6], actor="Xul", action="lunge", target="H", error=IllegalAction)
    assert "cannot reach a square next to H with 1 Speed point: move closer" in message


def test_a_grapple_is_won_by_the_larger_group_of_equal_faces() -> None:
    """"Both model and target roll an attack using their Health as the Power. The side with the greater number of same facings is the winner.\""""
    s = duel(a_sheet="health=3", b_sheet="health=2")
    res = s.run("act", [4, 4, 1, 2, 5], actor="Meena", action="grapple", target="Hera")
    test = events(res, GrappleTest)[0]
    assert (test.best, test.target_best, test.won) == (2, 1, True)
    assert DgCombatant.of(s.get("Hera")).grappled_by == ["Meena"]


def test_a_grapple_and_an_attack_share_a_combat_activation() -> None:
    """A Grapple is one of the text's "Special Attacks" ("Both model and target roll an attack using their Health as the
    Power"), and "Making an attack ... costs 1 Combat point": with 2 CP a model attacks and then grapples in one Combat
    activation, or grapples and then attacks."""
    for first in ("attack", "grapple"):
        s = duel(a_sheet=f"health=3 weapons={SABER}", b_sheet="health=2 body=9")
        steps = {"attack": lambda: s.run("attack", [2, 2, 2, 2], actor="Meena", target="Hera"),
                 "grapple": lambda: s.run("act", [4, 4, 1, 2, 5], actor="Meena", action="grapple", target="Hera")}
        steps[first]()
        steps["grapple" if first == "attack" else "attack"]()
        assert DgCombatant.of(s.get("Meena")).cp == 0 and DgCombatant.of(s.get("Hera")).grappled_by == ["Meena"]


def test_helpers_add_power_to_a_grapple() -> None:
    """"Additional models can aid in a Grapple each increasing the Power of the grapple by 1.\""""
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", "health=2", side="a", at="E8", facing="N").add("Kit", side="a", at="F7", facing="N")
    s.add("Hera", "health=2", side="b", at="E7", facing="S")
    s.run("init_roll")
    res = s.run("act", [1, 2, 3, 6, 6], actor="Meena", action="grapple", target="Hera")
    test = events(res, GrappleTest)[0]
    assert test.helpers == ["Kit"] and len(test.dice) == 3 and not test.won


def test_the_holders_helpers_add_power_when_the_held_model_breaks_free() -> None:
    """"If the target is grappled it must break the grapple spending 1 Combat Point. The test is the same." and
    "Additional models can aid in a Grapple each increasing the Power of the grapple by 1": Kit, still next to Hera,
    adds 1 to Meena's dice when Hera tries to break free."""
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", "health=2", side="a", at="E8", facing="N").add("Kit", side="a", at="F7", facing="N")
    s.add("Hera", "health=2", side="b", at="E7", facing="S")
    s.run("init_roll")
    DgCombatant.of(s.get("Hera")).grappled_by = ["Meena"]
    s.run("next", actor="Meena")
    res = s.run("act", [5, 5, 1, 2, 3], actor="Hera", action="break")
    test = events(res, GrappleTest)[0]
    assert test.target_helpers == ["Kit"] and len(test.target_dice) == 2 + 1 and test.won
    assert "helped by Kit" in s.system.present.text(test)


def test_melee_attacks_on_a_grappled_target_gain_two_accuracy_and_it_can_break_free() -> None:
    """"Melee attacks against a grappled target benefit Accuracy +2"; "it must break the grapple spending 1 Combat Point.\""""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=2 body=9")
    DgCombatant.of(s.get("Hera")).grappled_by = ["Meena"]
    res = s.run("attack", [3, 3, 3, 3], actor="Meena", target="Hera")
    assert any(m.code == "grappled" and m.value == 2 for m in events(res, DgAttack)[0].accuracy)
    s.run("next", actor="Meena")
    res = s.run("act", [5, 5, 1, 2, 3], actor="Hera", action="break")
    assert events(res, GrappleTest)[0].won and DgCombatant.of(s.get("Hera")).grappled_by == []


def test_a_tie_on_a_grapple_break_keeps_the_model_held() -> None:
    """"If the target is grappled it must break the grapple spending 1 Combat Point. The test is the same": the text
    leaves a tie open; the grapple stands until broken, so a tie keeps Hera held (as docs/systems/damage-grid.md says)."""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=2 body=9")
    DgCombatant.of(s.get("Hera")).grappled_by = ["Meena"]
    s.run("next", actor="Meena")
    res = s.run("act", [5, 5, 1, 1, 2], actor="Hera", action="break")
    test = events(res, GrappleTest)[0]
    assert (test.best, test.target_best, test.won) == (2, 2, False)
    assert DgCombatant.of(s.get("Hera")).grappled_by == ["Meena"]


def test_cover_can_be_shot_to_debris() -> None:
    """"When the Health of the cover is reduced to 0 it is destroyed or reduced to debris that will not provide cover anymore\""""
    s = duel(a_sheet="weapons=cannon:4:6:0", b_at="J2", obstacle_body="5")
    s.enc.map.terrain = {"E6": "obstacle"}
    res = s.run("attack", [1, 2, 3, 4, 5, 6], actor="Meena", target="E6")
    assert events(res, CoverHit)[0].debris and "E6" in s.enc.state.debris
    s.run("next", actor="Meena")
    s.run("next", actor="Hera")
    moved = events(s.run("move", actor="Meena", path="N N"), DgMoved)[0]
    assert moved.rough == ["E6"]


def test_debris_and_an_empty_square_are_refused_as_targets_saying_why() -> None:
    """Debris "will not provide cover anymore": attacked again, the square is refused as debris (no cover, so no
    target), not as a name the bot does not know; an empty square is refused as one an area weapon aims at."""
    s = duel(a_sheet="weapons=cannon:4:6:0", b_at="J2", obstacle_body="5")
    s.enc.map.terrain = {"E6": "obstacle"}
    s.run("attack", [1, 2, 3, 4, 5, 6], actor="Meena", target="E6")
    again = s.refused("attack", [1, 2, 3, 4, 5, 6], actor="Meena", target="E6")
    assert "E6 is debris now: it gives no cover and is no target" in again, again
    empty = s.refused("attack", [1, 2, 3, 4, 5, 6], actor="Meena", target="F6")
    assert "F6 is an empty square" in empty and "area weapon" in empty, empty


def test_an_area_weapon_attacks_every_model_in_it_with_separate_dice() -> None:
    """"Any model in the Area Affect is affected ... with separate die rolls. This includes models friendly\""""
    s = Scenario("damage-grid", map="12x10")
    s.add("Juno", "weapons=grenade:5:2:0:blast:area=star1", side="a", at="E8", facing="N")
    s.add("Kit", "health=9 body=9", side="a", at="D5", facing="N")
    s.add("Hera", "health=9 body=9 shield=5", side="b", at="E5", facing="S")
    s.add("Xul", "health=9 body=9", side="b", at="H5", facing="S")
    s.run("init_roll")
    res = s.run("attack", [1, 1, 2, 2], actor="Juno", target="E5", weapon="grenade")
    hit = [e.target for e in events(res, DgAttack)]
    assert hit == ["Kit", "Hera"] and all(e.area == "E5" for e in events(res, DgAttack))


def test_a_cloud_drifts_or_ends_on_its_d10() -> None:
    """A cloud stays on its squares: "Each phase roll a D10. On a 0 the Cloud disappears prematurely. Any other result the cloud is moved\""""
    s = duel(a_sheet="weapons=smoke:5:1:0:area=burst1:cloud=4,gun:8:1:0", b_sheet="health=9 body=9", b_at="E4")
    s.run("attack", actor="Meena", target="E6", weapon="smoke")
    assert s.enc.effects[0].cells == ["E6"]
    s.run("next", actor="Meena")
    res = s.run("next", [3], actor="Hera")
    assert events(res, CloudDrifted)[0].direction == "E" and s.enc.effects[0].cells == ["F6"]
    assert "The smoke cloud rolls 3 and drifts E, to F6" in s.text(res)  # where it is now, as the board shows
    s.run("next", actor="Meena")
    res = s.run("next", [10], actor="Hera")
    assert events(res, CloudDrifted)[0].gone and not s.enc.effects


def test_a_grappler_that_moves_away_lets_go() -> None:
    """A grapple holds while the grappler stays: moving away (or falling inert) releases the target."""
    s = duel(a_sheet="health=3", b_sheet="health=2")
    s.run("act", [4, 4, 1, 2, 5], actor="Meena", action="grapple", target="Hera")
    s.run("next", actor="Meena")
    s.run("next", actor="Hera")
    s.run("move", actor="Meena", path="S")
    assert DgCombatant.of(s.get("Hera")).grappled_by == []


def test_a_pulse_strikes_the_next_circle_as_each_phase_begins() -> None:
    """"Pulse X. The Area Affect is the reach circle in phases after the Area Affect is triggered ... Previous phases are not affected again.\""""
    s = duel(a_sheet="weapons=pulser:5:1:0:area=pulse2", b_sheet="health=9 body=0", b_at="E4")
    res = s.run("attack", actor="Meena", target="E5", weapon="pulser")
    assert not events(res, DgAttack)
    s.run("next", actor="Meena")
    res = s.run("next", [6], actor="Hera")
    assert [e.target for e in events(res, DgAttack)] == ["Hera"]
    s.run("next", actor="Meena")
    res = s.run("next", actor="Hera")
    assert not events(res, DgAttack) and not s.enc.effects


@pytest.mark.parametrize(("kind", "extra"), [("attack", {"target": "Meena"}), ("grapple", {"target": "Meena"}),
                                             ("coup", {"target": "Meena"}), ("move", {"to": "F8"})])
def test_a_grappled_model_can_only_try_to_break_the_grapple(kind: str, extra: dict) -> None:
    """"A model can attempt to Grapple its target to stop it from moving and performing any other activation that to break the grapple.\""""
    s = duel(a_sheet=f"weapons={SABER} health=2", b_sheet=f"health=2 weapons={SABER}")
    s.run("act", [4, 4, 1, 2], actor="Meena", action="grapple", target="Hera")
    s.run("next", actor="Meena")
    if kind == "coup":
        s.get("Meena").status = "downed"
    action = {"attack": "attack", "coup": "coupdegrace", "move": "move"}.get(kind, "act")
    named = {"action": "grapple"} if kind == "grapple" else {}
    message = s.refused(action, [1, 1, 1, 1], actor="Hera", error=IllegalAction, **named, **extra)
    assert "held in a grapple" in message
    res = s.run("act", [5, 5, 1, 2], actor="Hera", action="break")
    assert events(res, GrappleTest)[0].won


def test_attacking_cover_applies_the_power_modifiers() -> None:
    """"The cover itself can be target by an attack": its Power is modified as any attack's ("A weapon low on power attacks with only half its Power rounded up")."""
    s = duel(a_sheet="weapons=cannon:4:5:0", b_at="J2", gravity="-1")
    s.enc.map.terrain = {"E6": "obstacle"}
    res = s.run("attack", [1, 2], actor="Meena", target="E6", options={"low": ""})
    attack = events(res, DgAttack)[0]
    assert len(attack.roll.dice) == 2 and sum(m.value for m in attack.power) == 2
    assert events(res, CoverHit)[0].hits == 2
    text = "\n".join(s.text(res))
    assert "Power 5 cannon −2 low on power −1 gravity = 2" in text and "Accuracy" not in text


def test_cover_behind_other_cover_cannot_be_shot() -> None:
    """"If all 3 lines pass through then there is no LOS": a wall behind another wall is out of sight."""
    s = duel(a_sheet="weapons=cannon:4:5:0", b_at="J2", blocked=("E6", "E5"))
    message = s.refused("attack", [1, 1, 1, 1, 1], actor="Meena", target="E5", error=IllegalAction)
    assert "line of sight" in message
    assert events(s.run("attack", [1, 1, 1, 1, 1], actor="Meena", target="E6"), CoverHit)


def _walled_blast(weapon: str, **options: str) -> Scenario:
    s = Scenario("damage-grid", map="12x10", blocked=("F3", "F4", "F5", "F6", "F7"), **options)
    s.add("Juno", f"weapons={weapon}", side="a", at="E8", facing="N")
    s.add("Kit", "health=9 body=9", side="a", at="D5", facing="N")
    s.add("Xul", "health=9 body=9", side="b", at="G5", facing="S")
    s.add("Hera", "health=9 body=9", side="b", at="H9", facing="S")
    s.run("init_roll")
    return s


def test_an_area_stops_at_obstructions() -> None:
    """"Obstructions that the Area Affect cannot penetrate mean obstructed squares are not affected by it": Xul behind the wall is spared."""
    s = _walled_blast("grenade:5:2:0:area=star2")
    res = s.run("attack", [1, 1], actor="Juno", target="E5", weapon="grenade")
    assert [e.target for e in events(res, DgAttack)] == ["Kit"]


def test_a_penetrating_area_goes_through_obstructions() -> None:
    """"Obstructions that the Area Affect cannot penetrate": a weapon marked `penetrate` reaches Xul behind the wall."""
    s = _walled_blast("grenade:5:2:0:area=star2:penetrate")
    res = s.run("attack", [1, 1, 1, 1], actor="Juno", target="E5", weapon="grenade")
    assert [e.target for e in events(res, DgAttack)] == ["Kit", "Xul"]


def test_an_area_aimed_at_a_hidden_square_is_hidden_and_covered() -> None:
    """"If the target is hidden by an obstruction (two lines pass through) decreases Accuracy by 4": so does a Burst 1 aimed at its square, with its cover."""
    s = Scenario("damage-grid", map="12x10", blocked=("C8", "D8"))
    s.add("Meena", "weapons=grenade:4:3:2:area=burst1", side="a", at="E8", facing="N")
    s.add("A", "health=1 mind=1 body=0", side="b", at="C7", facing="S")
    s.add("B", side="b", at="K1", facing="S")
    s.run("init_roll")
    s.run("next", actor="B")
    attack = events(s.run("attack", [2, 2, 2], actor="Meena", target="C7"), DgAttack)[0]
    assert attack.sight == "hidden" and any(m.code == "hidden" and m.value == -4 for m in attack.accuracy)
    assert (attack.cover, attack.cover_added) == (10, 7) and s.get("A").status == "active"


def test_a_cloud_affects_the_models_under_it_in_each_phase_it_lasts() -> None:
    """"Most Area Affects expire immediately at the end of the phase they were placed. However some can stay in effect for multiple phases as Clouds.\""""
    s = duel(a_sheet="weapons=gas:5:1:0:area=burst1:cloud=2", b_sheet="health=9 mind=9 body=0", b_at="E6")
    first = s.run("attack", [2], actor="Meena", target="E6", weapon="gas")
    assert [e.target for e in events(first, DgAttack)] == ["Hera"]
    s.run("next", actor="Meena")
    second = s.run("next", [9, 2], actor="Hera")
    assert events(second, CloudDrifted)[0].roll == 9 and [e.target for e in events(second, DgAttack)] == ["Hera"]
    assert "The gas cloud rolls 9 and stays where it is" in s.text(second)
    assert DgCombatant.of(s.get("Hera")).values["health"] == 7


def test_a_clouds_drift_die_is_not_rolled_in_the_phase_it_ends() -> None:
    """"A Cloud ... is followed by a number, which is the number of phases the Cloud remains on the grid before disappearing": no d10 once they are over."""
    s = duel(a_sheet="weapons=gas:5:1:0:area=burst1:cloud=2", b_sheet="health=9 mind=9 body=0", b_at="E6")
    s.run("attack", [2], actor="Meena", target="E6", weapon="gas")
    s.run("next", actor="Meena")
    s.run("next", [9, 2], actor="Hera")
    s.run("next", actor="Meena")
    third = s.run("next", actor="Hera")
    assert not events(third, CloudDrifted) and not events(third, DgAttack) and not s.enc.effects


def test_an_area_attack_that_catches_no_model_says_so() -> None:
    """"Any model in the Area Affect is affected": with none in it, the reply says the area caught no model (the
    Combat Point is spent), rather than nothing after the activation line."""
    s = duel(a_sheet="weapons=grenade:5:2:0:area=burst1", b_sheet="health=9 body=9", b_at="E3")
    res = s.run("attack", [], actor="Meena", target="H6", weapon="grenade")
    assert "**Meena**'s grenade on H6 catches no model" in s.text(res)
    assert not events(res, DgAttack)


def test_a_clouds_drift_die_is_its_throwers_for_typed_results() -> None:
    """"Roll a D10 ... the Cloud is moved" each phase: the d10 is the cloud's thrower's. A player ending another's
    activation types only their own models' dice (docs/commands.md): the d10 of Meena's cloud stands for a result
    typed by her player (or the GM), not by Hera's, whose typed result is left unused."""
    import random

    from rules.dice import Dice
    from rules.systems.damage_grid.blasts import drift_clouds

    s = duel(a_sheet="weapons=gas:5:1:0:area=burst1:cloud=3", b_sheet="health=9 mind=9 body=0", b_at="E6")
    s.run("attack", [2], actor="Meena", target="E6", weapon="gas")
    heras = Dice(rng=random.Random(7), given=[10], may_type=frozenset({"Hera"}))
    drifted = events_of_kind(drift_clouds(s.enc.model_copy(deep=True), heras), CloudDrifted)
    assert drifted and not drifted[0].gone and heras.rolled[0].given is False
    meenas = Dice(rng=random.Random(7), given=[10], may_type=frozenset({"Meena"}))
    drifted = events_of_kind(drift_clouds(s.enc.model_copy(deep=True), meenas), CloudDrifted)
    assert drifted[0].gone and meenas.rolled[0].given


def events_of_kind(found: list[object], kind: type) -> list[Any]:
    return [e for e in found if isinstance(e, kind)]


def test_a_lunge_ends_where_the_weapon_reaches_the_target() -> None:
    """"The model must be able to move to an adjacent square from the target": with a Reach 1 claw it ends in front of the target, not diagonal (Reach 2)."""
    s = duel(a_sheet="weapons=claw:1:3:0:melee", b_sheet="health=9 body=9", a_at="D8", b_at="F5")
    res = s.run("act", [3, 3, 3], actor="Meena", action="lunge", target="Hera")
    assert events(res, DgMoved)[0].path[-1] == "F6" and events(res, DgAttack)[0].distance == 1


def test_a_drifted_cloud_attacks_from_the_square_it_was_aimed_at_moved_with_it() -> None:
    """"Any other result the cloud is moved ... in the direction of the result": the reply names the aimed square, moved, not the cloud's corner."""
    s = duel(a_sheet="weapons=gas:5:1:0:area=burst2:cloud=3", b_sheet="health=9 mind=9 body=0", b_at="E5")
    first = s.run("attack", [2], actor="Meena", target="E5", weapon="gas")
    assert [e.area for e in events(first, DgAttack)] == ["E5"]
    s.run("next", actor="Meena")
    second = s.run("next", [9, 2], actor="Hera")
    assert [e.area for e in events(second, DgAttack)] == ["E5"] and "area on E5" in "\n".join(s.text(second))
    s.run("next", actor="Meena")
    third = s.run("next", [5, 2], actor="Hera")
    assert events(third, CloudDrifted)[0].direction == "S" and [e.area for e in events(third, DgAttack)] == ["E6"]
