"""Alternating activation: sides take turns activating one combatant at a time.

The procedure, system-neutral and on plain data (names, sides, numbers):

- at the start of each round the order of sides is worked out by a number the system supplies
  per side (Coup-De-Grace: its minis in the battle), most first; ties go to a roll-off (highest
  first, tied results roll again) or to the joining order (:func:`order_sides`);
- priority passes round that order to the next side with something left to activate; a side
  with nothing left passes (:func:`next_turn`);
- a round may have several phases (a damage-grid round alternates within each phase): when no
  side has anything left in a phase, the next phase begins with the first side; after the last
  phase the round is over;
- :func:`interleave` lists the round's activations side by side, for the board.

It knows nothing of encounters or dice: the caller passes ``ready(side, phase)`` and a
``roll(side)`` function.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import zip_longest

__all__ = ["RollOff", "Next", "order_sides", "rotation", "next_turn", "after_removal", "interleave", "MAX_ROLL_OFFS"]

#: after this many tied roll-offs in a row the joining order decides (dice given by hand can tie forever)
MAX_ROLL_OFFS = 10


@dataclass(frozen=True)
class RollOff:
    """One side's die in a roll-off for the order of sides."""

    side: str
    value: int


def order_sides(
    counts: Mapping[str, int],
    tie: str = "roll",
    roll: Callable[[str], int] | None = None,
) -> tuple[list[str], list[RollOff]]:
    """The sides in ``counts`` (in joining order), highest count first.

    Sides with the same count keep their joining order (``tie="join"``) or roll off with
    ``roll(side)`` (``tie="roll"``): highest first, tied results roll again.
    """
    order: list[str] = []
    rolls: list[RollOff] = []
    for count in sorted(set(counts.values()), reverse=True):
        group = [s for s in counts if counts[s] == count]
        if len(group) > 1 and tie == "roll" and roll is not None:
            group = _roll_off(group, roll, rolls, 0)
        order += group
    return order, rolls


def _roll_off(sides: list[str], roll: Callable[[str], int], rolls: list[RollOff], depth: int) -> list[str]:
    if depth >= MAX_ROLL_OFFS:
        return sides
    values = {s: roll(s) for s in sides}
    rolls += [RollOff(s, v) for s, v in values.items()]
    out: list[str] = []
    for value in sorted(set(values.values()), reverse=True):
        tied = [s for s in sides if values[s] == value]
        out += _roll_off(tied, roll, rolls, depth + 1) if len(tied) > 1 else tied
    return out


def rotation(stored: Sequence[str], sides: Sequence[str]) -> list[str]:
    """The round's order of sides, with sides that joined since it was worked out at the end."""
    return [*stored, *(s for s in sides if s not in stored)]


@dataclass(frozen=True)
class Next:
    """Where priority goes: ``side`` in ``phase`` (None: the round is over); ``passed`` are the
    sides passed over because they had nothing left to activate."""

    side: str | None
    phase: int = 0
    passed: list[str] = field(default_factory=list)

    @property
    def round_over(self) -> bool:
        return self.side is None


def next_turn(
    order: Sequence[str],
    after: str | None,
    ready: Callable[[str, int], bool],
    phase: int = 0,
    phases: int = 1,
    standing: Callable[[str], bool] | None = None,
) -> Next:
    """The next side after ``after`` (None: from the first) with something ``ready`` in
    ``phase``; when none has, the first ready side of a later phase; else the round is over.

    ``passed`` lists the sides passed over in the phase where priority lands (only those still
    ``standing``, and never ``after`` itself): "a side with nothing left to activate passes".
    """
    passed: list[str] = []
    if not order:
        return Next(None, phase, passed)
    start = order.index(after) + 1 if after in order else 0
    for p in range(phase, phases):
        passed = []
        for i in range(len(order)):
            side = order[(start + i) % len(order)]
            if ready(side, p):
                return Next(side, p, passed)
            if side != after and (standing is None or standing(side)):
                passed.append(side)
        start = 0
    return Next(None, phases - 1, passed)


def after_removal(side: str | None, activating: bool, idle: bool, priority: str | None,
                  left: Callable[[str], bool]) -> tuple[bool, str | None]:
    """A combatant of ``side`` left a fight under way: whether priority passes on, and after which side.
    It passes from ``side`` when the combatant was ``activating`` (that activation is used, as if it had
    ended); else, with nobody activating (``idle``), from the side with ``priority`` when that side has
    nothing ``left`` to activate."""
    if activating:
        return True, side
    return idle and priority is not None and not left(priority), priority


def interleave(pools: Sequence[Sequence[str]]) -> list[str]:
    """``[[a1, a2], [b1]]`` -> ``[a1, b1, a2]``: the activations side by side, in the order of sides."""
    return [name for group in zip_longest(*pools) for name in group if name is not None]
