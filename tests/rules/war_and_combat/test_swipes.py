"""Free attacks (swipes) at a fighter in a flurry, and interrupts that join it."""
from __future__ import annotations

from rules.effects import Effect
from rules.events import Attacked, Checked, Term, mod
from rules.hidden import public_copy
from rules.systems.war_and_combat.actions import ACTIONS
from rules.systems.war_and_combat.attacks import flurry_reach
from rules.systems.war_and_combat.events import FacedAttacker, FlurryInitiative, Struck
from rules.systems.war_and_combat.zones import wielded
from tests.rules.war_and_combat.build import (
    ALDA,
    BORIN,
    GRAK,
    near,
    revealed,
    st,
    wac,
    watched,
)
from tests.scenario import Scenario


def test_a_swipe_negotiates_then_strikes_and_the_target_spends_an_action_to_defend():
    """"The unengaged fighter must negotiate the space ... a task modified by the tactics skill and agility"; the target defends only with an action left."""
    s = watched()
    revealed(s)
    res = s.run("act", [6, 5, 4, 4, 4, 2], action="swipe", actor="Alda", target="Grak")
    check = res.events[0]
    assert isinstance(check, Checked) and check.what == "negotiate"
    assert check.roll.total == 15 + 1 + 1 and check.roll.against == 10 + 6 and check.roll.success
    attack = res.events[1]
    assert isinstance(attack, Attacked) and attack.roll.total == 10 + 2 + 1 and attack.roll.against == 13
    assert st(s, "Grak").actions == 1 and s.enc.current == "Borin" and st(s, "Alda").swiped == 1


def test_a_target_without_actions_cannot_defend_a_swipe():
    """"can only be defended against if the target ... (2) has not used up all of his actions"."""
    s = watched()
    revealed(s)
    st(s, "Grak").actions = 0
    res = s.run("act", [6, 5, 4, 2, 2, 2, 4, 4, 3, 1, 1, 2], action="swipe", actor="Alda", target="Grak")
    attack = next(e for e in res.events if isinstance(e, Attacked))
    assert attack.roll.against == 3 and attack.roll.success


def test_a_surprised_target_cannot_defend_a_swipe():
    """"(1) aware of the attack and not surprised": an effect with code "surprised" leaves it undefended."""
    s = watched()
    revealed(s)
    s.enc.effects.append(Effect(id=1, name="surprised", target="Grak", ends="round_end", code="surprised"))
    res = s.run("act", [6, 5, 4, 2, 2, 2, 4, 4, 3, 1, 1, 2], action="swipe", actor="Alda", target="Grak")
    attack = next(e for e in res.events if isinstance(e, Attacked))
    assert attack.roll.against == 3 and st(s, "Grak").actions == 2


def test_a_failed_negotiation_is_struck_by_the_target():
    """"to avoid being hit": a failed negotiate task takes a blow from the target (random location, low skew impact), and no swipe."""
    s = watched()
    revealed(s)
    res = s.run("act", [2, 3, 3, 4, 4, 3, 1, 1, 1, 1, 1], action="swipe", actor="Alda", target="Grak")
    assert not res.events[0].roll.success
    assert any(isinstance(e, Struck) and e.actor == "Alda" for e in res.events)
    assert not any(isinstance(e, Attacked) for e in res.events)


