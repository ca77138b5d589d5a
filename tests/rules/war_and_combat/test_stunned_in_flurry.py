"""A fighter who can take no action (stunned, surprised) in the flurry phase: not asked to declare, no flurry
initiative, not awaited; still in the flurry, attacked at its lowered Defense; a round nobody can act in waits
for the GM."""
from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.systems.war_and_combat.actions import ACTIONS
from rules.systems.war_and_combat.events import FlurryInitiative
from rules.systems.war_and_combat.flurry import to_declare
from rules.systems.war_and_combat.turns import refuse_if_idle
from tests.rules.war_and_combat.build import (
    SYSTEM,
    duel,
    revealed,
    st,
    stun,
    wac,
    watched,
)

STUN = ("Stunned characters lose half their Defense (i.e., Base 5 + half Fighter rank) and can take no action for "
        "1d6 rounds")


def said(lines: list[str]) -> str:
    return "\n".join(lines).replace("**", "")


def test_a_stunned_fighter_declares_nothing_and_rolls_no_flurry_initiative():
    """Stun: "Stunned characters lose half their Defense (i.e., Base 5 + half Fighter rank) and can take no action
    for 1d6 rounds": declaring in turn, the flurry rolls no flurry initiative for the stunned Grak and awaits only
    Borin's declaration; Grak's own is refused and changes nothing; Grak stays in the flurry, attacked at 5 + half
    Fighter rank."""
    s = duel(declare="public")
    stun(s, "Grak")
    s.run("init_roll", [5, 5, 4, 2, 3, 2])  # Borin 14 + 6 = 20, Grak 7 + 3 = 10
    res = s.run("next", [5, 5, 4], actor="Borin")  # Grak has no step; the flurry opens: Borin's flurry initiative only
    assert s.enc.phase == "flurry"
    assert [e.actor for e in res.events if isinstance(e, FlurryInitiative)] == ["Borin"]
    assert to_declare(s.enc) == ["Borin"] and st(s, "Grak").flurry_init is None
    assert "Grak is stunned: no action this round" in said(s.text(res))
    refusal = s.refused("act", action="declare", actor="Grak", options={"intent": "kill"})
    assert "Grak is stunned" in refusal and "no action" in refusal
    s.run("act", action="declare", actor="Borin", options={"intent": "kill", "tactic": "press"})
    assert s.enc.current == "Borin" and st(s, "Grak").actions == 0 and st(s, "Borin").actions == 3
    res = s.run("attack", [1, 1, 2, 3, 3, 4, 1, 1, 1], actor="Borin", target="Grak")  # 4 + 3 + 1 = 8 vs 6: hit
    assert res.events[0].roll.against == 5 + 3 // 2 and res.events[0].roll.versus.args == ["stunned"]


def test_declaring_all_at_once_the_stunned_are_not_awaited():
    """Stun: "... can take no action for 1d6 rounds": with `declare=hidden` Borin's declaration alone reveals the
    flurry's; only Borin rolls flurry initiative, and the attack is his."""
    s = duel()
    stun(s, "Grak")
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("next", actor="Borin")
    assert s.enc.phase == "flurry" and to_declare(s.enc) == ["Borin"]
    res = s.run("act", [5, 5, 4], action="declare", actor="Borin", options={"intent": "kill", "tactic": "press"})
    assert [e.actor for e in res.events if isinstance(e, FlurryInitiative)] == ["Borin"]
    assert s.enc.current == "Borin" and st(s, "Grak").actions == 0
    assert s.enc.state.tactics == {"Borin": "press", "Grak": "hold"}  # Grak was in the flurry: press works on him


def test_the_board_says_the_stunned_takes_no_action():
    """Stun: "... can take no action for 1d6 rounds": the board's flurry line names the stunned as taking no
    action this round, and lists only Borin as still to declare; Grak's line says it in the same words."""
    s = duel()
    stun(s, "Grak")
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("next", actor="Borin")
    facts = SYSTEM.facts(s.enc)
    board = SYSTEM.present.board(s.enc, facts).text().replace("**", "")
    assert "still to declare: Borin ·" in board or board.count("still to declare: Borin\n") == 1
    assert "Grak stunned: no action this round" in board
    assert "stunned: no action this round" in SYSTEM.present.status_line(s.enc, s.get("Grak"), facts)


