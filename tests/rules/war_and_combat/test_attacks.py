"""The attack: exceed Defense, criticals, hit location, Impact Cap, absorption, penetration,
severity, action penalties, wound effects, combat options, the coup-de-grâce."""
from __future__ import annotations

from rules.effects import Effect
from rules.events import Checked, Finished, StatusChanged, Victory, mod
from rules.systems.war_and_combat.events import EffectTaken, Struck
from rules.systems.war_and_combat.sheet import wound_penalty as penalty
from rules.systems.war_and_combat.state import WoundRecord
from tests.rules.war_and_combat.build import duel, fight, near, st, to_flurry


def struck(res) -> Struck:
    return next(e for e in res.events if isinstance(e, Struck))


def effects(res) -> list[str]:
    return [e.effect for e in res.events if isinstance(e, EffectTaken)]


def test_a_hit_rolls_location_then_impact_from_the_impact_cap():
    """Impact Cap = Strength + weapon impact (14 + 2 = 16: 3d6-2); absorption 2; blunt when not over threshold - penetration."""
    s = duel()
    fight(s)
    res = s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2], actor="Borin", target="Grak")
    hit = struck(res)
    assert res.events[0].roll.total == 15 and res.events[0].roll.against == 13
    assert (hit.location, hit.cap, hit.dice, hit.impact.total) == ("chest", 16, "3d6-2", 4)
    assert (hit.absorbed, hit.effective, hit.penetrating, hit.severity) == (2, 2, False, "light")
    assert st(s, "Grak").wounds == [WoundRecord(location="chest", severity="light", penetrating=False)]
    assert s.enc.current == "Borin"  # a hit keeps the attack


def test_critical_at_five_over_adds_a_die_per_five_and_penetrates():
    """"If an attack roll exceed the required target by 5 or more, it is a critical hit ... every 5 points over ... an additional die"."""
    s = duel(borin="skills=broadsword:9")
    fight(s)
    res = s.run("attack", [5, 5, 4, 4, 4, 3, 2, 2, 2, 3, 1, 2], actor="Borin", target="Grak")  # 24 vs 13: 11 over
    hit = struck(res)
    assert hit.critical_dice == 2 and hit.impact.total == 6 - 2 + 3 + 1
    assert (hit.absorbed, hit.effective, hit.penetrating) == (0, 8, True)
    assert hit.severity == "serious"  # 8 exceeds size 10's Impaired 5, not Disabled 10


def test_action_penalties_take_the_worst_per_location_and_add_locations():
    """"according to the worst wound suffered for each hit location. Multiple injuries to the same hit location do not accumulate"."""
    s = duel()
    fight(s)
    st(s, "Borin").wounds += [
        WoundRecord(location="left arm", severity="light"),
        WoundRecord(location="left arm", severity="serious"),
        WoundRecord(location="right leg", severity="light"),
    ]
    assert penalty(s.get("Borin")) == -4
    res = s.run("attack", [4, 4, 4], actor="Borin", target="Grak")
    assert res.events[0].roll.total == 12 and not res.events[0].roll.success


def test_light_arm_wound_calls_the_fumble_check():
    """Fumble?: "Roll 3d6 + DEX modifier vs. 10. Failure means ... dropped ... one action is lost this round" (9, less
    the light wound's own -1)."""
    s = duel()
    fight(s)
    res = s.run("attack", [4, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3], actor="Borin", target="Grak")
    assert struck(res).location == "left arm" and struck(res).severity == "light"
    check = next(e for e in res.events if isinstance(e, Checked))
    assert check.what == "fumble?" and check.roll.total == 8 and not check.roll.success
    assert effects(res) == ["loses_action"] and st(s, "Grak").actions == 1  # his left hand is empty


def test_a_fumble_drops_only_what_the_arm_carries():
    """Fumble?: "Failure means (1) any item carried is dropped 1d6-1 meters from the character": Grak's empty left
    hand drops nothing; with the axe in his left hand, the axe is dropped and named."""
    s = duel()
    fight(s)
    res = s.run("attack", [4, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3], actor="Borin", target="Grak")
    assert "drops" not in "\n".join(s.text(res)) and not st(s, "Grak").dropped
    t = duel(grak="hand=left")
    fight(t)
    res = t.run("attack", [4, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3, 3, 1], actor="Borin", target="Grak")
    said = "\n".join(t.text(res)).replace("**", "").replace("✍", "")
    assert f"Grak drops its axe: 🎲 1 (1d6-1 m): it lands at its feet, at {near(t, 'D4', 'SE')}" in said and st(t, "Grak").dropped == ["axe"]
    t.run("act", action="hold", actor="Borin")
    refused = t.refused("attack", [6, 6, 5], actor="Grak", target="Borin")  # the axe is on the ground, not in the other hand
    assert "has dropped its axe (it lies at" in refused and "other hand" not in refused