def test_a_failed_negotiation_is_struck_by_a_foe_who_can_act():
    """"to avoid being hit": the blow a failed negotiation takes comes from a foe swinging in the flurry; a target
    that takes no action (surprised: "unexpected or unperceived"; stunned: "can take no action") swings at nobody,
    so it is another foe's in the flurry (never the swiper's own ally's), and with no foe there able to act there is
    no blow."""
    s = wac(tactics_skew="no")
    s.add("Borin", BORIN, side="dwarves", at="D4", facing="SE")
    s.add("Grak", GRAK, side="orcs", at=near(s, "D4", "SE"), facing="NW", owner=None)
    s.add("Snaga", GRAK, side="orcs", at=near(s, "D4", "SW"), facing="NE", owner=None)
    s.add("Alda", ALDA, side="dwarves", at="E3", facing="S")
    s.run("init_roll", [5, 5, 4, 2, 3, 2] * 2)
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", action="declare", actor="Grak", options={})
    s.run("act", [5, 5, 4, 2, 3, 2, 5, 5, 4], action="declare", actor="Snaga", options={})
    s.enc.effects.append(Effect(id=1, name="surprised", target="Grak", ends="round_end", code="surprised"))
    res = s.run("act", [2, 3, 3, 4, 4, 3, 1, 1, 1, 1, 1], action="swipe", actor="Alda", target="Grak")  # Snaga's blow
    assert not res.events[0].roll.success
    assert [e.by for e in res.events if isinstance(e, Struck)] == ["Snaga"]
    text = s.text(res)  # the blow is named as Snaga's, not read as the target's
    assert "the blow is **Snaga**'s (Grak can take no action)" in text[0], text
    unsurprised = watched()
    revealed(unsurprised)
    res = unsurprised.run("act", [2, 3, 3, 4, 4, 3, 1, 1, 1, 1, 1], action="swipe", actor="Alda", target="Grak")
    assert "the blow is" not in unsurprised.text(res)[0], unsurprised.text(res)  # the target's own: as ever
    s = watched()  # Grak surprised, and Borin in the flurry is Alda's own: no foe there swings
    revealed(s)
    s.enc.effects.append(Effect(id=1, name="surprised", target="Grak", ends="round_end", code="surprised"))
    res = s.run("act", [2, 3, 3], action="swipe", actor="Alda", target="Grak")
    assert not any(isinstance(e, (Struck, Attacked)) for e in res.events)
    assert any("no foe in the flurry can swing" in line for line in s.text(res)), s.text(res)


def test_one_swipe_a_round_by_an_unengaged_fighter_within_a_step_of_reach():
    """One swipe a round; not by a fighter in a flurry; the target within its weapon's reach + 1 hex; not before the reveal."""
    s = watched()
    assert "revealed" in s.refused("act", [6, 5, 4], action="swipe", actor="Alda", target="Grak")
    revealed(s)
    assert "in the flurry" in s.refused("act", [6, 5, 4], action="swipe", actor="Borin", target="Grak")
    s.run("act", [2, 3, 3, 4, 4, 3, 1, 1, 1, 1, 1], action="swipe", actor="Alda", target="Grak")
    assert "once a round" in s.refused("act", [6, 5, 4], action="swipe", actor="Alda", target="Grak")
    far = watched(alda_at="E1")
    revealed(far)
    assert "too far" in far.refused("act", [6, 5, 4], action="swipe", actor="Alda", target="Grak")


def test_an_interrupt_joins_the_flurry_under_way():
    """"Unengaged figures may interrupt flurries": it declares, rolls flurry initiative, and its actions count from then."""
    s = watched()
    revealed(s)
    res = s.run("act", [6, 6, 6], action="interrupt", actor="Alda", options={"intent": "kill", "tactic": "hold"})
    init = next(e for e in res.events if isinstance(e, FlurryInitiative))
    assert init.actor == "Alda" and init.actions == 2
    assert "Alda" in s.enc.state.flurries[0] and s.enc.state.declarations.choice("Alda")["intent"] == "kill"
    s.run("attack", [2, 2, 2], actor="Borin", target="Grak")  # Borin misses: the attack passes to Grak
    s.run("act", action="hold", actor="Grak")
    assert s.enc.current == "Alda"


