"""Surprise and ambush: "Surprise occurs when one side takes action unexpected or unperceived by
the other" (step 2 of the combat sequence, before the first round). The text gives no procedure:
the GM marks the surprised (a fighter, or a whole side) and for the first round they take no
step and no flurry action, and cannot defend ("can only be defended against if the target is ...
aware of the attack and not surprised")."""
from __future__ import annotations

from rules.effects import active
from rules.systems.war_and_combat.actions import ACTIONS
from rules.systems.war_and_combat.attacks import defense
from tests.rules.war_and_combat.build import duel, fight, revealed, to_flurry, watched
from tests.scenario import Scenario


def surprised_flurry(s: Scenario) -> None:
    """To the duel's flurry with Grak surprised: Borin's declaration alone reveals (the surprised Grak takes no action,
    so it declares nothing and rolls no flurry initiative); Borin's flurry initiative 14 + 6."""
    to_flurry(s)
    s.run("act", (5, 5, 4), action="declare", actor="Borin", options={"intent": "kill", "tactic": "hold"})


def test_the_gm_surprises_a_side_before_the_first_round_for_that_round():
    """`/act action:surprise options:"side=orcs"` before `/init roll`: Grak takes no movement step in round 1."""
    s = duel()
    res = s.run("act", action="surprise", options={"side": "orcs"})
    assert active(s.enc.effects, "Grak", "surprised") is not None
    assert active(s.enc.effects, "Borin", "surprised") is None
    assert any("surprised" in line for line in s.text(res))
    s.run("init_roll", (2, 2, 2, 6, 6, 5))  # Borin 6 + 6; Grak 17 + 3 would go first
    assert s.enc.current == "Borin"
    s.run("next", actor="Borin")
    assert s.enc.phase == "flurry"


def test_a_surprised_fighter_has_no_flurry_actions_and_no_defence():
    """In the first round's flurry the surprised one has no action and Defense `rear_defense` (3)."""
    s = duel()
    s.run("act", action="surprise", target="Grak")
    surprised_flurry(s)
    grak, borin = s.get("Grak"), s.get("Borin")
    assert grak.state.actions == 0
    opts = s.system.option_values(s.enc)
    assert defense(s.enc, opts, s.enc.grid(), grak, borin) == (3, "surprised")
    assert defense(s.enc, opts, s.enc.grid(), borin, grak) == (10 + 6 + 1 + 0, "front")


def test_surprise_lasts_the_first_round_only():
    """At the second round the surprised act as ever: the effect ends with round 1."""
    s = duel()
    s.run("act", action="surprise", target="Grak")
    surprised_flurry(s)
    assert active(s.enc.effects, "Grak", "surprised") is not None
    s.run("next", actor="Borin")  # Borin holds; Grak has no action: the flurry ends
    assert s.enc.phase == "adjustment" and s.enc.current == "Borin"
    res = s.run("next", (3, 3, 3, 3, 3, 3), actor="Borin")  # Grak takes no step: round 2 begins
    assert s.enc.round == 2 and active(s.enc.effects, "Grak", "surprised") is None
    assert any("surprised" in line and "ends" in line for line in s.text(res))


def test_surprise_is_the_gms_and_only_before_the_first_flurry():
    """After round 1's movement phase it is refused; a side must exist; someone must be named."""
    s = duel()
    assert "side" in s.refused("act", action="surprise", options={"side": "elves"})
    assert "target" in s.refused("act", action="surprise")
    fight(s)
    assert "first round" in s.refused("act", action="surprise", target="Grak")


def test_a_surprised_fighters_skipped_steps_pass_for_its_effects():
    """The surprised "take no step" in the first round, yet "effects count down as turns pass" (docs/commands.md),
    a turn passed unplayed as a played one: as the movement phase ends without Grak's step, "end of Grak's turn"
    ends and "start of Grak's turn" counts down, told before the flurry; the adjustment phase's skipped step too."""
    s = duel()
    s.run("act", action="surprise", target="Grak")
    s.run("effect_add", actor="Borin", effect="Watch", rounds=1, ends="end of Grak's turn")
    s.run("effect_add", actor="Grak", effect="Mark", rounds=2, ends="start of Grak's turn")
    s.run("init_roll", (2, 2, 2, 6, 6, 5))
    lines = s.text(s.run("next", actor="Borin"))
    assert s.enc.phase == "flurry" and lines[0] == "Effect **Watch** on **Borin** ends" and "**Flurry**" in lines[1]
    assert [(e.name, e.left) for e in s.enc.effects if e.code is None] == [("Mark", 1)]
    s.run("act", (5, 5, 4), action="declare", actor="Borin", options={"intent": "kill", "tactic": "hold"})
    s.run("next", actor="Borin")  # Borin holds; Grak has no action: the flurry ends
    assert s.enc.phase == "adjustment"
    s.run("effect_add", actor="Borin", effect="Late", rounds=1, ends="end of Grak's turn")
    lines = s.text(s.run("next", (3, 3, 3, 3, 3, 3), actor="Borin"))
    assert lines.index("Effect **Late** on **Borin** ends") < next(i for i, x in enumerate(lines) if "Morale" in x)


def test_a_surprised_fighter_neither_interrupts_nor_swipes_at_a_flurry():
    """The surprised "take no action" in the first round (the text: "Surprise occurs when one side takes action
    unexpected or unperceived by the other"): an unengaged surprised fighter may not "interrupt flurries, or attempt
    to make a free attack (or swipe) at a fighter in a flurry" that round; the refusal says so and changes nothing."""
    s = watched(surprised="Alda")
    revealed(s)
    before = s.enc.model_dump_json()
    for action, extra in (("interrupt", {}), ("swipe", {"target": "Grak"})):
        refusal = s.refused("act", [6, 6, 6, 6, 6, 6], action=action, actor="Alda", **extra)
        assert "Alda is surprised and takes no action until the end of round 1" in refusal, refusal
    assert s.enc.model_dump_json() == before


def test_a_surprised_fighter_is_not_offered_an_interrupt_or_a_swipe():
    """What is refused is not offered: the surprised Alda's actions at the flurry (autocomplete) hold neither
    "interrupt" nor "swipe", which an unsurprised Alda is offered."""
    for who, offered in ((None, True), ("Alda", False)):
        s = watched(surprised=who)
        revealed(s)
        legal = ACTIONS.legal_now(s.enc, s.get("Alda"))
        assert ("interrupt" in legal, "swipe" in legal) == (offered, offered), legal


def test_a_surprise_that_ended_with_the_first_round_leaves_the_surprised_their_step_in_the_second():
    """The surprised "take no action" in the first round only: with Borin stunned into round 2 and Grak's surprise
    ended with round 1, round 2's movement phase gives Grak his step at once (the round does not wait for the GM as
    though nobody could act, nor pass Grak's step by)."""
    s = duel()
    s.run("act", action="surprise", target="Grak")
    s.run("init_roll", [6, 6, 6, 4, 4, 4])
    assert s.enc.current == "Borin"
    s.run("effect_add", actor="Borin", effect="stun", rounds=2)
    while s.enc.round == 1:
        res = s.run("next", [3, 3, 3, 3, 3, 3], actor=s.enc.current)
    assert not any("Nobody standing can take an action" in line for line in s.text(res)), s.text(res)
    assert (s.enc.round, s.enc.phase, s.enc.current) == (2, "movement", "Grak")
    assert active(s.enc.effects, "Grak", "surprised") is None