def test_a_round_in_which_nobody_can_act_waits_for_the_gm_and_does_not_stall():
    """Stun: "... can take no action for 1d6 rounds": with both fighters stunned nobody declares, so the flurry
    cannot wait for anyone; the round nobody can act in stops at its start for the GM's `/init next`, which lets
    it pass (its end counts the stuns down), and the fighters act again in the round after their stuns end."""
    s = duel()
    stun(s, "Grak", 1)
    stun(s, "Borin", 1)
    res = s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.round == 1 and s.enc.phase == "movement" and s.enc.current is None
    assert "Nobody standing can take an action" in said(s.text(res))
    assert "nobody standing can take an action" in SYSTEM.present.turn_label(s.enc, SYSTEM.facts(s.enc))
    # round 1 passes, its end ends both stuns (counted as the action ends): round 2 begins with Borin's step at once;
    # docs/systems/war-and-combat.md: a stun "counted down at each round's end ... one that ended with the round before
    # is told ending, before the round begins": after round 1's adjustment phase and morale, as in a round played
    res = s.run("next", [5, 5, 4, 2, 3, 2])
    kinds = [type(e).__name__ for e in res.events]
    ends = [i for i, k in enumerate(kinds) if k == "EffectEnded"]
    assert len(ends) == 2 and kinds.index("MoralePrompt") < ends[0] and ends[-1] < kinds.index("RoundBegan")
    assert s.enc.round == 2 and s.enc.phase == "movement" and not [e for e in s.enc.effects if e.code == "stun"]
    assert s.enc.current == "Borin" and "Borin" in SYSTEM.present.turn_label(s.enc, SYSTEM.facts(s.enc))


def test_a_stunned_fighters_turn_is_ended_without_asking():
    """A stunned fighter "can take no action": a typed `/init next` on its turn has nothing to ask first ("has done
    nothing yet: end the turn now?" is for one who could still act), so the turn reads as not untouched."""
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.current == "Borin" and s.system.untouched(s.enc, "Borin")
    stun(s, "Borin")
    assert not s.system.untouched(s.enc, "Borin")


def test_the_gms_stun_effect_is_the_rules_stun():
    """The GM's `/effect add name:stun target:Borin rounds:2` puts on the rules' stun ("Stunned characters ... can take
    no action for 1d6 rounds", here for the rounds the GM gives): Borin's move is refused, and the stun counts down at
    the round's end as a wound's does. A stun with `mods` or its own `ends` is refused, changing nothing."""
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.current == "Borin"
    before = s.enc.model_dump_json()
    assert "whole rounds" in s.refused("effect_add", actor="Borin", effect="Stun", rounds=2, mods="defense-1")
    assert "whole rounds" in s.refused("effect_add", actor="Borin", effect="stun", rounds=2, ends="end of Grak's turn")
    assert s.enc.model_dump_json() == before
    s.run("effect_add", actor="Borin", effect="Stun", rounds=2)
    stun = next(e for e in s.enc.effects if e.target == "Borin")
    assert (stun.code, stun.name, stun.ends, stun.left) == ("stun", "stun", "round_end", 2)
    assert "Borin is stunned" in s.refused("move", actor="Borin", path="D5")
    assert not s.system.untouched(s.enc, "Borin")


def test_the_gms_surprised_effect_is_the_rules_surprise_for_its_rounds():
    """`/effect add name:surprised target:Grak rounds:2` (or `name:surprise`) is the rules' surprise (Grak takes no
    action): any action of Grak's is refused, saying until the end of which round (round 1 + 2 round ends: the end of round 2)."""
    for name in ("surprised", "Surprise"):  # as `stun` and `stunned` are one
        s = duel()
        s.run("init_roll", [5, 5, 4, 2, 3, 2])
        s.run("effect_add", actor="Grak", effect=name, rounds=2)
        surprise = next(e for e in s.enc.effects if e.target == "Grak")
        assert (surprise.code, surprise.left) == ("surprised", 2)
    with pytest.raises(IllegalAction, match="Grak is surprised and takes no action until the end of round 2"):
        refuse_if_idle(s.enc, s.get("Grak"))