def test_a_sheathed_weapon_makes_no_interrupt_as_it_makes_no_swipe():
    """"a sheathed weapon holds no zone of threat or danger and makes no melee attack until `wield` draws it";
    "`/act action:interrupt` (same reach) joins the flurry under way": Alda, her dagger sheathed, is refused the
    interrupt with the swipe's words (draw it with `wield`), is not offered it, and the flurry stays as it was."""
    s = watched()
    st(s, "Alda").sheathed = True
    revealed(s)
    swipe = s.refused("act", [6, 5, 4], action="swipe", actor="Alda", target="Grak")
    msg = s.refused("act", [6, 6, 6], action="interrupt", actor="Alda", options={"intent": "kill"})
    assert msg == swipe and "Alda's dagger is sheathed: draw it with `/act action:wield" in msg
    assert "Alda" not in s.enc.state.flurries[0]
    assert "interrupt" not in ACTIONS.legal_now(s.enc, s.get("Alda")) and "swipe" not in ACTIONS.legal_now(s.enc, s.get("Alda"))


def test_an_interrupter_joined_from_reach_plus_one_fights_in_the_flurry():
    """"`/act action:interrupt` (same reach) joins the flurry under way" (the swipe's: "within its melee weapon's
    reach + 1 hex"), and in it "attacks and defense versus another participant": Alda, her dagger (reach 1) two
    hexes from Grak, steps in as a swipe does, so her blows reach him and his reach her; Borin, who did not
    interrupt, keeps his broadsword's reach."""
    s = watched()
    assert s.enc.grid().distance(s.get("Alda").cell, s.get("Grak").cell) == 2
    revealed(s)
    s.run("act", [6, 6, 6], action="interrupt", actor="Alda", options={"intent": "kill", "tactic": "hold"})
    s.run("attack", [2, 2, 2], actor="Borin", target="Grak")  # Borin misses: the attack passes to Grak
    res = s.run("attack", [2, 2, 2], actor="Grak", target="Alda")
    assert any(isinstance(e, Attacked) and e.actor == "Grak" and e.target == "Alda" for e in res.events)
    assert s.enc.current == "Alda"  # Grak missed: the attack passes to her
    res = s.run("attack", [2, 2, 2], actor="Alda", target="Grak")
    assert any(isinstance(e, Attacked) and e.actor == "Alda" and e.target == "Grak" for e in res.events)
    assert flurry_reach(s.enc, s.get("Borin"), s.get("Grak"), wielded(s.get("Borin"))) == 1
    assert flurry_reach(s.enc, s.get("Alda"), s.get("Grak"), wielded(s.get("Alda"))) == 2


def test_an_interrupt_before_the_reveal_declares_with_the_others():
    """Before the reveal the interrupter is one more participant to declare."""
    s = watched()
    s.run("act", action="interrupt", actor="Alda")
    assert s.enc.state.declarations.waiting() == ["Borin", "Grak", "Alda"]


def test_an_engaged_fighter_makes_no_swipe():
    """"Unengaged figures may ... make a free attack": one engaged with an enemy (its flurry over) may not."""
    s = watched()
    s.add("Snaga", "weapons=spear", side="orcs", at="M10", facing="N", owner=None)
    revealed(s)
    s.get("Snaga").position, s.get("Snaga").facing = near(s, "E3", "N"), "S"  # Alda in Snaga's zone of threat
    assert "is engaged" in s.refused("act", [6, 5, 4], action="swipe", actor="Alda", target="Grak")


def alda_steps(**options: object) -> Scenario:
    """Borin and Grak engaged; the movement phase comes to Alda's step (unengaged, two hexes N of Grak)."""
    s = wac(tactics_skew="no", **options)
    s.add("Borin", BORIN, side="dwarves", at="D4", facing="SE")
    s.add("Grak", GRAK, side="orcs", at=near(s, "D4", "SE"), facing="NW", owner=None)
    s.add("Alda", ALDA, side="dwarves", at="E3", facing="S")
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 2, 2, 2])
    while s.enc.current != "Alda":
        s.run("next", actor=s.enc.current)
    return s


