"""The typed state of the open system: per combatant (its turn, its initiative's tie-breaks, its
death saves) and per encounter (who has acted this round, the last area drawn, an opportunity
attack waiting for a player's answer)."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, model_validator

from rules.state import CombatantState, EncounterState, upgrading

__all__ = ["OpenCombatant", "OpenEncounter", "Waiting"]


class OpenCombatant(CombatantState):
    #: the modifier of its initiative expression (ties: the higher acts first)
    init_mod: int = Field(0, ge=-100_000, le=100_000)
    #: the roll-off among tied combatants (higher first)
    roll_off: int = Field(0, ge=0, le=100)
    #: feet of movement spent this turn (what is left follows its speed now: `turns.feet_left`)
    feet_spent: int = Field(0, ge=0, le=100_000)
    #: diagonal steps taken this turn (the `alternate` rule makes every second one cost 10 ft)
    diagonals: int = Field(0, ge=0, le=10_000)
    #: the turn's action is used (an attack or `/act`)
    acted: bool = False
    #: its reaction is used (an opportunity attack) until its next turn
    reacted: bool = False
    #: death saves while down
    saves_made: int = Field(0, ge=0, le=3)
    saves_failed: int = Field(0, ge=0, le=3)
    #: down but stable: no more death saves
    stable: bool = False
    #: its turn began with it down: the death save its owner rolls is due
    save_due: bool = False

    @model_validator(mode="before")
    @classmethod
    def _old_keys(cls, data: Any, info: ValidationInfo) -> Any:
        """Older states kept the feet left, not spent: the turn under way keeps its whole movement. They
        counted dashes and disengaging here, which the effects of those actions now hold."""
        if upgrading(info) and isinstance(data, dict) and {"feet_left", "dashes", "disengaged"} & data.keys():
            data = {k: v for k, v in data.items() if k not in ("feet_left", "dashes", "disengaged")}
        return data


class Waiting(BaseModel):
    """An opportunity attack offered to a player: the mover stopped at ``at`` and goes on along
    ``rest`` (cells) once ``owner`` answers for ``attacker`` (question ``tag``); ``answered``: the
    hostiles already asked about the same step (each is asked once a step); ``stand``: the last cell of
    its path it could stop on, where it lies if struck down at ``at``, someone else's cell ("": ``at``)."""

    model_config = ConfigDict(extra="forbid")

    attacker: str
    mover: str
    owner: str
    tag: str
    at: str
    rest: list[str] = Field(default_factory=list, max_length=200)
    answered: list[str] = Field(default_factory=list, max_length=1000)
    stand: str = ""


class OpenEncounter(EncounterState):
    #: who has had a turn this round, in the order they had it (the acting one last)
    acted: list[str] = Field(default_factory=list)
    #: the cells of the last area attack, drawn on the map until the turn passes
    area: list[str] = Field(default_factory=list, max_length=1000)
    #: the opportunity attack waiting for a player's answer
    waiting: Waiting | None = None
    #: how many questions have been asked (each answer names its question)
    asked: int = Field(0, ge=0)
