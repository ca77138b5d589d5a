"""Coup-De-Grace's typed state: per mini (activation, MP, weapons used) and per encounter (sides)."""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, ValidationInfo, model_validator

from rules.state import CombatantState, EncounterState, upgrading

__all__ = ["CdgCombatant", "CdgEncounter"]

#: bounds a stored state is checked against (hit points as the sheet takes them; MP far above
#: any allowance; a weapon's uses a round; the count of activations, which grows each round)
MAX_HP = 20
MAX_MP = 999
MAX_USES = 99
MAX_SLOT = 10**9


def _old_dict(data: Any, nullable: tuple[str, ...]) -> Any:
    """The state dict of the first version (same keys, written as a plain dict): a ``None`` where a
    field does not take one is read as unset; an unknown key stays, and the model refuses it."""
    if not isinstance(data, dict):
        return data
    return {k: v for k, v in data.items() if v is not None or k in nullable}


class CdgCombatant(CombatantState):
    """One mini: its sheet's hit points, whether it has activated this round, the MP left in
    the activation under way (None: not activating), the weapons used, and the crossbow's reroll."""

    hp_max: Annotated[int, Field(ge=1, le=MAX_HP)] | None = None
    done: bool = False
    mp: Annotated[int, Field(ge=0, le=MAX_MP)] | None = None
    used: dict[Annotated[str, Field(max_length=40)], Annotated[int, Field(ge=0, le=MAX_USES)]] = Field(default_factory=dict)
    reroll: bool = False
    #: the facing it had when it went down (it stands up facing that way)
    last_facing: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _old(cls, data: Any, info: ValidationInfo) -> Any:
        return _old_dict(data, ("mp", "hp_max", "last_facing")) if upgrading(info) else data


class CdgEncounter(EncounterState):
    """The encounter: this round's order of sides, the side with priority, and the activation count
    (it changes each time priority passes, so the bot knows when to ping)."""

    sides: list[Annotated[str, Field(max_length=40)]] = Field(default_factory=list)
    priority: str | None = None
    slot: int = Field(0, ge=0, le=MAX_SLOT)

    @model_validator(mode="before")
    @classmethod
    def _old(cls, data: Any, info: ValidationInfo) -> Any:
        return _old_dict(data, ("priority",)) if upgrading(info) else data
