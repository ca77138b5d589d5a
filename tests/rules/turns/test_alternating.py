"""Alternating activation (`rules.turns.alternating`) on plain data: sides, counts, rolls."""
from __future__ import annotations

from rules.turns.alternating import (
    RollOff,
    interleave,
    next_turn,
    order_sides,
    rotation,
)


def test_the_side_with_most_goes_first() -> None:
    """Sides are ordered by the number the system gives, highest first."""
    assert order_sides({"a": 2, "b": 3, "c": 1}) == (["b", "a", "c"], [])


def test_ties_keep_the_joining_order_with_tie_join() -> None:
    """`tie="join"`: tied sides go in the order they joined, and nobody rolls."""
    rolled: list[str] = []
    order, rolls = order_sides({"a": 2, "b": 2}, "join", lambda s: rolled.append(s) or 6)
    assert (order, rolls, rolled) == (["a", "b"], [], [])


def test_ties_roll_off_highest_first_and_tied_results_roll_again() -> None:
    """`tie="roll"`: tied sides roll, highest first; a tie among them rolls again."""
    results = iter([3, 3, 1, 2, 5])  # a 3, b 3, c 1; then a 2, b 5
    order, rolls = order_sides({"a": 1, "b": 1, "c": 1}, "roll", lambda s: next(results))
    assert order == ["b", "a", "c"]
    assert rolls == [RollOff("a", 3), RollOff("b", 3), RollOff("c", 1), RollOff("a", 2), RollOff("b", 5)]


def test_endless_ties_stop_at_the_joining_order() -> None:
    """Dice that always tie (typed by hand) end after ten roll-offs, in joining order."""
    order, rolls = order_sides({"a": 1, "b": 1}, "roll", lambda s: 4)
    assert order == ["a", "b"] and len(rolls) == 20


def test_priority_passes_to_the_next_side_with_something_ready() -> None:
    """After `a`, priority goes to the next side round the order that has a combatant ready."""
    ready = {"a": True, "b": False, "c": True}
    nxt = next_turn(["a", "b", "c"], "a", lambda side, phase: ready[side])
    assert (nxt.side, nxt.passed, nxt.round_over) == ("c", ["b"], False)


def test_a_side_with_nothing_left_passes_and_the_same_side_may_go_again() -> None:
    """"A side with nothing left to activate passes": `a` acts again when `b` has nobody left."""
    nxt = next_turn(["a", "b"], "a", lambda side, phase: side == "a")
    assert (nxt.side, nxt.passed) == ("a", ["b"])


def test_only_standing_sides_are_said_to_pass() -> None:
    """A defeated side is passed over silently."""
    nxt = next_turn(["a", "b", "c"], "a", lambda side, phase: side == "c", standing=lambda s: s != "b")
    assert (nxt.side, nxt.passed) == ("c", [])


def test_the_round_is_over_when_nobody_has_anything_left() -> None:
    """When no side has a combatant ready, the round ends."""
    nxt = next_turn(["a", "b"], "b", lambda side, phase: False)
    assert nxt.round_over and nxt.side is None and nxt.passed == ["a"]


def test_phases_run_one_after_another_each_starting_with_the_first_side() -> None:
    """With several phases, an exhausted phase hands over to the next, led by the first side."""
    ready = {("a", 0): False, ("b", 0): False, ("a", 1): True, ("b", 1): True}
    nxt = next_turn(["a", "b"], "b", lambda side, phase: ready[(side, phase)], phase=0, phases=2)
    assert (nxt.side, nxt.phase) == ("a", 1)
    over = next_turn(["a", "b"], "a", lambda side, phase: False, phase=1, phases=2)
    assert over.round_over


def test_rotation_adds_sides_that_joined_since() -> None:
    """Sides that joined after the order was worked out come last."""
    assert rotation(["b", "a"], ["a", "b", "c"]) == ["b", "a", "c"]


def test_interleave_lists_activations_side_by_side() -> None:
    """The round's activations alternate sides while both have combatants."""
    assert interleave([["a1", "a2", "a3"], ["b1"]]) == ["a1", "b1", "a2", "a3"]
