"""Typed per-system state: each system declares a model for its combatants and its encounters.

``Combatant.state`` and ``Encounter.state`` hold instances of the system's models (subclasses
of :class:`CombatantState` and :class:`EncounterState`), which the system class names
(``RuleSystem.combatant_state``, ``RuleSystem.encounter_state``). A stored or imported
encounter is read with the models of its ``system``, asked of the registry (which sits above
this module and gives it its look-up, `find_systems_with`), so every load and import checks
the state field by field; an unknown key or a wrong type is a validation error,
never a surprise in a later command. ``Model.of(holder)`` is a combatant's or an encounter's
state as its system's model: the one way the rules read it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, Self, TypeVar, cast

from pydantic import BaseModel, ConfigDict, ValidationInfo

__all__ = [
    "CombatantState", "EncounterState", "typed_state", "state_as", "CURRENT", "upgrading", "Typed", "find_systems_with",
]


class CombatantState(BaseModel):
    """A system's per-combatant state. Subclasses declare their fields with defaults."""

    model_config = ConfigDict(extra="forbid")

    def shown(self) -> dict[str, Any]:
        """The fields that differ from a new combatant's, for `/combatant show`."""
        return self.model_dump(exclude_defaults=True)

    @classmethod
    def of(cls, combatant: Any) -> Self:
        """``combatant``'s state as this model (`state_as`)."""
        return state_as(combatant, cls)


class EncounterState(BaseModel):
    """A system's per-encounter state. Subclasses declare their fields with defaults."""

    model_config = ConfigDict(extra="forbid")

    @classmethod
    def of(cls, encounter: Any) -> Self:
        """``encounter``'s state as this model (`state_as`)."""
        return state_as(encounter, cls)

#: the validation context of an encounter this code itself just wrote
#: (``Encounter.model_validate_json(raw, context=CURRENT)``): it has no old keys, so the upgrades
#: of data written by older code (`RuleSystem.upgrade_state`, the state models' own) are left out
CURRENT: dict[str, Any] = {"current": True}


def upgrading(info: ValidationInfo | None) -> bool:
    """Does a validation bring data written by older code up to date? Not for `CURRENT` data."""
    return info is None or not (info.context or {}).get("current")




def _typed(value: Any, model: type[BaseModel], context: dict[str, Any] | None = None) -> Any:
    """``value`` (a dict, or a state model of another type) read by ``model``; a ``model`` as it is."""
    if isinstance(value, model):
        return value
    if isinstance(value, BaseModel):
        value = value.model_dump()
    return model.model_validate(value or {}, context=context)


M = TypeVar("M", bound=BaseModel)


def state_as(holder: Any, model: type[M]) -> M:
    """``holder.state`` (a combatant's or an encounter's) as ``model``: read into it in place the
    first time (a combatant built before it joined an encounter still has the base state)."""
    if not isinstance(holder.state, model):
        holder.state = _typed(holder.state, model)
    return holder.state


class Typed(Protocol):
    """What reading a stored encounter asks of its system (`rules.system.RuleSystem` gives each)."""

    @property
    def combatant_state(self) -> type[CombatantState]: ...
    @property
    def encounter_state(self) -> type[EncounterState]: ...
    def upgrade_state(self, data: dict[str, Any]) -> dict[str, Any]: ...


#: the system of a key, or None: the registry's `rules.registry.find_system`, which it gives
#: here as it loads (`find_systems_with`); a validation's context may name the system itself
_FIND: list[Callable[[str], Typed | None]] = []


def find_systems_with(find: Callable[[str], Typed | None]) -> None:
    """Read every encounter's state with the models of the system ``find`` gives for its key."""
    _FIND[:] = [find]


def _system(key: Any, context: dict[str, Any] | None) -> Typed | None:
    """The system whose models read an encounter of ``key``: the one the validation's context
    names (``{"system": ...}``, as `rules.system.RuleSystem.resolve` gives its own), else the registry's."""
    given = (context or {}).get("system")
    if given is not None:
        return cast(Typed, given)
    if not isinstance(key, str) or not _FIND:
        return None
    return _FIND[0](key)


def typed_state(data: Any, info: ValidationInfo | None = None) -> Any:
    """An encounter's raw data with its state read by its system's models (before validation),
    brought up to date first unless the validation is of `CURRENT` data (`upgrading`).

    Combatants given as dicts or as models both get their state read by the system's model, so
    a combatant built before it joined an encounter (with the base state) is typed on the way in.
    """
    if not isinstance(data, dict):
        return data
    context = info.context if info is not None else None
    system = _system(data.get("system"), context)
    if system is None:
        return data
    combatant_type, encounter_type = system.combatant_state, system.encounter_state
    out = dict(data)
    if upgrading(info):
        out = system.upgrade_state(out)
    out["state"] = _typed(out.get("state"), encounter_type, context)
    combatants = out.get("combatants")
    if isinstance(combatants, list):
        fixed = []
        for c in combatants:
            if isinstance(c, dict):
                c = {**c, "state": _typed(c.get("state"), combatant_type, context)}
            elif isinstance(c, BaseModel) and not isinstance(getattr(c, "state", None), combatant_type):
                c = c.model_copy(update={"state": _typed(getattr(c, "state", None), combatant_type)})
            fixed.append(c)
        out["combatants"] = fixed
    return out
