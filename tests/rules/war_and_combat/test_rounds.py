"""The round as the text orders it: shock, initiative, movement, flurries, adjustment, morale."""
from __future__ import annotations

import pytest

from rules.events import Checked, InitiativeSet, mod
from rules.systems.war_and_combat.events import MoralePrompt, PhaseBegan
from rules.systems.war_and_combat.state import WoundRecord
from tests.rules.war_and_combat.build import (
    duel,
    fight,
    near,
    st,
    to_flurry,
    wac,
)
from tests.scenario import Scenario


def apart(**options: object) -> Scenario:
    s = wac(**options)
    s.add("Borin", "fighter=6 skills=tactics:2", side="dwarves", at="B2", facing="S")
    s.add("Grak", "fighter=3", side="orcs", at="L10", facing="N", owner=None)
    return s


def test_initiative_is_3d6_plus_fighter_rank_highest_first():
    """"each participant rolls 3d6 and adds his Fighter rank ... The highest value goes first"."""
    s = apart(tactics_skew="yes")  # the GM turns the optional rule on
    res = s.run("init_roll", [2, 3, 4, 1, 5, 6, 6])
    inits = {e.actor: e.value for e in res.events if isinstance(e, InitiativeSet)}
    # Borin's side has the better Tactics: a high skew die (4d6 keep the best 3: 3+4+2 of 2,3,4,1 = 9)
    assert inits == {"Borin": 15, "Grak": 20}
    assert s.enc.order == ["Grak", "Borin"] and s.enc.phase == "movement" and s.enc.current == "Grak"


@pytest.mark.parametrize("options", [{}, {"tactics_skew": "no"}])
def test_the_optional_skew_die_is_off_unless_the_gm_turns_it_on(options: dict[str, str]):
    """"Optional: the side with the higher tactics skill gets a high skew die for the roll": an optional rule, so
    by default (and with option tactics_skew=no) each rolls 3d6 alone, whatever its side's Tactics."""
    s = wac(**options)
    s.add("Borin", "fighter=6 skills=tactics:2", side="dwarves", at="B2", facing="S")
    s.add("Grak", "fighter=3", side="orcs", at="L10", facing="N", owner=None)
    res = s.run("init_roll", [2, 3, 4, 5, 6, 4])
    assert [e.roll.dice for e in res.events if isinstance(e, InitiativeSet)] == [[2, 3, 4], [5, 6, 4]]
    assert not s.system.option_values(s.enc).tactics_skew


def test_movement_in_initiative_order_then_adjustment_in_reverse_then_morale():
    """"Movement Phase: Initiative Order ... Adjustment Phase: Reverse Initiative Order ... Check Morale"."""
    s = apart()
    s.run("init_roll", [2, 3, 4, 5, 6, 4])  # Borin 9 + 6 = 15, Grak 15 + 3 = 18
    assert s.enc.current == "Grak"
    s.run("next", actor="Grak")
    assert s.enc.current == "Borin"
    res = s.run("next", actor="Borin")
    assert s.enc.phase == "adjustment" and s.enc.current == "Borin"  # no flurry: nobody engaged
    assert any(isinstance(e, PhaseBegan) and e.order == ["Borin", "Grak"] for e in res.events)
    s.run("next", actor="Borin")
    res = s.run("next", actor="Grak", dice=[3, 3, 3, 4, 4, 4])
    assert any(isinstance(e, MoralePrompt) for e in res.events)
    assert s.enc.round == 2 and s.enc.phase == "movement"


def test_a_step_out_of_turn_is_refused():
    """Only the one whose step it is moves or ends its step: the GM naming another ends nothing."""
    s = apart()
    s.run("init_roll", [2, 3, 4, 5, 6, 4])
    assert "Grak's step" in s.refused("move", actor="Borin", path="N")
    assert "Borin is not acting now (Grak is)" in s.refused("next", actor="Borin")
    assert s.enc.current == "Grak"


