"""The registry of rule systems: ``SYSTEM_MODULES`` in the order `/encounter start` lists them,
``get_system(key)``, ``all_systems()``. A new system is a new package under ``rules/systems/``
that calls :func:`register` and one more line in ``SYSTEM_MODULES``."""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, TypeVar

from rules.errors import NotFound

if TYPE_CHECKING:  # pragma: no cover
    from rules.system import RuleSystem

__all__ = ["SYSTEM_MODULES", "register", "get_system", "system_keys", "all_systems"]

#: the system packages, in the order the `/encounter start` choice lists them
SYSTEM_MODULES: tuple[str, ...] = (
    "rules.systems.coup_de_grace",
    "rules.systems.knights_of_valour",
    "rules.systems.tote",
    "rules.systems.damage_grid",
    "rules.systems.war_and_combat",
)

_REGISTRY: dict[str, "RuleSystem"] = {}
S = TypeVar("S", bound="type[RuleSystem]")


def register(cls: S) -> S:
    """Class decorator: add a system to the registry under its ``key``."""
    if not cls.key:
        raise ValueError("a rule system needs a key")
    _REGISTRY[cls.key] = cls()
    return cls


def _load() -> None:
    if len(_REGISTRY) < len(SYSTEM_MODULES):
        for mod in SYSTEM_MODULES:
            importlib.import_module(mod)


def all_systems() -> list["RuleSystem"]:
    _load()
    return list(_REGISTRY.values())


def system_keys() -> list[str]:
    return [s.key for s in all_systems()]


def get_system(key: str) -> "RuleSystem":
    _load()
    try:
        return _REGISTRY[key]
    except KeyError:
        raise NotFound(f"There is no rule system `{key}`. Systems: {', '.join(_REGISTRY)}.") from None