def test_a_passed_fumble_check_has_no_effect():
    """A fumble? roll that exceeds 10 (12, less the light wound's -1) leaves the arm as it was."""
    s = duel()
    fight(s)
    res = s.run("attack", [4, 4, 3, 2, 2, 3, 3, 2, 2, 4, 4, 4], actor="Borin", target="Grak")
    assert effects(res) == [] and st(s, "Grak").actions == 2


def test_hit_to_the_right_side_when_the_attacker_says():
    """Arm and leg hits strike the left side unless the attacker specifies a preference (`side=right`)."""
    s = duel()
    fight(s)
    res = s.run("attack", [4, 4, 3, 2, 2, 3, 3, 2, 2, 4, 4, 4], actor="Borin", target="Grak", options={"side": "right"})
    assert struck(res).location == "right arm"


def test_critical_head_wound_knocks_out_and_downs():
    """Knockout: "The character automatically falls unconscious" - downed, and Defense 3."""
    s = duel()
    fight(s)
    res = s.run("attack", [4, 4, 3, 1, 1, 2, 6, 6, 5, 3], actor="Borin", target="Grak")
    assert struck(res).severity == "critical" and struck(res).location == "head"
    assert "knockout" in effects(res) and s.get("Grak").status == "downed"
    assert any(isinstance(e, StatusChanged) and e.cause == "unconscious" for e in res.events)


def test_serious_head_wound_stuns_for_1d6_rounds():
    """Stun: "can take no action for 1d6 rounds": an effect counted down at each round's end; the reply shows the 1d6."""
    s = duel()
    fight(s)
    res = s.run("attack", [4, 4, 3, 1, 1, 2, 4, 3, 3, 4], actor="Borin", target="Grak")  # 10 - 2 = 8: serious
    stun = next(e for e in s.enc.effects if e.code == "stun")
    assert stun.left == 4 and stun.target == "Grak" and st(s, "Grak").actions == 0
    said = "\n".join(s.text(res)).replace("**", "").replace("✍", "")
    assert "Grak is stunned: no action for 4 rounds, Defense 5 + half Fighter rank 1 = 6 (🎲 4 (1d6))" in said


def test_a_stunned_defender_keeps_half_its_defense_even_against_an_indefensible_attack():
    """Stun: "Stunned characters lose half their Defense (i.e., Base 5 + half Fighter rank)": 5 + 1 for Grak's
    Fighter 3, no Agility modifier (+1 at AGL 13), though Borin has the two actions of an indefensible attack."""
    s = duel(grak="agl=13")
    fight(s)
    s.run("attack", [4, 4, 3, 1, 1, 2, 4, 3, 3, 4], actor="Borin", target="Grak")
    assert st(s, "Grak").actions == 0 and st(s, "Borin").actions == 2
    res = s.run("attack", [1, 1, 2, 3, 3, 4, 1, 1, 1], actor="Borin", target="Grak")  # 8 hits; chest, impact 1
    assert res.events[0].roll.against == 6 and res.events[0].roll.versus.args == ["stunned"]


def test_the_agility_modifier_joins_a_lowered_defense_as_an_option():
    """Option `down_agility`: the text's "Base 5 + half Fighter rank" with the Agility modifier added (6 + 1)."""
    s = duel(grak="agl=13", down_agility=True)
    fight(s)
    s.run("attack", [4, 4, 3, 1, 1, 2, 4, 3, 3, 4], actor="Borin", target="Grak")
    res = s.run("attack", [1, 1, 2, 3, 3, 4, 1, 1, 1], actor="Borin", target="Grak")
    assert res.events[0].roll.against == 7


