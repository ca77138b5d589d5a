"""The damage-grid game's rules name terms by code and work out what the board shows (`DgFacts`);
its presenter words both and works nothing out."""
from __future__ import annotations

from rules.events import mod
from rules.systems.damage_grid.events import DgAttack
from rules.systems.damage_grid.facts import DgFacts
from tests.rules.damage_grid.build import SABER, SYSTEM, duel, events


def test_the_accuracy_terms_name_the_size_and_the_weapon_in_their_args() -> None:
    """"A target with a size of 4 increases Accuracy by 3": the code ``size`` carries the size, worded ``size 4``."""
    s = duel(a_sheet="weapons=gun:6:1:0", b_sheet="size=4 health=9 body=9", b_at="E4")
    attack = events(s.run("attack", [6], actor="Meena", target="Hera"), DgAttack)[0]
    assert [(m.code, m.args, m.value) for m in attack.accuracy] == [("weapon", ["gun"], 0), ("size", [4], 3)]
    assert "Accuracy 0 gun +3 size 4 = 3" in SYSTEM.present.text(attack)


def test_the_bare_attacks_power_is_the_health_term() -> None:
    """"A model can always attack at Reach 1 ... using the current Health attribute of the model as its Power"."""
    s = duel(a_sheet="", b_sheet="health=20")
    attack = events(s.run("attack", [3, 3, 5], actor="Meena", target="Hera"), DgAttack)[0]
    assert [(m.code, m.value) for m in attack.power] == [("health", 3)]
    assert "Power 3 Health = 3; Accuracy 0 bare = 0" in SYSTEM.present.text(attack)


def test_total_darkness_leaves_the_reach_1_term_alone() -> None:
    """"Total Darkness ... the model can only attack at Reach 1 and without any Accuracy"."""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=20", environment="total-darkness")
    attack = events(s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera"), DgAttack)[0]
    assert attack.accuracy == [mod("reach-1", 0)]
    assert "Accuracy 0 only Reach 1, no Accuracy = 0" in SYSTEM.present.text(attack)


def test_the_sight_terms_are_worded_as_the_text_names_them() -> None:
    """"If the target is partially obstructed ... decreases Accuracy by 2"; "hidden by an obstruction ... by 4"; "A moving target ... A fast moving target": each code's words."""
    words = [SYSTEM.present.term(m) for m in (mod("obstructed", -2), mod("hidden", -4), mod("fast", -3), mod("moving", -1))]
    assert words == ["partly obstructed", "hidden", "fast", "moving"]


def test_the_facts_carry_the_clouds_squares_row_by_row() -> None:
    """"The Smoke grenade is Burst 2 Cloud 4; it will occupy 4 concentrated squares": the facts list them for the board."""
    s = duel(a_sheet="weapons=smoke:5:0:0:area=burst2:cloud=4", b_sheet="health=9 body=9", b_at="E4")
    assert s.system.facts(s.enc).cloud == ()
    s.run("attack", actor="Meena", target="E6", weapon="smoke")
    facts = s.system.facts(s.enc)
    assert isinstance(facts, DgFacts) and facts.cloud == ("E5", "F5", "E6", "F6")
    assert s.enc.effects[0].cells == ["E6", "E5", "F5", "F6"]  # as stored: the aimed square first
    assert "Cloud on E5, F5, E6, F6" in s.system.present.board_extra(s.enc, facts)


def test_the_board_words_the_cloud_it_is_handed() -> None:
    """The presenter words the facts' squares as given: it works out no cloud of its own."""
    s = duel()
    facts = DgFacts(turn=s.system.turn(s.enc), cloud=("A1", "B1"))
    assert s.system.present.board_extra(s.enc, facts) == ["Cloud on A1, B1"]
