"""Attacks: Power, Accuracy and flips, the grid, the Mode test, forced Combat Points, the coup de grâce."""
from __future__ import annotations

from rules.errors import IllegalAction, InputError
from rules.events import Checked, StatusChanged
from rules.hidden import for_reader
from rules.systems.damage_grid.events import DgAttack, GridDamage, ProneChanged
from rules.systems.damage_grid.state import DgCombatant
from tests.rules.damage_grid.build import SABER, SYSTEM, duel, events
from tests.scenario import Scenario


def test_meenas_gravity_saber_flips_a_five_to_a_three() -> None:
    """"Meena rolls 4D6 and gets 3, 3, 5 and 4. She is allowed 2 flips and uses one to flip 5 to a 3. The end result is 3, 3, 3 and 4.\""""
    s = duel(b_sheet="body=3 health=9")
    res = s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera", weapon="gravity-saber", options={"flips": "5>3"})
    (attack,) = events(res, DgAttack)
    assert attack.roll.dice == [3, 3, 5, 4] and attack.faces == [3, 3, 3, 4]
    assert sum(m.value for m in attack.accuracy) == 2


def test_the_attacker_may_answer_flips_none_as_the_target_may() -> None:
    """"The model may then perform as many face flips with the total Accuracy of its attack": `flips=none` makes none
    (as `/act action:flips` takes it), so the faces stay as rolled."""
    s = duel(b_sheet="body=3 health=9")
    res = s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera", weapon="gravity-saber", options={"flips": "none"})
    (attack,) = events(res, DgAttack)
    assert attack.faces == [3, 3, 5, 4] and attack.flips == []


def test_the_mind_hit_through_body_2_makes_the_target_inert() -> None:
    """"gets 1, 3, 4, 4 ... Body of 2 and Mind 2 ... Accuracy is 3 ... flips 3, 4 and 4 all to 1 ... reduce the target's Mind to 0\""""
    s = duel(a_sheet="weapons=gravity-saber:2:4:3:melee", b_sheet="body=2 mind=2 shield=3")
    res = s.run("attack", [1, 3, 4, 4], actor="Meena", target="Hera", options={"aim": "mind"})
    (attack,) = events(res, DgAttack)
    assert attack.faces == [1, 1, 1, 1]
    (grid,) = events(res, GridDamage)
    (mind,) = grid.locations
    assert (mind.rolled, mind.shield, mind.body, mind.taken, mind.after) == (4, 0, 2, 2, 0)
    assert s.get("Hera").status == "downed"
    assert events(res, StatusChanged)[0].cause == "mind0"


def test_a_two_thirds_health_loss_needs_two_matching_faces() -> None:
    """"Meena has a starting Health of 3. An attack reduced her Health to 1 ... must get 2 or more facings\""""
    s = duel(a_sheet="weapons=gun:4:2:0", b_sheet="health=3 body=0 mind=2", b_at="E4")
    res = s.run("attack", [2, 2, 3, 5], actor="Meena", target="Hera")
    (test,) = events(res, Checked)
    assert (test.roll.dice, test.roll.against, test.roll.success) == ([3, 5], 2, False)
    assert DgCombatant.of(s.get("Hera")).values["health"] == 1 and DgCombatant.of(s.get("Hera")).prone
    assert events(res, ProneChanged)


def test_a_matching_pair_passes_the_mode_test() -> None:
    """"pass if the largest group of equal faces >= difficulty": a pair passes difficulty 2."""
    s = duel(a_sheet="weapons=gun:4:2:0", b_sheet="health=3 body=0 mind=2", b_at="E4")
    s.run("attack", [2, 2, 6, 6], actor="Meena", target="Hera")
    assert not DgCombatant.of(s.get("Hera")).prone


