"""The GM's wounds without an attack: `/act action:damage` gives a wound at a location and severity, `heal` takes it away."""
from __future__ import annotations

from rules.events import Checked, mod
from rules.hidden import for_reader, players_see, public_copy
from rules.systems.war_and_combat import sheet
from rules.systems.war_and_combat.state import WoundRecord
from tests.rules.war_and_combat.build import duel, st


def test_the_gm_gives_a_critical_arm_wound_with_its_effect_and_penalty():
    """Wound Effects: "Arm Fumble? Fumble Disabled" and "Action Penalty —> -1 -3 -7": a critical wound to the left
    arm, given by the GM without an attack, disables the arm and costs 7 on every task roll."""
    s = duel()
    res = s.run("act", action="damage", target="Grak", options={"critical": "", "left": "", "arm": ""})
    assert "**Grak** takes a critical wound to the left arm (broken bones)" in s.text(res)[0]
    assert [(w.location, w.severity, w.penetrating) for w in st(s, "Grak").wounds] == [("left arm", "critical", False)]
    assert st(s, "Grak").disabled == ["left arm"] and sheet.wound_penalty(s.get("Grak")) == -7


def test_a_gm_wound_rolls_the_tables_check_and_a_limb_takes_limb_side():
    """"Fumble?: Roll 3d6 + DEX modifier vs. 10": a light arm wound rolls it; an arm without a side is the option
    `limb_side`'s; a failure in the weapon arm drops the axe ("any item carried is dropped")."""
    s = duel()
    res = s.run("act", [6, 6, 5], action="damage", target="Grak", options={"light": "", "arm": "", "penetrating": ""})
    assert st(s, "Grak").wounds[0].location == "left arm" and st(s, "Grak").wounds[0].penetrating
    assert any(getattr(e, "what", None) == "fumble?" for e in res.events)
    s.run("act", [2, 2, 2, 1], action="damage", target="Grak", options={"light": "", "right": "", "arm": ""})
    assert "axe" in st(s, "Grak").dropped
    t = duel(limb_side="right")
    t.run("act", [6, 6, 5], action="damage", target="Grak", options={"light": "", "arm": ""})
    assert st(t, "Grak").wounds[0].location == "right arm"


def test_healing_makes_a_disabled_limb_whole_and_a_mortal_wound_no_longer_downs():
    """"The limb is disabled and can no longer be used until healed"; "Mortally wounded characters are incapable of
    performing any action": healed, the arm is whole and the fighter stands again."""
    s = duel()
    s.run("act", action="damage", target="Grak", options={"critical": "", "left": "", "arm": ""})
    s.run("act", [3], action="damage", target="Grak", options={"mortal": "", "belly": ""})
    assert s.get("Grak").status == "downed"
    res = s.run("act", action="heal", target="Grak", options={"left": "", "arm": ""})
    assert "**Grak** is healed of its critical left arm wound" in s.text(res)[0]
    assert "left arm" not in st(s, "Grak").disabled
    s.run("act", action="heal", target="Grak", options={"belly": ""})
    assert s.get("Grak").status == "active" and st(s, "Grak").wounds == []


def test_heal_takes_the_worst_wound_there_and_bad_words_change_nothing():
    """Of two wounds at a location the worst goes first ("the worst wound suffered for each hit location"); a
    missing severity, an unknown word or a wound not there is refused with what to write."""
    s = duel()
    s.run("act", action="damage", target="Grak", options={"light": "", "head": ""})
    s.run("act", [3], action="damage", target="Grak", options={"serious": "", "head": ""})
    s.run("act", action="heal", target="Grak", options={"head": ""})
    assert [w.severity for w in st(s, "Grak").wounds] == ["light"]
    before = s.enc.model_dump()
    assert "how bad" in s.refused("act", action="damage", target="Grak", options={"head": ""})
    assert "`nose` is not one of its `options` words" in s.refused("act", action="damage", target="Grak", options={"light": "", "nose": ""})
    assert "one location" in s.refused("act", action="damage", target="Grak", options={"light": ""})
    assert "no wound to the belly" in s.refused("act", action="heal", target="Grak", options={"belly": ""})
    assert "Name the wounded" in s.refused("act", action="damage", options={"light": "", "head": ""})
    assert s.enc.model_dump() == before