def test_engaged_fighters_reach_the_flurry_phase_and_everyone_is_asked_to_declare():
    """The flurry phase follows movement; its participants declare in any order, all pinged at once."""
    s = duel()
    to_flurry(s)
    turn = s.system.turn(s.enc)
    assert s.enc.phase == "flurry" and set(turn.actors) == {"Borin", "Grak"}
    s.run("act", action="declare", actor="Grak", options={"intent": "kill", "tactic": "press"})
    after = s.system.turn(s.enc)
    assert after.actors == ("Borin",) and after.key == turn.key  # nobody is pinged again


def test_shock_check_at_round_start_loses_an_action_on_failure():
    """Shock (README default): 3d6 + Strength modifier against the worst shock value; failure loses 1 action."""
    s = duel()
    st(s, "Grak").wounds.append(WoundRecord(location="chest", severity="serious"))
    res = s.run("init_roll", [4, 4, 4, 5, 5, 4, 2, 3, 2])  # Grak's shock: 12 + 1 vs 16 fails
    check = next(e for e in res.events if isinstance(e, Checked))
    assert check.actor == "Grak" and check.roll.against == 16 and not check.roll.success
    assert st(s, "Grak").lost == 1
    assert "Grak loses 1 action this round" in "\n".join(s.text(res)).replace("**", "")


def test_shock_failed_by_five_also_stuns():
    """"failing by 5 or more stuns for 1 round"."""
    s = duel()
    st(s, "Grak").wounds.append(WoundRecord(location="chest", severity="serious"))
    s.run("init_roll", [2, 3, 4, 5, 5, 4, 2, 3, 2])  # 9 + 1 = 10 vs 16: short by 6
    assert any(e.code == "stun" and e.target == "Grak" for e in s.enc.effects)


def test_death_check_against_ten_plus_three_per_mortal_wound():
    """Death check: "3d6 + Strength modifier must beat 10 + 3 per mortal wound"; a failure dies (out)."""
    s = duel()
    st(s, "Grak").wounds.append(WoundRecord(location="belly", severity="mortal"))
    s.enc.combatants[1].status = "downed"
    res = s.run("init_roll", [4, 4, 3, 5, 5, 4])  # 11 + 1 = 12 vs 13
    check = next(e for e in res.events if isinstance(e, Checked) and e.what == "death")
    assert check.roll.against == 13 and s.get("Grak").status == "out"


def test_actions_per_flurry_are_two_plus_one_per_five_ranks():
    """"A character may perform a limited number of actions in a flurry, equal to 2, +1 every fifth Fighter rank"."""
    s = duel(grak="fighter=10")
    fight(s)
    assert (st(s, "Borin").actions, st(s, "Grak").actions) == (3, 4)


def test_players_may_not_move_while_engaged():
    """Engaged fighters fight in the flurry: their movement waits for the one-hex adjustment."""
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert "engaged" in s.refused("move", actor="Borin", path="N")
    assert near(s, "D4", "SE") == s.get("Grak").position


def test_stunned_fighters_get_no_flurry_actions():
    """Stun: "can take no action for 1d6 rounds": Grak, stunned after the flurry began, is no longer awaited (the
    next action drops it from the declarations), so Borin's declaration reveals the flurry: no actions for Grak."""
    from rules.effects import Effect

    s = duel()
    to_flurry(s)
    s.enc.effects.append(Effect(id=1, name="stun", target="Grak", ends="round_end", left=2, code="stun"))
    s.run("act", [5, 5, 4], action="declare", actor="Borin", options={})
    assert st(s, "Grak").actions == 0 and st(s, "Borin").actions == 3 and s.enc.current == "Borin"


def test_the_downed_roll_no_initiative():
    """Only those still standing take part in the round's initiative."""
    s = duel()
    s.enc.combatants[1].status = "downed"
    res = s.run("init_roll", [5, 5, 4])
    assert [e.actor for e in res.events if isinstance(e, InitiativeSet)] == ["Borin"] and s.enc.order == ["Borin"]


