"""The events of the damage-grid game: names, numbers and codes; `present.py` makes the text."""
from __future__ import annotations

from typing import Annotated, ClassVar

from pydantic import BaseModel, Field

from rules.events import Attacked, Event, Modifier, Moved
from rules.hidden import PUBLIC, Also, Of

__all__ = [
    "NewRound",
    "PhaseBegan",
    "Priority",
    "Passed",
    "Activated",
    "ActivationEnded",
    "DgMoved",
    "Flip",
    "LocationHit",
    "DgAttack",
    "GridDamage",
    "ProneChanged",
    "CoverHit",
    "GrappleTest",
    "CloudPlaced",
    "CloudDrifted",
    "FlipsAsked",
    "GridMarked",
]


class NewRound(Event):
    kind: ClassVar[str] = "round"
    begins: ClassVar[bool] = True
    round: Annotated[int, PUBLIC]
    sides: list[str]


class PhaseBegan(Event):
    kind: ClassVar[str] = "phase"
    begins: ClassVar[bool] = True
    round: Annotated[int, PUBLIC]
    phase: Annotated[int, PUBLIC]
    phases: Annotated[int, PUBLIC]


class Priority(Event):
    """``side`` activates one of ``models`` now."""

    kind: ClassVar[str] = "priority"
    begins: ClassVar[bool] = True
    side: str
    models: list[str]


class Passed(Event):
    """``side`` has no model left to activate in this phase."""

    kind: ClassVar[str] = "passed"
    side: str


class Activated(Event):
    """``actor`` begins a ``how`` activation (``move``, ``combat``, ``lunge``, ``grapple``, ``pass``)."""

    kind: ClassVar[str] = "activate"
    how: str
    speed: int = 0
    cp: int = 0


class ActivationEnded(Event):
    kind: ClassVar[str] = "activation_end"


class DgMoved(Moved):
    #: it stood up first (from prone), paying ``stand`` Speed points
    stood: int | None = None
    #: squares that cost more (rough or debris)
    rough: list[str] = Field(default_factory=list)


class Flip(BaseModel):
    """One die turned from ``before`` to ``after`` at ``cost`` flips; ``by`` is who flipped it."""

    before: int
    after: int
    cost: int = 1
    by: str = "attacker"


class LocationHit(BaseModel):
    """One location's share of an attack on the target's grid (`damage.apply_faces` makes the rows).

    ``rolled``: dice that struck it; ``shield`` / ``body``: of those, stopped by Shield / Body;
    ``taken``: hits it took (its own and those transferred to it); ``received``: hits transferred
    to it; ``passed``: hits it sent on along its arrow; ``before`` / ``after``: its hits (for Arsenal
    the struck weapon's Health; None when it carries none). The dice counts (``rolled`` and what
    Shield and Body stopped of them) are the attacker's: their sum is its Power, which a hidden
    attacker keeps (``Of("attacker")``, a role `GridDamage` gives); with the hits taken they count what Body
    stopped too, so a hidden model giving cover keeps them as well (``Also("cover")``: its size and Body)."""

    location: str
    rolled: Annotated[int, Of("attacker"), Also("cover")] = 0
    shield: Annotated[int, Of("attacker"), Also("cover")] = 0
    body: Annotated[int, Of("body")] = 0
    taken: int = 0
    received: int = 0
    passed: int = 0
    before: int | None = None
    after: int | None = None


class DgAttack(Attacked):
    """``roll.dice`` are the Power dice as rolled, ``faces`` after the flips; ``power`` and
    ``accuracy`` are the terms that made them; ``reach`` the distance counted and the weapon's
    Reach after the environment; ``sight`` none, partial or hidden; ``cover`` the cover's Body
    (``cover_by``: a square or a model) and what it added to the target's Body."""

    faces: Annotated[list[int], Of("duel")] = Field(default_factory=list)
    flips: Annotated[list[Flip], Of("duel")] = Field(default_factory=list)
    power: Annotated[list[Modifier], Of("duel")] = Field(default_factory=list)
    accuracy: Annotated[list[Modifier], Of("duel")] = Field(default_factory=list)
    aim: str | None = None
    distance: Annotated[int, PUBLIC] = 0
    reach: Annotated[int, Of("actor")] = 0
    sight: str = "none"
    cover: Annotated[int, Of("cover_by")] = 0
    cover_by: str | None = None
    cover_added: Annotated[int, Of("cover_owners")] = 0
    cp: Annotated[int, Of("actor")] = 1
    forced: Annotated[int, Of("actor")] = 0
    melee: bool = False
    special: str | None = None
    #: the square an area weapon was centred on (each model in it is attacked separately)
    area: str | None = None

    @property
    def duel(self) -> list[str]:
        """Whose numbers the Power, the Accuracy and the flips tell: the attacker's, and the target's (its size
        and facing count in them, its grid in the flips). Not a model giving cover: its Body is ``cover``."""
        return [n for n in (self.actor, self.target) if n]

    @property
    def cover_owners(self) -> list[str]:
        """Whose numbers what the cover added tells: the cover's Body less the Power."""
        return [*self.duel, *([self.cover_by] if self.cover_by else [])]


