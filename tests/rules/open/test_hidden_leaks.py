"""What players read of a hidden combatant in the open system: no refusal, map shading or turn line tells its
numbers (docs/commands.md, "Hidden information"; docs/systems/open.md)."""
from __future__ import annotations

import random

import pytest

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import DiceError
from tests.scenario import Scenario


def probe(typed: list[int]) -> str:
    """Ann (the player's, longsword +5, 1d8+3) types ``typed`` for an attack on Grak (AC 13, the GM's); the
    refusal's text, or "" when accepted."""
    s = Scenario("open").add("Ann", "hp=20 init=+30 weapons=longsword:+5:1d8+3:slashing", at="B2")
    s.add("Grak", "hp=15 ac=13", at="C2", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    dice = Dice(rng=random.Random(1), given=typed, may_type=frozenset({"Ann"}))
    action = make_action("attack", is_gm=False, actor="Ann", target="Grak", weapon="longsword")
    try:
        s.system.resolve(s.enc, action, dice)
    except DiceError as refused:
        return str(refused)
    return ""


def test_typed_damage_dice_never_tell_a_hidden_ac() -> None:
    """"damage dice typed for an attack that misses are left unused, not refused, so whether `roll:` is accepted
    never tells the AC": 12 (a miss) and 13 (a hit) against AC 13 are accepted or refused alike."""
    assert probe([7, 1]) == probe([8, 1]) == ""
    assert probe([7]) == probe([8]) == ""
    refused = probe([7, 1, 1])
    assert refused and refused == probe([8, 1, 1])
    assert "at most 2" in refused


@pytest.mark.parametrize("kept", [7, 8])
def test_a_helpless_targets_doubled_dice_tell_nothing_either(kept: int) -> None:
    """A hit from within 5 ft on a helpless target doubles the dice: typing them is accepted on a miss too."""
    s = Scenario("open").add("Ann", "hp=20 init=+30 weapons=longsword:+5:1d8+3:slashing", at="B2")
    s.add("Grak", "hp=15 ac=13", at="C2", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    s.run("effect_add", name="paralysed", actor="Grak", rounds=3)
    dice = Dice(rng=random.Random(1), given=[kept, 1, 1], may_type=frozenset({"Ann"}))
    s.system.resolve(s.enc, make_action("attack", is_gm=False, actor="Ann", target="Grak", weapon="longsword"), dice)
