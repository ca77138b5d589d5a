"""Declare, then resolve (rules.turns.phases): choices in any order, hidden until all have declared."""
from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.turns.phases import Declarations


def two_sides() -> Declarations:
    return Declarations(participants={"Borin": "dwarves", "Thrain": "dwarves", "Grak": "orcs"})


def test_waiting_lists_who_has_not_declared_in_order():
    """The board shows who still has to declare, whatever order they declare in."""
    d = two_sides()
    d.declare("Grak", {"intent": "kill"})
    assert d.waiting() == ["Borin", "Thrain"]


def test_choices_are_hidden_from_the_other_side_until_all_declared():
    """A side sees its own choices; the other side's stay hidden until the last one declares."""
    d = two_sides()
    d.declare("Grak", {"intent": "kill"})
    assert d.shown_to("dwarves")["Grak"] is None
    assert d.shown_to("orcs")["Grak"] == {"intent": "kill"}
    d.declare("Borin", {"intent": "subdue"})
    assert not d.revealed
    assert d.declare("Thrain", {"intent": "disarm"}) is True
    assert d.revealed and d.shown_to("orcs")["Borin"] == {"intent": "subdue"} and d.waiting() == []


def test_gm_sees_everything_and_a_choice_may_change_before_the_reveal():
    """The GM (no side) sees every choice; a participant may change its mind until the reveal."""
    d = two_sides()
    d.declare("Grak", {"intent": "kill"})
    d.declare("Grak", {"intent": "grapple"})
    assert d.shown_to(None)["Grak"] == {"intent": "grapple"}


def test_force_reveals_with_the_default_for_those_waiting():
    """The GM forces the round: those who did not declare take the system's default."""
    d = two_sides()
    d.declare("Borin", {"intent": "subdue"})
    assert d.force({"intent": "kill"}) == ["Thrain", "Grak"]
    assert d.revealed and d.choice("Grak") == {"intent": "kill"} and d.choice("Borin") == {"intent": "subdue"}


def test_outsiders_and_late_changes_are_refused():
    """Only participants declare, and nothing changes once revealed."""
    d = two_sides()
    with pytest.raises(IllegalAction, match="nothing to declare"):
        d.declare("Snaga", {"intent": "kill"})
    d.force({})
    with pytest.raises(IllegalAction, match="already revealed"):
        d.declare("Borin", {"intent": "kill"})


def test_round_trips_through_json():
    """A declaration round stored mid-way reads back the same (it lives in an encounter's state)."""
    d = two_sides()
    d.declare("Grak", {"intent": "kill", "tactic": "press"})
    assert Declarations.model_validate_json(d.model_dump_json()) == d
