"""The War & Combat task roll and catalogue defaults (shared/rules/README.md)."""
from __future__ import annotations

import pytest

from rules.dice import Dice
from rules.errors import SheetError
from rules.systems.war_and_combat.catalogue import armour, weapon
from rules.systems.war_and_combat.task import attribute_modifier, exceeds, task_roll


@pytest.mark.parametrize(
    "value, modifier",
    [(3, -3), (4, -2), (5, -2), (6, -1), (8, -1), (9, 0), (12, 0), (13, 1), (15, 1), (16, 2), (17, 2), (18, 3)],
)
def test_attribute_modifiers(value, modifier):
    """"attributes 3-18, modifier 3:-3, 4-5:-2, 6-8:-1, 9-12:0, 13-15:+1, 16-17:+2, 18:+3"."""
    assert attribute_modifier(value) == modifier


def test_plain_task_roll():
    """A roll of 4, 2, 5 is 11, with no reroll."""
    r = task_roll(Dice.fixed([4, 2, 5]))
    assert (r.total, r.dice, r.rerolls) == (11, (4, 2, 5), ())


def test_natural_18_rerolls_and_adds_the_excess_over_10():
    """"a natural 18 rerolls and adds the new roll minus 10, floored at 0": 18 then 14 is 22; 18 then 7 is 18."""
    assert task_roll(Dice.fixed([6, 6, 6, 5, 5, 4])).total == 22
    assert task_roll(Dice.fixed([6, 6, 6, 2, 2, 3])).total == 18


def test_natural_3_rerolls_and_subtracts_the_shortfall_below_10():
    """"a natural 3 rerolls and subtracts the shortfall below 10": 3 then 6 is -1; 3 then 12 is 3."""
    assert task_roll(Dice.fixed([1, 1, 1, 2, 2, 2])).total == -1
    assert task_roll(Dice.fixed([1, 1, 1, 4, 4, 4])).total == 3


def test_open_end_goes_on_after_another_18():
    """18, 18, 13: 18 + 8 + 3 = 29."""
    r = task_roll(Dice.fixed([6, 6, 6, 6, 6, 6, 6, 4, 3]))
    assert r.total == 29 and len(r.rerolls) == 2


def test_skew_dice_keep_the_best_or_worst_three():
    """"A high skew die = roll 4d6 keep the best 3; low skew die = keep the worst 3"."""
    assert task_roll(Dice.fixed([1, 5, 6, 2]), luck=1).total == 13
    assert task_roll(Dice.fixed([1, 5, 6, 2]), luck=-1).total == 8


def test_success_must_exceed():
    """"success needs to EXCEED the target": equal fails."""
    assert exceeds(14, 13) and not exceeds(13, 13)


def test_catalogue_lookups():
    """Weapons and armour by name as typed, armour as absorb/threshold; unknown names say what exists."""
    assert weapon("Two-Handed Sword").impact == 5 and weapon("polearm").polearm
    assert weapon("longbow").missile == 35
    assert (armour("Mail").absorb, armour("mail").threshold) == (3, 8)
    assert armour("4/9").threshold == 9
    with pytest.raises(SheetError, match="choose from"):
        weapon("banana")


def test_an_open_ended_attack_says_why_it_rolled_more_dice():
    """"a natural 18 rerolls and adds the new roll minus 10" (shared/rules/README.md): the attack's line says the
    second 3d6 were rolled again for the natural 18, and what their excess adds; no skew die, so nothing is kept."""
    from tests.rules.war_and_combat.build import duel, fight

    s = duel(borin="skills=broadsword:9")
    fight(s)
    res = s.run("attack", [6, 6, 6, 5, 6, 6, 4, 4, 3, 2, 2, 2, 3, 3, 6, 1, 3], actor="Borin", target="Grak")
    line = s.text(res)[0]
    assert "(3d6, then 3d6 again for the natural 18) +7 natural 18: the excess over 10 of the 3d6 rolled again" in line
    assert "keep" not in line
