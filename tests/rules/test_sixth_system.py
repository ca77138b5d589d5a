"""A sixth system, defined only in the tests (tests/rules/sixth/), joins by one more entry in
`SYSTEMS`: the registry, stored encounters, `/act` with its declared word and the turns work
with no other edit."""
from __future__ import annotations

import pytest

from rules import registry
from rules.errors import IllegalAction
from rules.events import HitPointsChanged
from rules.models import Combatant, Encounter
from rules.system import SystemContract
from tests.rules.sixth import SixthCombatant, SixthEncounter, SixthSystem
from tests.scenario import Scenario


@pytest.fixture(autouse=True)
def sixth(monkeypatch: pytest.MonkeyPatch) -> None:
    """The one registry line: the sixth system appended to `SYSTEMS` for these tests."""
    monkeypatch.setattr(registry, "SYSTEMS", (*registry.SYSTEMS, SixthSystem))


def duel() -> Scenario:
    s = Scenario("sixth").add("Ann", side="a", at="B2").add("Bob", side="b", at="C2")
    s.run("init_roll")
    return s


def test_the_registry_lists_it_after_the_five() -> None:
    """`get_system`, `system_keys` and `all_systems` know it, and it says what the contract lists."""
    system = registry.get_system("sixth")
    assert isinstance(system, SixthSystem) and isinstance(system, SystemContract)
    assert registry.system_keys()[-1] == "sixth" and registry.all_systems()[-1] is system


def test_a_stored_encounter_reads_back_with_its_state_models() -> None:
    """Loading asks the registry for the sixth system's state models, like any other's."""
    enc = Encounter(system="sixth", combatants=[Combatant(name="Ann")])
    loaded = Encounter.model_validate_json(enc.model_dump_json())
    assert type(loaded.state) is SixthEncounter and type(loaded.combatants[0].state) is SixthCombatant


def test_its_act_action_runs_its_handler_with_its_declared_word() -> None:
    """`/act action:poke options:"2"` reaches the handler with ``by=2`` typed; a bad value is refused in the one style."""
    s = duel()
    res = s.run("act", actor="Ann", action="Poke", target="Bob", options={"2": ""})
    assert res.events == [HitPointsChanged(actor="Bob", change=-2, before=5, after=3)]
    assert SixthCombatant.of(s.get("Ann")).pokes == 1
    refusal = s.refused("act", actor="Ann", action="poke", target="Bob", options={"by": "9"})
    assert refusal == "`poke`: `by` must be a whole number from 1 to 3, not `9`. Type e.g. `options:\"by=1\"`."
    s.run("add", name="Cy", raw_sheet={}, side="b", at="F5")
    assert "out of reach" in s.refused("act", error=IllegalAction, actor="Ann", action="poke", target="Cy")


def test_its_turns_pass_in_joining_order() -> None:
    """`/init next` passes the turn from Ann to Bob, then a new round begins with Ann."""
    s = duel()
    assert s.system.turn(s.enc).current == "Ann"
    s.run("next", actor="Ann")
    assert s.system.turn(s.enc).current == "Bob" and SixthEncounter.of(s.enc).acted == ["Ann"]
    s.run("next", actor="Bob")
    assert (s.enc.round, s.system.turn(s.enc).current) == (2, "Ann")
