"""Spendable initiative: a turn procedure where initiative is a pool of points.

Actions cost points; the highest pool acts first and the order is read again after every
spend; ties are broken by a key the system supplies (lower first). Each combatant takes one
action a round or passes (keeping its points); the round ends when nobody is left to act, and
a gain step at the start of each round adds points to those the system names.

It works on :class:`Entry` values the system builds from its combatants (name, points, whether
it acted this round, its tie key); it changes nothing itself: the system applies the results.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["Entry", "Gain", "ready", "waiting", "up_next", "order", "round_over", "can_spend", "gains"]


class Entry(NamedTuple):
    """One combatant in the pool: ``points`` None means it has no initiative yet (not ready).
    A named tuple, not a frozen dataclass: the pool is built several times an action."""

    name: str
    points: int | None
    acted: bool = False
    #: the system's tie-break, compared after the points (lower acts first)
    key: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Gain:
    name: str
    before: int
    after: int


def _acting_order(e: Entry) -> tuple[int, tuple[Any, ...]]:
    return -(e.points or 0), e.key


def ready(entries: Iterable[Entry]) -> list[Entry]:
    """Entries with points, highest first, ties by the system's key."""
    return sorted((e for e in entries if e.points is not None), key=_acting_order)


def waiting(entries: Iterable[Entry]) -> list[Entry]:
    """Ready entries that have not acted this round, in acting order (those left out before the sort: it is stable)."""
    return sorted((e for e in entries if e.points is not None and not e.acted), key=_acting_order)


def up_next(entries: Iterable[Entry]) -> Entry | None:
    """Who acts now: the highest pool among those still to act."""
    left = waiting(entries)
    return left[0] if left else None


def order(entries: Sequence[Entry]) -> list[str]:
    """Names in acting order: those still to act, then those that acted."""
    sorted_ = ready(entries)
    return [e.name for e in sorted_ if not e.acted] + [e.name for e in sorted_ if e.acted]


def round_over(entries: Sequence[Entry]) -> bool:
    """True when someone has points and nobody is left to act."""
    return bool(ready(entries)) and not waiting(entries)


def can_spend(points: int | None, cost: int) -> bool:
    return cost <= (points or 0)


def gains(entries: Iterable[Entry], amount: int, eligible: Callable[[Entry], bool]) -> list[Gain]:
    """The gain step at the start of a round: ``amount`` points for each ready entry ``eligible`` names."""
    if amount <= 0:
        return []
    return [Gain(e.name, e.points or 0, (e.points or 0) + amount) for e in ready(entries) if eligible(e)]
