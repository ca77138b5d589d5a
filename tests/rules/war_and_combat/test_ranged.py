"""Ranged strikes: twice a round, range bands, moving targets, firing into a melee, called shots."""
from __future__ import annotations

from rules.effects import Effect
from rules.events import Attacked, Term, mod
from rules.systems.war_and_combat.events import Struck
from tests.rules.war_and_combat.build import near, st, wac
from tests.scenario import Scenario

ARCHER = "dex=14 fighter=3 skills=bow:3 weapons=bow,dagger"


def range_(hexes: int, target_sheet: str = "", **options: object) -> Scenario:
    """Alda the archer (bow: short range 25 hexes) and Grak ``hexes`` to her north, her step first."""
    s = wac(map="40x40 hex", tactics_skew="no", **options)
    s.add("Alda", ARCHER, side="dwarves", at="F39", facing="N")
    s.add("Grak", f"weapons=axe {target_sheet}", side="orcs", at=near(s, "F39", *["N"] * hexes), facing="N", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    return s


def attack(res) -> Attacked:
    return next(e for e in res.events if isinstance(e, Attacked))


def test_short_range_against_a_moving_target():
    """"Unaware, Moving 15 + Range Mod." with Short (x1) +5: 20 to beat; 3d6 + skill + Dexterity modifier."""
    s = range_(20)
    res = s.run("attack", [5, 5, 6], actor="Alda", target="Grak", weapon="bow")
    a = attack(res)
    assert a.roll.against == 20 and a.roll.total == 16 + 3 + 1 and not a.roll.success


def test_medium_range_and_an_unmoving_target():
    """Medium (x2) +10; "Unaware and Unmoving 10 + Range Modifier"."""
    s = range_(40 - 2)
    res = s.run("attack", [6, 6, 5, 4, 4, 3, 2, 2], actor="Alda", target="Grak", weapon="bow", options={"target": "unmoving"})
    assert attack(res).roll.against == 20 and attack(res).roll.total == 21
    assert any(isinstance(e, Struck) for e in res.events)


def test_one_shot_a_phase():
    """"Archers fire once or twice a round. The first shot is made during the Movement Phase, and the second ... during the Adjustment Phase"."""
    s = range_(20)
    s.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow")
    assert "ranged strike of this phase" in s.refused("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow")
    assert st(s, "Alda").shots == 1


def test_firing_into_a_melee_adds_five():
    """"Firing Into a Mêlée: Add +5 to task target level if the target is obstructed by moving bodies"."""
    s = wac(map="40x40 hex", tactics_skew="no")
    s.add("Alda", ARCHER, side="dwarves", at="F39", facing="N")
    grak = near(s, "F39", *["N"] * 20)
    s.add("Grak", "weapons=axe", side="orcs", at=grak, facing="N", owner=None)
    s.add("Borin", "weapons=axe", side="dwarves", at=near(s, grak, "N"), facing="S")
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 1, 2, 2])
    res = s.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow")
    assert attack(res).roll.against == 25
    assert "vs short range, moving, +5 into a mêlée 25" in s.text(res)[0].replace("**", "")


def test_called_shot_at_short_range():
    """"At short range, general hit locations are -2 to call": no location roll."""
    s = range_(20, target_sheet="")
    res = s.run("attack", [6, 6, 5, 3, 3], actor="Alda", target="Grak", weapon="bow", options={"aim": "head", "target": "unmoving"})
    a = attack(res)
    assert mod("called_shot", -2) in a.roll.modifiers
    assert next(e for e in res.events if isinstance(e, Struck)).location == "head"


