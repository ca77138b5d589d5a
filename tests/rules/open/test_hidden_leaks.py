"""What players read of a hidden combatant in the open system: no refusal, map shading or turn line tells its
numbers (docs/commands.md, "Hidden information"; docs/systems/open.md)."""
from __future__ import annotations

import random

import pytest

from rules.actions import make_action
from rules.dice import Dice
from rules.errors import DiceError
from rules.events import Moved
from rules.hidden import for_reader, players_see
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
    s.run("effect_add", effect="paralysed", actor="Grak", rounds=3)
    dice = Dice(rng=random.Random(1), given=[kept, 1, 1], may_type=frozenset({"Ann"}))
    s.system.resolve(s.enc, make_action("attack", is_gm=False, actor="Ann", target="Grak", weapon="longsword"), dice)


def mage() -> Scenario:
    """The GM's hidden Mage (reach 10, speed 40) acts first; Ann is the player's."""
    s = Scenario("open").add("Ann", "hp=30 init=+0", at="A5")
    s.add("Mage", "hp=50 init=+60 reach=10 speed=40 weapons=staff:+4:1d6:bludgeoning", at="J5", owner=None, side="foes")
    s.run("init_roll", [10, 10])
    return s


def test_the_map_shades_no_hidden_reach() -> None:
    """docs/commands.md, "Shading": "Shading drawn from a hidden combatant's numbers (its reach, its weapons) is left
    out: the picture is posted to everyone"; once revealed, its 10 ft reach is shaded."""
    s = mage()
    assert [h for h in s.system.highlights(s.enc) if h.kind == "reach"] == []
    s.enc.settings.reveal = True
    assert len([h for h in s.system.highlights(s.enc) if h.kind == "reach"]) == 24


def test_a_hidden_combatants_turn_does_not_end_by_itself() -> None:
    """docs/commands.md, "Turns that end by themselves": "A hidden combatant's turn ... does not end by itself, since
    that would tell its movement"; a shown one's does."""
    s = mage()
    s.run("move", actor="Mage", path="W W W W W W W W")
    res = s.run("attack", [15, 3], actor="Mage", target="Ann", weapon="staff")
    assert s.enc.current == "Mage" and not any(type(e).__name__ == "TurnDone" for e in res.events)
    s = mage()
    s.enc.settings.reveal = True
    s.run("move", actor="Mage", path="W W W W W W W W")
    s.run("attack", [15, 3], actor="Mage", target="Ann", weapon="staff")
    assert s.enc.current == "Ann"


def test_the_turn_line_tells_players_nothing_of_a_hidden_combatants_movement() -> None:
    """docs/commands.md, "Hidden information": a hidden combatant's movement is its number; the turn line players
    read says whose turn it is, whether the Mage has moved 20 ft or all 40."""
    seen = []
    for path in ("W W W W", "W W W W W W W W"):
        s = mage()
        s.run("move", actor="Mage", path=path)
        line = s.system.present.turn_line(s.enc, s.system.facts(s.enc))
        seen.append(for_reader(line, players_see(s.enc)))
        assert "ft" in for_reader(line, lambda name: True) or "action left" in for_reader(line, lambda name: True)
    assert seen[0] == seen[1] == "Round 1 · Mage to act"


def test_massive_damage_on_a_hidden_combatant_tells_players_only_that_it_is_out() -> None:
    """A hidden combatant's hit point maximum is its number: killed outright by massive damage ("what is left over
    equals or exceeds its hit point maximum", docs/systems/open.md), players read that it is out, not why."""
    s = Scenario("open", gm_at_zero="down").add("Ann", "hp=20 init=+30 weapons=maul:+5:6d6:bludgeoning", at="B2")
    s.add("Grak", "hp=5 ac=5", at="C2", owner=None, side="foes")
    s.run("init_roll", [10, 1])
    res = s.run("attack", [15, 6, 6, 6, 6, 6, 6], actor="Ann", target="Grak", weapon="maul")
    assert s.get("Grak").status == "out"
    lines = s.system.present.view(s.enc, s.enc.hidden_names()).report("", res.events).lines
    players = [for_reader(line, players_see(s.enc)) for line in lines]
    gm = [for_reader(line, lambda name: True) for line in lines]
    assert any("massive damage" in line for line in gm)
    assert not any("massive" in line or "maximum" in line for line in players)
    assert any("**Grak** is now **out**" in line for line in players)


def test_a_typed_damage_die_is_checked_alike_on_a_hit_and_a_miss() -> None:
    """The damage die a player types is checked against its faces whether the attack hits or misses, so no refusal
    tells the AC: a 9 for the longsword's d8 is refused after a 12 (a miss against AC 13) as after a 13 (a hit)."""
    refused = probe([7, 9])
    assert refused == probe([8, 9]) and "cannot come from a d8" in refused
    assert probe([7, 8]) == probe([8, 8]) == ""


def test_knights_of_valour_tells_players_nothing_of_a_hidden_combatants_movement() -> None:
    """Knights of Valour's replies and turn line for the GM's hidden Grak read alike to players whether his move used
    some of his movement or all of it (docs/commands.md, "Hidden information")."""
    seen = []
    for path in ("W W", "W W W W W"):
        s = Scenario("knights-of-valour").add("Ann", "str=1 agi=-3 hp=12 weapons=longsword:2", at="A5")
        s.add("Grak", "str=2 agi=3 hp=9 move=25 weapons=greataxe:2", at="J5", owner=None, side="foes")
        s.run("init_roll")
        assert s.enc.current == "Grak", s.enc.current
        res = s.run("move", actor="Grak", path=path)
        view = s.system.present.view(s.enc, s.enc.hidden_names())
        lines = [*view.report("", res.events).lines, view.turn_line(s.enc, s.system.facts(s.enc))]
        seen.append([for_reader(line, players_see(s.enc)).replace(path.replace(" ", ""), "") for line in lines[-2:]])
    assert seen[0] == seen[1]


def test_move_to_plans_around_a_hidden_hostile_as_if_its_reach_were_the_default() -> None:
    """`/move to:` avoids opportunity attacks as players could: a hidden hostile's reach is its number, so the path
    chosen is the same whether the GM's hidden Ogre reaches 5 ft or 10 ft (docs/commands.md, "Hidden information")."""
    paths = []
    for reach in (5, 10):
        s = Scenario("open", map="10x5").add("Ann", "hp=30 init=+30 speed=60", at="A3")
        s.add("Ogre", f"hp=50 reach={reach} weapons=club:+4:1d6:bludgeoning", at="D3", owner=None, side="foes")
        s.run("init_roll", [10, 1])
        res = s.system.resolve(s.enc, make_action("move", actor="Ann", to="G3", is_gm=True), Dice(rng=random.Random(1)))
        steps = [step for e in res.events if isinstance(e, Moved) for step in e.path]
        paths.append([x for i, x in enumerate(steps) if i == 0 or steps[i - 1] != x])  # an interrupted move goes on
    assert paths[0] == paths[1]