def test_light_leg_wound_may_fell_the_victim():
    """Stumble?: "Roll 3d6 + AGL modifier vs. 10. Failure means the victim falls" ("A fallen character that can
    still move has a base Defense of 5, then adds Fighter rank": 8, no Agility modifier at AGL 13)."""
    s = duel(grak="agl=13")
    fight(s)
    s.run("attack", [4, 4, 3, 5, 5, 5, 3, 2, 2, 3, 3, 3], actor="Borin", target="Grak")
    assert st(s, "Grak").fallen
    res = s.run("attack", [1, 1, 2], actor="Borin", target="Grak")
    assert res.events[0].roll.against == 8 and not res.events[0].roll.success


def test_critical_belly_wound_disables_both_legs():
    """"In the case of a belly wound, both legs are disabled"."""
    s = duel()
    fight(s)
    s.run("attack", [4, 4, 3, 4, 4, 4, 6, 6, 5, 3], actor="Borin", target="Grak")  # the stun: 3 rounds
    assert st(s, "Grak").disabled == ["left leg", "right leg"]


def test_mortal_wound_downs():
    """"Mortally wounded characters are incapable of performing any action": downed."""
    s = duel(borin="skills=broadsword:9")
    fight(s)
    res = s.run("attack", [5, 5, 4, 4, 4, 3, 6, 6, 5, 6, 6, 3], actor="Borin", target="Grak")
    assert struck(res).severity == "mortal" and s.get("Grak").status == "downed"


def test_subdue_uses_strength_alone_and_rolls_the_shock_effect():
    """COMBAT OPTIONS: "the normal weapon damage modifier is not used"; Subdual Shock-XX by the hit's column."""
    s = duel()
    fight(s, borin="subdue")
    res = s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 3, 3, 3, 3], actor="Borin", target="Grak")
    hit = struck(res)
    assert (hit.cap, hit.option, hit.severity) == (14, "subdue", "light")  # 7 - 2 - 2 = 3
    check = next(e for e in res.events if isinstance(e, Checked))
    assert check.what == "shock-10" and not check.roll.success
    assert st(s, "Grak").wounds == []


def test_disarm_at_critical_breaks_the_weapon():
    """Disarming, Critical: "Break: A weapon break"."""
    s = duel(borin="skills=broadsword:9")
    fight(s, borin="disarm")
    s.run("attack", [5, 5, 4, 4, 4, 3, 6, 6, 5, 6, 6], actor="Borin", target="Grak")
    assert st(s, "Grak").broken == ["axe"]


def test_a_failed_stumble_check_names_how_the_victim_falls():
    """Stumble-XX: "1-3 Fall to knees. 4-6 Fall to your hands and knees. 7+ Fall on back, side, or face": the text gives
    kneeling no rule of its own, so each is the fall ("On a failure, fall down") and the reply names the row."""
    said = {}
    for roll, row in (([4, 4, 3], 2), ([2, 2, 1], 8)):  # a light result: Stumble-13
        s = duel()
        fight(s, borin="tackle")
        res = s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2, *roll], actor="Borin", target="Grak")
        assert st(s, "Grak").fallen
        said[row] = "\n".join(s.text(res)).replace("**", "")
    assert "Grak falls to its knees" in said[2]
    assert "Grak falls on its back, side or face" in said[8]


def test_a_blow_the_armour_absorbs_leaves_no_negative_impact():
    """"blows with an impact less than this value is ignored. Subtract the Absorption Value from the Impact Value. The
    remaining impact is transferred": impact 1 on leather (2) absorbs 1 and leaves 0, neither -1 nor penetrating."""
    s = duel(borin="str=3")
    fight(s)
    res = s.run("attack", [4, 4, 3, 3, 3, 4, 1], actor="Borin", target="Grak")  # cap 3 + 2 = 5: 1d6
    assert (struck(res).absorbed, struck(res).effective, struck(res).penetrating) == (1, 0, False)
    assert "absorbed 1, effective 0, blunt: no wound" in "\n".join(s.text(res))


def test_tackle_ignores_armour():
    """"Tackles typically do little damage, but have the advantage of ignoring armour"."""
    s = duel()
    fight(s, borin="tackle")
    res = s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2, 5, 5, 5], actor="Borin", target="Grak")
    assert struck(res).absorbed == 0 and struck(res).effective == 4