def test_beyond_extreme_range_is_refused():
    """MISSILE TARGETING BY RANGE ends at Extreme (x5)."""
    s = wac(map="40x40 hex", tactics_skew="no")
    s.add("Alda", "dex=14 skills=sling:3 weapons=sling", side="dwarves", at="A1", facing="S")
    s.add("Grak", "weapons=axe", side="orcs", at="AN40", facing="N", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.enc.combatants[0].sheet["weapons"] = ["javelin"]
    assert "beyond" in s.refused("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="javelin")


def test_melee_weapons_wait_for_the_flurry():
    """Out of a flurry only missile weapons strike."""
    s = range_(20)
    assert "flurry phase" in s.refused("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="dagger")


def test_a_missed_shot_may_strike_one_in_its_path():
    """"Missed Shots: Treat accidental attacks against random targets in the missile's flight path as if the attacker had a skill level of -5"."""
    s = wac(map="40x40 hex", tactics_skew="no")
    s.add("Alda", ARCHER, side="dwarves", at="F39", facing="N")
    s.add("Grak", "weapons=axe", side="orcs", at=near(s, "F39", *["N"] * 10), facing="N", owner=None)
    s.add("Ulf", "weapons=axe", side="dwarves", at=near(s, "F39", *["N"] * 5), facing="N")
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 1, 2, 2])
    res = s.run("attack", [2, 2, 2, 6, 6, 5], actor="Alda", target="Grak", weapon="bow")
    stray = [e for e in res.events if isinstance(e, Attacked)][1]
    assert stray.target == "Ulf" and mod("skill", -5) in stray.roll.modifiers
    assert stray.roll.total == 17 - 5 + 1 and stray.roll.success is False


def test_shooting_ends_movement_for_the_phase():
    """"Launch/Shoot/Throw" is a full action, and "Full Actions prohibit movement"."""
    s = range_(20)
    s.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow")
    assert st(s, "Alda").mp == 0 and "ended its movement" in s.refused("move", actor="Alda", path="N")


def test_a_fighter_felled_by_a_shot_crawls_for_the_rest_of_the_phase():
    """Stumble?: "Failure means the victim falls"; felled in the movement phase, Grak has a crawl's 1 point left, not 4."""
    s = wac()
    s.add("Alda", "dex=14 fighter=9 skills=bow:3 weapons=bow", side="dwarves", at="F10", facing="N")
    s.add("Grak", "fighter=0 pace=run weapons=axe", side="orcs", at="F6", facing="S", owner=None)
    s.run("init_roll", [6, 6, 5, 1, 1, 2])
    s.run("attack", [6, 6, 5, 5, 5, 5, 3, 3, 3, 3, 3], actor="Alda", target="Grak")  # leg, light: Stumble? 9 fails
    grak = s.get("Grak").state
    assert grak.fallen and grak.mp == 1


def test_a_called_shot_at_a_sub_location():
    """"At short range, general hit locations are -2 to call, or -5 for sub-locations": `aim=hand` is -5 and
    strikes the arm; at point blank "-3 to hit for a sub-location (hand, item carried, eye, etc)"."""
    s = range_(20, target_sheet="")
    res = s.run("attack", [6, 6, 5, 3, 3, 5, 5, 5], actor="Alda", target="Grak", weapon="bow",
                options={"aim": "hand", "target": "unmoving"})  # an arm hit: its fumble? check passes
    assert mod("called_shot_at", -5, "hand") in attack(res).roll.modifiers
    assert next(e for e in res.events if isinstance(e, Struck)).location.endswith("arm")
    t = range_(2, target_sheet="")
    res = t.run("attack", [6, 6, 5, 3, 3, 2, 2], actor="Alda", target="Grak", weapon="bow",
                options={"aim": "eye", "target": "unmoving"})  # critical: +1d6; a serious head wound stuns 1d6 rounds
    assert mod("called_shot_at", -3, "eye") in attack(res).roll.modifiers
    assert next(e for e in res.events if isinstance(e, Struck)).location == "head"


def test_a_called_shot_is_refused_with_the_right_reason():
    """"Otherwise hit locations are random": beyond short range the range is named; an unknown word lists the locations."""
    s = range_(30, target_sheet="")
    assert "medium range" in s.refused("attack", [6, 6, 5], actor="Alda", target="Grak", weapon="bow", options={"aim": "hand"})
    t = range_(20, target_sheet="")
    assert "sub-location (hand, item, eye, foot)" in t.refused("attack", [6, 6, 5], actor="Alda", target="Grak", weapon="bow",
                                                                options={"aim": "elbow"})


def test_a_crossbow_must_be_loaded_before_it_shoots_again():
    """"Load Weapon" is a full action ("Full Actions prohibit movement"): a crossbow that shot is refused until
    loaded, in a phase without moving or shooting."""
    s = wac(map="40x40 hex", tactics_skew="no")
    s.add("Alda", "dex=14 fighter=3 skills=crossbow:3 weapons=crossbow", side="dwarves", at="F39", facing="N")
    s.add("Grak", "weapons=axe", side="orcs", at=near(s, "F39", *["N"] * 20), facing="N", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("attack", [2, 2, 2], actor="Alda", target="Grak")  # a miss
    assert st(s, "Alda").unloaded == ["crossbow"]
    assert "shooting (a full action)" in s.refused("act", action="load", actor="Alda")
    s.run("next", actor="Alda")
    s.run("next", actor="Grak")
    while s.enc.current != "Alda":
        s.run("next", actor=s.enc.current)
    assert "not loaded" in s.refused("attack", [2, 2, 2], actor="Alda", target="Grak")
    res = s.run("act", action="load", actor="Alda")
    assert "loads its crossbow" in s.text(res)[0] and st(s, "Alda").unloaded == [] and st(s, "Alda").mp == 0
    assert "loading (a full action)" in s.refused("attack", [2, 2, 2], actor="Alda", target="Grak")


def test_a_point_blank_shot_at_an_aware_target_is_confrontational():
    """"At the closer range against an aware target, the task is confrontational just like a mêlée attack. At
    further ranges or against unaware targets, archery rules are used": point blank at an evading target is
    against its Defense; option `close_missile=archery` keeps "Aware, Evading 15 + Target's Defense + Range Mod."."""
    s = range_(2)
    s.get("Grak").facing = "S"  # facing Alda: his front Defense, 10
    res = s.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow", options={"target": "evading"})
    assert attack(res).roll.against == 10 and attack(res).roll.versus == Term(code="defense_aware", args=["front"])
    t = range_(2, close_missile="archery")
    t.get("Grak").facing = "S"
    res = t.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow", options={"target": "evading"})
    assert attack(res).roll.against == 15 + 10 + 0
    u = range_(20)
    u.get("Grak").facing = "S"
    res = u.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow", options={"target": "evading"})
    assert attack(res).roll.against == 15 + 10 + 5


def test_a_leg_disabled_by_a_shot_halves_the_rest_of_the_phase():
    """"Disabled: The limb is disabled and can no longer be used until healed"; an impaired leg already "reduce[s]
    movement rate by 1/2 if one leg is so injured": a runner (4 points a phase) whose leg a shot disables keeps 2,
    and cannot run its 4 hexes (option `disabled_limbs=table`: by default the disabled leg also fells it)."""
    s = wac(disabled_limbs="table")
    s.add("Alda", "dex=14 fighter=9 skills=bow:3 weapons=bow", side="dwarves", at="F10", facing="N")
    s.add("Grak", "fighter=0 pace=run weapons=axe", side="orcs", at="F6", facing="S", owner=None)
    s.run("init_roll", [6, 6, 5, 1, 1, 2])
    res = s.run("attack", [6, 6, 5, 5, 5, 5, 6, 6], actor="Alda", target="Grak")  # left leg, critical: disabled
    assert "Grak's left leg is disabled" in "\n".join(s.text(res)).replace("**", "")
    assert st(s, "Grak").mp == 2 and not st(s, "Grak").fallen
    s.run("next", actor="Alda")
    assert "movement point" in s.refused("move", actor="Grak", path="N N N N")


def test_aiming_a_weapon_is_a_full_action_with_no_number():
    """"Aim a Weapon" is among the full actions ("Full Actions prohibit movement"); the text gives aiming no
    modifier, so it spends the phase (no move, no shot after it) and the next shot rolls as it would."""
    s = range_(20)
    res = s.run("act", action="aim", actor="Alda", target="Grak", weapon="bow")
    assert "aims its bow at Grak" in s.text(res)[0] and st(s, "Alda").mp == 0
    assert "aiming (a full action)" in s.refused("attack", [5, 5, 6], actor="Alda", target="Grak", weapon="bow")
    assert "ended its movement" in s.refused("move", actor="Alda", path="N")
    t = range_(20)
    t.run("move", actor="Alda", path="N")
    assert "moved this phase" in t.refused("act", action="aim", actor="Alda")
    s.run("next", actor="Alda")
    while s.enc.current != "Alda":
        s.run("next", actor=s.enc.current)
    a = attack(s.run("attack", [5, 5, 6], actor="Alda", target="Grak", weapon="bow"))
    assert a.roll.against == 20 and a.roll.total == 16 + 3 + 1  # as unaimed: no number from the text


def test_a_full_action_is_named_when_it_refuses_what_comes_after_it():
    """"Full Actions prohibit movement": after loading, aiming, sheathing or shooting, the refusal of a move, a shot or
    another full action names the full action made, not a shot never made or movement points spent."""
    s = range_(20)
    s.run("act", action="aim", actor="Alda", target="Grak", weapon="bow")
    assert "aiming (a full action)" in s.refused("attack", [5, 5, 6], actor="Alda", target="Grak", weapon="bow")
    assert "aiming (a full action) ended its movement" in s.refused("move", actor="Alda", path="N")
    t = range_(20)
    t.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow")
    assert "shooting (a full action) ended its movement" in t.refused("move", actor="Alda", path="N")
    assert "shooting (a full action)" in t.refused("act", action="aim", actor="Alda")
    u = range_(20)
    u.run("act", action="sheathe", actor="Alda")
    assert "sheathing a weapon (a full action) ended its movement" in u.refused("move", actor="Alda", path="N")
    v = wac(map="40x40 hex", tactics_skew="no")
    v.add("Alda", "dex=14 fighter=3 skills=crossbow:3 weapons=crossbow", side="dwarves", at="F39", facing="N")
    v.add("Grak", "weapons=axe", side="orcs", at=near(v, "F39", *["N"] * 20), facing="N", owner=None)
    v.run("init_roll", [5, 5, 4, 2, 3, 2])
    st(v, "Alda").unloaded = ["crossbow"]
    v.run("act", action="load", actor="Alda")
    assert "loading (a full action)" in v.refused("act", action="aim", actor="Alda")
    assert "loading (a full action)" in v.refused("attack", [2, 2, 2], actor="Alda", target="Grak")


def test_loading_a_crossbow_one_does_not_carry_says_so():
    """"Load Weapon" reloads a weapon that shot: one with no crossbow is told it has none, not how a crossbow loads."""
    s = range_(20)
    assert "carries no crossbow" in s.refused("act", action="load", actor="Alda", options={"crossbow": ""})
    assert "no crossbow" in s.refused("act", action="load", actor="Alda")


def test_a_missed_shot_strikes_a_bystander_at_its_own_range_band():
    """"Missed Shots: Treat accidental attacks against random targets in the missile's flight path as if the attacker
    had a skill level of -5" and "Point Blank (× 1/10) +0": only the skill changes; Ulf, 2 hexes from Alda, is within
    the bow's point blank range (25 × 1/10), so the stray is judged there (unaware, moving: 15 + 0), not at the short
    range (+5) of Grak, 10 hexes off, whom she aimed at."""
    s = wac(map="40x40 hex", tactics_skew="no")
    s.add("Alda", ARCHER, side="dwarves", at="F39", facing="N")
    s.add("Grak", "weapons=axe", side="orcs", at=near(s, "F39", *["N"] * 10), facing="N", owner=None)
    s.add("Ulf", "weapons=axe", side="dwarves", at=near(s, "F39", "N", "N"), facing="N")
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 1, 2, 2])
    res = s.run("attack", [1, 1, 2, 5, 5, 3], actor="Alda", target="Grak", weapon="bow")
    shot, stray = [e for e in res.events if isinstance(e, Attacked)][:2]
    assert (shot.roll.against, shot.roll.versus) == (20, Term(code="range", args=["short", "moving"]))
    assert stray.target == "Ulf" and mod("skill", -5) in stray.roll.modifiers
    assert (stray.roll.against, stray.roll.versus) == (15, Term(code="range", args=["point blank", "moving"]))
    assert stray.roll.total == 13 - 5 + 1 and stray.roll.success is False