def test_shield_stops_hits_from_afar_but_not_from_the_nine_adjacent_squares() -> None:
    """"If a model is attacked from any of the nine adjacent squares its Shield cannot be used.\""""
    far = duel(a_sheet="weapons=gun:4:2:0", b_sheet="shield=1 body=0 health=9", b_at="E5")
    res = far.run("attack", [6, 6], actor="Meena", target="Hera")
    assert events(res, GridDamage)[0].locations[0].shield == 1
    near = duel(a_sheet=f"weapons={SABER}", b_sheet="shield=1 body=0 health=9")
    res = near.run("attack", [6, 6, 6, 6], actor="Meena", target="Hera", options={})
    assert events(res, GridDamage)[0].locations[0].shield == 0


def test_forced_combat_points_cost_accuracy_cumulatively() -> None:
    """"A model can force more Combat Points at a cumulative cost of -2 Accuracy to their attack.\""""
    s = duel(a_sheet="weapons=gun:4:1:4", b_sheet="health=20 body=0 mind=20", b_at="E4", combat_points="1")
    s.run("attack", [6], actor="Meena", target="Hera")
    assert "force" in s.refused("attack", [6], actor="Meena", target="Hera", error=IllegalAction)
    first = s.run("attack", [6], actor="Meena", target="Hera", options={"force": ""})
    second = s.run("attack", [6], actor="Meena", target="Hera", options={"force": ""})
    assert sum(m.value for m in events(first, DgAttack)[0].accuracy) == 2
    assert sum(m.value for m in events(second, DgAttack)[0].accuracy) == 0


def test_negative_accuracy_lets_the_target_flip() -> None:
    """"A negative Accuracy allows the target to flip that many faces.\""""
    s = duel(a_sheet="weapons=gun:4:2:-1", b_sheet="health=9 body=0", b_at="E4")
    res = s.run("attack", [2, 2], actor="Meena", target="Hera")
    (attack,) = events(res, DgAttack)
    assert [f.by for f in attack.flips] == ["target"] and attack.faces.count(2) == 1


def test_fewer_dice_by_choice_and_half_power_when_low() -> None:
    """"An attack can always roll less power ... A weapon low on power attacks with only half its Power rounded up.\""""
    s = duel(a_sheet="weapons=gun:4:5:0", b_sheet="health=30 body=9", b_at="E4")
    res = s.run("attack", [6, 6, 6], actor="Meena", target="Hera", options={"low": ""})
    assert events(res, DgAttack)[0].roll.label == "3d6"
    s.run("next", actor="Meena")
    s.run("next", actor="Hera")
    res = s.run("attack", [6, 6], actor="Meena", target="Hera", options={"dice": "2"})
    assert len(events(res, DgAttack)[0].roll.dice) == 2


def test_body_two_stops_two_hits_of_an_attack_unless_the_gm_reads_it_per_location() -> None:
    """"Effectively the damage will be = faces - (Shield + Body)": Body 2 against 1, 1, 2, 2 lets 4 - 2 = 2 through;
    option `protection=location` stops 2 on each of Mind and Health."""
    for protection, through, mode in (("attack", 2, [6]), ("location", 0, [])):
        s = duel(a_sheet="weapons=gravity-saber:2:4:3:melee", b_sheet="body=2 mind=2", protection=protection)
        res = s.run("attack", [1, 1, 2, 2, *mode], actor="Meena", target="Hera", options={"flips": "none"})
        (grid,) = events(res, GridDamage)
        assert sum(r.taken for r in grid.locations) == through and sum(r.body for r in grid.locations) == 4 - through


def test_a_power_taken_below_one_is_shown_as_the_one_die_rolled() -> None:
    """"An attack can always roll less power than it has to a minimum of 1": Power 5 −7 rolls 1 die and says Power 1, not −2."""
    s = duel(a_sheet="weapons=gun:4:5:0", b_sheet="health=30 body=9", b_at="E4")
    res = s.run("attack", [6], actor="Meena", target="Hera", options={"power": "-7"})
    (attack,) = events(res, DgAttack)
    assert attack.roll.label == "1d6"
    text = s.system.present.text(attack)
    assert "Power 5 gun −7 ability = 1 (at least 1, not −2)" in text and "= -2" not in text


