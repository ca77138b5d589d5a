"""The knock-down (Mode) test by the project's default table, with fixed dice."""
from __future__ import annotations

import pytest

from rules.dice import Dice
from rules.errors import DiceError
from rules.systems.damage_grid.mode import (
    ModeTest,
    largest_group,
    mode_difficulty,
    mode_test,
)


@pytest.mark.parametrize(
    "before, lost, difficulty",
    [(4, 0, 0), (4, 1, 0), (8, 2, 0), (4, 2, 1), (3, 1, 1), (8, 3, 1), (3, 2, 2), (4, 3, 2), (8, 7, 3), (9, 7, 3),
     (3, 3, 0), (3, 5, 0), (0, 1, 0)],
)
def test_difficulty_by_share_of_health_lost(before, lost, difficulty):
    """1/4 or less no test; 1/2 or less 1; 3/4 or less 2; "Less than dead: Difficult 3"; dead: no test."""
    assert mode_difficulty(before, lost) == difficulty


def test_meenas_66_percent_needs_two_matching_faces():
    """"starting Health of 3 ... reduced her Health to 1. A 66% reduction fits under the ¾ or less category and Meena
    must get 2 or more facings": with Mind 2, 4 and 4 pass, 4 and 5 fail."""
    passed = mode_test(Dice.fixed([4, 4]), 3, 2, mind=2)
    failed = mode_test(Dice.fixed([4, 5]), 3, 2, mind=2)
    assert passed == ModeTest((4, 4), 2, 2) and passed.passed
    assert failed is not None and failed.difficulty == 2 and failed.best == 1 and not failed.passed


def test_one_die_per_point_of_mind():
    """Mind 3 rolls three dice; the largest group of equal faces counts."""
    t = mode_test(Dice.fixed([2, 6, 2]), 8, 7, mind=3)
    assert t is not None and t.dice == (2, 6, 2) and t.best == 2 and t.difficulty == 3 and not t.passed


def test_at_least_one_die():
    """Mind 0 still rolls one die, which passes difficulty 1."""
    t = mode_test(Dice.fixed([5]), 4, 2, mind=0)
    assert t is not None and t.dice == (5,) and t.passed


def test_no_test_rolls_no_dice():
    """A loss of 1/4 or less rolls nothing: a given die is left over."""
    dice = Dice.fixed([3])
    assert mode_test(dice, 4, 1, mind=2) is None
    with pytest.raises(DiceError):
        dice.check_all_used()


def test_largest_group():
    """The largest group of equal faces; no dice, 0."""
    assert largest_group([1, 3, 3, 6, 3, 1]) == 3 and largest_group([]) == 0