def test_a_shot_at_an_aware_target_names_what_changed_its_defense():
    """docs/systems/war-and-combat.md: "The reply names what changed the Defense (`vs Defense (front, −1 turned to
    face, +3 Ward)`)"; a shot at an aware target counts its Defense ("confrontational just like a mêlée attack" at
    point blank, "15 + Defense + range" farther off), so its reply names the effect in it too."""
    s = range_(2)
    s.get("Grak").facing = "S"
    s.enc.effects += [Effect(id=1, name="Ward", target="Grak", ends="round_end", mods={"defense": 3})]
    res = s.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow", options={"target": "evading"})
    assert attack(res).roll.against == 13
    assert "vs Defense (front, +3 Ward), point blank, aware 13: miss" in s.text(res)[0].replace("**", "")
    u = range_(20)
    u.get("Grak").facing = "S"
    u.enc.effects += [Effect(id=1, name="Ward", target="Grak", ends="round_end", mods={"defense": 3})]
    res = u.run("attack", [2, 2, 2], actor="Alda", target="Grak", weapon="bow", options={"target": "evading"})
    assert attack(res).roll.against == 15 + 13 + 5
    assert "vs short range, evading, Defense (front, +3 Ward) 33: miss" in u.text(res)[0].replace("**", "")


def test_a_missile_weapon_not_in_hand_is_drawn_before_it_shoots_aims_or_loads():
    """"`weapons`: catalogue weapons carried, the first in hand"; "draw weapon (`wield`, quick ...)"; "`aim` (full):
    aim the weapon in hand": with the short sword in hand (the first of `weapons=`), a shot, an aim and a load of the
    crossbow she carries are refused as a blow with a weapon not in hand is, saying to draw it with `wield`, and
    change nothing (an aim without a weapon named too: "without `weapon:`, the one in hand, else the first carried");
    drawn, it shoots."""
    s = wac(map="40x40 hex", tactics_skew="no")
    s.add("Alda", "dex=14 fighter=3 skills=short-sword:1,crossbow:2 weapons=short-sword,crossbow", side="dwarves",
          at="F39", facing="N")
    s.add("Grak", "weapons=axe", side="orcs", at=near(s, "F39", *["N"] * 10), facing="N", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    draw = "Alda has the short sword in hand, not the crossbow: draw it with `/act action:wield options:\"crossbow\"`"
    for shoot in ({"weapon": "crossbow"}, {}):
        assert draw in s.refused("attack", [2, 2, 2], actor="Alda", target="Grak", **shoot)
    assert draw in s.refused("act", action="aim", actor="Alda", target="Grak", options={"crossbow": ""})
    # an aim without a weapon named takes the one a shot would (it aimed the short sword in hand, spending the phase)
    assert draw in s.refused("act", action="aim", actor="Alda", target="Grak", options={})
    st(s, "Alda").unloaded.append("crossbow")  # it shot in an earlier phase
    assert draw in s.refused("act", action="load", actor="Alda", options={"crossbow": ""})
    assert st(s, "Alda").shots == 0 and st(s, "Alda").full is None and st(s, "Alda").unloaded == ["crossbow"]
    s.run("act", action="wield", actor="Alda", weapon="crossbow")
    s.run("act", action="load", actor="Alda", options={"crossbow": ""})
    assert st(s, "Alda").unloaded == []