def test_a_hidden_target_whose_body_stops_every_hit_is_not_said_to_be_hit() -> None:
    """"Shields and Body will always stop damage": when they stop every hit on a hidden target, players read that none got through."""
    s = duel(a_sheet="weapons=gun:4:2:0", b_sheet="health=30 body=9", b_at="E4")
    res = s.run("attack", [2, 2], actor="Meena", target="Hera")
    (grid,) = events(res, GridDamage)
    public = for_reader(s.system.present.view(s.enc, frozenset({"Hera"})).marked(grid), lambda name: name != "Hera")
    assert public == "**Hera**: no hit gets through (now unhurt)"
    assert "no hit gets through" in s.system.present.text(grid)


def test_an_attack_from_behind_gains_one_power() -> None:
    """"An attack from any square behind the target benefits +1 Power.\""""
    s = duel(a_sheet="weapons=gun:4:2:0", b_sheet="health=30 body=9", b_at="E5", b_facing="N")
    res = s.run("attack", [6, 6, 6], actor="Meena", target="Hera")
    assert any(m.code == "behind" and m.value == 1 for m in events(res, DgAttack)[0].power)


def test_coup_de_grace_takes_an_inert_model_out_when_it_damages_health() -> None:
    """Project default: against an inert (Mind 0) model, an attack with no Accuracy penalty that takes it out when it damages Health."""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="mind=0 health=5 body=0 size=0")
    s.get("Hera").status = "downed"
    res = s.run("coupdegrace", [2, 6, 6, 6], actor="Meena", target="Hera", options={"aim": "health"})
    attack = events(res, DgAttack)[0]
    assert all(m.value > 0 for m in attack.accuracy)
    assert s.get("Hera").status == "out"


def test_coup_de_grace_refuses_a_standing_model() -> None:
    """A coup de grâce is only for an inert model."""
    s = duel()
    assert "not inert" in s.refused("coupdegrace", [1, 1, 1, 1], actor="Meena", target="Hera", error=IllegalAction)


def test_explicit_flips_cannot_cost_more_than_the_accuracy() -> None:
    """Flips are paid from Accuracy: "To flip to the opposite side would cost 2 flips\""""
    s = duel(b_sheet="health=9")
    message = s.refused("attack", [3, 3, 5, 4], actor="Meena", target="Hera", weapon="gravity-saber",
                        options={"flips": "4>3,3>4"}, error=InputError)
    assert "flip less" in message
    s.refused("attack", [3, 3, 5, 4], actor="Meena", target="Hera", weapon="gravity-saber", options={"flips": "2>5"},
              error=InputError)


def test_size_stationary_and_injury_change_accuracy() -> None:
    """"A target with a size of 4 increases Accuracy by 3"; "A stationary target or attacker ... +2"; "-1 for every 2 hits ... to Mind and Health\""""
    s = duel(a_sheet="weapons=gun:6:1:0 health=5", b_sheet="size=4 health=9 body=9", b_at="E4")
    DgCombatant.of(s.get("Meena")).values["health"] = 3
    for _ in range(5):
        s.run("next", actor="Meena")
        s.run("next", actor="Hera")
    res = s.run("attack", [6], actor="Meena", target="Hera")
    mods = {(m.code, *m.args): m.value for m in events(res, DgAttack)[0].accuracy}
    assert mods == {("weapon", "gun"): 0, ("size", 4): 3, ("stationary",): 2, ("injured",): -1}


