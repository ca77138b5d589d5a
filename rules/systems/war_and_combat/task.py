"""The War & Combat task roll (shared/rules/README.md defaults): 3d6, open-ended both ways, with
skew dice; the attribute modifier. Every roll of the system goes through :func:`task_roll`."""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.dice import Dice

__all__ = ["TaskRoll", "task_roll", "skew", "attribute_modifier", "exceeds"]

#: attribute -> modifier: 3:-3, 4-5:-2, 6-8:-1, 9-12:0, 13-15:+1, 16-17:+2, 18:+3
_MODIFIERS = ((3, -3), (5, -2), (8, -1), (12, 0), (15, 1), (17, 2), (18, 3))


def attribute_modifier(value: int) -> int:
    """The modifier of an attribute from 3 to 18 (values outside are read as 3 or 18)."""
    for top, modifier in _MODIFIERS:
        if value <= top:
            return modifier
    return 3


def skew(good: int, bad: int) -> int:
    """Luck dice after good and bad cancel one for one: +n high skew dice, -n low, 0 none."""
    return good - bad


@dataclass(frozen=True)
class TaskRoll:
    """One task roll: the dice as rolled (in order), the kept three, and the open-ended total.

    ``dice`` lists every die rolled, rerolls included; ``kept`` the three of the first throw
    kept after skew dice; ``extra`` the open-ended adjustment (+ after an 18, - after a 3).
    """

    dice: tuple[int, ...]
    kept: tuple[int, ...]
    extra: int = 0
    rerolls: tuple[tuple[int, ...], ...] = field(default=())

    @property
    def natural(self) -> int:
        return sum(self.kept)

    @property
    def total(self) -> int:
        """The roll's value before skill and modifiers: the kept three plus the open end."""
        return self.natural + self.extra


def task_roll(dice: Dice, luck: int = 0, open_ended: bool = True) -> TaskRoll:
    """Roll 3d6 for a task: ``luck`` > 0 rolls that many extra dice and keeps the best three
    (high skew), < 0 the worst three (low skew). Open-ended: a natural 18 rerolls 3d6 and adds
    the new roll minus 10 (at least 0); a natural 3 rerolls and subtracts the shortfall below
    10 (at least 0). A reroll of 18 (or 3) goes on the same way. ``open_ended=False``: the 3d6 alone."""
    first = dice.roll(3 + abs(luck), 6)
    ordered = sorted(first, reverse=luck > 0)
    kept = tuple(ordered[:3]) if luck else tuple(first)
    extra = 0
    rerolls: list[tuple[int, ...]] = []
    natural = sum(kept)
    if open_ended and natural in (3, 18):
        high = natural == 18
        while True:
            again = tuple(dice.roll(3, 6))
            rerolls.append(again)
            extra += max(0, sum(again) - 10) if high else -max(0, 10 - sum(again))
            if sum(again) != (18 if high else 3):
                break
    every = tuple(first) + tuple(d for r in rerolls for d in r)
    return TaskRoll(dice=every, kept=kept, extra=extra, rerolls=tuple(rerolls))


def exceeds(total: int, target: int) -> bool:
    """War & Combat's success: the total must EXCEED the target (a tie fails)."""
    return total > target
