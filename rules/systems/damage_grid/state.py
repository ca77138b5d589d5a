"""The typed state of the damage-grid game.

Per model: its damage grid's current values, its weapons' Health, the Combat Points left this
round, the activation under way, the phase it last activated in, and what the Accuracy
modifiers for moving and standing still read. Per encounter: the order of sides, the side with
priority, the phase, and the cover squares damaged or reduced to debris.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, field_validator

from rules.state import CombatantState, EncounterState
from rules.systems.damage_grid.flips import flip_cost

__all__ = ["DgCombatant", "DgEncounter", "Asked", "Offer", "NEVER"]

#: ``acted`` before the model has ever activated
NEVER = -1


class DgCombatant(CombatantState):
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
    #: the weapon it attacked with in the activation under way ("one weapon each Action"; None: none yet)
    weapon: str | None = None
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


class Offer(BaseModel):
    """One answer offered to the target's owner as a button, as facts: ``kind`` ``least`` (the least
    harm, the bot's choice), ``onto`` (the most dice turned onto the grid's location ``at``), ``none``
    (no flips) or ``only`` (that one flip alone); its ``flips``, each ``(from, to, cost)``; and
    ``answer``, the flips it sends (``5>3,4>1``, ``none``)."""

    kind: str
    at: str = ""
    flips: list[tuple[int, int, int]] = Field(default_factory=list)
    answer: str


#: the words an answer's button began with before the offers were stored as facts, by kind
_OLD_LABELS = {"Least harm: ": "least", "Onto ": "onto", "No flips": "none", "Only ": "only"}


def _old_offer(label: str, answer: str) -> dict[str, Any]:
    """An offer stored as its button's words (``Onto body: 2→1``) read as facts."""
    start = next(s for s in _OLD_LABELS if label.startswith(s))
    at = label[len(start):].split(": ", 1)[0] if _OLD_LABELS[start] == "onto" else ""
    pairs = [tuple(map(int, f.split(">"))) for f in answer.split(",") if ">" in f]
    return {"kind": _OLD_LABELS[start], "at": at, "answer": answer,
            "flips": [(a, b, flip_cost(a, b)) for a, b in pairs]}


class Asked(BaseModel):
    """An attack waiting for its target's owner to choose the flips of its negative Accuracy
    (option ``target_flips=ask``): nothing of it is applied yet. ``action`` is the attack as
    declared, ``dice`` every die it rolled until the question (rolled again as these values when
    it is answered), ``faces`` the Power dice, ``points`` the flips the target may make,
    ``choices`` the answers offered as buttons, ``tag`` names this question."""

    tag: str
    attacker: str
    target: str
    owner: str
    weapon: str
    action: dict[str, Any]
    dice: list[int] = Field(default_factory=list)
    #: which of ``dice`` the caller typed with `roll:`
    typed: list[int] = Field(default_factory=list)
    faces: list[int] = Field(default_factory=list)
    points: int = Field(1, ge=1, le=99)
    choices: list[Offer] = Field(default_factory=list)
    #: the answer while the attack is resolved with it
    answer: str | None = None

    @field_validator("action")
    @classmethod
    def _act_named_action(cls, value: dict[str, Any]) -> dict[str, Any]:
        """A Lunge asked before an act's ``name`` was called ``action`` reads as one asked now."""
        if value.get("kind") == "act" and "name" in value and "action" not in value:
            value = {**{k: v for k, v in value.items() if k != "name"}, "action": value["name"]}
        return value

    @field_validator("choices", mode="before")
    @classmethod
    def _offers_as_facts(cls, value: Any) -> Any:
        """A question stored with its buttons' words, ``(label, answer)``, reads as one of offers."""
        if isinstance(value, list):
            return [_old_offer(*v) if isinstance(v, (list, tuple)) and len(v) == 2 and all(isinstance(x, str) for x in v)
                    else v for v in value]
        return value


class DgEncounter(EncounterState):
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
    #: an attack waiting for its target's owner to choose the flips (None: none waits)
    asking: Asked | None = None