def test_a_moving_target_is_harder_to_hit() -> None:
    """"A moving target (has moved at least 5 squares in consecutive actions without pause) decreases the Accuracy by 1.\""""
    s = duel(a_sheet="weapons=gun:8:1:0", b_sheet="health=9 body=9", b_at="J1", b_facing="W")
    s.run("next", actor="Meena")
    s.run("move", actor="Hera", path="S S S S")
    s.run("next", actor="Hera")
    s.run("next", actor="Meena")
    s.run("move", actor="Hera", path="W")
    s.run("next", actor="Hera")
    res = s.run("attack", [6], actor="Meena", target="Hera")
    assert {m.code: m.value for m in events(res, DgAttack)[0].accuracy}.get("moving") == -1


def test_arsenal_hits_land_on_the_named_weapon_which_is_lost_at_health_0() -> None:
    """"When this location is hit the attacker targets one Weapon ... Each weapon has its own Health value\""""
    s = duel(a_sheet="weapons=gun:4:2:0", b_sheet="body=0 health=9 weapons=claw:1:2:0:melee,pistol:5:2:0:health=1", b_at="E4")
    res = s.run("attack", [5, 5], actor="Meena", target="Hera", options={"arsenal": "pistol"})
    assert events(res, GridDamage)[0].weapon == "pistol"
    assert DgCombatant.of(s.get("Hera")).weapon_health == {"claw": 2, "pistol": 0}
    assert s.system.weapons_of(s.enc, s.get("Hera")) == ["claw", "bare"]


def test_the_board_shows_each_models_grid_cp_and_conditions() -> None:
    """The status board line: square and facing, the grid's values, Combat Points, prone, inert."""
    s = duel()
    DgCombatant.of(s.get("Hera")).prone = True
    line = s.system.present.status_line(s.enc, s.get("Hera"), s.system.facts(s.enc))
    assert line == "**Hera** · E7 S · Mi2 He3 Bo1 Sh0 Sp4 · 2 CP · prone"


def test_a_power_0_weapon_rolls_no_dice_and_does_no_damage() -> None:
    """"With the weapon selected the model rolls as many D6 as the Power of the weapon": Power 0 rolls nothing."""
    s = duel(a_sheet="weapons=flare:4:0:2", b_sheet="health=1 mind=1 body=0", b_at="E6")
    before = dict(DgCombatant.of(s.get("Hera")).values)
    res = s.run("attack", [], actor="Meena", target="Hera", options={"power": "3"})
    attack = events(res, DgAttack)[0]
    assert attack.roll.dice == [] and not attack.flips
    assert DgCombatant.of(s.get("Hera")).values == before and s.get("Hera").status == "active"
    assert "no dice" in "\n".join(s.text(res))


def test_the_smoke_grenade_burst_2_cloud_4_is_a_harmless_cloud() -> None:
    """"The Smoke grenade is Burst 2 Cloud 4; it will occupy 4 concentrated squares and last for 4 phases.\""""
    s = duel(a_sheet="weapons=smoke-grenade:4:0:0:area=burst2:cloud=4", b_sheet="health=1 mind=1 body=0", b_at="E6")
    before = dict(DgCombatant.of(s.get("Hera")).values)
    res = s.run("attack", [], actor="Meena", target="E6")
    assert not events(res, DgAttack) and DgCombatant.of(s.get("Hera")).values == before
    (cloud,) = s.enc.effects
    assert (cloud.code, cloud.left, sorted(cloud.cells)) == ("cloud", 4, ["E5", "E6", "F5", "F6"])
    assert "A smoke-grenade cloud covers E5, F5, E6, F6 for 4 phases, this one included" in s.text(res)


def test_a_special_attack_can_cost_more_combat_points() -> None:
    """"Making an attack ... costs 1 Combat point. Some special attacks cost more Combat points": a weapon with `cp=2` spends two."""
    s = duel(a_sheet="weapons=siege-gun:6:2:0:cp=2", b_sheet="health=20 body=9", b_at="E5")
    s.run("attack", [1, 1], actor="Meena", target="Hera")
    assert DgCombatant.of(s.get("Meena")).cp == 0
    message = s.refused("attack", [1, 1], actor="Meena", target="Hera", error=IllegalAction)
    assert "costs 2" in message and "-6 Accuracy" in message
    attack = events(s.run("attack", [1, 1], actor="Meena", target="Hera", options={"force": ""}), DgAttack)[0]
    assert any(m.code == "forced" and m.value == -6 for m in attack.accuracy)


