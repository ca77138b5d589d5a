"""The turn line: the rules' `Turn` carries who acts and plain facts; each system's presenter
makes the sentence from them (`Presenter.turn_label`)."""
from __future__ import annotations

from dataclasses import fields

import pytest

from rules.facts import Facts
from rules.models import Combatant, Encounter
from rules.present import Presenter
from rules.registry import all_systems
from rules.system import Turn


def test_the_rules_turn_carries_no_sentence() -> None:
    """`Turn` has no `label`: its fields are names, keys, flags and numbers, never a line of text."""
    assert "label" not in {f.name for f in fields(Turn)}
    assert {f.name for f in fields(Turn)} == {"actors", "key", "current", "side", "phase", "over", "gm", "points", "queue"}


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_each_system_says_its_turn_line_in_its_presenter(system) -> None:
    """Each of the five says the turn line in its own presenter, and says nothing before the fight starts."""
    assert "turn_label" in vars(system.presenter_class)
    enc = Encounter(system=system.key, combatants=[Combatant(name="Ann")])
    assert system.present.turn_label(enc, system.facts(enc)) == ""


def test_the_plain_turn_line_names_who_acts() -> None:
    """The presenter base's line, for a system that has no words of its own: the round and who acts."""
    plain = Presenter(all_systems()[0])
    enc = Encounter(system="open", round=2)
    assert plain.turn_label(enc, Facts(turn=Turn(actors=("Ann", "Bo")))) == "Round 2 · Ann, Bo to act"
    assert plain.turn_label(enc, Facts(turn=Turn())) == ""