def test_healing_a_critical_chest_wound_takes_away_its_immobility_but_not_the_fall():
    """"In the case of a chest wound, the character is conscious but immobile" until healed ("can no longer be used
    until healed"): healed, Grak is no longer immobile, and stays fallen until it stands (conscious, it was never
    downed: "Only mortally wounded characters are incapable of performing any action")."""
    s = duel()
    s.run("act", [3], action="damage", target="Grak", options={"critical": "", "chest": ""})
    assert st(s, "Grak").immobile and s.get("Grak").status == "active" and st(s, "Grak").fallen
    s.run("act", action="heal", target="Grak", options={"chest": ""})
    assert not st(s, "Grak").immobile and s.get("Grak").status == "active" and st(s, "Grak").fallen


def test_healing_the_wound_that_left_it_immobile_says_so_not_a_mortal_wound():
    """"In the case of a chest wound, the character is conscious but immobile": healed, the report says the immobility
    ended, and names a mortal wound only when a mortal wound healed."""
    s = duel()
    s.run("act", [3], action="damage", target="Grak", options={"critical": "", "chest": ""})
    said = "\n".join(s.text(s.run("act", action="heal", target="Grak", options={"chest": ""})))
    assert "**Grak** is no longer immobile (the wound that held it healed)" in said
    assert "mortal" not in said and "now **active**" not in said
    s.run("act", [3], action="damage", target="Grak", options={"mortal": "", "belly": ""})
    said = "\n".join(s.text(s.run("act", action="heal", target="Grak", options={"belly": ""})))
    assert "**Grak** is now **active**: its mortal wound healed" in said


def test_healing_a_critical_belly_wound_gives_back_both_legs_but_not_a_legs_own_wound():
    """"In the case of a belly wound, both legs are disabled" until healed: healing the belly frees both legs, save a
    leg disabled by its own wound ("The limb is disabled and can no longer be used until healed")."""
    s = duel()
    s.run("act", [3], action="damage", target="Grak", options={"critical": "", "belly": ""})
    s.run("act", action="damage", target="Grak", options={"critical": "", "right": "", "leg": ""})
    assert sorted(st(s, "Grak").disabled) == ["left leg", "right leg"]
    s.run("act", action="heal", target="Grak", options={"belly": ""})
    assert st(s, "Grak").disabled == ["right leg"]


def test_healing_a_leg_keeps_it_disabled_while_the_belly_wound_stays():
    """"In the case of a belly wound, both legs are disabled": healing a leg's own wound leaves it disabled by the
    belly wound, which is still there."""
    s = duel()
    s.run("act", [3], action="damage", target="Grak", options={"critical": "", "belly": ""})
    s.run("act", [6, 6, 5], action="damage", target="Grak", options={"light": "", "left": "", "leg": ""})
    s.run("act", action="heal", target="Grak", options={"left": "", "leg": ""})
    assert sorted(st(s, "Grak").disabled) == ["left leg", "right leg"]


def test_a_wound_with_two_severities_or_a_side_on_the_body_is_refused():
    """A wound has one severity ("Light, Serious, Critical" and mortal) and only "an arm or leg" has a side: two
    severities, two sides or a side on the head, chest or belly are refused with what to type, and change nothing."""
    s = duel()
    assert "`severity` is given twice" in s.refused("act", action="damage", target="Grak", options={"light": "", "serious": "", "head": ""})
    assert "Only an arm or leg" in s.refused("act", action="damage", target="Grak", options={"light": "", "left": "", "head": ""})
    assert "`side` is given twice" in s.refused("act", action="damage", target="Grak", options={"light": "", "left": "", "right": "",
                                                                                 "arm": ""})
    s.run("act", action="damage", target="Grak", options={"light": "", "chest": ""})
    assert "Only an arm or leg" in s.refused("act", action="heal", target="Grak", options={"left": "", "chest": ""})
    assert "`severity` is given twice" in s.refused("act", action="heal", target="Grak", options={"light": "", "serious": "", "chest": ""})
    assert [(w.location, w.severity) for w in st(s, "Grak").wounds] == [("chest", "light")]


def test_a_fumble_check_takes_the_wound_penalties():
    """Fumble?: "Roll 3d6 + DEX modifier vs. 10"; "Action penalties are applied against any task roll the character
    attempts": the light arm wound's own -1 and a serious belly wound's -3 count (11 - 4 = 7: a fumble)."""
    s = duel()
    st(s, "Grak").wounds.append(WoundRecord(location="belly", severity="serious"))
    res = s.run("act", [4, 4, 3, 1], action="damage", target="Grak", options={"light": "", "right": "", "arm": ""})
    check = next(e for e in res.events if isinstance(e, Checked))
    assert check.what == "fumble?" and mod("wounds", -4) in check.roll.modifiers and not check.roll.success


