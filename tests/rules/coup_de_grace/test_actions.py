"""Coup-De-Grace `/act` actions: the declared table, dramatic recovery's legality, spells from Mage Foci."""
from __future__ import annotations

from rules.systems.coup_de_grace.events import Cast
from tests.rules.coup_de_grace.build import KEY, SWORD, SYSTEM
from tests.scenario import Scenario


def _mage(**options: str) -> Scenario:
    s = Scenario(KEY, map="8x6", tie="join", **options)
    s.add("M", "class=unarmoured weapons=staff", side="a", at="A3", facing="E")
    s.add("T", SWORD, side="b", at="E3", facing="W")
    s.run("init_roll")
    s.run("init_order", order="a")
    return s


def _cast(s: Scenario, **fields: object) -> Cast:
    return next(e for e in s.run("act", action="cast", actor="M", **fields).events if isinstance(e, Cast))


def test_the_table_declares_recover_and_cast() -> None:
    """`/act` offers `recover` and `cast`; neither belongs to the GM alone."""
    assert (SYSTEM.actions.names, SYSTEM.gm_actions) == (("recover", "cast"), ())


def test_a_spell_without_a_cost_costs_zero() -> None:
    """"Spells cast from Mage Foci have varying movement costs. If no cost is stated, assume ZERO movement cost"."""
    s = _mage(spells="blink, fireball:2:6")
    cast = _cast(s, options={"spell": "blink"})
    assert (cast.spell, cast.cost, s.get("M").state.mp) == ("blink", 0, 8)


def test_a_spell_spends_its_cost_and_needs_a_target_in_range() -> None:
    """A spell with a range needs a target within it; its MP cost is spent; the GM rules on the effect."""
    s = _mage(spells="fireball:2:6, dart:1:3")
    assert "out of range" in s.refused("act", action="cast", actor="M", target="T", options={"dart": ""})
    assert "say at whom" in s.refused("act", action="cast", actor="M", options={"fireball": ""})
    cast = _cast(s, target="T", options={"fireball": ""})
    assert (cast.cost, cast.range, s.get("M").state.mp) == (2, 4, 6)
    assert "the GM rules on its effect" in s.text(s.resolve("act", action="cast", actor="M", options={"spell": "fireball"}, target="T"))[-1]


def test_a_spell_needs_line_of_sight() -> None:
    """A spell at a target needs line of sight, as the text asks of ranged attacks."""
    s = _mage(spells="fireball:2:6")
    s.enc.map.terrain["C3"] = "obstacle"
    assert "no line of sight" in s.refused("act", action="cast", actor="M", target="T", options={"fireball": ""})


def test_no_spells_without_the_option() -> None:
    """Without the GM's `spells` option nobody casts, and autocomplete does not offer `cast`."""
    s = _mage()
    assert "`spells` option" in s.refused("act", action="cast", actor="M", options={"blink": ""})
    assert SYSTEM.actions_for(s.enc, s.get("M")) == []
    assert SYSTEM.actions_for(_mage(spells="blink").enc, s.get("M")) == ["cast"]


def test_a_spell_waits_for_the_casters_activation() -> None:
    """Casting is an action of the mini's activation: a mini whose side lacks priority waits."""
    s = _mage(spells="blink")
    assert "Priority is with a" in s.refused("act", action="cast", actor="T", options={"blink": ""})


def test_a_spell_one_square_away_says_one_square() -> None:
    """"Spells cast from Mage Foci": a touch spell at a foe next to the caster reads "(1 square)", and out of reach "reaches 1 square"."""
    s = _mage(spells="touch:0:1")
    assert "reaches 1 square." in s.refused("act", action="cast", actor="M", target="T", options={"touch": ""})
    s.run("edit", actor="T", at="B3")
    lines = s.text(s.run("act", action="cast", actor="M", target="T", options={"touch": ""}))
    assert any("at **T** (1 square) for 0 MP" in line for line in lines) and not any("1 squares" in line for line in lines)
