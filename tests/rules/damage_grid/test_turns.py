"""The damage-grid rounds: phases of alternating activations (shared/rules/README.md's default)."""
from __future__ import annotations

from rules.errors import IllegalAction, NotYourTurn
from rules.systems.damage_grid.events import CloudDrifted
from rules.systems.damage_grid.state import DgCombatant
from tests.rules.damage_grid.build import duel
from tests.scenario import Scenario


def test_the_side_with_more_models_activates_first() -> None:
    """"In each phase sides alternate activating one model": the larger side first (ties: joining order)."""
    s = Scenario("damage-grid")
    s.add("A1", side="a", at="B2").add("B1", side="b", at="F2").add("B2", side="b", at="G2")
    s.run("init_roll")
    turn = s.system.turn(s.enc)
    assert turn.side == "b" and set(turn.actors) == {"B1", "B2"}


def test_sides_alternate_then_the_next_phase_and_round_begin() -> None:
    """"a round has 4 phases; in each phase sides alternate activating one model"; CP come back each round."""
    s = duel()
    assert s.enc.phase == "phase 1/4"
    s.run("attack", [6, 6, 6, 6], actor="Meena", target="Hera", weapon="gravity-saber", options={"aim": "speed"})
    assert DgCombatant.of(s.get("Meena")).cp == 1
    s.run("next", actor="Meena")
    assert s.system.turn(s.enc).side == "b"
    s.run("next", actor="Hera")
    assert s.enc.phase == "phase 2/4"
    for _ in range(3):
        s.run("next", actor="Meena")
        s.run("next", actor="Hera")
    assert s.enc.round == 2 and s.enc.phase == "phase 1/4"
    assert DgCombatant.of(s.get("Meena")).cp == 2


def test_a_model_activates_once_a_phase_and_only_on_its_sides_turn() -> None:
    """Each model activates once in each phase, when its side has the activation."""
    s = duel()
    assert "a activate" in s.refused("move", actor="Hera", to="E5", error=NotYourTurn)
    s.run("next", actor="Meena")
    s.run("next", actor="Hera")
    s.run("next", actor="Meena")
    assert "already activated" in s.refused("move", actor="Meena", to="E9", error=NotYourTurn)


def test_a_model_out_of_its_sides_turn_waits_for_the_sides_turn() -> None:
    """"In each phase the sides alternate activating one model": Vex of the raiders, refused in the crew's turn,
    waits until it is "the raiders' turn" (a side's name ending in s takes the apostrophe alone)."""
    s = Scenario("damage-grid")
    s.add("Meena", side="crew", at="B2").add("Ann", side="crew", at="B4").add("Vex", side="raiders", at="F2")
    s.run("init_roll")
    said = s.refused("move", actor="Vex", to="F3", error=NotYourTurn)
    assert "Vex waits until it is the raiders' turn." in said and "raiders's" not in said


def test_a_model_cannot_move_and_then_attack_in_one_activation() -> None:
    """"Generally a model cannot move and then use a combat point to attack, requiring two activations instead.\""""
    s = duel(a_at="E9")
    s.run("move", actor="Meena", to="E8")
    message = s.refused("attack", [1, 1, 1, 1], actor="Meena", target="Hera", weapon="gravity-saber", error=IllegalAction)
    assert "Lunge" in message


def test_the_last_model_of_the_side_to_activate_marked_out_by_the_gm_passes_the_activation() -> None:
    """"In each phase sides alternate activating one model": Meena and Hera have activated; Juno, side a's last
    model to activate in the phase, destroyed by the GM's `damage` while nobody activates leaves side a nothing
    to activate, so side b activates next (Xul), as when Juno is removed; the phase is not over."""
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", "", side="a", at="E8", facing="N").add("Juno", "", side="a", at="C8", facing="N")
    s.add("Hera", "", side="b", at="E5", facing="S").add("Xul", "", side="b", at="H4", facing="S")
    s.run("init_roll")
    s.run("next", actor="Meena", whole_turn=False)
    s.run("next", actor="Hera", whole_turn=False)
    assert s.system.turn(s.enc).actors == ("Juno",)
    removed = s.resolve("remove", actor="Juno").encounter
    res = s.run("act", target="Juno", action="damage", options={"health": "3"})
    assert s.get("Juno").status == "out" and s.enc.phase == "phase 1/4"
    turn = s.system.turn(s.enc)
    assert (turn.side, turn.actors) == ("b", ("Xul",)) == (s.system.turn(removed).side, s.system.turn(removed).actors)
    assert "**b** activate a model: Xul" in s.text(res)