def test_non_combat_initiative_replaces_the_fighter_rank_for_both_sides():
    """"Non-combat Initiative: ... Simply replace the Fighter rank with the appropriate field as the
    initiative modifier for both sides": option initiative=climbing adds the Climbing skill."""
    s = wac(tactics_skew="no", initiative="climbing")
    s.add("Borin", "fighter=6 skills=climbing:1", side="dwarves", at="B2", facing="S")
    s.add("Grak", "fighter=3 skills=climbing:4", side="orcs", at="L10", facing="N", owner=None)
    res = s.run("init_roll", [2, 3, 4, 5, 6, 4])
    inits = {e.actor: (e.value, e.roll.modifiers[0]) for e in res.events if isinstance(e, InitiativeSet)}
    assert inits == {"Borin": (9 + 1, mod("named_skill", 1, "climbing")), "Grak": (15 + 4, mod("named_skill", 4, "climbing"))}


def test_non_combat_initiative_on_an_attribute_adds_its_modifier():
    """initiative=agl: an attribute stands in for the Fighter rank by its modifier (AGL 16: +2)."""
    s = wac(tactics_skew="no", initiative="agl")
    s.add("Borin", "fighter=6 agl=16", side="dwarves", at="B2", facing="S")
    s.add("Grak", "fighter=3", side="orcs", at="L10", facing="N", owner=None)
    res = s.run("init_roll", [2, 3, 4, 5, 6, 4])
    assert {e.actor: e.value for e in res.events if isinstance(e, InitiativeSet)} == {"Borin": 11, "Grak": 15}


def test_holding_at_a_deadline_stays_put_or_declares_hold_or_passes_the_initiative():
    """The turn clock's `hold`: a step in the movement phase ends where the fighter stands; a
    flurry declaration is the default one with the tactic hold; the attacker holds the initiative."""
    from rules.dice import Dice

    s = duel()
    system = s.system
    s.run("init_roll", (5, 5, 4, 2, 3, 2))
    hold = system.hold_action(s.enc, "Borin")
    assert hold is not None and hold.kind == "next" and hold.actor == "Borin"
    s.enc = system.resolve(s.enc, hold, Dice.fixed([])).encounter
    assert s.enc.current == "Grak" and s.get("Borin").position == "D4"
    s.run("next", actor="Grak")
    hold = system.hold_action(s.enc, "Grak")
    assert hold is not None and hold.kind == "act" and hold.action == "declare"
    assert hold.options == {"intent": "kill", "tactic": "hold"}


def test_a_running_stun_outlasts_the_shock_checks_one_round_stun():
    """"Stunned characters ... can take no action for 1d6 rounds": a shock check's one-round stun keeps the longer."""
    from rules.effects import Effect

    s = duel()
    st(s, "Grak").wounds.append(WoundRecord(location="head", severity="serious"))
    s.enc.effects.append(Effect(id=1, name="stun", target="Grak", ends="round_end", left=6, code="stun"))
    s.run("init_roll", [2, 3, 4, 5, 5, 4, 2, 3, 2])  # Grak's shock: 9 + 1 = 10 vs 16, short by 6: stunned 1 round
    stuns = [e for e in s.enc.effects if e.code == "stun" and e.target == "Grak"]
    assert [e.left for e in stuns] == [6]


