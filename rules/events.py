"""Events: what a resolved action did, as data. Presentation lives in :mod:`rules.report`."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, model_validator

from rules.dice import Typed

__all__ = ["Event", "Modifier", "mod"]


class Modifier(BaseModel):
    name: str
    value: int


def mod(name: str, value: int) -> Modifier:
    return Modifier(name=name, value=value)


class Event(BaseModel):
    """One thing that happened.

    ``kind`` selects how it is shown. The core kinds are ``added edited removed round turn
    initiative move face attack damage status victory check note``; a system may add its own
    and describe them itself (``RuleSystem.describe``).
    """

    kind: str
    actor: str | None = None
    target: str | None = None
    weapon: str | None = None
    dice: list[int] = Field(default_factory=list)
    #: indexes into ``dice`` of the results the caller typed with `roll:`; found from the dice themselves
    typed: list[int] = Field(default_factory=list)
    dice_label: str | None = None
    kept: int | None = None
    modifiers: list[Modifier] = Field(default_factory=list)
    total: int | None = None
    against: int | None = None
    against_label: str | None = None
    success: bool | None = None
    amount: int | None = None
    before: Any = None
    after: Any = None
    path: list[str] | None = None
    cost: float | None = None
    note: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _typed_from_dice(cls, data: Any) -> Any:
        if isinstance(data, dict) and "typed" not in data and data.get("dice"):
            data = {**data, "typed": [i for i, d in enumerate(data["dice"]) if isinstance(d, Typed)]}
        return data