def test_the_defense_names_what_changed_it():
    """"A fighter who must turn to place the attacker into his zone of threat receives a -1 penalty to Defense";
    "the defender is penalized -1 to defense due to limited ability to move"; an effect's `defense+2`: Grak's 13 reads
    as the front's, less 1 turned, less 1 pinned, plus 2."""
    s = duel()
    fight(s)
    st(s, "Grak").turned = True
    s.enc.effects += [Effect(id=1, name="pinned", target="Grak", ends="round_end", code="pinned"),
                      Effect(id=2, name="ward", target="Grak", ends="round_end", mods={"defense": 2})]
    res = s.run("attack", [1, 1, 2], actor="Borin", target="Grak")
    assert "vs Defense (front, −1 turned to face, −1 pinned, +2 ward) 13: miss" in s.text(res)[0].replace("**", "")


def test_a_polearm_cannot_strike_into_the_obstructed_gap_before_its_head():
    """"For polearms, the zone of threat leaves a gap between the polearm head and the wielder ... The space between
    the zone of threat and the fighter is considered obstructed": Borin, a hex away, is in no zone of its head."""
    s = duel(grak="weapons=polearm,dagger skills=polearm:2")
    fight(s)
    s.run("act", action="hold", actor="Borin")
    msg = s.refused("attack", [4, 4, 3], actor="Grak", target="Borin")
    assert "gap before the polearm's head" in msg and "/act action:wield" in msg


def test_a_flurry_strikes_only_with_the_weapon_in_hand():
    """"A character may perform one quick action during each movement phase ... These include ... drawing weapons"
    and the sheet's `weapons`: "catalogue weapons carried, the first in hand": in the flurry Borin strikes with the
    two-handed sword in hand; the dagger he carries is refused until `wield` draws it in a step (the refusal says
    so, and nothing changes), and naming the weapon in hand is a blow like any other."""
    s = duel(borin="weapons=two-handed-sword,dagger")
    fight(s)
    before = s.enc.model_dump()
    msg = s.refused("attack", [4, 4, 3], actor="Borin", target="Grak", weapon="dagger")
    assert "Borin has the two-handed sword in hand, not the dagger" in msg
    assert '/act action:wield options:"dagger"' in msg and "quick action" in msg
    assert s.enc.model_dump() == before
    res = s.run("attack", [1, 1, 2], actor="Borin", target="Grak", weapon="two-handed-sword")
    assert res.events[0].weapon == "two-handed sword"


def test_a_polearm_strikes_into_its_gap_at_plus_five_as_an_option():
    """Option `polearm_gap=obstructed`: the blow is allowed, and the text's "Add +5 to task target level if the target
    is obstructed" takes 5 off the roll."""
    s = duel(grak="weapons=polearm skills=polearm:2", polearm_gap="obstructed")
    fight(s)
    s.run("act", action="hold", actor="Borin")
    res = s.run("attack", [1, 1, 2], actor="Grak", target="Borin")
    assert mod("obstructed", -5) in res.events[0].roll.modifiers


def test_coup_de_grace_on_an_unconscious_victim():
    """"An automatic killing stroke may be delivered if the victim ... unconscious"; then out."""
    s = duel()
    s.add("Snaga", "fighter=1 weapons=spear", side="orcs", at="P12", facing="N", owner=None)
    to_flurry(s, init=(5, 5, 4, 2, 3, 2, 2, 2, 2))
    s.run("act", action="declare", actor="Borin", options={"intent": "kill", "tactic": "hold"})
    s.run("act", (5, 5, 4, 2, 3, 2), action="declare", actor="Grak", options={"intent": "kill", "tactic": "press"})
    s.run("attack", [4, 4, 3, 1, 1, 2, 6, 6, 5, 3], actor="Borin", target="Grak")
    # the flurry is over: adjustment, in reverse order, with Grak downed; Snaga still stands
    while s.enc.current != "Borin":
        s.run("next", actor=s.enc.current)
    assert s.enc.phase == "adjustment" and not s.enc.winner
    res = s.run("coupdegrace", actor="Borin", target="Grak")
    assert s.get("Grak").status == "out" and res.events[0].cause == "coup"