def test_a_lunge_spends_only_one_combat_point() -> None:
    """"A Lunge costs 1 Combat Point and this is the only CP that can be spent during the activation\""""
    s = duel(a_sheet="weapons=maul:1:2:0:melee:cp=2", b_sheet="health=20 body=9", b_at="E5")
    assert "exactly 1 Combat Point" in s.refused("act", [1, 1], actor="Meena", action="lunge", target="Hera", error=IllegalAction)


def test_the_target_checks_are_the_shared_ones_with_the_grids_word_for_gone() -> None:
    """"When Health reaches 0 the model is killed or destroyed": an attack, a Lunge or a Grapple on a destroyed model,
    on the attacker itself or on a model off the map is refused by the one target check (`rules.targets`), which says
    what to do instead."""
    s = duel()
    s.add("Imp", side="b")
    off = s.refused("attack", [1, 1, 1, 1], actor="Meena", target="Imp", weapon="gravity-saber", error=IllegalAction)
    assert off == "Imp is not on the map: the GM places it with `/combatant edit at:`."
    assert s.refused("act", [1], actor="Meena", action="lunge", target="Meena", error=IllegalAction) == (
        "Meena cannot lunge at itself: pick another target.")
    assert s.refused("act", [1], actor="Meena", action="grapple", target="Meena", error=IllegalAction) == (
        "Meena cannot grapple itself: pick another target.")
    s.run("act", target="Hera", action="damage", options={"health": "3"})
    assert s.get("Hera").status == "out"
    gone = s.refused("attack", [1, 1, 1, 1], actor="Meena", target="Hera", weapon="gravity-saber", error=IllegalAction)
    assert gone == "Hera is already destroyed: pick another target."
    assert s.refused("attack", [1], actor="Meena", weapon="gravity-saber", error=InputError) == (
        "Name the combatant to attack in `target`.")


def test_shield_stops_a_body_square_hit_so_that_body_stops_a_mind_hit() -> None:
    """"Effectively the damage will be = faces - (Shield + Body)": Shield 1 and Body 1 against 1, 1, 3, 3 from afar
    stop one hit each where it harms least, and Health stays whole."""
    s = duel(a_sheet="weapons=ring:4:6:0", b_sheet="body=1 mind=2 shield=1", b_at="E5")
    res = s.run("attack", [1, 1, 3, 3], actor="Meena", target="Hera", options={"flips": "none", "dice": "4"})
    text = s.system.present.text(events(res, GridDamage)[0])
    assert "Mind ×2 (Body stops 1), takes 1 (2 → 1); Body ×2 (Shield stops 1), takes 1 (1 → 0)" in text
    assert DgCombatant.of(s.get("Hera")).values["health"] == 3


def test_flips_asked_at_an_accuracy_of_0_are_refused_as_at_a_negative_one() -> None:
    """"The model may then perform as many face flips with the total Accuracy of its attack": at Accuracy 0 (the
    saber's 2, "A prone target ... decreases Accuracy by 2") there are none to make, so flips asked for are refused
    saying so (changing nothing), not dropped in silence; `flips=none` asks for none and is taken."""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=9")
    DgCombatant.of(s.get("Hera")).prone = True
    message = s.refused("attack", [3, 3, 5, 4], actor="Meena", target="Hera", weapon="gravity-saber",
                        options={"flips": "5>3"}, error=InputError)
    assert "Accuracy is 0, so there are no flips: leave `flips` out" in message
    res = s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera", weapon="gravity-saber", options={"flips": "none"})
    assert events(res, DgAttack)[0].faces == [3, 3, 5, 4]


