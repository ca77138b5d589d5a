"""The system contract: the registry's explicit list, state models on the system class, one `/act` handler signature."""
from __future__ import annotations

import pytest

from rules.actions import Act, ActionContext, ActionSpec, ActionTable, action_name
from rules.dice import Dice
from rules.errors import IllegalAction
from rules.events import Event
from rules.models import Combatant, Encounter, MapState
from rules.registry import SYSTEMS, all_systems, get_system
from rules.state import CombatantState, EncounterState
from rules.system import RuleSystem, SystemContract
from rules.systems.knights_of_valour import KnightsOfValourSystem
from rules.systems.knights_of_valour.events import Narrated
from rules.systems.tote.state import ToteCombatant, ToteEncounter


def test_the_registry_lists_the_system_classes_in_order() -> None:
    """`SYSTEMS` is the explicit tuple of classes, in the order `/encounter start` lists them."""
    assert [cls.key for cls in SYSTEMS] == ["coup-de-grace", "knights-of-valour", "tote", "damage-grid", "war-and-combat", "open"]
    assert [type(s) for s in all_systems()] == list(SYSTEMS)


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_a_stored_encounter_reads_back_with_its_systems_state_models(system) -> None:
    """Loading an encounter types its state by the models its system class names, for every system."""
    assert issubclass(system.combatant_state, CombatantState) and system.combatant_state is not CombatantState
    assert issubclass(system.encounter_state, EncounterState) and system.encounter_state is not EncounterState
    enc = Encounter(system=system.key, combatants=[Combatant(name="Ann")])
    loaded = Encounter.model_validate_json(enc.model_dump_json())
    assert type(loaded.state) is system.encounter_state
    assert type(loaded.combatants[0].state) is system.combatant_state


def test_a_state_model_reads_a_holders_state_as_itself() -> None:
    """`Model.of(holder)` is the one way to read a combatant's or an encounter's typed state."""
    c = Combatant(name="Ann")
    assert type(c.state) is CombatantState
    assert ToteCombatant.of(c) is c.state and type(c.state) is ToteCombatant
    enc = Encounter(system="tote")
    assert ToteEncounter.of(enc) is enc.state


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_every_act_action_carries_its_handler_and_declares_its_words(system) -> None:
    """The table carries each handler (no parallel table, no `act` of a system's own) and its words declared."""
    assert all(spec.handler is not None for spec in system.actions)
    assert type(system).act is RuleSystem.act
    assert not hasattr(system.actions.specs[0], "options")


def test_action_names_are_read_in_one_form() -> None:
    """Any system's table reads `Shoot & Move`, `shoot_and_move` and ` shoot-and-move ` as one name."""
    assert {action_name(n) for n in ("Shoot & Move", "shoot_and_move", " shoot--and-move ")} == {"shoot-and-move"}
    table = get_system("tote").actions
    assert table.get("Shoot & Move").name == "shoot-and-move"
    with pytest.raises(IllegalAction, match="`fly` is not an action here"):
        table.get("fly")


def test_the_handler_gets_the_context_and_the_action_under_its_table_name() -> None:
    """`RuleSystem.act` calls the declared handler with the encounter copy, options, dice and actor."""
    seen: list[tuple[ActionContext, Act]] = []

    def handler(ctx: ActionContext, action: Act) -> list[Event]:
        seen.append((ctx, action))
        return [Narrated(actor=ctx.actor.name if ctx.actor else None, action=action.name)]

    class Waving(KnightsOfValourSystem):
        actions = ActionTable(ActionSpec("wave", "wave", handler=handler))

    system = Waving()
    enc = Encounter(system=system.key, map=MapState(kind="square", width=4, height=4), combatants=[Combatant(name="Ann")])
    dice = Dice.fixed(())
    events = system.act(enc, Act(action="WAVE", actor="ann"), dice)
    ctx, action = seen[0]
    assert events == [Narrated(actor="Ann", action="wave")]
    assert action.name == "wave" and ctx.encounter is enc and ctx.dice is dice
    assert ctx.actor is enc.combatants[0] and ctx.grid is not None and ctx.options == system.option_values(enc)


def test_a_handler_needing_a_map_is_refused_without_one() -> None:
    """`ctx.need_grid()` refuses an action that needs a map on an encounter without one."""
    system = get_system("coup-de-grace")
    enc = Encounter(system=system.key, combatants=[Combatant(name="Ann")])
    with pytest.raises(IllegalAction, match="no map"):
        system.context(enc, Act(action="recover", actor="Ann"), Dice.fixed(())).need_grid()


def _contract_names() -> set[str]:
    """The names `SystemContract` lists: its declarations and its methods."""
    methods = {n for n, v in vars(SystemContract).items() if callable(v) and not n.startswith("_")}
    return set(SystemContract.__annotations__) | methods


@pytest.mark.parametrize("system", all_systems(), ids=lambda s: s.key)
def test_every_system_says_what_the_contract_lists(system) -> None:
    """Each of the five is a `SystemContract` and declares every name of it on its own class, none left to the base."""
    assert isinstance(system, SystemContract)
    said = {n for cls in type(system).__mro__ if cls is not RuleSystem and issubclass(cls, RuleSystem) for n in vars(cls)}
    assert _contract_names() - said == set()