def test_a_free_attack_is_a_quick_action_of_the_movement_phase_at_a_fighter_to_be_in_a_flurry():
    """Quick actions: "Free Attack"; "Unengaged figures may ... attempt to make a free attack (or swipe) at a fighter
    in a flurry without entering the flurry himself": in Alda's movement step she negotiates (vs 10 + Borin's 6)
    and strikes; Grak, "aware ... and has not used up all of his actions", defends with one of his coming flurry's."""
    s = alda_steps()
    res = s.run("act", [6, 5, 4, 4, 4, 2], action="free-attack", actor="Alda", target="Grak")
    check = res.events[0]
    assert isinstance(check, Checked) and check.what == "negotiate" and check.roll.against == 16 and check.roll.success
    attack = res.events[1]
    assert isinstance(attack, Attacked) and attack.roll.total == 13 and attack.roll.against == 13
    assert st(s, "Alda").quick and st(s, "Alda").swiped == 1 and st(s, "Grak").lost == 1
    assert s.enc.phase == "movement" and s.enc.current == "Alda"
    assert "once a round" in s.refused("act", [6, 5, 4], action="free-attack", actor="Alda", target="Grak")
    s.run("next", actor="Alda")
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={})
    assert st(s, "Grak").actions == 1 and "once a round" in s.refused("act", [6, 5, 4], action="swipe", actor="Alda",
                                                                       target="Grak")


def test_a_free_attack_is_refused_at_an_unengaged_fighter_or_by_an_engaged_one():
    """"at a fighter in a flurry" by "unengaged figures": Grak alone is no target, and Borin, engaged, makes none."""
    s = alda_steps()
    s.get("Borin").position = "A1"
    assert "engaged in no flurry" in s.refused("act", [6, 5, 4], action="free-attack", actor="Alda", target="Grak")
    t = wac(tactics_skew="no")
    t.add("Borin", BORIN, side="dwarves", at="D4", facing="SE")
    t.add("Grak", GRAK, side="orcs", at=near(t, "D4", "SE"), facing="NW", owner=None)
    t.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert "only an unengaged fighter" in t.refused("act", [6, 5, 4], action="free-attack", actor="Borin", target="Grak")


def test_a_free_attack_from_the_flank_costs_an_unguarded_target_no_action():
    """"Attacks from the flanks may be defended against at half skill level, but only if the defender forfeits his
    defenses from the front hexes": Grak, guarding his front, makes no defence against Alda at his flank, so none of
    his coming flurry's actions is spent on it."""
    s = alda_steps()
    s.get("Alda").position = near(s, s.get("Grak").position, "NE", "NE")  # Grak faces NW: his right flank
    res = s.run("act", [6, 5, 4, 1, 1, 1, 3, 3, 3, 1, 1, 1, 1, 1], action="free-attack", actor="Alda", target="Grak")
    attack = next(e for e in res.events if isinstance(e, Attacked))
    assert attack.roll.versus == Term(code="defense", args=["flank_unguarded"])
    assert st(s, "Grak").lost == 0


def test_a_free_attack_after_moving_takes_the_paces_penalty_on_both_rolls():
    """"Movement rate penalizes actions that require skill rolls: ... Walk -1": Alda walks a hex, then her free
    attack's negotiate task and attack roll each take -1 (as a ranged strike after moving does)."""
    s = alda_steps()
    s.run("move", actor="Alda", path="SE")
    res = s.run("act", [6, 6, 4, 4, 4, 2], action="free-attack", actor="Alda", target="Grak")
    check = res.events[0]
    assert isinstance(check, Checked) and mod("moving", -1) in check.roll.modifiers
    assert check.roll.total == 16 + 1 + 1 - 1
    attack = next(e for e in res.events if isinstance(e, Attacked))
    assert mod("moving", -1) in attack.roll.modifiers and attack.roll.total == 13 - 1


