"""The typed state of Knights of Valour: per combatant (its turn's actions, its delay, the weapon
in hand) and per encounter (who has acted this round, the GM's order of ties).

Encounters stored and exported before these models existed kept the same facts under shorter
dict keys (``moves``, ``combat``, ``ft``, ``used``; ``fresh``, ``ties``); they still load.
"""
from __future__ import annotations

from typing import Any

from pydantic import Field, ValidationInfo, model_validator

from rules.state import CombatantState, EncounterState, upgrading

__all__ = ["KovCombatant", "KovEncounter"]


def _renamed(data: Any, names: dict[str, str]) -> Any:
    """``data`` with the old keys of ``names`` under their new names."""
    if not isinstance(data, dict):
        return data
    return {names.get(k, k): v for k, v in data.items()}


class KovCombatant(CombatantState):
    #: the initiative the GM set with `/init set` (None: Agility)
    init_set: int | None = Field(None, ge=-100_000, le=100_000)
    #: initiative lowered for this round
    delayed: bool = False
    #: the GM set its place among those it ties with since its delay (else, delayed, it acts after them)
    tie_placed: bool = False
    #: its delay was `after=` someone: it acts first of those at its new number (players first)
    just_after: bool = False
    #: the combatants a delay placed it after (`after=`): its lowered initiative tells theirs
    delay_after: list[str] = Field(default_factory=list)
    #: Move Actions not yet begun this turn
    move_actions: int = Field(0, ge=0, le=99)
    #: of those, the ones players are told of where it is hidden: a move may begin more than one (how many tells
    #: its Movement), so a move leaves none told, and a Move Action granted after it is one
    moves_told: int = Field(0, ge=0, le=99)
    #: Combat Actions left this turn
    combat_actions: int = Field(0, ge=0, le=99)
    #: the extra actions the GM granted this turn (then "all", not "both", actions are used at its end)
    granted: int = Field(0, ge=0, le=198)
    #: its announced turn was put off by a delay: played later, it is the same turn, with the actions granted in it
    put_off: bool = False
    #: feet left of the Move Action under way
    feet_left: int = Field(0, ge=0, le=10_000)
    #: the turn has been used (moved or attacked)
    spent: bool = False
    #: enemies that made their Attack of Opportunity against it this turn
    provoked: list[str] = Field(default_factory=list)
    #: the weapon in hand
    wield: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _old_keys(cls, data: Any, info: ValidationInfo) -> Any:
        return data if not upgrading(info) else _renamed(data, {"moves": "move_actions", "combat": "combat_actions", "ft": "feet_left", "used": "spent"})


class KovEncounter(EncounterState):
    #: who has had a turn this round, in the order they had it (the acting one last)
    acted: list[str] = Field(default_factory=list)
    #: nobody has acted yet this round
    round_start: bool = False
    #: the order the GM gave tied combatants (else the order they joined)
    tie_order: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _old_keys(cls, data: Any, info: ValidationInfo) -> Any:
        return data if not upgrading(info) else _renamed(data, {"fresh": "round_start", "ties": "tie_order"})

