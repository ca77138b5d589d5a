"""The registry of rule systems: ``SYSTEMS`` in the order `/encounter start` lists them,
``get_system(key)``, ``all_systems()``, and each system's typed state (``state_models``), which
reading a stored encounter asks for. A new system is a new package under ``rules/systems/``
and one more entry in ``SYSTEMS``."""
from __future__ import annotations

from rules.errors import NotFound
from rules.state import find_systems_with
from rules.system import RuleSystem
from rules.systems.coup_de_grace import CoupDeGraceSystem
from rules.systems.damage_grid import DamageGridSystem
from rules.systems.knights_of_valour import KnightsOfValourSystem
from rules.systems.open import OpenSystem
from rules.systems.tote import ToteSystem
from rules.systems.war_and_combat import WarAndCombatSystem

__all__ = ["SYSTEMS", "get_system", "find_system", "system_keys", "all_systems"]

#: the systems, in the order the `/encounter start` choice lists them
SYSTEMS: tuple[type[RuleSystem], ...] = (CoupDeGraceSystem, KnightsOfValourSystem, ToteSystem, DamageGridSystem, WarAndCombatSystem, OpenSystem)



_INSTANCES: dict[type[RuleSystem], RuleSystem] = {}
#: each system's one instance by its key, made as it is first asked for (`find_system`)
_BY_KEY: dict[str, RuleSystem] = {}


def _instance(cls: type[RuleSystem]) -> RuleSystem:
    """The one instance of ``cls``: a system holds no state of its own."""
    if cls not in _INSTANCES:
        _INSTANCES[cls] = cls()
    return _INSTANCES[cls]


def all_systems() -> list[RuleSystem]:
    return [_instance(cls) for cls in SYSTEMS]


def system_keys() -> list[str]:
    return [cls.key for cls in SYSTEMS]


def find_system(key: str | None) -> RuleSystem | None:
    """The system called ``key``, or None (asked at every read of a state: one look-up)."""
    system = _BY_KEY.get(key) if isinstance(key, str) else None
    if system is None:
        system = next((_instance(cls) for cls in SYSTEMS if cls.key == key), None)
        if system is not None:
            _BY_KEY[system.key] = system
    return system


def get_system(key: str) -> RuleSystem:
    system = find_system(key)
    if system is None:
        raise NotFound(f"There is no rule system `{key}`. Systems: {', '.join(system_keys())}.")
    return system


#: a stored encounter's state is read with the models of the system this finds (`rules.state`)
find_systems_with(find_system)