def test_a_free_attack_is_a_quick_action_with_limited_movement():
    """"Quick Actions can be done with limited movement" (option `quick_movement=half`): Alda walks 2 points a phase,
    so with her free attack she moves at most 1: after spending 2 it is refused, and after it 1 point is left."""
    s = alda_steps()
    s.run("move", actor="Alda", path="SE", facing="S")
    text = s.refused("act", [6, 5, 4, 4, 4, 2], action="free-attack", actor="Alda", target="Grak")
    assert "spent 2 movement point(s)" in text and "at most 1" in text
    t = alda_steps()
    t.run("act", [6, 5, 4, 4, 4, 2], action="free-attack", actor="Alda", target="Grak")
    assert st(t, "Alda").mp == 1 and "has 1 left" in t.refused("move", actor="Alda", path="N N")
    u = alda_steps(quick_movement="full")
    u.run("move", actor="Alda", path="SE", facing="S")
    u.run("act", [6, 6, 4, 4, 4, 2], action="free-attack", actor="Alda", target="Grak")
    assert st(u, "Alda").quick


def test_a_free_attack_whose_blow_fells_the_attacker_offers_it_no_movement_left():
    """docs/systems/war-and-combat.md: after a quick action "the points left are cut to the rest of that half (its
    reply says how many are left)"; a fighter the failed negotiate's blow leaves mortally wounded ("no more actions")
    and down moves no more, so the reply offers no points left (it said "has 1 movement point(s) left this phase"
    below "Alda is now downed")."""
    s = alda_steps()
    res = s.run("act", [1, 1, 1] + [6] * 11, action="free-attack", actor="Alda", target="Grak")
    text = "\n".join(s.text(res))
    assert "**Alda** is now **downed**" in text and "movement point(s) left" not in text


def test_a_negotiate_target_set_by_a_hidden_fighters_rank_is_not_shown_to_players():
    """The negotiate task's target is option `swipe_base` (10) + "the highest Fighter rank in the flurry": with the
    GM's hidden Grak in it, that number could tell Grak's rank, so players read "vs negotiate" without it (swipe and
    free attack alike); the GM reads the number, and the swiping player's own dice and modifiers stay shown."""
    hidden = frozenset({"Grak"})
    s = watched()
    s.enc.get("Grak").sheet["fighter"] = 8
    revealed(s)
    res = s.run("act", [6, 6, 5, 4, 4, 2], action="swipe", actor="Alda", target="Grak")
    assert "vs negotiate 18" in s.text(res)[0]
    public = s.system.present.report("", [public_copy(e, hidden) for e in res.events]).lines[0]
    assert public.endswith("vs negotiate: success") and "🎲 6✍, 6✍, 5✍ (3d6) +1 tactics +1 AGL = **19**" in public
    t = alda_steps()
    t.enc.get("Grak").sheet["fighter"] = 8
    res = t.run("act", [6, 6, 5, 4, 4, 2], action="free-attack", actor="Alda", target="Grak")
    public = t.system.present.report("", [public_copy(e, hidden) for e in res.events]).lines[0]
    assert public.endswith("vs negotiate: success") and "vs negotiate 18" in t.text(res)[0]


def test_a_hidden_fighters_blow_shows_players_where_it_struck_and_their_own_armour():
    """"determine the location struck so that the defender's armor can be considered": the hit location (3d6 on the
    target's body) and the target's armour are the target's numbers, shown to players when the target is theirs, while
    the hidden striker's impact (its dice, cap and the effective impact they would give away) stays the GM's; where
    the armour takes a blow smaller than itself, players read what the armour absorbs, not the smaller impact."""
    hidden = frozenset({"Grak"})
    for impact, absorbed in (([6, 6, 6, 6, 6, 3], 3), ([1, 1, 1, 1, 1], 1)):  # a critical chest wound stuns: 1d6
        s = watched()
        s.enc.get("Alda").sheet["armor"] = "mail"  # absorbs 3
        revealed(s)
        res = s.run("act", [2, 3, 3, 4, 4, 3, *impact], action="swipe", actor="Alda", target="Grak")
        gm = s.text(res)[1]
        assert f"absorbed {absorbed}, effective" in gm and "impact 🎲" in gm
        public = s.system.present.report("", [public_copy(e, hidden) for e in res.events]).lines[1]
        assert public.startswith("**Alda** is struck in the chest (🎲 4✍, 4✍, 3✍ (3d6) = **11**): the armour absorbs up to 3 (a critical goes through it)")
        assert "impact" not in public and "cap" not in public and "effective" not in public and "absorbed" not in public


