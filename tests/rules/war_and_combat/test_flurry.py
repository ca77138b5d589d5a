"""Flurries: declarations, flurry initiative, the passing attack, indefensible attacks, facing."""
from __future__ import annotations

from rules.events import Attacked
from rules.systems.war_and_combat.events import (
    AttackPassed,
    Declared,
    FacedAttacker,
    FlurryEnded,
    FlurryInitiative,
    Revealed,
)
from tests.rules.war_and_combat.build import duel, fight, near, st, to_flurry, wac


def test_a_declaration_stays_hidden_until_all_have_declared():
    """Declarations are collected in any order and revealed together once all have declared."""
    s = duel()
    to_flurry(s)
    res = s.run("act", action="declare", actor="Grak", options={"intent": "disarm", "tactic": "press"})
    assert isinstance(res.events[0], Declared)
    assert not any("disarm" in line for line in s.text(res))
    res = s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Borin", options={"intent": "kill", "tactic": "hold"})
    revealed = next(e for e in res.events if isinstance(e, Revealed))
    assert revealed.choices == {"Borin": ("kill", "hold"), "Grak": ("disarm", "press")}
    assert s.enc.current == "Borin"


def test_gm_forces_the_flurry_and_the_missing_kill_and_hold():
    """The GM forces the flurry: those who have not declared take kill and hold."""
    s = duel()
    to_flurry(s)
    s.run("act", action="declare", actor="Borin", options={"intent": "subdue", "tactic": "press"})
    res = s.run("act", [5, 5, 4, 2, 3, 2], action="force")
    revealed = next(e for e in res.events if isinstance(e, Revealed))
    assert revealed.choices["Grak"] == ("kill", "hold") and revealed.defaulted == ["Grak"]


def test_bad_declarations_are_refused():
    """An unknown intent or tactic, or a declaration outside a flurry, changes nothing."""
    s = duel()
    to_flurry(s)
    assert "not an intention" in s.refused("act", action="declare", actor="Borin", options={"intent": "dance"})
    assert "`tactic` must be one of `hold`, `press`, `retreat`, `circle`, not `fly`" in s.refused(
        "act", action="declare", actor="Borin", options={"tactic": "fly"})
    t = duel()
    t.run("init_roll", [5, 5, 4, 2, 3, 2])
    assert "flurry phase" in t.refused("act", action="declare", actor="Borin", options={})


def test_a_failed_attack_passes_the_attack_to_the_defender():
    """"If the attack roll fails, the defender becomes the attacker"; a tie fails (it must exceed)."""
    s = duel()
    fight(s)
    res = s.run("attack", [2, 3, 4], actor="Borin", target="Grak")  # 9 + 3 + 1 = 13 vs Defense 13
    assert res.events[0].roll.total == 13 and not res.events[0].roll.success
    assert isinstance(res.events[-1], AttackPassed) and s.enc.current == "Grak"
    assert st(s, "Borin").actions == 2


def test_hold_passes_the_attack_and_the_flurry_ends_when_nobody_can_attack():
    """Holding lets another go first; when nobody with actions has an opponent, the flurry ends."""
    s = duel()
    fight(s)
    s.run("act", action="hold", actor="Borin")
    assert s.enc.current == "Grak"
    res = s.run("act", action="hold", actor="Grak")
    assert any(isinstance(e, FlurryEnded) for e in res.events) and s.enc.phase == "adjustment"
    assert s.enc.current == "Grak"  # reverse initiative order


def test_running_out_of_actions_passes_the_attack():
    """"A fighter may make as many attacks in a flurry as he has actions": then the other attacks."""
    s = duel()
    fight(s)
    for _ in range(3):
        s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2], actor="Borin", target="Grak")  # chest, light
    assert st(s, "Borin").actions == 0 and s.enc.current == "Grak"


def test_indefensible_attack_on_a_fighter_without_actions():
    """"If the opponent has at least two actions left, he may make an indefensible attack on the actionless fighter"."""
    s = duel()
    fight(s)
    st(s, "Grak").actions = 0
    res = s.run("attack", [1, 2, 1, 4, 4, 3, 2, 2, 2, 1], actor="Borin", target="Grak")  # 8 vs 3: critical too
    attack = res.events[0]
    assert isinstance(attack, Attacked) and attack.roll.against == 3 and attack.roll.success


def test_turning_to_face_costs_one_defense_for_the_flurry():
    """"A fighter who must turn to place the attacker into his zone of threat receives a -1 penalty to Defense"."""
    s = wac()
    s.add("Borin", "agl=13 fighter=6 skills=broadsword:3 weapons=broadsword", side="dwarves", at="D4", facing="SE")
    s.add("Grak", "fighter=3 weapons=axe", side="orcs", at=near(s, "D4", "SE"), facing="SE", owner=None)
    res = s.run("init_roll", [5, 5, 4, 2, 3, 2])
    while s.enc.phase == "movement":
        res = s.run("next", actor=s.enc.current)
    assert any(isinstance(e, FacedAttacker) and e.actor == "Grak" and e.facing == "NW" for e in res.events)
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={})
    res = s.run("attack", [2, 3, 3], actor="Borin", target="Grak")
    assert res.events[0].roll.against == 12


