"""The typed state of the damage-grid game.

Per model: its damage grid's current values, its weapons' Health, the Combat Points left this
round, the activation under way, the phase it last activated in, and what the Accuracy
modifiers for moving and standing still read. Per encounter: the order of sides, the side with
priority, the phase, and the cover squares damaged or reduced to debris.
"""
from __future__ import annotations

from pydantic import Field

from rules.state import CombatantState, EncounterState

__all__ = ["DgModel", "DgBattle", "NEVER"]

#: ``acted`` before the model has ever activated
NEVER = -1


class DgModel(CombatantState):
    #: each location's hits left (its value now), and its value when whole
    values: dict[str, int] = Field(default_factory=dict)
    full: dict[str, int] = Field(default_factory=dict)
    #: each carried weapon's and piece of equipment's Health left (0: destroyed)
    weapon_health: dict[str, int] = Field(default_factory=dict)
    #: Combat Points left this round, and how many it forced this round
    cp: int = Field(2, ge=0, le=99)
    forced: int = Field(0, ge=0, le=99)
    #: the activation under way: ``move``, ``combat`` or ``lunge`` (None: not activating)
    activation: str | None = None
    #: Speed points left in a Move activation
    speed_left: int = Field(0, ge=0, le=999)
    #: the phase (counted from the fight's first, 0) it last activated in
    acted: int = Field(NEVER, ge=NEVER)
    #: the phase it last moved in (stationary after 5 phases without moving)
    moved: int = Field(0, ge=NEVER)
    #: squares moved in consecutive Move activations without pause
    run: int = Field(0, ge=0, le=9999)
    prone: bool = False
    #: who holds it in a grapple
    grappled_by: list[str] = Field(default_factory=list)


class DgBattle(EncounterState):
    #: the round's order of sides
    sides: list[str] = Field(default_factory=list)
    #: the side to activate a model now (None: the round is over)
    priority: str | None = None
    #: the phase of the round, from 0
    phase: int = Field(0, ge=0, le=99)
    #: counts priority changes, so the turn key changes with each
    slot: int = Field(0, ge=0)
    #: hits taken by cover squares (cell -> hits)
    cover_hits: dict[str, int] = Field(default_factory=dict)
    #: cover squares reduced to debris: no cover any more, rough to move through
    debris: list[str] = Field(default_factory=list)