def test_the_attacker_s_aim_is_not_told_as_the_target_s_at_a_negative_accuracy() -> None:
    """"A negative Accuracy allows the target to flip that many faces": the target's flips take dice off its worst
    location, so the attack's line says the target flips, not that it aims where the attacker asked (`aim=body`)."""
    s = duel(a_sheet=f"weapons={SABER}", b_sheet="health=9 size=0")
    res = s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera", weapon="gravity-saber", options={"aim": "body"})
    attack = events(res, DgAttack)[0]
    assert attack.flips and attack.flips[0].by == "target" and attack.aim is None
    line = next(x for x in s.text(res) if "the target flips" in x)
    assert "aiming" not in line, line
    logged = attack.model_copy(update={"aim": "body"})  # a log written while the aim was kept with the target's flips
    assert "aiming" not in SYSTEM.present.text(logged)


def test_flips_against_a_hidden_target_refuse_nothing_that_would_tell_its_accuracy() -> None:
    """A hidden model's size and cover count in the attack's Accuracy, which players do not read ("The model may then
    perform as many face flips with the total Accuracy of its attack"): against it, a refusal naming the Accuracy
    would tell it, so flips typed past it are made in order while it lasts, and at 0 none are made."""
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", f"weapons={SABER}", side="a", at="E8", facing="N")
    s.add("Hera", "health=9 size=1", side="b", at="E7", facing="S", owner=None)  # the GM's: hidden; size 1: Accuracy 1
    s.run("init_roll")
    assert s.enc.hidden(s.get("Hera"))
    res = s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera", weapon="gravity-saber", options={"flips": "5>3,4>3"})
    assert [(f.before, f.after) for f in events(res, DgAttack)[0].flips] == [(5, 3)]  # 4>3 (cost 2) past Accuracy 1
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", f"weapons={SABER}", side="a", at="E8", facing="N")
    s.add("Hera", "health=9", side="b", at="E7", facing="S", owner=None)
    s.run("init_roll")
    DgCombatant.of(s.get("Hera")).prone = True  # Accuracy 2 - 2 = 0
    res = s.run("attack", [3, 3, 5, 4], actor="Meena", target="Hera", weapon="gravity-saber", options={"flips": "5>3"})
    assert events(res, DgAttack)[0].faces == [3, 3, 5, 4]


def test_a_hidden_attackers_hit_shows_players_no_location_whose_hits_body_stopped() -> None:
    """"When the attacker is hidden ... players read the target's grid without the dice per location ... or what Shield
    and Body stopped of them, since together they count the attacker's Power" (docs/systems/damage-grid.md): Zed's
    Power 4 lands 3, 3, 3, 3 on Meena, flipped to 1, 5, 3, 3 (Body 1): Body stops the Mind hit, so the Mind row, which would say only that, is
    not in the players' line; the GM's line keeps it."""
    s = duel(a_sheet="body=1 size=0 weapons=saber:2:4:3:melee,pistol:6:3:1",
             b_sheet="shield=1 speed=6 weapons=lance:3:4:1", b_at="H8", b_facing="W")
    s.run("next", actor="Meena")
    res = s.run("attack", [3, 3, 3, 3, 2, 5], actor="Hera", target="Meena", weapon="lance")  # then the Mode test
    assert events(res, DgAttack)[0].faces == [1, 5, 3, 3]  # Accuracy −2: Meena's least harm flips 3→1, 3→5
    (grid,) = events(res, GridDamage)
    public = for_reader(s.system.present.view(s.enc, frozenset({"Hera"})).marked(grid), lambda name: name != "Hera")
    assert public == ("**Meena**'s grid: Health, 1 passed on to it, takes 1 (3 → 2); "
                      "Body, takes 1 (1 → 0), passes 1 on by its arrow; Arsenal (saber), takes 1 (2 → 1)"), public
    assert "Mind ×1 (Body stops 1), no hit gets through" in s.system.present.text(grid)