def test_an_inert_models_activation_passes_unplayed_each_phase_for_its_effects() -> None:
    """"When Mind reaches 0 the model can no longer perform Actions and becomes inert" (damage-grid.txt), yet
    it is "unconscious", not destroyed, and a GM's `heal` makes it active again (docs/systems/damage-grid.md):
    each phase that ends without its activation, that activation passes unplayed, so the effects timed by its
    turn count down as the phase ends, told before the next phase begins."""
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", "", side="a", at="E8", facing="N").add("Mira", "", side="a", at="G8", facing="N")
    s.add("Hera", "", side="b", at="E5", facing="S").add("Hana", "", side="b", at="G5", facing="S")
    s.run("init_roll")
    s.run("effect_add", actor="Meena", effect="Mark", rounds=2, ends="start of Meena's turn")
    s.run("effect_add", actor="Hera", effect="Watch", rounds=1, ends="end of Meena's turn")
    s.run("act", target="Meena", action="damage", options={"mind": "2"})
    assert s.get("Meena").status == "downed"
    for who in ("Mira", "Hera"):
        s.run("next", actor=who)
    lines = s.text(s.run("next", actor="Hana"))
    assert lines[lines.index("**Hana** ends its activation") + 1:] == [
        "Effect **Watch** on **Hera** ends", "**Phase 2/4** of round 1 begins", "**a** activate a model: Mira",
    ]
    assert [(e.name, e.left) for e in s.enc.effects] == [("Mark", 1)]
    for who in ("Mira", "Hera"):
        s.run("next", actor=who)
    assert "Effect **Mark** on **Meena** ends" in s.text(s.run("next", actor="Hana")) and s.enc.effects == []


def test_a_model_attacks_with_one_weapon_each_activation() -> None:
    """"A model can only make an attack with one weapon each Action unless explained otherwise" (an Action is an
    activation: "regardless who is Actioning this phase"): a second weapon waits for a later activation."""
    s = duel(a_sheet="weapons=gun:8:2:3,saber:2:4:2:melee", b_sheet="health=30 body=9", b_at="E6")
    s.run("attack", [2, 2, 2, 2], actor="Meena", target="Hera", weapon="saber")
    message = s.refused("attack", [2, 2], actor="Meena", target="Hera", weapon="gun", error=IllegalAction)
    assert "one weapon each Action" in message and "saber" in message and "/init next" in message
    assert DgCombatant.of(s.get("Meena")).cp == 1
    s.run("attack", [2, 2, 2, 2], actor="Meena", target="Hera", weapon="saber")
    s.run("next", actor="Meena")
    s.run("next", actor="Hera")
    s.run("attack", [2, 2], actor="Meena", target="Hera", weapon="gun", options={"force": ""})


def test_removing_the_activating_model_passes_the_activation_to_the_other_side() -> None:
    """"In each phase the sides alternate activating one model" (docs/systems/damage-grid.md): when the GM
    removes the model whose activation is under way, that activation is used and the other side activates
    next, told as priority passing, not a second activation in a row for the removed model's side."""
    s = Scenario("damage-grid", map="10x8")
    s.add("Meena", side="crew", at="B2", facing="E").add("Vex", side="crew", at="B6", facing="E")
    s.add("Hera", side="boarders", at="G2", facing="W").add("Xul", side="boarders", at="G6", facing="W")
    s.run("init_roll")
    s.run("next", actor="Meena")
    s.run("move", actor="Hera", to="F2")
    said = s.text(s.run("remove", actor="Hera"))
    turn = s.system.turn(s.enc)
    assert (s.enc.current, turn.side, turn.actors) == (None, "crew", ("Vex",))
    assert said[0] == "**Hera** removed from the encounter" and any("crew" in line and "Vex" in line for line in said[1:])
    s.run("move", actor="Vex", to="C6")
    assert s.system.turn(s.enc).actors == ("Vex",)


def test_a_removal_that_ends_the_phase_drifts_the_clouds_as_the_next_phase_begins() -> None:
    """"Each phase roll a D10. On a 0 the Cloud disappears prematurely. Any other result the cloud is moved": removing
    the phase's last activating model begins the next phase, and the cloud rolls then, as `/init next` would make it."""
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", "weapons=smoke:5:1:0:area=burst1:cloud=4", side="a", at="E8", facing="N")
    s.add("Mira", side="a", at="G8", facing="N").add("Hera", "health=9 body=9", side="b", at="E4", facing="S")
    s.run("init_roll")
    s.run("attack", actor="Meena", target="E6", weapon="smoke")
    s.run("next", actor="Meena")
    s.run("next", actor="Hera")
    s.run("move", actor="Mira", to="G7")
    res = s.run("remove", [3], actor="Mira")
    assert s.enc.phase == "phase 2/4" and [e.direction for e in res.events if isinstance(e, CloudDrifted)] == ["E"]
    assert s.enc.effects[0].cells == ["F6"]
