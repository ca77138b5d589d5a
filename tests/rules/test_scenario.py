"""The shared scenario builder works for every system and checks refusals."""
from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.registry import system_keys
from tests.scenario import Scenario

SHEETS = {
    "coup-de-grace": "class=light weapons=sword",
    "knights-of-valour": "hp=9 weapons=longsword:1",
    "tote": "strike=2",
    "damage-grid": "weapons=saber:2:4:2:melee",
    "war-and-combat": "fighter=3 weapons=broadsword",
    "open": "hp=9",
}


@pytest.mark.parametrize("key", system_keys())
def test_builder_adds_through_the_system_and_refusals_change_nothing(key: str) -> None:
    """Adding goes through the system's own add; a refused action leaves the encounter as it was."""
    s = Scenario(key)
    s.add("Borin", SHEETS[key], side="a", at=None if s.enc.map.kind == "none" else "B2")
    assert s.get("Borin").side == "a"
    message = s.refused("add", name="borin", raw_sheet={}, error=RulesError)
    assert "Borin" in message



def test_state_as_reads_a_base_state_into_the_systems_model() -> None:
    """A combatant built outside an encounter (base state) gets its system's model, once, in place."""
    from rules.models import Combatant
    from rules.state import CombatantState, state_as
    from rules.systems.coup_de_grace.state import CdgCombatant

    c = Combatant(name="Borin")
    assert type(c.state) is CombatantState
    first = state_as(c, CdgCombatant)
    assert isinstance(c.state, CdgCombatant) and first.mp is None and state_as(c, CdgCombatant) is first
