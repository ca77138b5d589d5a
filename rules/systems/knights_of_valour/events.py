"""The events of Knights of Valour: names, numbers and codes; `present.py` makes the text."""
from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field

from rules.events import (
    Attacked,
    Damaged,
    Event,
    InitiativeSet,
    Modifier,
    Moved,
    Roll,
    RoundBegan,
)
from rules.hidden import PUBLIC, Of

__all__ = [
    "Ranked",
    "KovInitiative",
    "KovRound",
    "OrderShown",
    "TieOrdered",
    "TurnBegan",
    "TurnEnded",
    "ActionsLeft",
    "KovAttack",
    "CoupDeGraceStruck",
    "KovDamage",
    "HpSet",
    "Step",
    "KovMoved",
    "PathProvokes",
    "Fell",
    "Wielded",
    "Granted",
    "Narrated",
]


class Ranked(BaseModel):
    """One place in the order: a name and its initiative."""

    name: str
    initiative: Annotated[int, Of("owners")]
    #: the combatants a delay placed it after, whose numbers its initiative tells
    after: list[str] = Field(default_factory=list)

    @property
    def owners(self) -> list[str]:
        """Whose numbers the initiative tells: its own, and those of the ones it was delayed after."""
        return [self.name, *self.after]


class KovInitiative(InitiativeSet):
    """``cause``: ``agility`` (its Agility), ``gm`` (the GM's number at the start), ``set`` (`/init set`),
    ``delay`` (lowered for the round)."""

    cause: str
    value: Annotated[int, Of("owners")]
    agility: Annotated[int, Of("actor")] = 0
    #: the initiative before a delay
    old: Annotated[int | None, Of("old_owners")] = None
    #: the combatants a delay (`after=`, then `by=`) placed it after, whose numbers the new initiative tells
    after: list[str] = Field(default_factory=list)
    #: the combatants an earlier delay had placed it after, whose numbers ``old`` tells
    old_after: list[str] = Field(default_factory=list)
    #: how much a delay `by=` lowered it
    lowered: Annotated[int | None, Of("actor")] = None
    #: it has already acted this round (a new place counts from the next round)
    acted: bool = False

    @property
    def owners(self) -> list[str]:
        """Whose numbers ``value`` tells: the actor's, and those of the ones it was delayed after."""
        return [n for n in (self.actor, *self.after) if n is not None]

    @property
    def old_owners(self) -> list[str]:
        """Whose numbers ``old`` tells: the actor's, and those of the ones an earlier delay placed it after."""
        return [n for n in (self.actor, *self.old_after) if n is not None]


class KovRound(RoundBegan):
    order: list[Ranked] = Field(default_factory=list)
    #: tied player characters, who may ask the GM for another order
    tied: list[list[str]] = Field(default_factory=list)


class OrderShown(Event):
    kind: ClassVar[str] = "order"
    order: list[Ranked] = Field(default_factory=list)


class TieOrdered(Event):
    kind: ClassVar[str] = "order"
    #: the initiative they tie at: theirs (and, where a delay placed them after others, those others')
    initiative: Annotated[int, Of("owners")]
    names: list[str]
    #: some of them have acted: the new order counts from the next round for them
    later: bool = False
    order: list[Ranked] = Field(default_factory=list)

    @property
    def owners(self) -> list[str]:
        """Whose numbers ``initiative`` tells: the tied ones', and those of the ones a delay placed them after."""
        return [*self.names, *(a for r in self.order if r.name in self.names for a in r.after)]


class TurnBegan(Event):
    kind: ClassVar[str] = "turn"
    begins: ClassVar[bool] = True
    movement: int
    #: its Move and Combat Actions: one each, and those the GM granted in a turn a delay put off
    move_actions: Annotated[int, PUBLIC] = 1
    combat_actions: Annotated[int, PUBLIC] = 1


class TurnEnded(Event):
    kind: ClassVar[str] = "turn_end"


