"""Lengthy actions: "Full Actions prohibit movement; Lengthy Actions are Full Actions that take
more than one round to perform" (Don/Shed Armor/Clothing). The text gives no length: option
`armour_rounds` (2). The fighter neither moves nor shoots meanwhile; joining a flurry breaks it off."""
from __future__ import annotations

from rules.errors import DiceError
from rules.systems.war_and_combat import sheet
from rules.systems.war_and_combat.state import WacCombatant
from tests.rules.war_and_combat.build import alone, duel
from tests.scenario import Scenario

NEW_ROUND = (3, 3, 4, 3, 3, 4)  # both fighters' initiative: Borin 10 + 6, Grak 10 + 0


def to_round(s: Scenario, n: int) -> None:
    """Pass every step until round ``n`` begins."""
    while s.enc.round < n:
        try:
            s.run("next", actor=s.enc.current)
        except DiceError:
            s.run("next", NEW_ROUND, actor=s.enc.current)


def test_shedding_armour_takes_two_rounds_and_forbids_moving_meanwhile():
    """Borin sheds his mail in round 1: no move then or in round 2, and from round 3 he wears none."""
    s = alone("armor=mail")
    res = s.run("act", action="shed", actor="Borin")
    assert any("shedding its mail, done at the start of round 3" in line for line in s.text(res))
    assert "shedding" in s.refused("move", actor="Borin", path="N")
    assert sheet.worn(s.get("Borin")).name == "mail"
    s.run("next", actor="Borin")
    s.run("next", actor="Grak")
    s.run("next", actor="Grak")  # the adjustment phase, in reverse order
    assert s.enc.phase == "adjustment" and s.enc.current == "Borin" and WacCombatant.of(s.get("Borin")).mp == 0
    to_round(s, 2)
    assert "shedding" in s.refused("move", actor="Borin", path="N")
    to_round(s, 3)
    assert sheet.worn(s.get("Borin")).name == "none" and WacCombatant.of(s.get("Borin")).busy is None
    s.run("move", actor="Borin", path="N")
    # the sheet as typed, and the armour worn now beside it (`/combatant show`)
    assert "armor mail (wears none now)" in s.system.sheet_summary(s.get("Borin"))


def test_the_sheet_summary_names_no_worn_armour_while_it_is_the_sheets():
    """Until a lengthy action changes it, the armour worn is the sheet's: the summary says it once."""
    s = alone("armor=mail")
    assert "armor mail ·" in s.system.sheet_summary(s.get("Borin")) and "wears" not in s.system.sheet_summary(s.get("Borin"))


def test_donning_armour_puts_it_on_when_done_and_the_option_sets_the_length():
    """`/act action:don options:"plate"` with armour_rounds=3: plate from the start of round 4."""
    s = alone(armour_rounds=3)
    s.run("act", action="don", actor="Borin", options={"plate": ""})
    to_round(s, 3)
    assert sheet.worn(s.get("Borin")).name == "none"
    to_round(s, 4)
    assert sheet.worn(s.get("Borin")).name == "plate"


def test_a_lengthy_action_needs_peace_and_a_known_armour():
    """Engaged, or after moving this phase, it cannot begin; an unknown armour is refused by name."""
    s = duel()
    s.run("init_roll", (5, 5, 4, 2, 3, 2))
    assert "engaged" in s.refused("act", action="shed", actor="Borin")
    s = alone()
    assert "none" in s.refused("act", action="shed", actor="Borin")
    assert "cardboard" in s.refused("act", action="don", actor="Borin", options={"cardboard": ""})
    s.run("move", actor="Borin", path="N")
    assert "moved" in s.refused("act", action="don", actor="Borin", options={"mail": ""})


def test_after_moving_the_refusal_points_to_the_next_movement_step():
    """"`/act action:shed` ... in your movement step, before moving or shooting": after a move the refusal says to
    begin it in the next movement step (the adjustment phase, the next phase, refuses it too), and changes nothing."""
    s = alone("armor=mail")
    s.run("move", actor="Borin", path="N")
    msg = s.refused("act", action="shed", actor="Borin")
    assert "Borin has moved this phase" in msg and "begin it in your next movement step" in msg
    assert "next phase" not in msg
    assert WacCombatant.of(s.get("Borin")).busy is None