def test_the_last_foe_unconscious_decides_the_fight_and_the_stroke_still_finishes_it():
    """The last foe "unconscious" can no longer act: the fight is decided, and "An automatic killing stroke" still takes him out."""
    s = duel()
    fight(s)
    res = s.run("attack", [4, 4, 3, 1, 1, 2, 6, 6, 5, 3], actor="Borin", target="Grak")
    assert s.enc.winner == "dwarves" and [e.helpless for e in res.events if isinstance(e, Victory)] == [["Grak"]]
    assert "The fight is decided" in s.refused("next", actor="Borin")
    res = s.run("coupdegrace", actor="Borin", target="Grak")
    assert s.get("Grak").status == "out" and isinstance(res.events[0], Finished)


def test_coup_de_grace_refused_on_a_fighter_still_standing():
    """Coup-de-grâce conditions: three or four limbs disabled, unconscious, or mortally wounded."""
    s = duel()
    fight(s)
    assert "not helpless" in s.refused("coupdegrace", actor="Borin", target="Grak")


def test_a_conscious_but_immobile_foe_still_fights_and_is_no_coup_de_grace_victim():
    """"In the case of a chest wound, the character is conscious but immobile"; "Only mortally wounded characters
    are incapable of performing any action": Grak is not beaten, and no coup-de-grâce condition ("any three limbs
    disabled, all four limbs disabled, unconscious, or mortally wounded") holds."""
    s = duel()
    fight(s)
    res = s.run("act", [3], action="damage", target="Grak", options={"critical": "", "chest": ""})
    assert st(s, "Grak").immobile and s.get("Grak").status == "active"
    assert not s.enc.winner and not any(isinstance(e, Victory) for e in res.events)
    assert "not helpless" in s.refused("coupdegrace", actor="Borin", target="Grak")


def test_coup_de_grace_refused_while_engaged_with_another():
    """"the deliverer of the coup-de-grâce must not be engaged with another opponent"."""
    s = duel()
    s.add("Snaga", "weapons=spear", side="orcs", at=near(s, "D4", "S"), facing="N", owner=None)
    st(s, "Grak").unconscious = True
    s.enc.combatants[1].status = "downed"
    s.run("init_roll", [5, 5, 4, 2, 2, 2])  # Grak is downed: no initiative
    while s.enc.current != "Borin":
        s.run("next", actor=s.enc.current)
    assert "engaged with Snaga" in s.refused("coupdegrace", actor="Borin", target="Grak")


def test_a_piece_of_armour_covers_its_own_location():
    """"determine the location struck so that the defender's armor can be considered": sheet `armor_at=head:plate`
    absorbs a head blow as plate (5), while the leather of `armor` (2) takes the rest."""
    from rules.systems.war_and_combat.events import Struck

    s = duel(grak="armor=leather armor_at=head:plate")
    fight(s)
    res = s.run("attack", [4, 4, 3, 1, 1, 2, 4, 4, 4], actor="Borin", target="Grak")  # head: impact 12 - 2 = 10
    hit = next(e for e in res.events if isinstance(e, Struck))
    assert hit.location == "head" and hit.absorbed == 5 and hit.effective == 5
    t = duel(grak="armor=leather armor_at=head:plate")
    fight(t)
    res = t.run("attack", [4, 4, 3, 4, 4, 3, 1, 1, 2], actor="Borin", target="Grak")  # chest: impact 4 - 2 = 2
    assert next(e for e in res.events if isinstance(e, Struck)).absorbed == 2


def test_a_stumble_missed_by_0_slips_and_a_fallen_victim_stays_down():
    """Stumble-XX: "Roll 3d6 + Agility modifier vs. target. On a failure, fall down. Miss by: 0 You slip, but catch
    yourself. Lose 1 action this round. ... 7+ Fall on back, side, or face": a roll equal to the target (no more
    than it) slips and the reply says so; a victim already fallen has the row it missed by named, and stays down."""
    s = duel()
    fight(s, borin="tackle")
    res = s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2, 5, 4, 4], actor="Borin", target="Grak")  # 13 vs Stumble-13
    said = "\n".join(s.text(res)).replace("**", "")
    assert "Grak slips, but catches itself (Stumble-13 missed by 0)" in said and not st(s, "Grak").fallen
    t = duel()
    fight(t, borin="tackle")
    st(t, "Grak").fallen = True
    res = t.run("attack", [3, 3, 2, 4, 4, 3, 2, 2, 2, 2, 2, 1], actor="Borin", target="Grak")  # 5 vs 13: missed by 8
    said = "\n".join(t.text(res)).replace("**", "")
    assert "Grak fails to keep its feet (\"Fall on back, side, or face\"), but is already fallen: it stays down" in said