def test_only_flurry_participants_are_attacked_in_the_flurry():
    """A melee strike goes to an opponent in the same flurry."""
    s = duel()
    s.add("Snaga", "weapons=spear", side="orcs", at="M10", facing="N", owner=None)
    to_flurry(s, init=(5, 5, 4, 2, 3, 2, 2, 2, 2))
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={})
    assert "not in this flurry" in s.refused("attack", [4, 4, 4], actor="Borin", target="Snaga")


def test_press_pushes_back_and_a_wall_behind_pins():
    """"If a character is forced to move in a direction that is blocked by an impassible obstacle, then the attacker receives one extra action ... and the defender is penalized -1 to defense"."""
    s = duel(net_movement="each")
    grak = s.get("Grak").position
    s.enc.map.blocked.append(near(s, grak, "SE"))
    fight(s, borin="kill")
    s.enc.state.tactics["Borin"] = "press"
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    s.run("next", actor="Grak")
    s.run("act", action="press", actor="Borin", target="Grak")
    assert s.get("Grak").position == grak and any(e.code == "pinned" for e in s.enc.effects)
    s.run("next", actor="Borin", dice=[3, 3, 4, 3, 3, 4])  # round 2
    while s.enc.phase == "movement":
        s.run("next", actor=s.enc.current)
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", [5, 5, 4, 2, 3, 2], action="declare", actor="Grak", options={})
    assert st(s, "Borin").actions == 4
    res = s.run("attack", [2, 3, 3], actor="Borin", target="Grak")
    assert res.events[0].roll.against == 12


def test_press_into_open_ground_moves_both():
    """The press forces the defender backwards and the winner keeps his relative position."""
    s = duel(net_movement="each")
    borin, grak = s.get("Borin").position, s.get("Grak").position
    fight(s)
    s.enc.state.tactics["Borin"] = "press"
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    s.run("next", actor="Grak")
    s.run("act", action="press", actor="Borin", target="Grak")
    assert (s.get("Borin").position, s.get("Grak").position) == (grak, near(s, grak, "SE"))
    assert borin != grak


def test_removing_the_attacker_passes_the_attack_on():
    """A participant removed mid-flurry: the others go on; removing the last of a side decides the fight."""
    s = duel()
    s.add("Snaga", "fighter=1 weapons=axe", side="orcs", at=near(s, "D4", "S"), facing="N", owner=None)
    to_flurry(s, init=(5, 5, 4, 2, 3, 2, 2, 2, 2))
    s.run("act", action="declare", actor="Borin", options={})
    s.run("act", action="declare", actor="Grak", options={})
    s.run("remove", actor="Snaga", dice=[5, 5, 4, 2, 3, 2])
    assert s.enc.state.declarations.revealed and s.enc.current == "Borin"
    s.run("remove", actor="Borin")
    assert s.enc.winner == "orcs" and s.enc.current is None


def test_flank_and_rear_defense():
    """"A fighter has no defense against attacks from the rear ... Attacks from the flanks may be defended against at half skill level, but only if the defender forfeits his defenses from the front hexes"."""
    from rules.systems.war_and_combat.attacks import defense

    s = wac()
    s.add("Grak", "fighter=6 agl=13 weapons=axe shield=large", side="orcs", at="F6", facing="N", owner=None)
    s.add("Front", "weapons=axe", side="dwarves", at=near(s, "F6", "N"), facing="S")
    s.add("Flank", "weapons=axe", side="dwarves", at=near(s, "F6", "SE"), facing="NW")
    s.add("Rear", "weapons=axe", side="dwarves", at=near(s, "F6", "S"), facing="N")
    grid, opts = s.enc.grid(), s.system.option_values(s.enc)
    grak = s.get("Grak")
    assert defense(s.enc, opts, grid, grak, s.get("Front")) == (10 + 6 + 1 + 2, "front")
    assert defense(s.enc, opts, grid, grak, s.get("Flank")) == (3, "flank_unguarded")  # no `guard=flank` declared
    assert defense(s.enc, opts, grid, grak, s.get("Rear")) == (3, "rear")


def test_a_hold_passes_the_attack_once_and_the_holder_gets_it_back_on_a_miss():
    """"The character with the initiative may hold it, but doing so allows another to go first"; "If the attack
    roll fails, the defender becomes the attacker ... This continues to the end of the flurry"."""
    s = duel()
    fight(s)
    s.run("act", action="hold", actor="Borin")
    assert s.enc.current == "Grak"
    res = s.run("attack", [2, 2, 2], actor="Grak", target="Borin")  # 6 + 2 = 8 vs Defense 17
    assert not res.events[0].roll.success
    assert isinstance(res.events[-1], AttackPassed) and res.events[-1].reason == "miss" and s.enc.current == "Borin"
    s.run("attack", [2, 2, 2], actor="Borin", target="Grak")  # a miss passes it back to Grak
    assert s.enc.current == "Grak" and st(s, "Borin").actions == 2
    s.run("attack", [2, 2, 2], actor="Grak", target="Borin")  # Grak's last action misses: Borin again
    assert s.enc.current == "Borin" and st(s, "Grak").actions == 0 and s.enc.phase == "flurry"