def test_a_mortal_wound_reads_as_the_text_says_for_its_location():
    """"Mortal punctures to the arms or legs hit major blood vessel and cause serious bleeding ... Mortal cuts to the belly
    disembowel the victim; ... sever the arms or legs": no arm is disembowelled."""
    s = duel()
    arm = "\n".join(s.text(s.run("act", action="damage", target="Grak", options={"mortal": "", "left": "", "arm": "",
                                                                                "penetrating": ""})))
    assert "(a major blood vessel hit (serious bleeding), or severed)" in arm and "disembowel" not in arm
    belly = "\n".join(s.text(s.run("act", [3], action="damage", target="Grak", options={"mortal": "", "belly": ""})))
    assert "(disrupted internal organs)" in belly


def test_a_disabled_arm_drops_what_it_holds_and_a_disabled_leg_fells():
    """"Disabled: The limb is disabled and can no longer be used until healed", where the milder impaired arm "may still
    carry hand held items" and a failed Stumble? "may not stand on the leg": a critical right arm drops the axe at
    Grak's feet, a critical leg fells him; option `disabled_limbs=table` keeps to what the table's row names."""
    s = duel()
    s.run("act", action="damage", target="Grak", options={"critical": "", "right": "", "arm": ""})
    assert st(s, "Grak").dropped == ["axe"] and st(s, "Grak").dropped_at == {"axe": s.get("Grak").position}
    s.run("act", action="damage", target="Grak", options={"critical": "", "left": "", "leg": ""})
    assert st(s, "Grak").fallen
    t = duel(disabled_limbs="table")
    t.run("act", action="damage", target="Grak", options={"critical": "", "right": "", "arm": ""})
    t.run("act", action="damage", target="Grak", options={"critical": "", "left": "", "leg": ""})
    assert not st(t, "Grak").dropped and not st(t, "Grak").fallen


def test_a_stuns_line_counts_its_rounds_in_words():
    """"Stunned characters ... can take no action for 1d6 rounds": a stun of 6 says it lasts 6 rounds, this one and the
    next 5, on its line and on the board; one of a round says it ends with this round."""
    s = duel()
    res = s.run("act", [6], action="damage", target="Grak", options={"serious": "", "chest": ""})
    assert "Effect **stun** on **Grak** for 6 rounds: this one and the next 5" in s.text(res)
    assert s.system.present.effect_lines(s.enc) == ["stun on Grak, for 6 rounds: this one and the next 5"]
    assert not any("times" in line for line in s.text(res))
    t = duel()
    res = t.run("act", [1], action="damage", target="Grak", options={"serious": "", "chest": ""})
    assert "Effect **stun** on **Grak** until the end of this round" in t.text(res)


def test_the_stun_line_shows_the_defense_used_and_why():
    """"Stunned characters lose half their Defense (i.e., Base 5 + half Fighter rank)": the line gives the Defense the
    attacks will use, with the Agility modifier where option `down_agility=yes` adds it, and the helpless one's
    ("Unconscious characters have a base Defense of 3", "A fallen, immobile character has a base Defense of 3") where
    that is lower and is used instead."""
    s = duel("", "agl=13")  # Grak: Fighter 3, Agility modifier +1
    res = s.run("act", [6], action="damage", target="Grak", options={"serious": "", "chest": ""})
    assert "Defense 5 + half Fighter rank 1 = 6" in s.text(res)[1]
    public = s.system.present.report("", [public_copy(e, frozenset({"Grak"})) for e in res.events]).lines
    assert "Defense 5 + half Fighter rank (" in public[1]  # a hidden fighter's numbers stay the GM's
    t = duel("", "agl=13", down_agility="yes")
    res = t.run("act", [6], action="damage", target="Grak", options={"serious": "", "chest": ""})
    assert "Defense 5 + half Fighter rank 1 + Agility modifier +1 (option `down_agility`) = 7" in t.text(res)[1]
    u = duel("", "agl=13", down_agility="yes")
    u.run("act", [3], action="damage", target="Grak", options={"critical": "", "chest": ""})
    res = u.run("act", [4], action="damage", target="Grak", options={"serious": "", "belly": ""})
    line = next(x for x in u.text(res) if "is stunned" in x)
    assert "Defense 3, not the stunned 5 + half Fighter rank: immobile" in line and "= 7" not in line


