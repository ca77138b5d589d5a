"""The typed state of War & Combat: per combatant (wounds per location, movement points,
flurry actions, conditions) and per encounter (who has had a step in this phase, the flurries
of the round, the declarations of the flurry under way). ``hp`` is not used (None)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.state import CombatantState, EncounterState
from rules.turns.phases import Declarations

__all__ = ["WoundRecord", "WacCombatant", "WacEncounter", "LIMBS"]

#: the four limbs a wound can disable
LIMBS = ("left arm", "right arm", "left leg", "right leg")


class WoundRecord(BaseModel):
    """One wound: where (``left arm``, ``head``...), how bad, and penetrating or blunt."""

    model_config = ConfigDict(extra="forbid")

    location: str = Field(max_length=20)
    severity: Literal["light", "serious", "critical", "mortal"]
    penetrating: bool = False


class WacCombatant(CombatantState):
    wounds: list[WoundRecord] = Field(default_factory=list, max_length=200)
    #: movement points left in this phase
    mp: int = Field(0, ge=0, le=100)
    #: stepped this phase (its pace then penalises skill rolls)
    moved: bool = False
    #: movement points spent on steps and pivots this phase
    spent: int = Field(0, ge=0, le=100)
    #: the quick action of this phase is used (stand, wield, coup-de-grâce)
    quick: bool = False
    #: the most movement points a phase with a quick action may spend ("limited movement"; None: no limit)
    quick_mp: int | None = Field(None, ge=0, le=100)
    #: ranged strikes made this phase (one a phase)
    shots: int = Field(0, ge=0, le=10)
    #: the full action made this phase (``loading``, ``aiming``, ``sheathing a weapon``, ``shooting``): no more
    #: moving, shooting or full action in it
    full: str | None = Field(None, max_length=40)
    #: a failed obstacle roll this phase ("a failed action halts movement"): no more moving in it
    halted: bool = False
    #: actions left in the flurry under way
    actions: int = Field(0, ge=0, le=100)
    #: actions lost this round (shock, fumbles), taken off the next flurry's
    lost: int = Field(0, ge=0, le=100)
    #: the flurry initiative roll
    flurry_init: int | None = Field(None, ge=-1000, le=1000)
    #: turned to face an attacker at the flurry's start: -1 Defense for the flurry
    turned: bool = False
    #: conditions
    fallen: bool = False
    unconscious: bool = False
    immobile: bool = False
    disabled: list[str] = Field(default_factory=list, max_length=4)
    impaired: list[str] = Field(default_factory=list, max_length=4)
    #: the weapon in hand (None: the sheet's first)
    wield: str | None = Field(None, max_length=40)
    #: a weapon broken by a disarm
    broken: list[str] = Field(default_factory=list, max_length=10)
    #: held by a grapple: the Restrict target level of the Strength task before each action
    restrict: int | None = Field(None, ge=0, le=40)
    #: the grappler holding it
    restrict_by: str | None = Field(None, max_length=100)
    #: the weapon hand switched to in the fight (None: the sheet's `hand`)
    hand: Literal["right", "left"] | None = None
    #: the round of its last swipe (one a round)
    swiped: int = Field(0, ge=0)
    #: the round it joined a flurry under way by an interrupt (it steps in to fight there: `flurry_reach`)
    interrupted: int = Field(0, ge=0)
    #: weapons (or "shield") dropped by a fumble, until picked up
    dropped: list[str] = Field(default_factory=list, max_length=12)
    #: the melee weapon is sheathed ("Sheathe weapon", a full action) until drawn again (`wield`)
    sheathed: bool = False
    #: missile weapons shot and not yet reloaded (a crossbow: "Load Weapon", a full action)
    unloaded: list[str] = Field(default_factory=list, max_length=12)
    #: where each dropped item lies (a hex), as the fumble's roll threw it
    dropped_at: dict[str, str] = Field(default_factory=dict, max_length=12)
    #: a lengthy action under way (``shed``, or ``don:<armour>``), done at the start of round ``busy_until``
    busy: str | None = Field(None, max_length=40)
    busy_until: int = Field(0, ge=0, le=1_000_000)
    #: a step begun without the points to finish it ("that movement action is carried over to the
    #: next phase or round"): its plan word (``step N``, ``keep N``), the hex, and the points still owed
    carry: str | None = Field(None, max_length=12)
    carry_to: str | None = Field(None, max_length=8)
    owed: int = Field(0, ge=0, le=100)
    #: a polearm's zone of threat limited to the hex ahead, or to it and the one left or right (None: all three)
    limit: Literal["ahead", "left", "right"] | None = None
    #: the armour worn since a lengthy action changed it (None: the sheet's)
    armor: str | None = Field(None, max_length=40)


class WacEncounter(EncounterState):
    #: who has had a step in this phase (movement, adjustment)
    acted: list[str] = Field(default_factory=list)
    #: the round's flurries still to resolve, the one under way first
    flurries: list[list[str]] = Field(default_factory=list, max_length=100)
    #: the declarations of the flurry under way
    declarations: Declarations | None = None
    #: they are made one at a time, openly, in flurry-initiative order (option `declare=public`)
    in_turn: bool = False
    #: in the flurry under way: those who held the initiative since the last attack
    passed: list[str] = Field(default_factory=list)
    #: the flurries resolved this round (for the adjustment phase's tactics): name -> tactic
    tactics: dict[str, str] = Field(default_factory=dict)
    #: in the flurry under way: name -> [successful attacks, best margin over the Defense]
    successes: dict[str, list[int]] = Field(default_factory=dict)
    #: this round: those whose tactic decides the net movement of their flurry (its winner)
    won: list[str] = Field(default_factory=list)