def test_a_fighter_drawn_into_a_flurry_breaks_off_its_lengthy_action():
    """Grak closes in while Borin sheds his mail: the flurry breaks it off, and Borin keeps his mail."""
    from tests.rules.war_and_combat.build import near

    s = alone("armor=mail weapons=broadsword")
    s.run("act", action="shed", actor="Borin")
    grak = s.get("Grak")
    grak.position, grak.facing = near(s, "F6", "N"), "S"
    s.get("Borin").facing = "N"
    res = s.run("next", actor="Borin")
    res = s.run("next", actor="Grak") if s.enc.phase == "movement" else res
    assert s.enc.phase == "flurry"
    assert any("a lengthy action broken off" in line for line in s.text(res))
    assert WacCombatant.of(s.get("Borin")).busy is None and sheet.worn(s.get("Borin")).name == "mail"


def test_the_board_shows_a_lengthy_action_under_way():
    """The status board's line says what the fighter is busy with and when it is done."""
    s = alone("armor=mail")
    s.run("act", action="shed", actor="Borin")
    line = s.system.present.status_line(s.enc, s.get("Borin"), s.system.facts(s.enc))
    assert "shedding its mail (done at round 3)" in line


def test_a_stun_or_a_knockout_stops_a_lengthy_action():
    """A lengthy action is a Full Action "that take[s] more than one round to perform", and "Stunned characters ...
    can take no action for 1d6 rounds": a fighter stunned (by the GM, or a wound) or knocked out while shedding stops,
    keeping its mail; from the round it would have been done it is not said to have shed it. The engaged one's
    refusal says what to do instead."""
    s = alone("armor=mail")
    s.run("act", action="shed", actor="Borin")
    res = s.run("effect_add", actor="Borin", effect="stun", rounds=1)
    assert "**Borin** can take no action: it stops shedding its mail (a lengthy action broken off)" in s.text(res)
    assert WacCombatant.of(s.get("Borin")).busy is None and sheet.worn(s.get("Borin")).name == "mail"
    for options, rolls in (({"serious": "", "head": ""}, [3]), ({"critical": "", "head": ""}, [3])):
        s = alone("armor=mail")
        s.run("act", action="shed", actor="Borin")
        res = s.run("act", rolls, action="damage", target="Borin", options=options)
        assert any("it stops shedding its mail" in line for line in s.text(res)), s.text(res)
        assert WacCombatant.of(s.get("Borin")).busy is None and sheet.worn(s.get("Borin")).name == "mail"
    s = duel()
    s.run("init_roll", (5, 5, 4, 2, 3, 2))
    assert "engaged: there is no time for a lengthy action in a fight: begin it out of every foe's reach" in s.refused(
        "act", action="shed", actor="Borin")


def test_the_gms_surprise_in_the_first_round_stops_a_lengthy_action():
    """"Surprise occurs when one side takes action unexpected or unperceived by the other": the surprised take no
    action, so the GM's `/act action:surprise` on a fighter already shedding (the first round's movement phase) stops
    it, as a stun does; it keeps its mail."""
    s = alone("armor=mail")
    s.run("act", action="shed", actor="Borin")
    res = s.run("act", action="surprise", target="Borin")
    assert "**Borin** can take no action: it stops shedding its mail (a lengthy action broken off)" in s.text(res)
    assert WacCombatant.of(s.get("Borin")).busy is None and sheet.worn(s.get("Borin")).name == "mail"


def test_no_full_action_while_a_lengthy_one_runs():
    """"Full Actions prohibit movement; Lengthy Actions are Full Actions that take more than one round to perform": while
    Borin sheds his mail, "Sheathe weapon", aiming and loading (full actions) are refused alike, saying why and what to
    do, and change nothing; his sword stays in hand. Sheathing first, the shed waits for his next movement step."""
    s = alone("armor=mail weapons=broadsword,crossbow")
    WacCombatant.of(s.get("Borin")).unloaded.append("crossbow")  # it shot in an earlier round
    s.run("act", action="shed", actor="Borin")
    for action, verb in (("sheathe", "sheathe"), ("aim", "aim"), ("load", "load")):
        msg = s.refused("act", action=action, actor="Borin")
        assert f"Borin is shedding its mail (a lengthy action, done at the start of round 3): it cannot {verb}" in msg
        assert "`/init next` ends its step" in msg
    assert not WacCombatant.of(s.get("Borin")).sheathed
    t = alone("armor=mail")
    t.run("act", action="sheathe", actor="Borin")
    assert "a lengthy action is a full action too: begin it in your next movement step" in t.refused(
        "act", action="shed", actor="Borin")