def test_a_hidden_fighters_line_tells_players_it_takes_no_action():
    """A stun or a surprise is everyone's (the effects line names it): a hidden fighter's board line, which shows no
    number of its own, says it takes no action, as a shown fighter's does."""
    s = duel()
    stun(s, "Grak")
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    players = SYSTEM.present.view(s.enc, frozenset({"Grak"}))
    line = players.line(s.enc, s.get("Grak"), SYSTEM.facts(s.enc))
    assert "stunned: no action this round" in line and "init" not in line, line


def test_the_board_says_the_surprised_takes_no_action_as_it_says_the_stunned_does():
    """The surprised "take no action" (step 2, "Check Surprise"; the project's procedure: in the first round): the
    flurry line names Grak surprised, taking no action this round, as it names the stunned; Grak's line says so; and
    the GM's surprise on Borin in his own step shows his step as one of no action, with no MP left."""
    s = duel()
    s.run("act", action="surprise", target="Grak")
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("next", actor="Borin")
    facts = SYSTEM.facts(s.enc)
    board = SYSTEM.present.board(s.enc, facts).text().replace("**", "")
    assert "Flurry: Borin, Grak · still to declare: Borin" in board and "Grak surprised: no action this round" in board
    assert "surprised: no action this round" in SYSTEM.present.status_line(s.enc, s.get("Grak"), facts)
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("effect_add", actor="Borin", effect="surprised", rounds=1)
    facts = SYSTEM.facts(s.enc)
    assert SYSTEM.present.turn_label(s.enc, facts).endswith("Borin (surprised: no action), then `/init next`")
    assert st(s, "Borin").mp == 0


def test_a_fighter_surprised_in_its_own_step_is_offered_none_of_its_steps_actions():
    """The GM's surprise on Borin in his own movement step: every action of the step is refused (he "takes no action"),
    so none is offered, as for a stunned fighter; before it, they are. Left: the GM's own `surprise` (before the first
    flurry), which is no action of Borin's."""
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.current == "Borin" and "wield" in ACTIONS.legal_now(s.enc, s.get("Borin"))
    s.run("effect_add", actor="Borin", effect="surprised", rounds=1)
    assert ACTIONS.legal_now(s.enc, s.get("Borin")) == ["surprise"], ACTIONS.legal_now(s.enc, s.get("Borin"))


def test_a_stunned_fighters_refusal_says_what_is_left_to_it_where_it_stands():
    """A stunned fighter "can take no action": the refusal says what is left to do where it stands. In its own
    movement step `/init next` ends it; holding the attack in its flurry, `/act action:hold` passes it on; a fighter
    outside the flurry (it may not "interrupt flurries, or attempt to make a free attack (or swipe)") has nothing to
    end: it waits for the stun to end."""
    s = watched()
    revealed(s)
    stun(s, "Alda")
    stun(s, "Borin")
    outside = s.refused("act", [6, 6, 6, 6, 6, 6], action="swipe", actor="Alda", target="Grak")
    assert outside.startswith("Alda is stunned and can take no action for 2 rounds, this one included: it waits for "
                              "the stun to end"), outside
    assert "hold" not in outside and "/init next" not in outside
    inside = s.refused("attack", [6, 6, 6, 6, 6, 6], actor="Borin", target="Grak")
    assert "`/act action:hold` passes the attack on" in inside, inside
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert s.enc.current == "Borin"
    stun(s, "Borin")
    assert "`/init next` ends its step, and it waits for the stun to end" in s.refused("move", actor="Borin", path="D5")


def test_a_shock_stun_on_the_heels_of_another_waits_for_the_gm_round_after_round():
    """Stun: "... can take no action for 1d6 rounds", and the doc: "A round that begins with nobody standing able to
    act (all stunned or surprised) waits for the GM ... one round at a time". Borin's shock check stuns him for a
    round at the start of round 2 and again at the start of round 3, as the first stun ends; Grak is stunned
    throughout: round 3 waits for the GM as round 2 did, with nobody's step to take."""
    s = wac()
    s.add("Borin", "str=10 agl=13 fighter=3 skills=broadsword:3 weapons=broadsword", side="dwarves", at="C4", facing="S")
    s.add("Grak", "str=10 agl=10 fighter=3 weapons=axe", side="orcs", at="N10", facing="N", owner=None)
    s.run("init_roll", [6, 6, 5, 1, 1, 2])
    s.run("act", action="damage", target="Borin", options={"critical": "", "right": "", "arm": ""})
    stun(s, "Grak", 3)
    while s.enc.round == 1:
        s.run("next", [1, 1, 2, 4, 4, 4, 4, 4, 4] if s.enc.phase == "adjustment" else [], actor=s.enc.current)
    for rnd in (2, 3):
        assert s.enc.round == rnd and s.enc.current is None, (rnd, s.enc.current)
        assert "nobody standing can take an action" in SYSTEM.present.turn_label(s.enc, SYSTEM.facts(s.enc))
        if rnd == 2:
            s.run("next", [1, 1, 2, 4, 4, 4, 4, 4, 4])