def test_a_stumble_missed_by_0_by_one_already_down_says_so():
    """Stumble-XX: "Miss by: 0 You slip, but catch yourself. Lose 1 action this round": Grak, already fallen, has
    nothing to catch: the reply says he slips but is already down, and he loses the row's action."""
    s = duel()
    fight(s, borin="tackle")
    st(s, "Grak").fallen = True
    res = s.run("attack", [4, 4, 3, 4, 4, 3, 1, 1, 1, 1, 5, 4, 4], actor="Borin", target="Grak")  # 13 vs Stumble-13
    said = "\n".join(s.text(res)).replace("**", "")
    assert "Grak slips, but is already down (Stumble-13 missed by 0)" in said and "catches itself" not in said
    assert "Grak loses 1 action" in said and st(s, "Grak").fallen


def test_an_action_lost_by_one_with_none_left_is_said_to_lose_nothing():
    """"0 You slip, but catch yourself. Lose 1 action this round": Grak, his flurry's actions spent, has none to lose,
    and the reply says nothing is lost; with actions left, one is lost."""
    s = duel(rear_defense=11)  # with no action left Grak is open to an indefensible attack: Defense 11, no critical
    fight(s, borin="tackle")
    st(s, "Grak").actions = 0
    res = s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2, 5, 4, 4], actor="Borin", target="Grak")  # 13 vs Stumble-13
    said = "\n".join(s.text(res)).replace("**", "")
    assert "Grak would lose 1 action, but has none left this round: nothing is lost" in said
    assert "loses 1 action" not in said
    t = duel()
    fight(t, borin="tackle")
    res = t.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2, 5, 4, 4], actor="Borin", target="Grak")
    assert "Grak loses 1 action this round" in "\n".join(t.text(res)).replace("**", "") and st(t, "Grak").actions == 1


def test_an_action_lost_by_a_stunned_fighter_is_said_to_lose_nothing():
    """docs/systems/war-and-combat.md: "A fighter in the flurry who can take no action (stunned ...) ... has no
    action", and one "whose flurry has left it none ... loses nothing, and the reply says so": Grak, stunned in the
    flurry (by an earlier blow) with actions still counted, loses one (a failed shock check, a slip) and is said to
    lose nothing (it said "loses 1 action"); unstunned, it loses one."""
    from rules.systems.war_and_combat.attacks import lose_actions
    from tests.rules.war_and_combat.build import stun

    s = duel()
    fight(s, borin="tackle")
    grak = s.get("Grak")
    assert s.enc.phase == "flurry" and st(s, "Grak").actions > 0
    assert s.system.present.text(lose_actions(s.enc, grak, 1)) == "**Grak** loses 1 action this round"
    stun(s, "Grak")
    said = s.system.present.text(lose_actions(s.enc, grak, 1)).replace("**", "")
    assert said == "Grak would lose 1 action, but has none left this round: nothing is lost"


def test_players_read_a_hidden_attackers_critical_as_any_other_blow():
    """"Critical Hits: If an attack roll exceed the required target (i.e., the DEF of the target) by 5 or more" is the
    hidden attacker's number: the players' line of a critical blow keeps the armour's "absorbs up to" as any blow's
    does, so its shape does not tell them the attack beat the Defense by 5 or more (the wound itself is shown); the
    line says a critical goes through it ("Critical hits automatically penetrate armour"), true of both blows."""
    from rules.hidden import public_copy

    lines = []
    # 18, then 12 (+2) + 2 skill = 22 against Borin's 17: a critical (+1d6); 16 + 2 = 18: a plain hit; both in the leg
    for attack, impact in (([6, 6, 6, 4, 4, 4], [3] * 5), ([6, 5, 5], [3] * 4)):
        s = duel()
        fight(s)
        s.run("act", action="hold", actor="Borin")
        res = s.run("attack", [*attack, 5, 5, 5, *impact], actor="Grak", target="Borin")
        public = [s.system.present.report("", [public_copy(e, frozenset({"Grak"})) for e in res.events]).lines]
        lines.append(next(x for x in public[0] if "is struck in" in x))
    assert all(": the armour absorbs up to 3 (a critical goes through it): " in x for x in lines), lines
