"""Coup-De-Grace's own events (typed data; `present.py` makes their text)."""
from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, Field

from rules.events import (
    Attacked,
    Damaged,
    Event,
    Modifier,
    Moved,
    RoundBegan,
    StatusChanged,
    Turned,
)
from rules.hidden import PUBLIC, Of

__all__ = [
    "DIE_BONUSES",
    "Blocker",
    "Activated",
    "ActivationEnded",
    "Cast",
    "Finesse",
    "HpChanged",
    "MiniMoved",
    "MiniTurned",
    "NewRound",
    "OrderSet",
    "Passed",
    "Priority",
    "PushCancelled",
    "Pushed",
    "RoundOver",
    "Standing",
    "Struck",
    "Wounded",
]


class Blocker(BaseModel):
    """Why a square cannot be entered: off the map, a wall or obstacle, or a mini (``by``)."""

    what: Literal["edge", "wall", "mini"]
    cell: str | None = None
    by: str | None = None


class NewRound(RoundBegan):
    """A round began: ``sides`` in their order this round, with their minis in the battle."""

    kind: ClassVar[str] = "round"
    sides: list[str] = Field(default_factory=list)
    counts: dict[str, int] = Field(default_factory=dict)


class Priority(Event):
    """``side`` activates one of ``minis`` next."""

    kind: ClassVar[str] = "turn"
    begins: ClassVar[bool] = True
    side: str
    minis: list[str]


class Passed(Event):
    """``side`` has no mini left to activate and passes."""

    kind: ClassVar[str] = "pass"
    side: str


class RoundOver(Event):
    kind: ClassVar[str] = "round_over"
    round: Annotated[int, PUBLIC]


class OrderSet(Event):
    """The GM set this round's order of sides."""

    kind: ClassVar[str] = "order"
    sides: list[str]


class Activated(Event):
    """``actor`` activates with ``mp``; ``passing``: `/init next` activated it to end the activation
    at once, unplayed (its own, or a deadline's pass of its side)."""

    kind: ClassVar[str] = "activate"
    mp: int
    downed: bool = False
    passing: bool = False


class ActivationEnded(Event):
    kind: ClassVar[str] = "end"
    unused: int = 0


class MiniMoved(Moved):
    """A move: ``steps`` the MP each step cost; ``crawl`` a downed mini's one square."""

    steps: list[int] = Field(default_factory=list)
    crawl: bool = False


class MiniTurned(Turned):
    left: int | None = None


class Struck(Attacked):
    """An attack: its mode, range, the target's DV before ``defence`` bonuses, the MP it cost."""

    mode: Literal["melee", "ranged"]
    range: Annotated[int, PUBLIC]
    dv: Annotated[int, Of("target")]
    cost: Annotated[int, Of("actor")] = 0
    left: Annotated[int | None, Of("actor")] = None
    defence: Annotated[list[Modifier], Of("target")] = Field(default_factory=list)
    coup_de_grace: bool = False
    #: the crossbow's Accuracy rerolled a missing 2
    reroll: bool = False


class Finesse(Event):
    """The fencing sword's miss gave +2 MP."""

    kind: ClassVar[str] = "finesse"
    gained: int
    left: int


#: the bonuses of `Wounded.bonuses` that the attacker's die gives (the axe's on a natural 6, the
#: glaive's on a natural 3-4): a wound with one names that die (`Wounded.natural`)
DIE_BONUSES = frozenset({"axe", "glaive"})


class Wounded(Damaged):
    """Damage with the weapon bonuses that added to it (codes: ``axe``, ``knife``, ``glaive``,
    ``hammer``), ``blocker`` saying what stopped the hammer's push; where the axe's or the
    glaive's bonus is one, ``by``, the attacker, and ``natural``, its die that gave it (its
    number, hidden with its other numbers; else, and in rows logged before, both None)."""

    #: 1 and a bonus per weapon bonus: the attacker's weapon makes it, so players see it
    amount: Annotated[int, PUBLIC]
    bonuses: list[str] = Field(default_factory=list)
    blocker: Blocker | None = None
    by: str | None = None
    natural: Annotated[int | None, Of("by")] = None


class Pushed(Event):
    """``target`` is pushed along ``path`` by ``actor``'s ``weapon``."""

    kind: ClassVar[str] = "push"
    target: str
    weapon: str
    path: list[str]


class PushCancelled(Event):
    """The pistol's push could not happen."""

    kind: ClassVar[str] = "push_cancelled"
    weapon: str
    blocker: Blocker


class Standing(StatusChanged):
    """A status change; ``facing`` where the mini stands up."""

    facing: str | None = None


class HpChanged(Event):
    """The GM changed the sheet's hit points: the mini's HP move by the difference."""

    kind: ClassVar[str] = "hp"
    hp_max_before: int
    hp_max: int
    before: int
    after: int


class Cast(Event):
    """``actor`` casts ``spell`` (at ``target``, ``range`` squares away) for ``cost`` MP."""

    kind: ClassVar[str] = "cast"
    spell: str
    cost: Annotated[int, Of("actor")]
    left: Annotated[int | None, Of("actor")] = None
    target: str | None = None
    range: Annotated[int | None, PUBLIC] = None