def test_a_swipe_in_the_flurry_phase_takes_no_penalty_for_moving_earlier_in_the_round():
    """"Actions During Movement Phase: Actions of non-engaged combatants occur simultaneously with movement ...
    Movement rate penalizes actions that require skill rolls": the pace's penalty is for acting while moving; Alda,
    who walked in the movement phase, swipes in the flurry phase standing, and neither roll takes it."""
    s = alda_steps()
    s.run("move", actor="Alda", path="SE")
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)
    revealed(s)
    res = s.run("act", [6, 6, 4, 4, 4, 2], action="swipe", actor="Alda", target="Grak")
    rolls = [e.roll for e in res.events if getattr(e, "roll", None) is not None]
    assert len(rolls) >= 2 and not any(m.code == "moving" for r in rolls for m in r.modifiers)


def test_an_interrupt_out_of_the_flurry_phase_is_refused_in_plain_words():
    """"Unengaged figures may interrupt flurries": in the movement phase there is none to interrupt; the refusal reads
    "An interrupt", and a swipe's "A swipe"."""
    s = alda_steps()
    assert s.refused("act", action="interrupt", actor="Alda").startswith("An interrupt is made at a flurry under way")
    assert s.refused("act", action="swipe", actor="Alda", target="Grak").startswith("A swipe is made at a flurry")


def test_an_interrupt_before_the_declarations_takes_its_place_in_the_flurry_initiative_order():
    """"The attacker has the benefit of declaring his intention first, to which the defender must respond" and the
    doc: before the reveal an interrupt "is one more to declare": declaring in turn, Alda (flurry initiative 18)
    joins between Grak (21) and Borin (10); the words she gives are not taken ahead of Grak's: the reply says she
    declares after Grak, and she does once Grak has, before Borin."""
    s = wac(tactics_skew="no", declare="public")
    s.add("Borin", BORIN, side="dwarves", at="D4", facing="SE")
    s.add("Grak", GRAK, side="orcs", at=near(s, "D4", "SE"), facing="NW", owner=None)
    s.add("Alda", ALDA, side="dwarves", at="E3", facing="S")
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 2, 2, 2])
    while s.enc.phase == "movement":
        s.run("next", [1, 1, 2, 6, 6, 6] if s.enc.current == "Alda" else [], actor=s.enc.current)  # the last step
    assert (st(s, "Borin").flurry_init, st(s, "Grak").flurry_init) == (10, 21)
    res = s.run("act", [5, 5, 5], action="interrupt", actor="Alda", options={"intent": "kill", "tactic": "hold"})
    said = "\n".join(s.text(res))
    assert st(s, "Alda").flurry_init == 18
    assert "after Grak" in said and "Alda** declares" not in said
    assert s.enc.state.declarations.waiting() == ["Grak", "Alda", "Borin"] and not s.enc.state.declarations.made
    s.run("act", action="declare", actor="Grak", options={"intent": "kill", "tactic": "press"})
    assert "Alda declares first" in s.refused("act", action="declare", actor="Borin", options={})
    s.run("act", action="declare", actor="Alda", options={"intent": "kill", "tactic": "hold"})
    s.run("act", action="declare", actor="Borin", options={})
    assert s.enc.state.declarations.revealed


