"""The spendable-initiative turn procedure (`rules.turns.pool`), on plain entries."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules.turns.pool import (
    Entry,
    can_spend,
    gains,
    order,
    ready,
    round_over,
    up_next,
    waiting,
)


def test_highest_pool_acts_first_and_ties_follow_the_key() -> None:
    """The highest points act first; equal points go by the system's key (lower first)."""
    entries = [Entry("a", 3, key=(1,)), Entry("b", 5), Entry("c", 3, key=(0,)), Entry("d", None)]
    assert [e.name for e in ready(entries)] == ["b", "c", "a"]
    assert up_next(entries).name == "b"


def test_those_who_acted_wait_and_the_order_is_read_again() -> None:
    """After a spend the order is read again: the one who acted goes last, the next highest is up."""
    entries = [Entry("a", 1, acted=True), Entry("b", 2), Entry("c", 4)]
    assert order(entries) == ["c", "b", "a"] and [e.name for e in waiting(entries)] == ["c", "b"]
    entries = [Entry("a", 1, acted=True), Entry("b", 2), Entry("c", 0, acted=True)]
    assert up_next(entries).name == "b" and order(entries) == ["b", "a", "c"]


def test_the_round_ends_when_nobody_is_left_to_act() -> None:
    """A round is over when every ready entry acted or passed; nobody ready is not a finished round."""
    assert round_over([Entry("a", 3, acted=True), Entry("b", 0, acted=True), Entry("c", None)])
    assert not round_over([Entry("a", 3, acted=True), Entry("b", 0)])
    assert not round_over([Entry("c", None)])


def test_spending_needs_the_points() -> None:
    """An action costs points the pool has; free actions stay open at 0."""
    assert can_spend(3, 3) and not can_spend(2, 3) and can_spend(0, 0) and can_spend(None, 0)


def test_the_gain_step_adds_to_those_the_system_names() -> None:
    """The gain step adds ``amount`` to each ready entry the system calls eligible, and to nobody at 0."""
    entries = [Entry("a", 3), Entry("b", 1), Entry("c", None)]
    assert [(g.name, g.before, g.after) for g in gains(entries, 1, lambda e: e.name != "a")] == [("b", 1, 2)]
    assert gains(entries, 0, lambda e: True) == []


@given(st.lists(st.tuples(st.integers(0, 20), st.booleans()), max_size=12))
def test_order_holds_everyone_ready_once(pools: list[tuple[int, bool]]) -> None:
    """Property: the order names every ready entry once, those still to act first, by points."""
    entries = [Entry(f"n{i}", p, acted) for i, (p, acted) in enumerate(pools)]
    names = order(entries)
    assert sorted(names) == sorted(e.name for e in entries)
    left = [e for e in entries if not e.acted]
    assert names[: len(left)] == [e.name for e in waiting(entries)]
    points = [e.points for e in waiting(entries)]
    assert points == sorted(points, reverse=True)
