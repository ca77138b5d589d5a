"""Typed per-system state: each system declares a model for its combatants and its encounters.

``Combatant.state`` and ``Encounter.state`` hold instances of the system's models (subclasses
of :class:`CombatantState` and :class:`EncounterState`). A stored or imported encounter is read
with the models of its ``system``, so every load and import checks the state field by field;
an unknown key or a wrong type is a validation error, never a surprise in a later command.
"""
from __future__ import annotations

import importlib
from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["CombatantState", "EncounterState", "register_state", "state_types", "typed_state"]


class CombatantState(BaseModel):
    """A system's per-combatant state. Subclasses declare their fields with defaults."""

    model_config = ConfigDict(extra="forbid")

    def shown(self) -> dict[str, Any]:
        """The fields that differ from a new combatant's, for `/combatant show`."""
        return self.model_dump(exclude_defaults=True)


class EncounterState(BaseModel):
    """A system's per-encounter state. Subclasses declare their fields with defaults."""

    model_config = ConfigDict(extra="forbid")


_TYPES: dict[str, tuple[type[CombatantState], type[EncounterState]]] = {}
#: the module that registers every system (imported on the first look-up of an unknown key)
_REGISTRY_MODULE = "rules.registry"


def register_state(key: str, combatant: type[CombatantState], encounter: type[EncounterState]) -> None:
    """Declare the state models of system ``key`` (each system's package does this once)."""
    _TYPES[key] = (combatant, encounter)


def state_types(key: str) -> tuple[type[CombatantState], type[EncounterState]] | None:
    """The state models of system ``key``, or None where no system declares them."""
    if key not in _TYPES:
        importlib.import_module(_REGISTRY_MODULE).all_systems()
    return _TYPES.get(key)


def typed_state(data: Any) -> Any:
    """An encounter's raw data with its state dicts read by its system's models (before validation)."""
    if not isinstance(data, dict):
        return data
    key = data.get("system")
    if not isinstance(key, str):
        return data
    types = state_types(key)
    if types is None:
        return data
    combatant_type, encounter_type = types
    out = dict(data)
    state = out.get("state")
    if state is None or isinstance(state, dict):
        out["state"] = encounter_type.model_validate(state or {})
    elif isinstance(state, EncounterState) and not isinstance(state, encounter_type):
        out["state"] = encounter_type.model_validate(state.model_dump())
    combatants = out.get("combatants")
    if isinstance(combatants, list):
        fixed = []
        for c in combatants:
            if isinstance(c, dict):
                s = c.get("state")
                if s is None or isinstance(s, dict):
                    c = {**c, "state": combatant_type.model_validate(s or {})}
            fixed.append(c)
        out["combatants"] = fixed
    return out
