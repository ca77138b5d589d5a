"""The knock-down (Mode) test.

"If the target suffers a Mind or Health injury it may be knocked down. The model must make a
Mode test with the difficultly based on the factor of damage taken to Health remaining. ...
Less than dead: Difficult 3. Meena has a starting Health of 3. An attack reduced her Health to
1. A 66% reduction fits under the ¾ or less category and Meena must get 2 or more facings on a
Mind test or will fall over."

The rest of the table is lost; the project's default (shared/rules/README.md): by the share of
Health lost to this attack's total damage, 1/4 or less no test; 1/2 or less difficulty 1; 3/4
or less difficulty 2; more than 3/4 but alive difficulty 3. Roll one d6 per point of current
Mind (at least 1); the test is passed if the largest group of equal faces is at least the
difficulty. Readings chosen: the share is of the Health the model had before this attack (the
example's "starting Health"), and Mind is counted after the attack's damage; a model killed by
the attack makes no test ("Less than dead"), and an injury to Mind alone loses no Health, so
it needs no test.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rules.dice import Dice

__all__ = ["ModeTest", "mode_difficulty", "largest_group", "mode_test"]

#: (largest share of Health lost, difficulty), checked in order; above the last: 3
_STEPS = ((Fraction(1, 4), 0), (Fraction(1, 2), 1), (Fraction(3, 4), 2))


def mode_difficulty(health_before: int, health_lost: int) -> int:
    """The test's difficulty for losing ``health_lost`` of ``health_before`` (0: no test)."""
    if health_before <= 0 or health_lost <= 0 or health_lost >= health_before:
        return 0
    share = Fraction(health_lost, health_before)
    return next((difficulty for top, difficulty in _STEPS if share <= top), 3)


def largest_group(faces: Sequence[int]) -> int:
    """How many dice show the most common face (0 for no dice)."""
    return max(Counter(int(f) for f in faces).values(), default=0)


@dataclass(frozen=True)
class ModeTest:
    """A Mode test rolled: the dice, the largest group of equal faces, the difficulty, passed or not."""

    dice: tuple[int, ...]
    best: int
    difficulty: int

    @property
    def passed(self) -> bool:
        return self.best >= self.difficulty


def mode_test(dice: Dice, health_before: int, health_lost: int, mind: int) -> ModeTest | None:
    """Roll the knock-down test after an attack (None when the loss needs none): one d6 per point
    of ``mind`` (the current Mind, at least 1)."""
    difficulty = mode_difficulty(health_before, health_lost)
    if not difficulty:
        return None
    rolled = tuple(dice.roll(max(mind, 1), 6))
    return ModeTest(rolled, largest_group(rolled), difficulty)
