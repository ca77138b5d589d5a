"""The open system's diagonals, conditions that stop movement, and self-centred bursts (docs/systems/open.md)."""
from __future__ import annotations

from rules.systems.open.events import OpenAttack
from tests.scenario import Scenario

SWORD = "weapons=longsword:+5:1d8+3:slashing"


def test_ten_foot_diagonals_leave_a_diagonal_neighbour_within_reach() -> None:
    """"`10` changes only what moving costs, so a diagonal neighbour is always within 5 ft": Ann hits Foe on her
    diagonal, and stepping away from it provokes its opportunity attack; the step still costs 10 ft."""
    s = Scenario("open", diagonals="10").add("Ann", f"hp=30 init=+60 {SWORD}", at="E5")
    s.add("Foe", f"hp=300 {SWORD}", at="F6", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    res = s.run("attack", [15, 4], actor="Ann", target="Foe", weapon="longsword")
    assert any(isinstance(e, OpenAttack) for e in res.events)
    res = s.run("move", [15, 4], actor="Ann", path="W")
    assert any(isinstance(e, OpenAttack) and e.opportunity for e in res.events)
    s = Scenario("open", diagonals="10").add("Ann", f"hp=30 init=+60 {SWORD}", at="E5")
    s.add("Foe", f"hp=300 {SWORD}", at="J9", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    s.run("move", actor="Ann", path="SE SE")
    assert s.get("Ann").state.feet_spent == 20