class ActionsLeft(Event):
    """What ``actor`` has left of its turn."""

    kind: ClassVar[str] = "left"
    #: the feet left of a move under way: the combatant's (they tell its Move)
    feet_left: int = 0
    #: the Move Actions not yet begun: the combatant's (after a move, how many it began tells its Movement)
    move_actions: Annotated[int, Of("actor")] = 0
    #: those players are told of (`KovCombatant.moves_told`)
    moves_told: Annotated[int, PUBLIC] = 0
    combat_actions: Annotated[int, PUBLIC] = 0
    #: the extra actions granted this turn (a grant is announced to all)
    granted: Annotated[int, PUBLIC] = 0
    #: the feet of a move under way the Combat Action forfeited (option ``split_move=no``): the combatant's too
    lost: Annotated[int, Of("actor")] = 0


class KovAttack(Attacked):
    """``mode`` melee or ranged at ``range`` feet; ``defence`` the Defence Value's terms;
    ``reasons`` codes for the dice rolled (``adv_asked``, ``dis_asked``, ``close_zero``,
    ``past_close``, ``cancel``); ``close`` the effective close range where it matters."""

    mode: str
    #: the 2d20 rolled with ``advantage`` (the higher kept) or ``disadvantage`` (the lower); None:
    #: one d20 (or a log written when the roll's label said it: ``2d20 Advantage``)
    edge: Literal["advantage", "disadvantage"] | None = None
    range: Annotated[int, PUBLIC]
    defence: Annotated[list[Modifier], Of("target")] = Field(default_factory=list)
    reasons: list[str] = Field(default_factory=list)
    close: Annotated[int | None, Of("actor")] = None
    opportunity: bool = False


class CoupDeGraceStruck(Event):
    """An automatic hit on a downed target, which takes it out."""

    kind: ClassVar[str] = "coupdegrace"
    target: str
    weapon: str
    #: how the weapon strikes from 5 ft: ``melee``, or ``ranged`` (a bow shot at a downed foe)
    mode: str = "melee"


class KovDamage(Damaged):
    """``actor`` took damage from ``by``'s ``weapon``; ``floor`` is set when the minimum raised it."""

    by: str
    weapon: str
    #: the damage dice and modifiers (its total is ``amount`` unless the minimum raised it)
    roll: Annotated[Roll, Of("by")]
    amount: Annotated[int, Of("by")]
    floor: Annotated[int | None, Of("by")] = None


class HpSet(Event):
    """The GM set ``actor``'s HP; ``capped``: a lowered `max_hp` brought it down to the new most."""

    kind: ClassVar[str] = "hp"
    before: int | None
    after: int
    capped: bool = False


class Step(BaseModel):
    """One square of a move: ``how`` is ``""``, ``difficult``, ``vault``, ``leap``, ``climb`` or
    ``descend`` (``feet`` climbed or descended)."""

    cell: str
    how: str = ""
    feet: int = 0


class KovMoved(Moved):
    steps: list[Step] = Field(default_factory=list)


class PathProvokes(Event):
    """The path `/move to:` chose provokes ``foes``: no path as cheap avoids them."""

    kind: ClassVar[str] = "provokes"
    goal: str
    foes: list[str]


class Fell(Event):
    """``actor`` was dropped by an Attack of Opportunity and stops ``at``."""

    kind: ClassVar[str] = "fell"
    at: str


class Wielded(Event):
    """``actor`` took up ``weapon`` (a free action); a melee one defends with its P.L. ``level``."""

    kind: ClassVar[str] = "wield"
    weapon: str
    melee: bool
    level: int


class Granted(Event):
    kind: ClassVar[str] = "grant"
    #: ``move`` and/or ``combat``
    actions: list[str]


class Narrated(Event):
    """A Combat Action the text gives no procedure for (the GM rules on it)."""

    kind: ClassVar[str] = "narrative"
    action: str
    target: str | None = None