def test_a_holder_gets_the_attack_back_when_the_other_runs_out_of_actions():
    """A hold passes the attack once: when the one it passed to has spent its actions, the holder attacks."""
    s = duel()
    fight(s)
    s.run("act", action="hold", actor="Borin")
    for _ in range(2):
        s.run("attack", [6, 5, 5, 4, 4, 3, 1, 1, 1, 1], actor="Grak", target="Borin")  # 18 vs 17, absorbed
    assert st(s, "Grak").actions == 0 and s.enc.current == "Borin" and st(s, "Borin").actions == 3


def test_one_adjustment_per_phase_whatever_the_tactic():
    """After a flurry a fighter gets "a one hex adjustment": one press, and no move after it."""
    s = duel(net_movement="each")
    grak = s.get("Grak").position
    fight(s)
    s.enc.state.tactics["Borin"] = "press"
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    s.run("next", actor="Grak")
    s.run("act", action="press", actor="Borin", target="Grak")
    assert s.get("Borin").position == grak
    assert "one hex of adjustment" in s.refused("act", action="press", actor="Borin", target="Grak")
    assert "one hex" in s.refused("move", actor="Borin", path="NW")


def test_two_one_hex_moves_are_not_one_adjustment():
    """"he may make a one hex adjustment the following phase": a second one-hex `/move` is refused."""
    s = duel()
    fight(s)
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    s.run("next", actor="Grak")
    s.run("move", actor="Borin", path="NE")  # a front hex: 1 of the 2 points
    assert "one hex" in s.refused("move", actor="Borin", path="NE")


def test_the_flurry_rolls_initiative_first_and_the_attacker_declares_openly_first():
    """"Flurry Procedure 1. Roll for Flurry Initiative 2. Declare Intention"; "The attacker has the benefit of
    declaring his intention first, to which the defender must respond" (the default, `declare=public`); an attack
    before the declarations is told whose is awaited."""
    s = duel(declare="public")
    s.run("init_roll", [5, 5, 4, 2, 3, 2])
    s.run("next", actor="Borin")
    res = s.run("next", [1, 1, 2, 6, 6, 5], actor="Grak")  # the flurry begins: Borin 4 + 6 = 10, Grak 17 + 3 = 20
    inits = {e.actor: e.value for e in res.events if isinstance(e, FlurryInitiative)}
    assert inits == {"Borin": 10, "Grak": 20}
    assert s.system.turn(s.enc).actors == ("Grak",)
    assert "Grak declares first" in s.refused("act", action="declare", actor="Borin", options={"intent": "kill"})
    assert "The flurry awaits Grak's declaration" in s.refused("attack", [6, 6, 5], actor="Borin", target="Grak")
    res = s.run("act", action="declare", actor="Grak", options={"intent": "disarm", "tactic": "press"})
    assert "**Grak** declares: disarm, press; **Borin** responds" in s.text(res)
    assert "The flurry awaits Borin's declaration" in s.refused("attack", [6, 6, 5], actor="Grak", target="Borin")
    assert s.system.turn(s.enc).actors == ("Borin",)
    s.run("act", action="declare", actor="Borin", options={"intent": "kill", "tactic": "retreat"})
    assert s.enc.current == "Grak" and s.enc.state.tactics == {"Borin": "retreat", "Grak": "press"}


def test_the_hidden_declarations_stay_an_option():
    """`declare=hidden`: all declare at once, hidden until all have, and the flurry initiative follows."""
    s = duel(declare="hidden")
    to_flurry(s)
    assert set(s.system.turn(s.enc).actors) == {"Borin", "Grak"}
    res = s.run("act", action="declare", actor="Grak", options={"intent": "disarm"})
    assert "has declared (hidden)" in s.text(res)[0]


def test_the_winner_of_the_exchanges_decides_the_net_movement():
    """"The character winning the most and best successes determines the net movement, which could mean forcing
    the defender backwards": Grak, who declared press but scored no success, cannot press Borin, who hit him."""
    s = duel()
    fight(s, grak="kill")
    s.enc.state.tactics["Borin"] = "press"
    s.run("attack", [4, 4, 3, 4, 4, 3, 1, 1, 1], actor="Borin", target="Grak")  # 15 vs 13: a hit, absorbed
    s.run("act", action="hold", actor="Borin")
    s.run("act", action="hold", actor="Grak")
    assert s.enc.state.won == ["Borin"] and s.enc.current == "Grak"
    assert "did not win" in s.refused("act", action="press", actor="Grak", target="Borin")
    s.run("next", actor="Grak")
    s.run("act", action="press", actor="Borin", target="Grak")
    assert s.get("Borin").position == near(s, "D4", "SE")