def test_a_critical_belly_wound_stuns_and_disables_both_legs():
    """"Attacks to the head, chest, or belly cause stun when the light threshold is exceeded" and "In the case of a
    belly wound, both legs are disabled": a critical belly wound does both, the stun for its 1d6 rounds."""
    s = duel()
    res = s.run("act", [4], action="damage", target="Grak", options={"critical": "", "belly": ""})
    assert any(e.code == "stun" and e.target == "Grak" and e.left == 4 for e in s.enc.effects)
    assert st(s, "Grak").disabled == ["left leg", "right leg"]
    assert any("is stunned: no action for 4 rounds" in line for line in s.text(res))


def test_the_gms_wounds_and_heals_mid_fight_are_listed_under_gm_changes() -> None:
    """docs/commands.md, "Fair play": once the fight has started, harm changes "only by rule actions or by the GM's
    edit, which ... the status board lists under "GM changes"": the GM's wound and heal without an attack are such
    changes, listed as a `/combatant hp` is in the other systems (a hidden fighter's as that the GM changed it); the
    lines count their wounds and actions in words ("its critical left arm wound", "1 action")."""
    s = duel()
    s.run("init_roll", (5, 5, 4, 2, 3, 2))
    s.run("act", action="damage", target="Borin", options={"serious": "", "left": "", "arm": ""})
    s.run("act", action="damage", target="Borin", options={"critical": "", "left": "", "arm": ""})
    res = s.run("act", action="heal", target="Borin", options={"left": "", "arm": "", "all": ""})
    assert s.enc.gm_edits[-3:] == ["round 1: Borin serious left arm wound", "round 1: Borin critical left arm wound",
                                   "round 1: Borin left arm wounds healed"]
    assert "**Borin** is healed of its serious and critical left arm wounds" in s.text(res)
    s.run("act", action="damage", target="Grak", options={"light": "", "head": ""})
    assert for_reader(s.enc.gm_edits[-1], players_see(s.enc)) == "round 1: the GM changed Grak"


def test_a_shorter_stun_into_a_running_one_says_the_running_one_stays():
    """docs/systems/war-and-combat.md: "a stun, like every timed condition of the same name, never cuts short one
    running: the longer is kept". A wound's 1-round stun on a fighter stunned for 6 says so: it is shorter than the
    running stun, which stays, and the effect line keeps the 6 rounds; a longer one replaces it as before."""
    s = duel()
    s.run("act", [6], action="damage", target="Grak", options={"critical": "", "belly": ""})
    res = s.run("act", [1], action="damage", target="Grak", options={"critical": "", "head": ""})
    line = next(x for x in s.text(res) if "is stunned" in x)
    assert "no action for 1 round" in line and "shorter than the 6 rounds of the stun it is under, which runs on" in line
    assert any("Effect **stun** on **Grak** for 6 rounds" in x for x in s.text(res))
    t = duel()
    t.run("act", [1], action="damage", target="Grak", options={"critical": "", "belly": ""})
    res = t.run("act", [5], action="damage", target="Grak", options={"critical": "", "head": ""})
    line = next(x for x in t.text(res) if "is stunned" in x)
    assert "no action for 5 rounds" in line and "shorter" not in line


def test_the_gms_stun_keeps_the_longer_as_a_wounds_does():
    """docs/systems/war-and-combat.md: "a stun, like every timed condition of the same name, never cuts short one
    running: the longer is kept", and the GM may "stun a fighter for the rounds it chooses with `/effect add
    name:stun target:Grak rounds:2` (the rules' stun, counted down at each round's end as a wound's ...)": on a
    fighter stunned for 6 rounds, the GM's 8 replaces the 6, and the GM's 2 is told as shorter than the 8, which
    runs on; neither is refused as a second effect of the name."""
    s = duel()
    s.run("act", [6], action="damage", target="Grak", options={"critical": "", "belly": ""})
    s.run("effect_add", effect="stun", actor="Grak", rounds=8)
    assert [e.left for e in s.enc.effects if e.code == "stun" and e.target == "Grak"] == [8]
    res = s.run("effect_add", effect="stun", actor="Grak", rounds=2)
    assert [e.left for e in s.enc.effects if e.code == "stun" and e.target == "Grak"] == [8]
    line = next(x for x in s.text(res) if "is stunned" in x)
    assert "no action for 2 rounds (shorter than the 8 rounds of the stun it is under, which runs on)" in line
