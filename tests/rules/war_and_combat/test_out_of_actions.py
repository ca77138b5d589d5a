"""Running out of actions: the opponent with actions left presses the actionless back, or withdraws."""
from __future__ import annotations

from rules.events import Moved
from tests.rules.war_and_combat.build import duel, fight, near, st, wac


def test_drive_presses_the_actionless_back_a_step_per_action():
    """"If he disengages whilst his opponent still has actions, he must retreat one step for every action his opponent wishes to press"."""
    s = duel()
    fight(s)
    st(s, "Grak").actions = 0
    grak_at = s.get("Grak").position
    res = s.run("act", action="drive", actor="Borin", target="Grak")
    assert [e.actor for e in res.events if isinstance(e, Moved)] == ["Grak", "Borin"]
    assert s.get("Grak").position == near(s, grak_at, "SE") and s.get("Borin").position == grak_at
    assert st(s, "Borin").actions == 2 and s.enc.current == "Borin"


def test_withdraw_steps_away_from_the_actionless():
    """"Alternatively, the opponent may wish to withdraw as many steps as he has actions and the actionless fighter must hold"."""
    s = duel()
    fight(s)
    st(s, "Grak").actions = 0
    s.run("act", action="withdraw", actor="Borin", target="Grak")
    assert s.get("Borin").position == near(s, "D4", "NW") and s.get("Grak").position == near(s, "D4", "SE")
    assert st(s, "Borin").actions == 2


def test_drive_and_withdraw_need_an_actionless_opponent():
    """Both are for an opponent out of actions: one with actions left is attacked or held against instead."""
    s = duel()
    fight(s)
    assert "Grak still has 2 action(s)" in s.refused("act", action="drive", actor="Borin", target="Grak")
    assert "Grak still has 2 action(s)" in s.refused("act", action="withdraw", actor="Borin", target="Grak")


def test_a_drive_into_a_wall_pins_at_once():
    """"blocked by an impassible obstacle, then the attacker receives one extra action (for that flurry only) and the defender is penalized -1 to defense"."""
    from rules.systems.war_and_combat.attacks import defense
    from tests.rules.war_and_combat.build import BORIN, GRAK

    s = wac(blocked=("F5",))
    s.add("Borin", BORIN, side="dwarves", at="D4", facing="SE")
    s.add("Grak", GRAK, side="orcs", at="E5", facing="NW", owner=None)
    fight(s)
    st(s, "Grak").actions = 0
    s.run("act", action="drive", actor="Borin", target="Grak")
    assert s.get("Grak").position == "E5" and st(s, "Borin").actions == 3
    pin = next(e for e in s.enc.effects if e.code == "pinned")
    assert pin.left == 1  # this flurry's: it ends with the round
    grid, opts = s.enc.grid(), s.system.option_values(s.enc)
    assert defense(s.enc, opts, grid, s.get("Grak"), s.get("Borin"))[0] == 13 - 1


def test_a_held_fighter_checks_restrict_before_a_drive():
    """Restrict: "before attempting any action": a failed check loses the drive's action and nobody moves."""
    s = duel()
    fight(s)
    st(s, "Borin").restrict, st(s, "Borin").restrict_by = 16, "Grak"
    st(s, "Grak").actions = 0
    res = s.run("act", [2, 3, 3], action="drive", actor="Borin", target="Grak")
    assert res.events[0].what == "restrict-16" and not any(isinstance(e, Moved) for e in res.events)
    assert st(s, "Borin").actions == 2 and s.get("Grak").position == near(s, "D4", "SE")


def test_a_players_refused_drive_says_nothing_of_a_hidden_foes_count_and_the_gms_gives_it():
    """"A character may perform a limited number of actions in a flurry, equal to 2, +1 every fifth Fighter rank": a
    hidden fighter's count follows its hidden rank, so a player's refused drive against it reads the same whatever the
    count (only that it is not out of actions, which the table sees: "When he runs out of actions, he must
    disengage"); the GM's refusal gives the count."""
    said = []
    for left in (1, 2):
        s = duel()
        fight(s)
        st(s, "Grak").actions = left
        said.append(s.refused("act", action="drive", actor="Borin", target="Grak", gm=False))
        assert f"Grak still has {left} action(s)" in s.refused("act", action="withdraw", actor="Borin", target="Grak")
    assert said[0] == said[1] and not any(ch.isdigit() for ch in said[0]) and "not out of actions" in said[0]