def test_a_fighter_engaged_in_a_flurry_to_come_is_refused_an_interrupt_or_swipe_for_that():
    """"a fighter in no flurry and engaged with nobody may `/act action:swipe` ... `/act action:interrupt` (same
    reach) joins the flurry under way": Alda, engaged with Snaga in a flurry still to come, is refused both, and the
    refusal says why (engaged with Snaga in a flurry to come), not that she is in the flurry under way."""
    s = wac(tactics_skew="no")
    s.add("Borin", BORIN, side="dwarves", at="D4", facing="SE")
    s.add("Grak", GRAK, side="orcs", at=near(s, "D4", "SE"), facing="NW", owner=None)
    s.add("Alda", ALDA, side="dwarves", at="E3", facing="S")
    s.add("Snaga", "weapons=spear", side="orcs", at=near(s, "E3", "N"), facing="S", owner=None)
    s.run("init_roll", [5, 5, 4, 2, 3, 2, 2, 2, 2, 1, 1, 1])
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)
    assert s.enc.state.flurries[0] == ["Borin", "Grak"] and "Alda" in s.enc.state.flurries[1]
    revealed(s)
    for kind in ("interrupt", "swipe"):
        msg = s.refused("act", [6, 5, 4], action=kind, actor="Alda", target="Grak", options={})
        assert "in the flurry:" not in msg
        assert "Alda is engaged with Snaga (a flurry to come)" in msg and "engaged with nobody" in msg


def _grak_strikes_alda_turned_away(s: Scenario, *, after_reveal: bool) -> None:
    """Alda (facing N, Grak two hexes behind her) interrupts, before or after the reveal; Borin holds and Grak strikes
    her: she was turned to face him as she joined, and he strikes her front."""
    s.get("Alda").facing = "N"
    grid = s.enc.grid()
    if after_reveal:
        revealed(s)
        res = s.run("act", [1, 1, 1], action="interrupt", actor="Alda", options={"intent": "kill", "tactic": "hold"})
    else:
        res = s.run("act", action="interrupt", actor="Alda")
        s.run("act", action="declare", actor="Borin", options={})
        s.run("act", action="declare", actor="Alda", options={})
        s.run("act", [5, 5, 4, 2, 3, 2, 1, 1, 1], action="declare", actor="Grak", options={})
    toward = grid.facing_towards(s.get("Alda").cell, s.get("Grak").cell)
    faced = [e for e in res.events if isinstance(e, FacedAttacker) and e.actor == "Alda"]
    assert faced and s.get("Alda").facing == toward
    # stepping in, her blows reach Grak two hexes off: the turn places him in her zone of threat, -1 Defense
    assert faced[0].penalty and st(s, "Alda").turned
    s.run("act", action="hold", actor="Borin")
    assert s.enc.current == "Grak"
    hit = s.run("attack", [2, 2, 2], actor="Grak", target="Alda")
    roll = next(e for e in hit.events if isinstance(e, Attacked)).roll
    assert roll.versus is not None and "rear" not in str(roll.versus.args) and (roll.against or 0) > 3


def test_an_interrupter_facing_away_is_turned_to_face_its_opponent_as_it_joins():
    """Docs: "A fighter not facing any opponent is turned to face one as the flurry begins"; the interrupter "joins
    the flurry under way, stepping in as a swipe does ... Before the reveal it is one more to declare" (the text: "If
    the two engaged figures are not already facing each other, then they are turned to face each other ... as soon
    as the flurry begins"): Alda, facing away from Grak, is turned to him as she joins, before or after the reveal,
    and he strikes her front, not her rear Defense 3. "A fighter who must turn to place the attacker into his zone
    of threat receives a -1 penalty to Defense for the entire flurry": Grak is two hexes off, within the reach her
    step in gives her blows in this flurry (her axe's 1 + 1), so the turn costs her the -1."""
    _grak_strikes_alda_turned_away(watched(), after_reveal=False)
    _grak_strikes_alda_turned_away(watched(), after_reveal=True)
