"""The open system's diagonals, conditions that stop movement, and self-centred bursts (docs/systems/open.md)."""
from __future__ import annotations

from rules.errors import IllegalAction
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


def test_stunned_is_speed_0_and_the_refusal_says_to_end_the_turn() -> None:
    """"**stunned** (speed 0: it cannot move; no actions or reactions ...)": a stunned or paralysed combatant's move
    is refused, pointing to `/init next` only (it cannot attack either)."""
    for condition in ("stunned", "paralysed"):
        s = Scenario("open").add("Ann", f"hp=30 init=+60 {SWORD}", at="B5")
        s.add("Foe", f"hp=30 {SWORD}", at="J9", owner=None, side="foes")
        s.run("init_roll", [10, 1])
        s.run("effect_add", effect=condition, actor="Ann", rounds=2)
        text = s.refused("move", error=IllegalAction, actor="Ann", path="S S", gm=False)
        assert "speed 0" in text and "End the turn with `/init next`" in text and "Attack" not in text


def test_a_burst_without_range_is_centred_on_the_attacker() -> None:
    """"a burst with no range is around the attacker and leaves the attacker out: `/attack weapon:nova` with no target
    or cell, a `target` named changing nothing"; aiming it at another cell is refused, saying to leave `at` out."""
    nova = "weapons=nova:save=wis:12:2d8:psychic:area=burst10"
    for target in (None, "Far"):
        s = Scenario("open").add("Wiz", f"hp=20 init=+60 {nova}", at="C6")
        s.add("Gob", "hp=40", at="D6", owner=None, side="foes").add("Far", "hp=40", at="K6", owner=None, side="foes")
        s.run("init_roll", [10, 1, 2])
        res = s.run("attack", [4, 4, 1], actor="Wiz", weapon="nova", target=target)
        assert [e.caught for e in res.events if type(e).__name__ == "AreaStruck"] == [["Gob"]]
    s = Scenario("open").add("Wiz", f"hp=20 init=+60 {nova}", at="C6").add("Gob", "hp=40", at="D6", owner=None)
    s.run("init_roll", [10, 1])
    assert "Leave `at` out" in s.refused("attack", actor="Wiz", weapon="nova", options={"at": "D6"})


def test_ending_the_turn_of_one_a_condition_stops_from_acting_asks_nothing() -> None:
    """docs/commands.md (`/init next`): "asks Confirm / Cancel first if the combatant has done nothing yet in it and
    could: not for one that can take no action"; open.md: "**stunned** (... no actions or reactions ...)",
    "**paralysed** ... and **unconscious** (as stunned ...)"; a grappled one (speed 0) can still act: it is asked."""
    for condition in ("stunned", "paralysed", "unconscious"):
        s = Scenario("open").add("Borin", "hp=9 init=+0", at="B2").add("Alda", "hp=9 init=+0", at="D2")
        s.add("Orc", "hp=9 init=+0", at="J9", owner=None, side="foes")
        s.run("init_roll", [15, 10, 5])
        s.run("effect_add", effect=condition, actor="Alda", rounds=1)
        res = s.run("next", actor="Borin")
        assert s.enc.current == "Alda" and not s.system.untouched(s.enc, "Alda")
        begun = " ".join(s.text(res))
        assert f"**Alda**'s turn: it cannot act ({condition})" in begun and "one action" not in begun
    s = Scenario("open").add("Borin", "hp=9 init=+0", at="B2").add("Alda", "hp=9 init=+0", at="D2")
    s.add("Orc", "hp=9 init=+0", at="J9", owner=None, side="foes")
    s.run("init_roll", [15, 10, 5])
    s.run("effect_add", effect="grappled", actor="Alda", rounds=1)
    s.run("next", actor="Borin")
    assert s.system.untouched(s.enc, "Alda")
