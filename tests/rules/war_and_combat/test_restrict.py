"""Restrict: a grapple's lasting hold, checked before each action of the victim."""
from __future__ import annotations

from rules.events import Attacked, Checked, mod
from rules.systems.war_and_combat.events import EffectTaken, FlurryEnded
from rules.systems.war_and_combat.state import WoundRecord
from tests.rules.war_and_combat.build import duel, fight, st


def held(s, level: int = 10) -> None:
    """Grak held by Borin's grapple at ``level``."""
    st(s, "Grak").restrict, st(s, "Grak").restrict_by = level, "Borin"


def test_a_grapple_hit_holds_the_victim_without_rolling_yet():
    """"Restrict: The victim rolls a strength task vs. stated target level before attempting any action": none at the hit."""
    s = duel()
    fight(s, borin="grapple")
    res = s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2], actor="Borin", target="Grak")  # a light result: Restrict-10
    assert not [e for e in res.events if isinstance(e, Checked)]
    assert (st(s, "Grak").restrict, st(s, "Grak").restrict_by) == (10, "Borin")
    assert any(isinstance(e, EffectTaken) and e.effect == "restricted" and e.detail == "10" for e in res.events)


def test_a_failed_restrict_check_loses_the_attack():
    """"If he fails, he loses an action": the victim's attack is not made and the action is spent."""
    s = duel()
    fight(s)
    held(s)
    s.run("attack", [5, 5, 4, 1, 1, 2], actor="Borin", target="Grak")  # Grak's check 15, then Borin misses
    res = s.run("attack", [2, 3, 3], actor="Grak", target="Borin")  # 8 + 1 = 9: not over 10
    check = res.events[0]
    assert isinstance(check, Checked) and check.what == "restrict-10" and not check.roll.success
    assert not [e for e in res.events if isinstance(e, Attacked)]
    assert st(s, "Grak").actions == 1 and s.enc.current == "Grak"


def test_the_restrict_check_takes_the_wound_penalties():
    """"The victim rolls a strength task"; "Action penalties are applied against any task roll the character
    attempts": Grak's serious leg wound (-3) counts against his check."""
    s = duel()
    fight(s)
    held(s)
    st(s, "Grak").wounds.append(WoundRecord(location="left leg", severity="serious"))
    s.run("attack", [5, 5, 4, 1, 1, 2], actor="Borin", target="Grak")  # Grak's check, then Borin misses
    res = s.run("attack", [4, 4, 4], actor="Grak", target="Borin")  # 12 + 1 - 3 = 10: not over 10
    check = res.events[0]
    assert isinstance(check, Checked) and mod("wounds", -3) in check.roll.modifiers and not check.roll.success


def test_a_passed_restrict_check_attacks_at_minus_one():
    """"otherwise he may act at -1": the attack roll takes -1."""
    s = duel()
    fight(s)
    held(s)
    s.run("attack", [5, 5, 4, 1, 1, 2], actor="Borin", target="Grak")
    res = s.run("attack", [5, 5, 4, 4, 4, 4], actor="Grak", target="Borin")
    attack = next(e for e in res.events if isinstance(e, Attacked))
    assert attack.roll.total == 12 + 2 - 1 and st(s, "Grak").actions == 1


def test_the_restrict_check_comes_before_each_defence():
    """Before a defence too: a failure leaves the attack undefended, a success defends at -1."""
    s = duel()
    fight(s)
    held(s)
    res = s.run("attack", [5, 5, 4, 1, 1, 2], actor="Borin", target="Grak")
    attack = next(e for e in res.events if isinstance(e, Attacked))
    assert isinstance(res.events[0], Checked) and attack.roll.against == 13 - 1
    s = duel()
    fight(s)
    held(s)
    res = s.run("attack", [2, 3, 3, 1, 2, 1, 4, 4, 3, 2, 2, 2, 1], actor="Borin", target="Grak")
    attack = next(e for e in res.events if isinstance(e, Attacked))
    assert attack.roll.against == 3 and attack.roll.success and st(s, "Grak").actions == 1


def test_the_hold_ends_with_the_flurry():
    """The text does not say when a hold ends: by default with the flurry (or the grappler's fall)."""
    s = duel()
    fight(s)
    held(s)
    s.run("act", action="hold", actor="Borin")
    res = s.run("act", action="hold", actor="Grak")
    assert any(isinstance(e, FlurryEnded) for e in res.events)
    assert st(s, "Grak").restrict is None


def test_break_free_of_a_hold_with_a_strength_task():
    """The text gives no way out of a hold: `/act action:break` spends an action on 3d6 + Strength modifier against the Restrict level; a win frees."""
    s = duel()
    fight(s)
    held(s)
    s.run("attack", [5, 5, 4, 1, 1, 2], actor="Borin", target="Grak")  # Borin misses: Grak's attack
    res = s.run("act", [2, 3, 3], action="break", actor="Grak")  # 9: not over 10
    assert not res.events[0].roll.success and st(s, "Grak").restrict == 10 and st(s, "Grak").actions == 1
    res = s.run("act", [5, 3, 3], action="break", actor="Grak")  # 12: free
    assert res.events[0].roll.success and st(s, "Grak").restrict is None and st(s, "Grak").actions == 0
    assert s.enc.current == "Borin"


def test_break_is_for_the_held():
    """Only a held fighter with the attack breaks a hold."""
    s = duel()
    fight(s)
    assert "not held" in s.refused("act", [5, 5, 5], action="break", actor="Borin")


def test_an_entangling_hit_holds_as_a_grapple():
    """"A fighter may also attempt to disarm, subdue, entangle, tackle, or perform other maneuvers": the table has
    no entangling row, so `intent=entangle` takes the Grappling row (a light result: Restrict-10)."""
    s = duel()
    fight(s, borin="entangle")
    s.run("attack", [4, 4, 3, 4, 4, 3, 2, 2, 2], actor="Borin", target="Grak")
    assert (st(s, "Grak").restrict, st(s, "Grak").restrict_by) == (10, "Borin")
