"""TOTE: the skill test (best skill die + Paragon die vs a target)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import Dice
from rules.events import mod
from rules.systems.tote import skill_test


# -- the skill test ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("plain", "paragon", "target", "bonus", "barred", "kept", "total", "successes", "critical"),
    [
        ([2, 5, 3], 4, 8, 0, (), 5, 9, 1, False),  # keep the best, add the Paragon die
        ([6, 5, 1], 3, 8, 0, (), 6, 9, 2, False),  # 5 + 3 also meets 8: one more success
        ([6, 6, 6], 2, 8, 0, (), 6, 8, 3, False),  # every other die meets it too
        ([2, 1], 3, 8, 0, (), 2, 5, 0, False),  # failure: no successes
        ([4, 2], 4, 8, 0, (), 4, 8, 2, True),  # kept die = Paragon die: a critical adds a success
        ([3, 3], 3, 12, 0, (), 3, 6, 0, True),  # a critical on a failure changes nothing
        ([], 6, 8, 2, (), None, 8, 1, False),  # skill 0: only the Paragon die and the bonus
        ([5, 4, 2], 3, 8, 0, (5, 4), 2, 5, 0, False),  # filled boxes 5 and 4 bar those faces
        ([5, 5], 5, 8, 0, (5,), None, 5, 0, False),  # the Paragon die always counts, even a 5
        ([3, 1], 4, 8, 1, (), 3, 8, 1, False),  # a bonus counts for the total and the extra dice
    ],
)
def test_skill_test_table(plain, paragon, target, bonus, barred, kept, total, successes, critical) -> None:
    """A skill test keeps one keepable plain die, adds the Paragon die and bonuses, and counts successes."""
    mods = [mod("bonus", bonus)] if bonus else []
    r = skill_test(Dice.fixed([*plain, paragon]), len(plain), target, mods, barred=frozenset(barred))
    assert (r.kept, r.total, r.successes, r.critical) == (kept, total, successes, critical)
    assert r.dice == plain and r.paragon == paragon


def test_keep_option_picks_a_lower_die_for_a_critical() -> None:
    """`keep=N` keeps the chosen face: here a 5 matching the Paragon 5 gives a critical."""
    best = skill_test(Dice.fixed([5, 6, 2, 5]), 3, 8)
    chosen = skill_test(Dice.fixed([5, 6, 2, 5]), 3, 8, keep=5)
    assert (best.kept, best.successes, best.critical) == (6, 2, False)
    assert (chosen.kept, chosen.total, chosen.successes, chosen.critical) == (5, 10, 3, True)


def test_keep_option_for_a_face_not_rolled_keeps_the_best_and_says_so() -> None:
    """Asking to keep a face that was not rolled (or is barred) keeps the best instead, with a note."""
    r = skill_test(Dice.fixed([2, 6, 3]), 2, 8, keep=4)
    assert r.kept == 6 and r.keep_missing == 4


def test_given_dice_are_plain_first_then_paragon() -> None:
    """With `roll:`, the plain dice come first in the order given and the Paragon die last."""
    dice = Dice.fixed([1, 2, 3, 6])
    r = skill_test(dice, 3, 8)
    assert r.dice == [1, 2, 3] and r.paragon == 6 and dice.values() == [1, 2, 3, 6]


def test_extra_successes_and_criticals_are_gm_options() -> None:
    """`extra_successes=no` caps successes at one; `critical_successes=0` turns criticals off."""
    assert skill_test(Dice.fixed([6, 6, 2]), 2, 8, extra_successes=False).successes == 1
    assert skill_test(Dice.fixed([4, 2, 4]), 2, 8, critical_successes=0).successes == 1


@given(
    plain=st.lists(st.integers(1, 6), max_size=5),
    paragon=st.integers(1, 6),
    target=st.integers(2, 16),
    bonus=st.integers(-3, 3),
    barred=st.sets(st.integers(1, 6)),
)
def test_skill_test_properties(plain: list[int], paragon: int, target: int, bonus: int, barred: set[int]) -> None:
    """Property: the kept die is the best keepable one; successes are 0 exactly when the total misses."""
    mods = [mod("bonus", bonus)] if bonus else []
    r = skill_test(Dice.fixed([*plain, paragon]), len(plain), target, mods, barred=frozenset(barred))
    keepable = [d for d in plain if d not in barred]
    assert r.kept == max(keepable, default=None)
    assert r.total == (r.kept or 0) + paragon + bonus
    assert (r.successes == 0) == (r.total < target)
    assert r.successes <= len(keepable) + 1 + int(r.critical)