@pytest.mark.parametrize("running", [True, False])
def test_the_shock_checks_stun_lasts_the_round_it_begins(running: bool):
    """"failing by 5 or more stuns for 1 round": a stun rolled as a round begins holds that whole round, whether or
    not another effect runs (the round's end it follows does not count it down)."""
    from rules.effects import Effect

    s = duel()
    if running:
        s.enc.effects.append(Effect(id=1, name="blessed", target="Borin", ends="round_end", left=9))
    to_flurry(s)
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={})
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    st(s, "Grak").wounds.append(WoundRecord(location="chest", severity="serious"))
    s.run("next", actor="Grak")
    s.run("next", [2, 3, 4, 5, 5, 4, 2, 3, 2], actor="Borin")  # round 2: Grak's shock 10 vs 16: stunned
    assert s.enc.round == 2 and any(e.code == "stun" and e.target == "Grak" for e in s.enc.effects)
    assert s.enc.current == "Borin" and "Grak" not in s.system.turn(s.enc).actors
    assert [e.left for e in s.enc.effects if e.code == "stun"] == [1]  # this round's end, to come


def _shock_stunned_in_round_two(running: int) -> tuple[Scenario, list[str]]:
    """Grak, stunned for ``running`` rounds in round 1 and seriously wounded, fails round 2's shock check by 6."""
    from rules.effects import Effect

    s = duel()
    s.enc.effects.append(Effect(id=1, name="stun", target="Grak", ends="round_end", left=running, code="stun"))
    to_flurry(s)
    s.run("act", [5, 5, 4], action="declare", actor="Borin", options={})  # the stunned Grak declares nothing
    while s.enc.phase == "flurry":
        s.run("act", action="hold", actor=s.enc.current)
    st(s, "Grak").wounds.append(WoundRecord(location="chest", severity="serious"))
    if s.enc.current == "Grak":  # a stunned Grak has no step of his own
        s.run("next", actor="Grak")
    res = s.run("next", [2, 3, 4, 5, 5, 4, 2, 3, 2], actor="Borin")  # round 2: Grak's shock 10 vs 16
    return s, s.text(res)


def test_the_shock_line_shows_the_stun_left_after_the_round_ends():
    """"can take no action for 1d6 rounds": a 6-round stun in its second round has 5 left, and the shock check's
    line says so (not 6); a running stun with one round left does not swallow the shock check's new one-round stun."""
    s, text = _shock_stunned_in_round_two(6)
    assert s.enc.round == 2 and [e.left for e in s.enc.effects if e.code == "stun" and e.target == "Grak"] == [5]
    assert any("stun" in line and "for 5 rounds: this one and the next 4" in line for line in text)
    t, _ = _shock_stunned_in_round_two(1)
    assert t.enc.round == 2 and [e.left for e in t.enc.effects if e.code == "stun" and e.target == "Grak"] == [1]


def test_a_stun_that_ends_as_a_new_one_begins_gets_its_line():
    """"Stunned characters ... can take no action for 1d6 rounds", and a shock check "failing by 5 or more stuns for
    1 round": Grak's stun ends with round 1 and its line is told before round 2 begins, and then the new one is told."""
    s, text = _shock_stunned_in_round_two(1)
    ended, began = text.index("Effect **stun** on **Grak** ends"), text.index("**Round 2** begins")
    assert ended < began < text.index("Effect **stun** on **Grak** until the end of this round")
    assert [(e.name, e.left) for e in s.enc.effects if e.target == "Grak"] == [("stun", 1)]


def test_a_natural_18_on_initiative_names_its_second_roll_and_adds_its_excess():
    """"each participant rolls 3d6 and adds his Fighter rank" (the text says no more of an 18; option
    `initiative_open=yes` rolls it again as a task roll, shared/rules/README.md: "a natural 18 rerolls and adds the new
    roll minus 10, floored at 0"): the line names the high skew die kept, the 3d6 rolled again for the natural 18 and
    what they add, even when it is 0."""
    s = apart(initiative_open="yes", tactics_skew="yes")
    res = s.run("init_roll", [6, 6, 6, 4, 4, 3, 2, 1, 2, 3])  # Borin 6,6,6 (4 dropped), again 4,3,2 = 9: +0
    borin = next(e for e in res.events if isinstance(e, InitiativeSet) and e.actor == "Borin")
    assert borin.value == 24
    line = next(t for t in s.text(res) if t.startswith("**Borin** initiative"))
    assert "(3d6 + a high skew die, the best 3 kept: the side with the better Tactics, then 3d6 again for the natural 18)" in line
    assert "+0 natural 18: the excess over 10 of the 3d6 rolled again" in line and line.endswith("= **24**)")
    s = apart(initiative_open="yes", tactics_skew="yes")
    res = s.run("init_roll", [6, 6, 6, 1, 6, 5, 4, 1, 2, 3])  # again 6,5,4 = 15: +5
    assert next(e.value for e in res.events if isinstance(e, InitiativeSet) and e.actor == "Borin") == 29