def test_a_hidden_attackers_hit_that_body_stops_whole_reads_as_no_hit_through() -> None:
    """"Shields and Body will always stop damage": when Meena's Body stops every hit of the hidden Hera's, players
    read that none got through, not on which locations (how many dice Body stopped); the GM reads each."""
    s = duel(a_sheet="body=9 weapons=saber:2:4:3:melee", b_sheet="weapons=lance:3:4:1", b_at="H8", b_facing="W")
    s.run("next", actor="Meena")
    res = s.run("attack", [1, 1, 2, 2], actor="Hera", target="Meena", weapon="lance", options={"flips": "none"})
    (grid,) = events(res, GridDamage)
    public = for_reader(s.system.present.view(s.enc, frozenset({"Hera"})).marked(grid), lambda name: name != "Hera")
    assert public == "**Meena**: no hit gets through", public
    assert "Body stops" in s.system.present.text(grid)


def shot_past_hidden_hera(hera_body: int, mode: tuple[int, ...] = ()) -> tuple[Scenario, GridDamage]:
    """Meena (E8) shoots Juno (E4, Body 1) with a Power 3 pistol, 1, 2, 6 flipped to 2, 2, 2 (Health), then ``mode``
    for Juno's Mode test; the GM's hidden Hera (E6, size 2) stands on the line of fire, a cover of Body 2 + ``hera_body``."""
    s = Scenario("damage-grid", map="12x10")
    s.add("Meena", "body=1 weapons=pistol:6:3:3", side="crew", at="E8", facing="N")
    s.add("Juno", "body=1 weapons=pistol:6:3:1", side="rebels", at="E4", facing="S")
    s.add("Hera", f"body={hera_body} weapons=claw:1:3:1:melee", side="boarders", at="E6", facing="W", owner=None)
    s.run("init_roll")
    assert s.enc.hidden(s.get("Hera"))
    res = s.run("attack", [1, 2, 6, *mode], actor="Meena", target="Juno", weapon="pistol")
    assert events(res, DgAttack)[0].faces == [2, 2, 2]
    (grid,) = events(res, GridDamage)
    return s, grid


def test_a_shot_covered_by_a_hidden_model_shows_players_no_dice_per_location() -> None:
    """"a hidden model in the way of a shot between players' models leaves out only its cover's Body (its size and
    Body: `cover (Hera): the GM keeps its Body hidden`) and what Body stopped, which counts it" (docs/commands.md):
    Health ×3 and takes 1 would tell that Body stopped 2, so Juno's Body 1 and the cover's +1 (Body 4 less the Power 3)
    on it; players read the harm alone, as for a hidden attacker's hit, and the GM every number."""
    s, grid = shot_past_hidden_hera(2, (2, 5))
    public = for_reader(s.system.present.view(s.enc, frozenset({"Hera"})).marked(grid), lambda name: name != "Hera")
    assert public == "**Juno**'s grid: Health, takes 1 (3 → 2)", public
    assert "Health ×3 (Body stops 2), takes 1 (3 → 2)" in s.system.present.text(grid)


def test_a_shot_whose_hits_a_hidden_models_cover_stops_whole_reads_as_no_hit_through() -> None:
    """"When its Body is greater than the Power, the difference is added to the target's Body" (docs/systems/
    damage-grid.md): Hera's cover of Body 5 adds 2 to Juno's Body 1, which stops all 3 hits; players read that none got
    through, not on which location (how many dice Body stopped); the GM reads each."""
    s, grid = shot_past_hidden_hera(3)
    public = for_reader(s.system.present.view(s.enc, frozenset({"Hera"})).marked(grid), lambda name: name != "Hera")
    assert public == "**Juno**: no hit gets through", public
    assert "Health ×3 (Body stops 3), no hit gets through" in s.system.present.text(grid)