def test_a_failed_shock_check_of_a_fighter_stunned_all_round_loses_nothing():
    """docs/systems/war-and-combat.md: a stunned fighter "has no action", and "one whose flurry has left it none ...
    loses nothing, and the reply says so ("would lose 1 action, but has none left this round: nothing is lost")":
    Grak, stunned for rounds 1 and 2, fails round 2's shock check and is said to lose nothing, as a slip or a wound
    on him then says (it said "loses 1 action this round")."""
    s = wac()
    s.add("Borin", "str=10 agl=13 fighter=6 weapons=broadsword", side="dwarves", at="C4", facing="S")
    s.add("Grak", "str=10 agl=10 fighter=3 weapons=axe", side="orcs", at="N10", facing="N", owner=None)
    s.run("init_roll", [6, 6, 5, 1, 1, 2])
    s.run("act", [5, 5, 5], action="damage", target="Grak", options={"light": "", "right": "", "leg": "", "penetrating": ""})
    stun(s, "Grak", 2)
    while s.enc.round == 1:
        dice = [2, 3, 3, 2, 2, 3, 1, 1, 2] if s.enc.phase == "adjustment" else []  # shock 8 vs 10
        res = s.run("next", dice, actor=s.enc.current)
    text = said(s.text(res))
    assert "Grak checks shock" in text and "failure" in text
    assert "Grak would lose 1 action, but has none left this round: nothing is lost" in text
    assert "Grak loses 1 action" not in text


def test_a_fighter_stunned_while_the_flurry_awaits_declarations_is_no_longer_awaited():
    """docs/systems/war-and-combat.md: "A fighter in the flurry who can take no action (stunned ...) ... declares
    nothing, rolls no flurry initiative and has no action ... and the flurry does not wait for it": Borin has
    declared and the flurry awaits Grak's when the GM stuns Grak (`/effect add name:stun`): the declarations are
    revealed at once and Borin attacks (the flurry went on waiting for the stunned Grak's declaration)."""
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("next", actor="Borin")
    s.run("next", actor="Grak")
    assert s.enc.phase == "flurry" and to_declare(s.enc) == ["Borin", "Grak"]
    s.run("act", action="declare", actor="Borin", options={"intent": "kill", "tactic": "press"})
    res = s.run("effect_add", [5, 5, 4], actor="Grak", effect="stun", rounds=1)
    assert to_declare(s.enc) == [] and s.enc.current == "Borin", said(s.text(res))
    assert "Grak is stunned: no action this round" in said(s.text(res))
    assert st(s, "Grak").actions == 0 and st(s, "Grak").flurry_init is None and st(s, "Borin").actions > 0


def test_a_flurry_whose_every_fighter_is_stunned_before_the_reveal_ends_at_once():
    """The same page: "with nobody in it able to act, it ends at once": the GM stuns Borin and Grak while their
    flurry awaits declarations, and the flurry ends: the round goes on to the adjustment phase, in which neither
    can act, and round 2 begins as their stuns end (the flurry waited for the declarations, and the GM's
    `/init next` was refused)."""
    s = duel()
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("next", actor="Borin")
    s.run("next", actor="Grak")
    assert s.enc.phase == "flurry"
    s.run("effect_add", actor="Borin", effect="stun", rounds=1)
    res = s.run("effect_add", [2, 5, 1, 3, 1, 4], actor="Grak", effect="stun", rounds=1)
    lines = said(s.text(res))
    assert lines.index("The flurry of Borin, Grak ends") < lines.index("Adjustment phase") < lines.index("Round 2 begins")
    assert (s.enc.round, s.enc.phase, s.enc.current) == (2, "movement", "Borin")  # nobody could adjust: round 2
