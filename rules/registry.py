"""The registry of rule systems: ``SYSTEMS`` in the order `/encounter start` lists them,
``get_system(key)``, ``all_systems()``, and each system's typed state (``state_models``), which
reading a stored encounter asks for. A new system is a new package under ``rules/systems/``
and one more entry in ``SYSTEMS``."""
from __future__ import annotations

from rules.errors import NotFound
from rules.system import RuleSystem
from rules.systems.coup_de_grace import CoupDeGraceSystem
from rules.systems.damage_grid import DamageGridGame
from rules.systems.knights_of_valour import KnightsOfValourSystem
from rules.systems.open import OpenSystem
from rules.systems.tote import ToteSystem
from rules.systems.war_and_combat import WarAndCombat

__all__ = ["SYSTEMS", "get_system", "find_system", "system_keys", "all_systems"]

#: the systems, in the order the `/encounter start` choice lists them
SYSTEMS: tuple[type[RuleSystem], ...] = (CoupDeGraceSystem, KnightsOfValourSystem, ToteSystem, DamageGridGame, WarAndCombat, OpenSystem)

#: one instance of each: a system holds no state of its own
_INSTANCES: tuple[RuleSystem, ...] = tuple(cls() for cls in SYSTEMS)


def all_systems() -> list[RuleSystem]:
    return list(_INSTANCES)


def system_keys() -> list[str]:
    return [s.key for s in _INSTANCES]


def find_system(key: str | None) -> RuleSystem | None:
    """The system called ``key``, or None."""
    return next((s for s in _INSTANCES if s.key == key), None)


def get_system(key: str) -> RuleSystem:
    system = find_system(key)
    if system is None:
        raise NotFound(f"There is no rule system `{key}`. Systems: {', '.join(system_keys())}.")
    return system