def test_initiative_is_the_texts_plain_3d6_by_default():
    """"each participant rolls 3d6 and adds his Fighter rank": no target, so not a task roll, the only roll
    shared/rules/README.md makes open-ended; by default an 18 rolls no second 3d6."""
    s = wac(tactics_skew="no")
    s.add("Borin", "fighter=6", side="dwarves", at="B2", facing="S")
    s.add("Grak", "fighter=3", side="orcs", at="L10", facing="N", owner=None)
    res = s.run("init_roll", [6, 6, 6, 1, 2, 3])
    assert {e.actor: e.value for e in res.events if isinstance(e, InitiativeSet)} == {"Borin": 24, "Grak": 9}
    assert not any("again" in t for t in s.text(res))


def test_initiative_rolled_again_more_than_once_says_so_in_the_plural():
    """Option `initiative_open=yes` ("a natural 18 rerolls and adds the new roll minus 10", shared/rules/README.md):
    an 18 rolled again twice reads "the excesses over 10 of the 3d6 rolled again"."""
    s = apart(initiative_open="yes", tactics_skew="no")
    res = s.run("init_roll", [6, 6, 6, 6, 6, 6, 4, 4, 3, 1, 2, 3])  # 18, again 18 (+8), again 11 (+1)
    line = next(t for t in s.text(res) if t.startswith("**Borin** initiative"))
    assert "×2" in line and "natural 18: the excesses over 10 of the 3d6 rolled again" in line
    assert next(e.value for e in res.events if isinstance(e, InitiativeSet) and e.actor == "Borin") == 33


def test_initiative_may_be_the_texts_plain_3d6():
    """"each participant rolls 3d6 and adds his Fighter rank": option `initiative_open=no` rolls no second 3d6 on an 18."""
    s = wac(initiative_open="no", tactics_skew="no")
    s.add("Borin", "fighter=6", side="dwarves", at="B2", facing="S")
    s.add("Grak", "fighter=3", side="orcs", at="L10", facing="N", owner=None)
    res = s.run("init_roll", [6, 6, 6, 1, 2, 3])
    assert {e.actor: e.value for e in res.events if isinstance(e, InitiativeSet)} == {"Borin": 24, "Grak": 9}


def test_the_shock_checks_stun_under_a_longer_one_says_it_is_shorter_and_the_longer_runs_on():
    """docs/systems/war-and-combat.md: "failing by 5 or more also stuns for a round; a stun, like every timed condition
    of the same name, never cuts short one running: the longer is kept, and a ... shorter stun says so ("no action for
    1 round (shorter than the 6 rounds of the stun it is under, which runs on)")": Grak, stunned for 6 rounds in
    round 1, fails round 2's shock check by 6; its line tells the 1 round against the 5 left, which stay."""
    s, text = _shock_stunned_in_round_two(6)
    line = next(x for x in text if "is stunned" in x)
    assert "no action for 1 round (shorter than the 5 rounds of the stun it is under, which runs on)" in line
    assert [e.left for e in s.enc.effects if e.code == "stun" and e.target == "Grak"] == [5]
    t, text = _shock_stunned_in_round_two(1)  # the running one ends with round 1: the new one is not "under" it
    line = next(x for x in text if "is stunned" in x)
    assert "no action for 1 round" in line and "shorter" not in line