class GridDamage(Event):
    """What an attack did to ``actor``'s grid, per location; ``weapon`` is the carried weapon the
    Arsenal location stands for (its row's before and after are that weapon's Health); ``stopped``:
    no location took a hit; ``attacker``: whose dice struck (their counts are its numbers); ``named``: a weapon the
    attacker named for Arsenal that the hit could not land on."""

    kind: ClassVar[str] = "grid"
    locations: Annotated[list[LocationHit], Of("actor", attacker="attacker", body="stoppers", cover="cover_by")] = Field(default_factory=list)
    weapon: str | None = None
    health_lost: Annotated[int, Of("actor")] = 0
    #: no hit got through (Shield and Body stopped every one): shown even for a hidden target
    stopped: bool = False
    attacker: str | None = None
    #: what gave the target cover, a square or a model in the way (its Body counts in what Body stopped)
    cover_by: str | None = None
    #: the weapon or equipment the attacker named for Arsenal when the hit landed on ``weapon`` instead: ruined
    #: (``carried``) or not carried at all
    named: str | None = None
    carried: bool = False

    @property
    def stoppers(self) -> list[str]:
        """Whose numbers what Body stopped tells: the attacker's (its dice), the target's and a model's giving cover
        (their Body)."""
        return [n for n in (self.actor, self.attacker, self.cover_by) if n]


class ProneChanged(Event):
    """``actor`` fell (``prone``) or stood up; ``cause`` is a code the presenter names."""

    kind: ClassVar[str] = "prone"
    prone: bool
    cause: str


class CoverHit(Event):
    """An attack on a cover square: ``hits`` taken, ``left`` of its Health, ``debris`` when destroyed."""

    kind: ClassVar[str] = "cover"
    cell: str
    hits: int
    left: int
    debris: bool = False


class GrappleTest(Event):
    """A grapple (or a try to break one): the largest groups of equal faces of each side."""

    kind: ClassVar[str] = "grapple"
    target: str
    dice: Annotated[list[int], Of("actor")]
    target_dice: Annotated[list[int], Of("target")]
    best: Annotated[int, Of("actor")]
    target_best: Annotated[int, Of("target")]
    helpers: list[str] = Field(default_factory=list)
    #: the holder's helpers, when the held model tries to break free (``breaking``)
    target_helpers: list[str] = Field(default_factory=list)
    won: bool
    breaking: bool = False


class CloudPlaced(Event):
    """An area weapon left a cloud, ``name``, on ``cells`` (row by row) for ``phases`` phases (the board shows
    them all: it names no combatant)."""

    kind: ClassVar[str] = "cloud"
    name: str
    cells: list[str]
    phases: int


class CloudDrifted(Event):
    """A cloud rolled ``roll`` on its d10: gone on a 0 (a 10), else moved ``direction`` to ``cells`` (row by row)."""

    kind: ClassVar[str] = "cloud"
    name: str
    roll: int
    direction: str | None = None
    cells: list[str] = Field(default_factory=list)
    gone: bool = False
    blocked: bool = False


class AreaEmpty(Event):
    """``actor``'s area attack with ``weapon`` aimed at ``at`` caught no model (its Combat Point is spent)."""

    kind: ClassVar[str] = "area_empty"
    weapon: str
    at: str


class FlipsAsked(Event):
    """``actor``'s attack on ``target`` rolled ``faces`` at a negative Accuracy: it waits for the
    target's owner ``owner`` to choose ``points`` flips (nothing of it is applied yet)."""

    kind: ClassVar[str] = "flips_asked"
    target: str
    owner: str
    #: the attacker's numbers: its Power (how many dice) and Accuracy (how many flips); the target's
    #: owner reads them in the question sent to them
    faces: Annotated[list[int], Of("actor")]
    points: Annotated[int, Of("actor")]


class GridMarked(Event):
    """The GM marked (``change`` below 0) or cleared hits on ``location`` of ``actor``'s grid (or
    on a carried weapon's Health) without an attack: ``before`` -> ``after``."""

    kind: ClassVar[str] = "grid_marked"
    location: str
    healed: bool = False
    change: Annotated[int, Of("actor")]
    before: Annotated[int, Of("actor")]
    after: Annotated[int, Of("actor")]
